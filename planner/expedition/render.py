"""Rich tables of the ``expedition`` command, each with a one-line verdict first (text from data is never
markup: every cell is a :class:`rich.text.Text`)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from planner.common.i18n import N_, format_list, format_number, gettext, ngettext, say
from planner.common.limits import Status
from planner.expedition.advice import CardChange, TokenChoice
from planner.expedition.local_names import location_word
from planner.expedition.position import Position
from planner.expedition.reach import HORIZON, Distance, Reach
from planner.expedition.rules import COLOURS
from planner.expedition.search import Move, MoveSearch

__all__ = ["move_view", "reach_view", "setup_view", "status_line"]

STYLE = {"yellow": "yellow", "blue": "blue", "red": "red"}
COLOUR_WORDS = {"yellow": N_("yellow"), "blue": N_("blue"), "red": N_("red")}
"""The expeditions' colours as the text says them (JSON and notation keep the English values)."""


def _colour(colour: object) -> str:
    return gettext(COLOUR_WORDS.get(str(colour), str(colour)))


def _cell(distance: Distance | None) -> Text:
    if distance is None:
        return Text(gettext("scored"), style="green")
    if distance.arrows is None:
        return Text("—", style="dim")
    turns = "?" if distance.turns is None else str(distance.turns)
    return Text(f"{distance.arrows} / {turns}")


def _role(position: Position, location: str) -> str:
    roles = []
    if location in position.hand:
        roles.append(gettext("my card + token") if location in position.mine.tokens else gettext("my card"))
    if location in position.common:
        roles.append(gettext("common"))
    roles += [say("{player}'s token", player=s.name) for s in position.opponents if location in s.tokens]
    return gettext(", ").join(roles)


def _reach_verdict(position: Position, table: Reach) -> Text:
    mine = [c for c in position.hand if c in table.locations and table.first(c) is not None]
    if not mine:
        return Text(gettext("No expedition can reach any of your cards."), style="bold")
    card = min(mine, key=lambda c: (table.nearest(c).key, c))
    near, colour = table.nearest(card), table.first(card)
    turns = ngettext("in {n} turn", "in {n} turns", near.turns).format(n=near.turns) if near.turns is not None \
        else ngettext("in more than {n} turn", "in more than {n} turns", HORIZON).format(n=HORIZON)
    arrows = ngettext("{n} arrow", "{n} arrows", near.arrows or 0).format(n=near.arrows)
    return Text(say("Nearest of your cards: {card} — {colour}, {arrows} {turns}.", card=location_word(card),
                    colour=_colour(colour), arrows=arrows, turns=turns), style="bold")


def reach_view(position: Position, table: Reach, hopeless: tuple[str, ...]) -> RenderableType:
    """The reach table: per location the arrows / turns of each expedition and which gets there first."""
    grid = Table(title=say("Reach (arrows / turns; ? = more than {horizon} turns, — = unreachable)", horizon=HORIZON),
                 title_justify="left")
    grid.add_column(gettext("location"))
    grid.add_column(gettext("why"))
    for colour in COLOURS:
        grid.add_column(Text(_colour(colour), style=STYLE[colour.value]), justify="right")
    grid.add_column(gettext("first"))
    order = sorted(table.locations, key=lambda loc: (loc not in position.hand, table.nearest(loc).key, loc))
    for loc in order:
        first = table.first(loc)
        grid.add_row(Text(location_word(loc)), Text(_role(position, loc)),
                     *(_cell(table.of(c, loc)) for c in COLOURS),
                     Text(_colour(first), style=STYLE[first.value]) if first else Text(gettext("none"), style="dim"))
    parts: list[RenderableType] = [_reach_verdict(position, table), grid]
    if hopeless:
        parts.append(Text(ngettext("Hopeless: {cards} — no expedition can get there any more; exchange it with a "
                                   "ticket.", "Hopeless: {cards} — no expedition can get there any more; exchange "
                                   "them with a ticket.", len(hopeless)).format(cards=_listed(hopeless)),
                          style="yellow"))
    return Group(*parts)


def _listed(locations: tuple[str, ...]) -> str:
    return format_list([location_word(loc) for loc in locations])


