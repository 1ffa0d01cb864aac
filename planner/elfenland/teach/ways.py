"""The steps a hand can take out of each town, and what paying one leaves: shared by the teaching walks.

Cards left are counted the solvers' way, which the rules allow because no card is drawn during a move: a count
per card type of the cards not yet paid to counters or rafts, then a budget of cards not yet paid at all, from
which a caravan takes any cards (chosen at the end: the least valuable left, as the solvers do). A route is then
affordable exactly when no count and no budget goes below zero. Under the strict caravan rule the hand at each
moment matters (a caravan is allowed only while the matching cards cannot be paid), so there a caravan pays
exact cards and the counts are the exact hand.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from planner.elfenland.keep import card_values
from planner.elfenland.plan import Pay
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import TRANSPORTS, Transport, counter_cost, raft_cost
from planner.elfenland.solvers.common import Move

__all__ = ["NO_FEATURE", "Cards", "Feature", "Way", "budget_of", "count_of", "counts_of", "covers", "moves_of",
           "packed", "pay", "start_cards", "tile_costs", "ways_out"]

Cards = int
"""Cards left, packed in one integer: eight bits per card type's count (chart order), then eight bits of budget
(see the module docstring). Bit 7 of every field stays clear, so "at least as many of everything" is one
subtraction (:func:`covers`)."""

_WIDTH = 8
_MASK = (1 << _WIDTH) - 1
_FIELDS = len(TRANSPORTS) + 1
_BUDGET_SHIFT = len(TRANSPORTS) * _WIDTH
_GUARDS = sum(1 << (i * _WIDTH + _WIDTH - 1) for i in range(_FIELDS))


def packed(counts: tuple[int, ...], budget: int) -> Cards:
    """Card counts (chart order) and a budget as :data:`Cards`."""
    value = budget << _BUDGET_SHIFT
    for i, n in enumerate(counts):
        value |= n << (i * _WIDTH)
    return value


def count_of(cards: Cards, card: int) -> int:
    """How many of card type ``card`` (its chart index) are left unpaid."""
    return (cards >> (card * _WIDTH)) & _MASK


def budget_of(cards: Cards) -> int:
    """How many cards are left unpaid at all."""
    return cards >> _BUDGET_SHIFT


def counts_of(cards: Cards) -> tuple[int, ...]:
    """The card counts, chart order."""
    return tuple(count_of(cards, i) for i in range(len(TRANSPORTS)))


def covers(a: Cards, b: Cards) -> bool:
    """Whether ``a`` holds at least what ``b`` holds, field for field (then ``a`` can do whatever ``b`` can)."""
    return ((a | _GUARDS) - b) & _GUARDS == _GUARDS


class Feature(enum.Flag):
    """What a step may do that a lesson is about."""

    CARAVAN = enum.auto()
    """Pays any cards for a road instead of its counter's matching cards."""
    UPSTREAM = enum.auto()
    """Rafts up a river, against the current (2 rafts)."""
    FERRY = enum.auto()
    """Rafts across a lake (2 rafts)."""
    OBSTACLE = enum.auto()
    """Crosses a road holding an obstacle (one more card)."""
    BACKTRACK = enum.auto()
    """Enters a town the route has already stood in (its start included): back over known ground."""

    @property
    def word(self) -> str:
        """The feature's name as a player reads it: ``caravan``, ``upstream``."""
        return (self.name or "").lower()


NO_FEATURE = Feature(0)


@dataclass(frozen=True, slots=True)
class Way:
    """One way to take one step out of a town: where to, over what, paid how."""

    frm: str
    to: str
    connection: str
    pay: Pay
    card: int | None
    """Index of the card type paid (None: a caravan of any cards)."""
    count: int
    """Cards paid."""
    features: Feature
    matching: int | None = None
    """For a caravan: the counter's card type, which under the strict rule the hand must be unable to pay."""
    matching_cost: int = 0

    @property
    def paid(self) -> Hand | None:
        """The exact cards a counter or raft step pays (None for a caravan)."""
        return None if self.card is None else _single(self.card, self.count)


@functools.cache
def _single(card: int, count: int) -> Hand:
    return Hand(tuple(count if i == card else 0 for i in range(len(TRANSPORTS))))


