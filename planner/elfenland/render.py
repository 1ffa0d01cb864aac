"""Rich renderables for the terminal: route tables, verdicts, alternatives and board listings.

Every text that reaches rich is a :class:`rich.text.Text`, titles and cells included (a ``str`` there is read as
markup): an opponent called ``[/red]`` or a title ``[bold]Anna`` is shown as typed. The advice's sentences come
from :mod:`planner.elfenland.sentences`, shared with the JSON and the table page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from planner.common.i18n import N_, format_number, gettext, say
from planner.common.limits import Status
from planner.common.problems import Problem
from planner.elfenland import sentences
from planner.elfenland.board import Board, Terrain
from planner.elfenland.explain import step_records, verdict
from planner.elfenland.local_names import terrain_word, town_word, transport_word
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, Caravan, Rules, Transport, counter_cost, raft_cost
from planner.elfenland.sentences import count, road_name
from planner.elfenland.solvers.common import Solution

if TYPE_CHECKING:  # the advice modules load only with the commands that give advice
    from planner.elfenland.advice.drawing import DrawAdvice
    from planner.elfenland.advice.keeping import KeepAdvice
    from planner.elfenland.advice.obstacle import ObstacleAdvice
    from planner.elfenland.advice.placing import PlaceAdvice, RoadRisk

__all__ = ["PAY_STYLE", "add_text_row", "connections_table", "draw_view", "keep_line", "notes_view", "obstacle_view",
           "place_view", "position_line", "position_summary", "problems_view", "road_name", "route_line",
           "route_table", "solution_view", "titled_table", "town_links_table", "towns_table", "verdict_line"]

PAY_STYLE = {"counter": "green", "caravan": "magenta", "raft": "blue"}


def titled_table(title: str | None, **options: Any) -> Table:
    """A left-titled table whose title is shown as typed (never read as markup)."""
    return Table(title=None if title is None else Text(title), title_justify="left", show_edge=False, **options)


def add_text_row(table: Table, *cells: str | RenderableType, style: str | None = None) -> None:
    """Add a row whose text cells are shown as typed (a ``str`` cell would be read as markup)."""
    table.add_row(*(Text(c) if isinstance(c, str) else c for c in cells), style=style)


def position_summary(position: Position) -> Text:
    """One line describing the position."""
    board = position.board
    text = Text()
    if position.title:
        text.append(position.title + "\n", style="bold")
    text.append(say("at {town}, hand {hand} ({cards}), {counters} on the board, round {round}/{rounds}",
                    town=town_word(board, position.at), hand=str(position.hand),
                    cards=count(len(position.hand), "card"),
                    counters=count(len(position.tiles), "counter"), round=position.round, rounds=position.rules.rounds))
    if position.home:
        text.append(say(", home {town}", town=town_word(board, position.home)))
    return text


def position_line(position: Position) -> Text:
    """The position in compact notation, to copy, edit and paste back (print it with ``soft_wrap=True``, so a
    long one stays one line)."""
    return Text(say("position: {position}", position=str(position)), style="dim")


def route_table(plan: Plan, *, title: str | None = None) -> Table:
    """The steps of a plan as a table: from → to, by what, cards paid, new town."""
    table = titled_table(title, pad_edge=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column(gettext("from → to"))
    table.add_column(gettext("by"))
    table.add_column(gettext("cards paid"))
    table.add_column(gettext("new"), justify="center")
    table.add_column(gettext("left"), style="dim")
    board, tiles = plan.position.board, plan.position.tile_map()
    for step, r in zip(plan.steps, step_records(plan), strict=True):
        connection = board.connections[step.connection]
        where = _crossing_word(r.terrain, connection.terrain)
        if r.pay == "raft":
            by = say("raft ({via}, {where})", via=gettext(_VIA.get(r.via, r.via)), where=where)
        else:
            tile = tiles.get(step.connection)
            counter = transport_word(tile.transport if tile else None)
            by = say(N_("your {counter} + obstacle ({where})") if r.placed and r.obstacle else
                     N_("your {counter} ({where})") if r.placed else
                     N_("{counter} + obstacle ({where})") if r.obstacle else N_("{counter} ({where})"),
                     counter=counter, where=where)
            if r.pay == "caravan":
                by = say("caravan on {counter}", counter=by)
            if r.placed:
                by = say("{counter}, placed", counter=by)
        add_text_row(table, str(r.number), f"{town_word(board, step.frm)} → {town_word(board, step.to)}",
                     Text(by, style=PAY_STYLE[r.pay]), " ".join(transport_word(t) for t in step.cards.cards()),
                     "✓" if r.new_town else "", r.cards_left)
    return table


_CROSSINGS = {"downstream": N_("downstream"), "upstream": N_("upstream")}
_VIA = {"road": N_("road"), "river": N_("river"), "lake": N_("lake")}


def _crossing_word(terrain: str, kind: Terrain) -> str:
    """A step's terrain, a river's way (``downstream``) or a lake's name (kept: it is a name) as the table says it."""
    if terrain in _CROSSINGS:
        return gettext(_CROSSINGS[terrain])
    return terrain_word(kind) if terrain == str(kind) else terrain