def _move_line(move: Move) -> str:
    extra = [ngettext("{n} ticket", "{n} tickets", move.tickets).format(n=move.tickets)] if move.tickets else []
    if move.opponents:
        extra.append(say("{points} to opponents", points=f"{move.opponents:+d}"))
    tail = f" ({gettext(', ').join(extra)})" if extra else ""
    return ngettext("{n} point", "{n} points", abs(move.points)).format(n=f"{move.points:+d}") + tail


def status_line(search: MoveSearch) -> str:
    """"proven best", or how long the search ran and that its answer is not proven."""
    if search.proven:
        return gettext("proven best")
    if search.status is Status.STOPPED:
        return say("best found in {ms} ms, not proven (stopped)", ms=f"{search.seconds * 1000:.0f}")
    return say("best found in {ms} ms, not proven", ms=f"{search.seconds * 1000:.0f}")


def move_view(search: MoveSearch, changes: tuple[CardChange, ...], hopeless: tuple[str, ...]) -> RenderableType:
    """The best move (its actions), the alternatives, the change in my reach, the turn space's size."""
    best = search.best
    verdict = Text(ngettext("Best move with up to {n} ticket: {points} — {move}",
                            "Best move with up to {n} tickets: {points} — {move}", search.tickets).format(
                       n=search.tickets, points=_move_line(best), move=best), style="bold")
    steps = Table(title=gettext("Actions"), title_justify="left")
    steps.add_column("#", justify="right")
    steps.add_column(gettext("action"))
    for i, action in enumerate(best.actions, 1):
        steps.add_row(str(i), Text(str(action)))
    parts: list[RenderableType] = [verdict, Text(status_line(search), style="green" if search.proven else "yellow"),
                                   steps]
    if search.alternatives:
        others = Table(title=gettext("Alternatives (best move of another first action)"), title_justify="left")
        others.add_column(gettext("points"), justify="right")
        others.add_column(gettext("move"))
        for move in search.alternatives:
            others.add_row(Text(_move_line(move)), Text(str(move)))
        parts.append(others)
    if changes:
        delta = Table(title=gettext("My cards: nearest arrows / turns before → after"), title_justify="left")
        delta.add_column(gettext("card"))
        delta.add_column(gettext("before"), justify="right")
        delta.add_column(gettext("after"), justify="right")
        for change in changes:
            delta.add_row(Text(location_word(change.card)), _cell(change.before), _cell(change.after))
        parts.append(delta)
    parts.append(Text(say("Worlds searched: {n}.", n=search.searched), style="dim"))
    if hopeless:
        parts.append(Text(ngettext("Hint: {cards} cannot be reached any more — a spare ticket could exchange it.",
                                   "Hint: {cards} cannot be reached any more — a spare ticket could exchange them.",
                                   len(hopeless)).format(cards=_listed(hopeless)), style="yellow"))
    return Group(*parts)


def setup_view(choices: tuple[TokenChoice, ...], to_place: int) -> RenderableType:
    """Where to put my tokens, with the reasoning: routes through each eligible card."""
    if not to_place:
        verdict = Text(gettext("All your tokens are placed."), style="bold")
    elif not choices:
        verdict = Text(gettext("No card of your hand can take a token (each is within 2 links of the start or taken)."),
                       style="bold")
    else:
        cards = format_list([location_word(c.card) for c in choices[:to_place]])
        verdict = Text(ngettext("Put your token on {cards}.", "Put your tokens on {cards}.", to_place).format(
            cards=cards), style="bold")
    grid = Table(title=gettext("Key locations: shortest routes from the start to the 80 greens that pass through each "
                               "card"), title_justify="left")
    grid.add_column(gettext("card"))
    grid.add_column(gettext("routes through"), justify="right")
    grid.add_column(gettext("links from start"), justify="right")
    for i, choice in enumerate(choices):
        style = "green" if i < to_place else ""
        grid.add_row(Text(location_word(choice.card), style=style), Text(format_number(choice.routes, ".1f")),
                     Text(str(choice.distance)))
    return Group(verdict, grid)
