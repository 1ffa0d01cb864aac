"""Cards left during a move, packed in one integer, and every way to take and pay a step: the one step generator
of the exact search and the teaching walks.

Cards left are counted the solvers' way, which the rules allow because no card is drawn during a move: a count
per card type of the cards not yet paid to counters or rafts, then a budget of cards not yet paid at all, from
which a caravan takes any cards (chosen at the end: the least valuable left). A route is then affordable exactly
when no count and no budget goes below zero. Under the strict caravan rule the hand at each moment matters (a
caravan is allowed only while the matching cards cannot be paid), so there a caravan pays exact cards and the
counts are the exact hand.

The packing: eight bits per field; fields 0..6 hold the card counts (chart order), field 7 the budget, fields
8..13 the counters of each land transport left in a supply (joint plans only). Bit 7 of every field stays clear,
so "at least as many of everything" is one subtraction (:func:`covers`).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import field

from planner.common.values import frozen
from planner.elfenland.board import Connection, Crossing, load_board
from planner.elfenland.keep import card_values
from planner.elfenland.plan import Pay
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, TRANSPORTS, Rules, Transport, can_carry, counter_cost, raft_cost

__all__ = ["BUDGET", "FIELD", "GUARDS", "RAFT", "SUPPLY", "WIDTH", "Cards", "Way", "board_ways", "budget_of",
           "capped", "count_of", "counts_of", "covers", "packed", "pay", "placing_ways", "start_cards"]

Cards = int
"""Cards left (and a supply's counters), packed in one integer: see the module docstring."""

WIDTH = 8
"""Bits per field."""
FIELD = (1 << WIDTH) - 1
BUDGET = len(TRANSPORTS) * WIDTH
"""Shift of the budget's field; the count of card type ``i`` is at ``i * WIDTH``."""
SUPPLY = BUDGET + WIDTH
"""Shift of the supply's first field; the field of counter type ``i`` is at ``SUPPLY + i * WIDTH``."""
GUARDS = sum(1 << (i * WIDTH + WIDTH - 1) for i in range(len(TRANSPORTS) + 1 + len(COUNTER_TRANSPORTS)))
RAFT = TRANSPORTS.index(Transport.RAFT)
_COUNT_SHIFTS = tuple(i * WIDTH for i in range(len(TRANSPORTS)))
_COUNTS = (1 << BUDGET) - 1
"""The card counts' fields."""
_ONES = sum(1 << shift for shift in _COUNT_SHIFTS)
"""1 in every count field: ``n * _ONES`` is ``n`` in each."""
_COUNT_GUARDS = _ONES << (WIDTH - 1)


def packed(counts: tuple[int, ...], budget: int, supply: tuple[int, ...] = ()) -> Cards:
    """Card counts (chart order), a budget and a supply's counters (land transports, chart order) as :data:`Cards`."""
    value = budget << BUDGET
    for i, n in enumerate(counts):
        value |= n << (i * WIDTH)
    for i, n in enumerate(supply):
        value |= n << (SUPPLY + i * WIDTH)
    return value


def start_cards(position: Position) -> Cards:
    """The cards of the position's hand, counted as :func:`pay` counts them (no supply)."""
    return packed(position.hand.counts, len(position.hand))


def count_of(cards: Cards, card: int) -> int:
    """How many of card type ``card`` (its chart index) are left unpaid."""
    return (cards >> (card * WIDTH)) & FIELD


def budget_of(cards: Cards) -> int:
    """How many cards are left unpaid at all."""
    return (cards >> BUDGET) & FIELD


def counts_of(cards: Cards) -> tuple[int, ...]:
    """The card counts, chart order."""
    return tuple((cards >> shift) & FIELD for shift in _COUNT_SHIFTS)


def covers(a: Cards, b: Cards) -> bool:
    """Whether ``a`` holds at least what ``b`` holds, field for field (then ``a`` can do whatever ``b`` can)."""
    return ((a | GUARDS) - b) & GUARDS == GUARDS


def capped(cards: Cards) -> Cards:
    """``cards`` with no count above the budget: more cards of a type than the budget can never be spent, so the
    two can do the same, and capped states compare (:func:`covers`) more often."""
    budget = (cards >> BUDGET) & FIELD
    counts = cards & _COUNTS
    spread = budget * _ONES
    # The guard bit of a field stays set exactly where its count is at least the budget (all fields at once).
    over = ((counts | _COUNT_GUARDS) - spread) & _COUNT_GUARDS
    if not over:
        return cards
    fields = (over >> (WIDTH - 1)) * FIELD
    return cards - (counts & fields) + (spread & fields)


@frozen
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
    matching: int | None = None
    """For a caravan: the counter's card type, which under the strict rule the hand must be unable to pay."""
    matching_cost: int = 0
    crossing: Crossing | None = None
    """For a raft: how it crosses the water."""
    obstacle: bool = False
    """Whether the road holds an obstacle (its cost counts it)."""
    place: int | None = None
    """For a step onto an empty road: the counter type (its index) placed there from the supply first."""
    delta: Cards = field(init=False, repr=False, compare=False)
    """What paying this way takes off the packed cards: the matching cards (if any), the budget and the counter
    placed (if any)."""
    paid: Hand | None = field(init=False, repr=False, compare=False)
    """The exact cards a counter or raft step pays (None for a caravan)."""
    shift: int = field(init=False, repr=False, compare=False)
    """The field of the card type paid (-1 for a caravan)."""

    def __post_init__(self) -> None:
        delta = self.count << BUDGET
        if self.card is not None:
            delta |= self.count << (self.card * WIDTH)
        if self.place is not None:
            delta |= 1 << (SUPPLY + self.place * WIDTH)
        object.__setattr__(self, "delta", delta)
        object.__setattr__(self, "paid", None if self.card is None else _single(self.card, self.count))
        object.__setattr__(self, "shift", -1 if self.card is None else self.card * WIDTH)


@functools.cache
def _single(card: int, count: int) -> Hand:
    return Hand(tuple(count if i == card else 0 for i in range(len(TRANSPORTS))))


_Priced = dict[tuple[str, str, Transport, bool, bool], tuple[Way, Way]]


@functools.cache
def _priced(rules: Rules) -> _Priced:
    """The road ways already built under ``rules``, by (road, from, counter, obstacle, placed by the step): a Way
    depends on nothing else, so every board shares them (filled as :func:`_road_ways` meets them)."""
    return {}


def _road_ways(c: Connection, frm: str, transport: Transport, rules: Rules, *, obstacle: bool, place: bool,
               priced: _Priced) -> tuple[Way, Way]:
    """The counter's way and the caravan's over road ``c`` from ``frm`` behind a ``transport`` counter (placed from
    the supply by this step, with ``place``), from ``priced`` (:func:`_priced` of ``rules``) once built."""
    key = (c.id, frm, transport, obstacle, place)
    ways = priced.get(key)
    if ways is None:
        cost = counter_cost(transport, c.terrain, obstacle=obstacle)
        assert cost is not None  # a counter lies only on a terrain its transport travels
        card = TRANSPORTS.index(transport)
        price = rules.caravan_cost(cost, obstacle=obstacle)
        to = c.other(frm)
        placed = COUNTER_TRANSPORTS.index(transport) if place else None
        ways = priced[key] = (Way(frm, to, c.id, Pay.COUNTER, card, cost, obstacle=obstacle, place=placed),
                              Way(frm, to, c.id, Pay.CARAVAN, None, price, card, cost, obstacle=obstacle,
                                  place=placed))
    return ways


@functools.cache
def _raft_ways() -> dict[tuple[str, str], Way]:
    """The raft way over each water connection from each end, by (connection, from)."""
    return {(c.id, frm): Way(frm, c.other(frm), c.id, Pay.RAFT, RAFT, raft_cost(c, frm), crossing=c.way(frm))
            for c in load_board().connections.values() if not c.is_road for frm in (c.a, c.b)}


@functools.cache
def _board_order() -> tuple[tuple[str, str, str, Way | None, Way | None], ...]:
    """The board's connections in its order, as the ways out of each town list them: (id, one end, the other, and
    for water the raft ways from each end; None for a road)."""
    rafts = _raft_ways()
    return tuple((c.id, c.a, c.b, *((rafts[c.id, c.a], rafts[c.id, c.b]) if not c.is_road else (None, None)))
                 for c in load_board().connections.values())


@functools.cache
def _tile_ways(rules: Rules) -> dict[tuple[str, Transport, bool], tuple[Way, ...]]:
    """The ways over each road behind each counter (and obstacle) under ``rules``, from one end then the other
    (empty when the counter cannot travel the road): filled as :func:`board_ways` meets them."""
    return {}


@functools.lru_cache(maxsize=64)
def board_ways(tiles: tuple[Tile, ...], rules: Rules) -> dict[str, tuple[Way, ...]]:
    """Every way out of every town on a board with these tiles: rafts on water, the counter's cards and a caravan
    on every road holding a counter (whatever any hand can pay: see :func:`pay`), in the board's order.

    Cached (do not change the answer): advice solves the same board for many hands (sampled opponent hands,
    what-ifs). The last 64 boards only (the keep advice's 30 sampled next rounds fit): more held tens of thousands
    of objects, and the collector's sweeps over them cost a real-game solve 15-20 ms now and then.
    """
    board = load_board()
    built = _tile_ways(rules)
    tile_of = {t.road: t for t in tiles}
    found: dict[str, list[Way]] = {code: [] for code in board.towns}
    for road, a, b, raft_a, raft_b in _board_order():
        if raft_a is not None and raft_b is not None:
            found[a].append(raft_a)
            found[b].append(raft_b)
            continue
        tile = tile_of.get(road)
        if tile is None or tile.transport is None:
            continue
        key = (road, tile.transport, tile.obstacle)
        ways = built.get(key)
        if ways is None:
            c = board.connections[road]
            ways = built[key] = (
                (*_road_ways(c, a, tile.transport, rules, obstacle=tile.obstacle, place=False, priced=_priced(rules)),
                 *_road_ways(c, b, tile.transport, rules, obstacle=tile.obstacle, place=False, priced=_priced(rules)))
                if can_carry(tile.transport, c.terrain) else ())
        if ways:
            found[a] += ways[:2]
            found[b] += ways[2:]
    return {code: tuple(ways) for code, ways in found.items()}


def placing_ways(c: Connection, frm: str, transport: Transport, rules: Rules, *, place: bool) -> tuple[Way, Way]:
    """The counter's way and the caravan's over the empty road ``c`` from ``frm`` behind a ``transport`` counter of
    my supply: placed by this very step (``place``), or already placed by an earlier one."""
    return _road_ways(c, frm, transport, rules, obstacle=False, place=place, priced=_priced(rules))


def pay(way: Way, cards: Cards, *, strict: bool) -> tuple[tuple[Cards, Hand | None], ...]:
    """Every way to pay ``way`` from ``cards``: the cards left and the exact cards paid (None: a caravan whose cards
    are chosen at the end). Under the ``strict`` caravan rule a caravan pays exact cards, least valuable first (so
    that of equally good routes, the first found pays them), and only while the matching cards cannot be paid."""
    if way.count > (cards >> BUDGET) & FIELD:
        return ()
    if way.card is not None:
        if (cards >> way.shift) & FIELD >= way.count:
            return ((cards - way.delta, way.paid),)
        return ()
    if not strict:
        return ((capped(cards - way.delta), None),)
    if way.matching is not None and (cards >> (way.matching * WIDTH)) & FIELD >= way.matching_cost:
        return ()  # strict: the hand can pay the counter, so no caravan
    return tuple((cards - way.delta - packed(taken, 0), Hand(taken))
                 for taken in _exact_caravans(counts_of(cards), way.count))


@functools.lru_cache(maxsize=4096)
def _exact_caravans(hand: tuple[int, ...], count: int) -> tuple[tuple[int, ...], ...]:
    """Every choice of ``count`` exact cards from the hand (as count vectors), the least valuable first."""
    choices = []
    for combo in itertools.combinations_with_replacement(range(len(hand)), count):
        taken = tuple(combo.count(i) for i in range(len(hand)))
        if all(t <= n for t, n in zip(taken, hand, strict=True)):
            choices.append(taken)
    values = [card_values()[t] for t in TRANSPORTS]
    choices.sort(key=lambda taken: sum(n * v for n, v in zip(taken, values, strict=True)))
    return tuple(choices)