def route_line(plan: Plan) -> Text:
    """A route on one line with town names and the cards of each step: ``Rivinia → Throtmanni (E) → ...``."""
    records = step_records(plan)
    if not records:
        return Text(gettext("stay"), style="italic")
    board = plan.position.board
    text = Text(town_word(board, plan.steps[0].frm))
    for step, r in zip(plan.steps, records, strict=True):
        text.append(f" → {town_word(board, step.to)}")
        caravan = say(", caravan") if r.pay == "caravan" else ""
        text.append(f" ({r.letters}{caravan})", style=PAY_STYLE[r.pay])
    return text


STATUS_TEXT = {Status.OPTIMAL: N_("optimal"), Status.FEASIBLE: N_("NOT proven optimal: the limit ran out"),
               Status.STOPPED: N_("stopped: best so far, NOT proven optimal")}


def verdict_line(solution: Solution) -> Text:
    """The one-line answer, with proof status (and, when unproven, the best score still possible)."""
    text = Text(verdict(solution.plan), style="bold")
    status = gettext(STATUS_TEXT[solution.status])
    if not solution.proven and solution.bound > solution.plan.score:
        status += say("; no route scores over {bound}", bound=solution.bound)
    text.append(say("  [{status}, {solver}, {ms} ms]", status=status, solver=str(solution.solver),
                    ms=format_number(solution.elapsed * 1000, ".0f")), style="dim" if solution.proven else "yellow")
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
        parts.append(Text(gettext("Stay: no step gains anything."), style="italic"))
    parts.append(verdict_line(solution))
    for rank, plan in enumerate(solution.plans[1:], 2):
        parts.append(Text("\n" + say("alternative {rank}: {verdict}", rank=rank, verdict=verdict(plan)), style="cyan"))
        parts.append(Text.assemble("  ", route_line(plan)))
    return Group(*parts)


def problems_view(problems: list[Problem], *, title: str = N_("position problems")) -> Panel:
    """A panel listing every problem found (user text shown as typed: never read as markup)."""
    body = Text("\n").join(Text(f"• {p}") for p in problems)
    return Panel(body, title=Text(gettext(title)), border_style="red", expand=False)


def notes_view(warnings: list[Problem]) -> Text:
    """The position's warnings, one ``note:`` line each."""
    return Text("\n").join(Text(say("note: {note}", note=str(w)), style="yellow") for w in warnings)


def towns_table(board: Board) -> Table:
    """Every town with its code, home card and links."""
    table = titled_table(gettext("Towns"))
    table.add_column(gettext("code"))
    table.add_column(gettext("town"))
    table.add_column(gettext("home card"), justify="center")
    table.add_column(gettext("links"))
    for town in board.towns.values():
        links = ", ".join(f"{c.other(town.code)}:{c.terrain.letter}" for c in board.links(town.code))
        name = town_word(board, town.code)
        name = say("{town} (capital, no marker)", town=name) if town.capital else name
        add_text_row(table, town.code, name, "✓" if town.home_card else "", links)
    return table


def connections_table(board: Board) -> Table:
    """Every connection with terrain, river flow and lake."""
    table = titled_table(gettext("Connections"))
    table.add_column("id")
    table.add_column(gettext("between"))
    table.add_column(gettext("kind"))
    table.add_column(gettext("detail"))
    for c in board.connections.values():
        detail = ""
        if c.downstream_to:
            upstream = c.other(c.downstream_to)
            detail = say("flows {source} → {mouth}", source=town_word(board, upstream),
                         mouth=town_word(board, c.downstream_to))
        elif c.lake:
            detail = c.lake
        add_text_row(table, c.id, f"{town_word(board, c.a)} – {town_word(board, c.b)}", terrain_word(c.terrain),
                     detail)
    return table


def town_links_table(board: Board, code: str, rules: Rules) -> Table:
    """One town's links and what each transport costs on them (caravan and obstacle included)."""
    town = board.towns[code]
    table = titled_table(f"{town_word(board, code)} ({town.code})")
    table.add_column(gettext("to"))
    table.add_column(gettext("link"))
    for transport in COUNTER_TRANSPORTS:
        table.add_column(transport.letter, justify="center")
    table.add_column(gettext("any"), justify="center")
    table.add_column("R", justify="center")
    for c in board.links(code):
        other = town_word(board, c.other(code))
        if c.is_road:
            cells = []
            for transport in COUNTER_TRANSPORTS:
                cost = counter_cost(transport, c.terrain)
                cells.append("—" if cost is None else str(cost))
            cheapest = rules.caravan_cost(1, obstacle=False)  # scaled caravans cost more on dearer counters
            caravan = str(cheapest) if rules.caravan is Caravan.FLAT else f"{cheapest}+"
            add_text_row(table, other, say("{terrain} road", terrain=terrain_word(c.terrain)), *cells, caravan, "—")
        else:
            way = c.lake if c.lake else gettext(_CROSSINGS.get(str(c.way(code)), str(c.way(code))))
            add_text_row(table, other, f"{gettext(_VIA.get(c.kind, c.kind))} ({way})",
                         *["—"] * len(COUNTER_TRANSPORTS), "—", str(raft_cost(c, code)))
    letters = ", ".join(f"{t.letter} {transport_word(t)}" for t in (*COUNTER_TRANSPORTS, Transport.RAFT))
    table.caption = Text(say("cards per crossing ({letters}; any = caravan of any cards); an obstacle adds 1 "
                             "matching card, or 1 more caravan card", letters=letters))
    table.caption_justify = "left"
    return table


