"""Rich tables of the ``expedition`` command, each with a one-line verdict first (text from data is never
markup: every cell is a :class:`rich.text.Text`)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from planner.common.limits import Status
from planner.expedition.advice import CardChange, TokenChoice
from planner.expedition.position import Position
from planner.expedition.reach import HORIZON, Distance, Reach
from planner.expedition.rules import COLOURS
from planner.expedition.search import Move, MoveSearch

__all__ = ["move_view", "reach_view", "setup_view", "status_line"]

STYLE = {"yellow": "yellow", "blue": "blue", "red": "red"}


def _cell(distance: Distance | None) -> Text:
    if distance is None:
        return Text("scored", style="green")
    if distance.arrows is None:
        return Text("—", style="dim")
    turns = "?" if distance.turns is None else str(distance.turns)
    return Text(f"{distance.arrows} / {turns}")


def _role(position: Position, location: str) -> str:
    roles = []
    if location in position.hand:
        roles.append("my card + token" if location in position.mine.tokens else "my card")
    if location in position.common:
        roles.append("common")
    roles += [f"{s.name}'s token" for s in position.opponents if location in s.tokens]
    return ", ".join(roles)


def _reach_verdict(position: Position, table: Reach) -> Text:
    mine = [c for c in position.hand if c in table.locations and table.first(c) is not None]
    if not mine:
        return Text("No expedition can reach any of your cards.", style="bold")
    card = min(mine, key=lambda c: (table.nearest(c).key, c))
    near, colour = table.nearest(card), table.first(card)
    turns = f"in {near.turns} turn{'s' * (near.turns != 1)}" if near.turns is not None else \
        f"in more than {HORIZON} turns"
    return Text(f"Nearest of your cards: {card} — {colour}, {near.arrows} arrow{'s' * (near.arrows != 1)} {turns}.",
                style="bold")


def reach_view(position: Position, table: Reach, hopeless: tuple[str, ...]) -> RenderableType:
    """The reach table: per location the arrows / turns of each expedition and which gets there first."""
    grid = Table(title=f"Reach (arrows / turns; ? = more than {HORIZON} turns, — = unreachable)", title_justify="left")
    grid.add_column("location")
    grid.add_column("why")
    for colour in COLOURS:
        grid.add_column(Text(str(colour), style=STYLE[colour.value]), justify="right")
    grid.add_column("first")
    order = sorted(table.locations, key=lambda loc: (loc not in position.hand, table.nearest(loc).key, loc))
    for loc in order:
        first = table.first(loc)
        grid.add_row(Text(loc), Text(_role(position, loc)),
                     *(_cell(table.of(c, loc)) for c in COLOURS),
                     Text(str(first), style=STYLE[first.value]) if first else Text("none", style="dim"))
    parts: list[RenderableType] = [_reach_verdict(position, table), grid]
    if hopeless:
        parts.append(Text(f"Hopeless: {', '.join(hopeless)} — no expedition can get there any more; exchange "
                          f"{'it' if len(hopeless) == 1 else 'them'} with a ticket.", style="yellow"))
    return Group(*parts)


def _move_line(move: Move) -> str:
    extra = [f"{move.tickets} ticket{'s' * (move.tickets != 1)}"] if move.tickets else []
    if move.opponents:
        extra.append(f"{move.opponents} to opponents")
    tail = f" ({', '.join(extra)})" if extra else ""
    return f"{move.points:+d} point{'s' * (abs(move.points) != 1)}{tail}"


def status_line(search: MoveSearch) -> str:
    """"proven best", or how long the search ran and that its answer is not proven."""
    if search.proven:
        return "proven best"
    why = " (stopped)" if search.status is Status.STOPPED else ""
    return f"best found in {search.seconds * 1000:.0f} ms, not proven{why}"


def move_view(search: MoveSearch, changes: tuple[CardChange, ...], hopeless: tuple[str, ...]) -> RenderableType:
    """The best move (its actions), the alternatives, the change in my reach, the turn space's size."""
    best = search.best
    verdict = Text(f"Best move with up to {search.tickets} ticket{'s' * (search.tickets != 1)}: {_move_line(best)}"
                   f" — {best}", style="bold")
    steps = Table(title="Actions", title_justify="left")
    steps.add_column("#", justify="right")
    steps.add_column("action")
    for i, action in enumerate(best.actions, 1):
        steps.add_row(str(i), Text(str(action)))
    parts: list[RenderableType] = [verdict, Text(status_line(search), style="green" if search.proven else "yellow"),
                                   steps]
    if search.alternatives:
        others = Table(title="Alternatives (best move of another first action)", title_justify="left")
        others.add_column("points", justify="right")
        others.add_column("move")
        for move in search.alternatives:
            others.add_row(Text(_move_line(move)), Text(str(move)))
        parts.append(others)
    if changes:
        delta = Table(title="My cards: nearest arrows / turns before → after", title_justify="left")
        delta.add_column("card")
        delta.add_column("before", justify="right")
        delta.add_column("after", justify="right")
        for change in changes:
            delta.add_row(Text(change.card), _cell(change.before), _cell(change.after))
        parts.append(delta)
    parts.append(Text(f"Worlds searched: {search.searched}.", style="dim"))
    if hopeless:
        parts.append(Text(f"Hint: {', '.join(hopeless)} cannot be reached any more — a spare ticket could exchange "
                          f"{'it' if len(hopeless) == 1 else 'them'}.", style="yellow"))
    return Group(*parts)


def setup_view(choices: tuple[TokenChoice, ...], to_place: int) -> RenderableType:
    """Where to put my tokens, with the reasoning: routes through each eligible card."""
    if not to_place:
        verdict = Text("All your tokens are placed.", style="bold")
    elif not choices:
        verdict = Text("No card of your hand can take a token (each is within 2 links of the start or taken).",
                       style="bold")
    else:
        verdict = Text(f"Put your token{'s' * (to_place != 1)} on {', '.join(c.card for c in choices[:to_place])}.",
                       style="bold")
    grid = Table(title="Key locations: shortest routes from the start to the 80 greens that pass through each card",
                 title_justify="left")
    grid.add_column("card")
    grid.add_column("routes through", justify="right")
    grid.add_column("links from start", justify="right")
    for i, choice in enumerate(choices):
        style = "green" if i < to_place else ""
        grid.add_row(Text(choice.card, style=style), Text(f"{choice.routes:.1f}"), Text(str(choice.distance)))
    return Group(verdict, grid)
