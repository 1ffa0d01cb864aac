"""Rich renderables for the terminal: route tables, verdicts, alternatives and board listings."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from planner.common.limits import Status
from planner.common.problems import Problem
from planner.elfenland.board import Board
from planner.elfenland.explain import step_records, verdict
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, Caravan, Rules, Transport, counter_cost, raft_cost
from planner.elfenland.solvers.common import Solution

PAY_STYLE = {"counter": "green", "caravan": "magenta", "raft": "blue"}


def position_summary(position: Position) -> Text:
    """One line describing the position."""
    board = position.board
    text = Text()
    if position.title:
        text.append(position.title + "\n", style="bold")
    text.append(f"at {board.towns[position.at].name}, hand {position.hand} ({len(position.hand)} cards), ")
    text.append(f"{len(position.tiles)} counters on the board, round {position.round}/{position.rules.rounds}")
    if position.home:
        text.append(f", home {board.towns[position.home].name}")
    return text


def position_line(position: Position) -> Text:
    """The position in compact notation, to copy, edit and paste back (print it with ``soft_wrap=True``, so a
    long one stays one line)."""
    return Text(f"position: {position}", style="dim")


def route_table(plan: Plan, *, title: str | None = None) -> Table:
    """The steps of a plan as a table: from → to, by what, cards paid, new town."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("from → to")
    table.add_column("by")
    table.add_column("cards paid")
    table.add_column("new", justify="center")
    table.add_column("left", style="dim")
    for r in step_records(plan):
        if r.pay == "raft":
            by = f"raft ({r.via}, {r.terrain})"
        else:
            by = f"{r.counter}{' + obstacle' if r.obstacle else ''} ({r.terrain})"
            if r.pay == "caravan":
                by = f"caravan on {by}"
        table.add_row(str(r.number), f"{r.frm} → {r.to}", Text(by, style=PAY_STYLE[r.pay]),
                      " ".join(r.cards), "✓" if r.new_town else "", r.cards_left)
    return table


def route_line(plan: Plan) -> Text:
    """A route on one line with town names and the cards of each step: ``Rivinia → Throtmanni (E) → ...``."""
    records = step_records(plan)
    if not records:
        return Text("stay", style="italic")
    text = Text(records[0].frm)
    for r in records:
        text.append(f" → {r.to}")
        text.append(f" ({r.letters}{', caravan' if r.pay == 'caravan' else ''})", style=PAY_STYLE[r.pay])
    return text


STATUS_TEXT = {Status.OPTIMAL: "optimal", Status.FEASIBLE: "NOT proven optimal: the limit ran out",
               Status.STOPPED: "stopped: best so far, NOT proven optimal"}


def verdict_line(solution: Solution) -> Text:
    """The one-line answer, with proof status (and, when unproven, the best score still possible)."""
    text = Text(verdict(solution.plan), style="bold")
    status = STATUS_TEXT[solution.status]
    if not solution.proven and solution.bound > solution.plan.score:
        status += f"; no route scores over {solution.bound}"
    text.append(f"  [{status}, {solution.solver}, {solution.elapsed * 1000:.0f} ms]",
                style="dim" if solution.proven else "yellow")
    return text


def solution_view(position: Position, solution: Solution, *, source: str | None = None) -> RenderableType:
    """Everything ``elfenland route`` prints for one position, but its :func:`position_line`."""
    parts: list[RenderableType] = []
    if source:
        parts.append(Text(source, style="dim"))
    parts.append(position_summary(position))
    best = solution.plan
    if best.steps:
        parts.append(route_table(best))
    else:
        parts.append(Text("Stay: no step gains anything.", style="italic"))
    parts.append(verdict_line(solution))
    for rank, plan in enumerate(solution.plans[1:], 2):
        parts.append(Text(f"\nalternative {rank}: {verdict(plan)}", style="cyan"))
        parts.append(Text.assemble("  ", route_line(plan)))
    return Group(*parts)


def problems_view(problems: list[Problem], *, title: str = "position problems") -> Panel:
    """A panel listing every problem found (user text shown as typed: never read as markup)."""
    body = Text("\n").join(Text(f"• {p}") for p in problems)
    return Panel(body, title=title, border_style="red", expand=False)


def notes_view(warnings: list[Problem]) -> Text:
    """The position's warnings, one ``note:`` line each."""
    return Text("\n").join(Text(f"note: {w}", style="yellow") for w in warnings)


def towns_table(board: Board) -> Table:
    """Every town with its code, home card and links."""
    table = Table(title="Towns", title_justify="left", show_edge=False)
    table.add_column("code")
    table.add_column("town")
    table.add_column("home card", justify="center")
    table.add_column("links")
    for town in board.towns.values():
        links = ", ".join(f"{c.other(town.code)}:{c.terrain.letter}" for c in board.links(town.code))
        name = town.name + (" (capital, no marker)" if town.capital else "")
        table.add_row(town.code, name, "✓" if town.home_card else "", links)
    return table


def connections_table(board: Board) -> Table:
    """Every connection with terrain, river flow and lake."""
    table = Table(title="Connections", title_justify="left", show_edge=False)
    table.add_column("id")
    table.add_column("between")
    table.add_column("kind")
    table.add_column("detail")
    for c in board.connections.values():
        detail = ""
        if c.downstream_to:
            upstream = c.other(c.downstream_to)
            detail = f"flows {board.towns[upstream].name} → {board.towns[c.downstream_to].name}"
        elif c.lake:
            detail = c.lake
        table.add_row(c.id, f"{board.towns[c.a].name} – {board.towns[c.b].name}", str(c.terrain), detail)
    return table


def town_links_table(board: Board, code: str, rules: Rules) -> Table:
    """One town's links and what each transport costs on them (caravan and obstacle included)."""
    town = board.towns[code]
    table = Table(title=f"{town.name} ({town.code})", title_justify="left", show_edge=False)
    table.add_column("to")
    table.add_column("link")
    for transport in COUNTER_TRANSPORTS:
        table.add_column(transport.letter, justify="center")
    table.add_column("any", justify="center")
    table.add_column("R", justify="center")
    for c in board.links(code):
        other = board.towns[c.other(code)].name
        if c.is_road:
            cells = []
            for transport in COUNTER_TRANSPORTS:
                cost = counter_cost(transport, c.terrain)
                cells.append("—" if cost is None else str(cost))
            cheapest = rules.caravan_cost(1, obstacle=False)  # scaled caravans cost more on dearer counters
            caravan = str(cheapest) if rules.caravan is Caravan.FLAT else f"{cheapest}+"
            table.add_row(other, f"{c.terrain} road", *cells, caravan, "—")
        else:
            way = c.lake if c.lake else c.way(code)
            table.add_row(other, f"{c.kind} ({way})", *["—"] * len(COUNTER_TRANSPORTS), "—",
                          str(raft_cost(c, code)))
    letters = ", ".join(f"{t.letter} {t.title}" for t in (*COUNTER_TRANSPORTS, Transport.RAFT))
    table.caption = (f"cards per crossing ({letters}; any = caravan of any cards); "
                     "an obstacle adds 1 matching card, or 1 more caravan card")
    table.caption_justify = "left"
    return table