# -- the round advisor ------------------------------------------------------------------------------------------
def place_view(advice: PlaceAdvice, risks: list[RoadRisk], keep: KeepAdvice | None) -> RenderableType:
    """Everything ``elfenland place`` prints: the joint plan, the move to make now, the risk per road, the keep."""
    position, joint = advice.position, advice.joint
    plan = joint.plan
    parts: list[RenderableType] = [position_summary(position)]
    parts.append(Text(say("supply {supply}; {placed} of them placed by the plan", supply=str(position.supply),
                          placed=len(plan.placements)), style="dim"))
    parts.append(route_table(plan) if plan.steps else Text(gettext("Stay: no step gains anything."), style="italic"))
    parts.append(verdict_line(joint))
    reason = sentences.pass_reason(advice)
    because = f" ({reason})" if reason else ""
    parts.append(Text(f"{sentences.place_verdict(advice)}{because}; {sentences.worst_reply(advice)}", style="bold"))
    if advice.passing_is_free and advice.now.placement is not None:
        parts.append(Text(sentences.passing_free(), style="cyan"))
    if risks:
        table = titled_table(gettext("if an opponent gets there first: what it does to your plan"))
        table.add_column(gettext("road"))
        table.add_column(gettext("your plan"))
        table.add_column(gettext("their worst counter there"))
        table.add_column(gettext("an obstacle there"))
        best = plan.value
        for risk in risks:
            filled = "—" if risk.filled is None else (
                f"{sentences.plan_change(best, risk.filled.value)} ({_title(risk.filled.counter)})")
            blocked = "—" if risk.blocked is None else sentences.plan_change(best, risk.blocked.value)
            add_text_row(table, road_name(position, risk.road),
                         say("place {counter}", counter=transport_word(risk.mine)) if risk.mine else gettext("travel"),
                         filled, blocked)
        parts.append(table)
    if keep is not None:
        parts.append(keep_line(position, keep))
    return Group(*parts)


def _title(transport: Transport | None) -> str:
    return transport_word(transport)


def keep_line(position: Position, keep: KeepAdvice) -> Text:
    """The end-of-round advice in one line."""
    return Text(say("for the next round: {advice}", advice=sentences.keep_verdict(position, keep)), style="cyan")


def draw_view(advice: DrawAdvice) -> RenderableType:
    """Everything ``elfenland draw`` prints."""
    position = advice.position
    table = titled_table(gettext("counters to draw"))
    table.add_column(gettext("draw"))
    table.add_column(gettext("plan score"), justify="right")
    table.add_column(gettext("cards"), justify="right")
    for option in advice.options:
        name = transport_word(option.counter) if option.counter else say("blind ({chances})", chances=", ".join(
            f"{t.letter} {p:.0%}" for t, p in (option.chances or {}).items()))
        add_text_row(table, name, format_number(option.score, ".2f"), format_number(option.cards, ".2f"))
    return Group(position_summary(position), table, Text(sentences.draw_verdict(advice), style="bold"))


def obstacle_view(advice: ObstacleAdvice) -> RenderableType:
    """Everything ``elfenland obstacle`` prints: per opponent, what the obstacle on each road does to their
    route and to mine (signed changes, as in every advice table)."""
    position = advice.position
    parts: list[RenderableType] = [position_summary(position)]
    for outlook in advice.outlooks:
        table = titled_table(sentences.opponent_heading(outlook))
        table.add_column(gettext("obstacle on"))
        table.add_column(gettext("their towns"), justify="right")
        table.add_column(gettext("their cards"), justify="right")
        table.add_column(gettext("on route"), justify="right")
        table.add_column(gettext("your plan"), justify="right")
        for effect in outlook.effects[:8]:
            add_text_row(table, road_name(position, effect.road),
                         sentences.spread(-effect.towns, effect.towns_error, "town"),
                         sentences.spread(effect.cards, effect.cards_error, "card"), f"{effect.hit:.0%}",
                         sentences.change(-effect.my_towns, effect.my_cards))
        parts.append(table)
    parts.append(Text(f"{sentences.obstacle_verdict(advice)}: {sentences.obstacle_reason(advice)}", style="bold"))
    return Group(*parts)
