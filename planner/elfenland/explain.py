"""Plans as explanation records: plain data for the renderers and the JSON (no styling, no terminal strings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from planner.common.i18n import format_number, gettext, ngettext, say
from planner.elfenland.board import Crossing
from planner.elfenland.local_names import cards_words, town_word
from planner.elfenland.plan import Pay, Plan

__all__ = ["StepRecord", "count", "count_as", "count_part", "step_records", "verdict"]


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One step as a player reads it."""

    number: int
    frm: str
    """Town name."""
    to: str
    via: str
    """``road``, ``river`` or ``lake``."""
    terrain: str
    """Terrain of a road, ``downstream``/``upstream`` for a river, the lake's name for a ferry."""
    pay: str
    """``counter``, ``caravan`` or ``raft``."""
    counter: str | None
    """The counter's transport on that road (None on water)."""
    obstacle: bool
    cards: list[str]
    """Card names paid, one per card."""
    letters: str
    """Cards paid in compact notation (``DD``)."""
    new_town: bool
    cards_left: str
    placed: bool = False
    """Whether the step's counter is mine, placed on the empty road as the walk first takes it."""


def step_records(plan: Plan) -> list[StepRecord]:
    """The plan's steps with everything a table needs."""
    position = plan.position
    board = position.board
    tiles = position.tile_map()
    hand = position.hand
    collected = set(position.visited)
    unplaced = {t.road for t in plan.placements}  # mine, until the walk first takes them
    records = []
    for number, step in enumerate(plan.steps, 1):
        connection = board.connections[step.connection]
        tile = tiles.get(step.connection)
        way = connection.way(step.frm)
        terrain = str(connection.terrain) if way is None else (connection.lake or way) if way is Crossing.LAKE else way
        hand = hand.without(step.cards)
        new = step.to not in collected and board.towns[step.to].has_marker
        collected.add(step.to)
        records.append(StepRecord(
            number=number,
            frm=board.towns[step.frm].name,
            to=board.towns[step.to].name,
            via=connection.kind,
            terrain=terrain,
            pay=str(step.pay),
            counter=tile.transport.title if tile and tile.transport and step.pay is not Pay.RAFT else None,
            obstacle=bool(tile and tile.obstacle),
            cards=step.cards.names(),
            letters=str(step.cards),
            new_town=new,
            cards_left=str(hand),
            placed=step.connection in unplaced,
        ))
        unplaced.discard(step.connection)
    return records


_NOUNS: dict[str, Callable[[int], str]] = {  # each counted noun as one plural message, so each language declines it
    "town": lambda n: ngettext("{n} town", "{n} towns", n),
    "new town": lambda n: ngettext("{n} new town", "{n} new towns", n),
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    "more card": lambda n: ngettext("{n} more card", "{n} more cards", n),
    "counter": lambda n: ngettext("{n} counter", "{n} counters", n),
    "point": lambda n: ngettext("{n} point", "{n} points", n),
    "sample": lambda n: ngettext("{n} sample", "{n} samples", n),
    "sampled hand": lambda n: ngettext("{n} sampled hand", "{n} sampled hands", n),
    "step": lambda n: ngettext("{n} step", "{n} steps", n),
    "link": lambda n: ngettext("{n} link", "{n} links", n),
    "raft": lambda n: ngettext("{n} raft", "{n} rafts", n),
}


def count(n: int, word: str) -> str:
    """``1 card``, ``3 cards`` (``5 karet`` in Czech): the verdict's counts, and the teaching texts'
    (:mod:`planner.elfenland.teach`). A noun without a plural message of its own is counted in English."""
    form = _NOUNS.get(word)
    return form(n).format(n=n) if form else f"{n} {word}{'' if n == 1 else 's'}"


def count_part(value: float, word: str) -> str:
    """A fraction counted: ``0.85 towns`` (``0,85 města`` in Czech)."""
    return count_as(format_number(value, ".2f"), word)


def count_as(number: str, word: str) -> str:
    """A number already written (``0.85``, ``0.85 ± 0.10``) with its noun in the plural a fraction takes. Slavic
    languages decline a fraction as they do 2 (genitive singular), English and Japanese as any plural, so the
    plural message's form for 2 serves them all."""
    form = _NOUNS.get(word)
    return form(2).format(n=number) if form else f"{number} {word}s"


def verdict(plan: Plan) -> str:
    """One line: ``5 new towns, 7 cards, ends in Tichih, keep dragon dragon raft``."""
    position = plan.position
    parts = [count(len(plan.new_towns), "new town"), count(plan.cards_spent, "card")]
    parts.append(say("ends in {town}", town=town_word(position.board, plan.end)))
    if plan.outcome.home_penalty:
        parts.append(say("{penalty} from home (score {score})", penalty=plan.outcome.home_penalty, score=plan.score))
    elif position.scores_home:
        parts.append(say("home, score {score}", score=plan.score))
    keep = plan.keep
    kept = say("keep {cards}", cards=cards_words(keep)) if len(keep) else say("no cards left")
    dropped = len(plan.outcome.cards_left) - len(keep)
    if dropped > 0:
        kept = say("{kept} (discard {dropped})", kept=kept, dropped=dropped)
    parts.append(kept)
    return gettext(", ").join(parts)  # Japanese lists with 、