def tile_costs(position: Position, tile: Tile) -> tuple[int, int]:
    """What a counter on its road asks: (matching cards, the obstacle's included; cards a caravan takes)."""
    assert tile.transport is not None
    cost = counter_cost(tile.transport, position.board.connections[tile.road].terrain, obstacle=tile.obstacle)
    assert cost is not None
    return cost, position.rules.caravan_cost(cost, obstacle=tile.obstacle)


def ways_out(position: Position, *, forbid: Feature = NO_FEATURE) -> dict[str, list[Way]]:
    """Every way out of every town that the whole hand could pay, leaving out steps with a ``forbid`` feature."""
    board = position.board
    tiles = position.tile_map()
    hand = position.hand
    size = len(hand)
    found: dict[str, list[Way]] = {code: [] for code in board.towns}
    for c in board.connections.values():
        for frm, to in ((c.a, c.b), (c.b, c.a)):
            if not c.is_road:
                way = c.way(frm)
                feature = Feature.UPSTREAM if way == "upstream" else Feature.FERRY if way == "lake" else NO_FEATURE
                found[frm].append(Way(frm, to, c.id, Pay.RAFT, TRANSPORTS.index(Transport.RAFT), raft_cost(c, frm),
                                      feature))
                continue
            tile = tiles.get(c.id)
            if tile is None or tile.transport is None:
                continue  # a road without a counter cannot be travelled
            cost = counter_cost(tile.transport, c.terrain, obstacle=tile.obstacle)
            if cost is None:
                continue
            extra = Feature.OBSTACLE if tile.obstacle else NO_FEATURE
            card = TRANSPORTS.index(tile.transport)
            found[frm].append(Way(frm, to, c.id, Pay.COUNTER, card, cost, extra))
            price = position.rules.caravan_cost(cost, obstacle=tile.obstacle)
            found[frm].append(Way(frm, to, c.id, Pay.CARAVAN, None, price, extra | Feature.CARAVAN, card, cost))
    return {town: [w for w in ways if not w.features & forbid and w.count <= size
                   and (w.card is None or w.count <= hand.counts[w.card])] for town, ways in found.items()}


def start_cards(position: Position) -> Cards:
    """The cards of the position's hand, counted as :func:`pay` counts them."""
    return packed(position.hand.counts, len(position.hand))


def pay(way: Way, cards: Cards, *, strict: bool) -> Iterator[tuple[Cards, Hand | None]]:
    """Every way to pay ``way`` from ``cards``: the cards left and the exact cards paid (None: a caravan whose
    cards are chosen at the end)."""
    budget = budget_of(cards)
    if way.count > budget:
        return
    if way.card is not None:
        if count_of(cards, way.card) < way.count:
            return
        yield cards - (way.count << (way.card * _WIDTH)) - (way.count << _BUDGET_SHIFT), way.paid
        return
    if not strict:
        # More cards of a type than the budget can never be spent: cap them, so that more labels compare.
        rest = budget - way.count
        yield packed(tuple(min(n, rest) for n in counts_of(cards)), rest), None
        return
    if way.matching is not None and count_of(cards, way.matching) >= way.matching_cost:
        return  # strict: the hand can pay the counter, so no caravan
    yield from _exact_caravans(cards, way.count)


def _exact_caravans(cards: Cards, count: int) -> Iterator[tuple[Cards, Hand]]:
    """Every choice of ``count`` exact cards from the hand, the least valuable first (so ties keep them)."""
    hand = counts_of(cards)
    values = [card_values()[t] for t in TRANSPORTS]
    choices = []
    for combo in itertools.combinations_with_replacement(range(len(hand)), count):
        taken = tuple(combo.count(i) for i in range(len(hand)))
        if all(t <= n for t, n in zip(taken, hand, strict=True)):
            choices.append(taken)
    choices.sort(key=lambda taken: sum(n * v for n, v in zip(taken, values, strict=True)))
    for taken in choices:
        yield packed(tuple(n - t for n, t in zip(hand, taken, strict=True)), budget_of(cards) - count), Hand(taken)


def moves_of(trail: tuple[Move, object] | None) -> tuple[Move, ...]:
    """The moves of a trail (the last move first, linked to the trail before it), in walking order."""
    moves: list[Move] = []
    while trail is not None:
        move, rest = trail
        moves.append(move)
        trail = rest  # type: ignore[assignment]  # a trail links to a trail
    return tuple(reversed(moves))
