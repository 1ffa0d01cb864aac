"""Plans as explanation records: plain data for the renderers and the JSON (no styling, no terminal strings)."""

from __future__ import annotations

from planner.common.i18n import gettext, say
from planner.common.values import frozen
from planner.elfenland.board import Crossing
from planner.elfenland.counts import count, count_as, count_part
from planner.elfenland.local_names import cards_words, town_word
from planner.elfenland.plan import Pay, Plan

__all__ = ["StepRecord", "count", "count_as", "count_part", "step_records", "verdict"]


@frozen
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
