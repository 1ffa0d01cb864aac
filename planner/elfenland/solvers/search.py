"""Exact route search in pure Python: depth-first branch and bound over (town, collected towns, cards left).

Modelling assumptions (guarded by the solver-agreement tests):

- A walk is searched step by step; towns and roads may repeat. Every step costs at least one card, so every walk
  is finite and the search space is finite.
- Under the default ("always") caravan rule the order of payments does not matter, because no card is drawn
  during a move. A caravan is therefore recorded as a number of *any* cards to be chosen at the end: the cards
  left are a vector ``h`` of cards not yet paid to counters or rafts, plus a budget ``s`` of cards not yet
  committed at all. A route is legal iff every ``h`` stays ≥ 0 and ``s`` stays ≥ 0; caravans are then paid with
  the least valuable cards that remain (``common.assemble``). Under the ``strict`` caravan rule the hand at
  each moment matters, so caravans pay explicit cards and the search branches over which.
- State (town, collected, h, s) dominates (town, collected, h', s') when h ≥ h' and s ≥ s': everything the
  second can still do, the first can do with no more cards. Dominated states are not expanded. Under the strict
  caravan rule that is unsound as it stands: one more matching card can forbid a caravan, so a bigger hand can do
  less. There a state dominates only when it also holds exactly as many cards of every transport that lies on the
  board as a counter: then every caravan test asks the same of both states, now and after any same payments.
- Bound: the towns still collectable are at most as many as the cheapest ways into distinct uncollected towns
  that the budget can pay for (sum of the smallest entry costs ≤ s), which also bounds the cards needed to
  reach a given score. A ceiling on the score proven elsewhere (CP-SAT's, in a race) caps the count. So does a
  card bound: a road gives at most one new town (both its ends are visited once travelled), so per counter type
  the steps its cards pay are at most the cheapest roads that may carry it (the board's and my supply's) that
  the cards pay for, rafts take a card a step, and every other new town is a caravan's (3 cards at least).
- Joint plans (a supply of my counters to place, ``elfenland place``): a counter is placed on an empty road when
  the walk first takes it, of any type the supply holds and the terrain carries (a placement the walk never
  travels changes nothing, so none is made). The state gains the supply left and the roads placed (which type
  on which road); a state dominates another only with the same placements and no less of cards and supply. The
  objective gains a last criterion: the fewest counters placed (a counter not needed stays in hand). A state
  that can at best tie the best on points and cards is pruned when the counters it must still place (new towns
  no raft, board counter or caravan the cards allow can reach) make at least as many as the best's.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable
from typing import Any

from planner.common.limits import Budget, Limit
from planner.common.values import frozen
from planner.elfenland.board import load_board
from planner.elfenland.cards import (
    BUDGET,
    FIELD,
    GUARDS,
    RAFT,
    SUPPLY,
    WIDTH,
    Way,
    board_ways,
    capped,
    packed,
    pay,
    placing_ways,
)
from planner.elfenland.plan import Plan
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, TRANSPORTS, can_carry, counter_cost, raft_cost
from planner.elfenland.solvers.common import Move, Solution, assemble

_NO_LIMIT = 1 << 62
_ANY = -1
"""In the bound's ways into a town: a caravan's (any cards; its Way.shift), where the others name their card's field."""
_CARD_FIELDS = (1 << SUPPLY) - 1
"""The card counts' and the budget's fields of packed cards (not the supply's)."""
_PLACED_BITS = 3
"""Bits per road in the placed-roads integer: 0 for none, else 1 + the index of the counter placed there."""

_Option = tuple[int, Way, int]
"""One way out of a town as the search takes it: the index of the town it goes to, the way, and what taking it
adds to the placed-roads integer (the counter it places, if any, in its road's field)."""
_Taken = tuple[Way, Hand | None]
"""One step of the walk: the way taken and the exact cards paid (None: a caravan's, chosen at the end)."""


_Entry = tuple[int, int, int, int, int, _Taken, int, int, Way]
"""An option as the walk reads it, every field it needs at hand: the town's index, its bit, the cards paid, the
paid card type's field (-1: a caravan's), what paying takes off the packed cards, the step as recorded (for a
caravan, its exact cards are chosen at the end), the marks added to the placed-roads integer, whether it places a
counter (0 or 1), and the way."""


def _count(way: Way) -> int:
    return way.count


def _entry_price(entry: _Entry) -> int:
    return entry[2]


def _moves(steps: tuple[_Taken, ...]) -> tuple[Move, ...]:
    """The solver moves of the steps taken (built only for the routes kept, not at every node)."""
    return tuple(Move(way.frm, way.to, way.connection, way.pay, paid, way.count,
                      None if way.place is None else COUNTER_TRANSPORTS[way.place]) for way, paid in steps)


@frozen
class _EmptyRoad:
    """One direction of an empty road a counter of the supply could open: the options for each counter type, to
    place (``fresh``) or to use once placed (``placed``), by type index."""

    shift: int
    """The road's field in the placed-roads integer."""
    fresh: dict[int, tuple[_Entry, ...]]
    placed: dict[int, tuple[_Entry, ...]]


#: Asked every 1024 nodes (with the node count and a way to get the best moves so far); true stops the search.
Interrupt = Callable[[int, Callable[[], tuple[Move, ...]]], bool]
#: Asked every 1024 nodes for a proven upper bound on the score (None: none yet); the search prunes with it.
Ceiling = Callable[[], int | None]


@functools.cache
def _cheapest_steps() -> tuple[tuple[int | None, ...], int]:
    """The fewest cards a counter of each type costs on a road of the board (None: it travels none), and the
    fewest raft cards of a crossing (``_NO_LIMIT`` without water)."""
    board = load_board()
    counters = tuple(min((c for c in (counter_cost(t, r.terrain) for r in board.roads) if c), default=None)
                     for t in COUNTER_TRANSPORTS)
    rafts = [raft_cost(c, frm) for c in board.connections.values() if not c.is_road for frm in (c.a, c.b)]
    return counters, min(rafts, default=_NO_LIMIT)


@functools.lru_cache(maxsize=1024)
def _affordable(costs: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """For each number of cards ``0..size``: the steps of ``costs`` (cheapest first) that many cards pay for
    (cached: boards repeat their costs, e.g. three 1-card roads and a 2-card one of a type)."""
    return tuple(costs[:_steps(costs, cards)] for cards in range(size + 1))


@functools.lru_cache(maxsize=64)
def _rafts(least: int, size: int) -> tuple[tuple[int, ...], ...]:
    """For each number of raft cards ``0..size``: the crossings they pay for at ``least`` cards each."""
    return tuple((least,) * (cards // least) for cards in range(size + 1))


def _steps(costs: tuple[int, ...], cards: int) -> int:
    """How many of the steps ``costs`` (cheapest first) ``cards`` pay for at most."""
    steps = 0
    for cost in costs:
        if cost > cards:
            break
        cards -= cost
        steps += 1
    return steps


def _covered(seen: list[int], cards: int) -> bool:
    """Whether some cards of ``seen`` cover ``cards``; if none does, ``cards`` join them and those they cover
    leave."""
    guarded = cards | GUARDS
    beaten = False  # whether these cards dominate some seen before, which then go
    for other in seen:
        if ((other | GUARDS) - cards) & GUARDS == GUARDS:
            return True
        beaten = beaten or (guarded - other) & GUARDS == GUARDS
    if beaten:
        seen[:] = [other for other in seen if (guarded - other) & GUARDS != GUARDS]
    seen.append(cards)
    return False


class SearchTimeout(Exception):
    """The search ran out of its budget or was stopped (the best route so far is not proven)."""


class _Search:
    def __init__(self, position: Position, *, alternatives: int, budget: Budget | None,
                 interrupt: Interrupt | None = None, ceiling: Ceiling | None = None, joint: bool = False) -> None:
        self.position = position
        self.alternatives = max(1, alternatives)
        self.budget = budget
        nodes = budget.limit.nodes if budget is not None else None
        self.node_limit = _NO_LIMIT if nodes is None else nodes
        self.interrupt = interrupt
        self.ceiling_source = ceiling
        self.strict = position.rules.strict
        board = position.board
        self.codes = list(board.towns)
        index = {code: i for i, code in enumerate(self.codes)}
        collectable = position.collectable()
        self.bit = [(1 << i) if code in collectable else 0 for i, code in enumerate(self.codes)]
        self.penalty = [position.home_penalty(code) for code in self.codes]
        tiles = position.tile_map()
        size = len(position.hand)
        ways = board_ways(position.tiles, position.rules)
        hand = position.hand.counts
        # Cheapest first (a stable sort: the board's order among equals), so the walk needs no sort per node.
        self.entries = [tuple(self._entry(index[w.to], w, 0) for w in sorted(
            [w for w in ways[code] if w.count <= size and (w.card is None or w.count <= hand[w.card])], key=_count))
            for code in self.codes]
        # Empty roads the supply could open, per town.
        supply = position.supply.counts[:len(COUNTER_TRANSPORTS)] if joint else (0,) * len(COUNTER_TRANSPORTS)
        self.joint = any(supply)
        self.empty: list[list[_EmptyRoad]] = [[] for _ in self.codes]
        if self.joint:
            self._add_empty_roads(position, index, tiles, supply, size)
        # For the bound, from the ways out of each town (placements counted as if unlimited): by price, the towns
        # each card field (or a caravan's any cards: field -1) enters at that price; the collectable towns one step
        # away and the cheapest step.
        levels: dict[int, dict[int, int]] = {}
        self.near = [0] * len(self.codes)
        self.transit = [0] * len(self.codes)
        for i, entries in enumerate(self.entries):
            reach = entries if not self.empty[i] else [
                *entries, *(e for road in self.empty[i] for fresh in road.fresh.values() for e in fresh)]
            near = 0
            for entry in reach:
                bit = entry[1]
                if bit:
                    near |= bit
                    towns = levels.setdefault(entry[2], {})
                    towns[entry[3]] = towns.get(entry[3], 0) | bit
            self.near[i] = near
            self.transit[i] = min(entry[2] for entry in reach) if reach else 0
        self.levels = [(count, levels[count].get(_ANY, 0),
                        tuple((shift, towns) for shift, towns in levels[count].items() if shift != _ANY))
                       for count in sorted(levels)]
        """Per price, cheapest first: the towns a caravan enters at it, and those each card field enters at it."""
        self.enterable = functools.reduce(operator.or_, self.near, 0)
        self.start = index[position.at]
        self._card_bound(position, supply)
        self.size = size
        self.start_cards = packed(hand, size, supply)
        # Under the strict rule, the fields that must be equal for one state to dominate another: every counter
        # transport on the board (see the module docstring); none otherwise.
        on_board = {t.transport for t in position.tiles if t.transport is not None}
        on_board |= {t for t, n in zip(COUNTER_TRANSPORTS, supply, strict=False) if n}  # counters I may place
        self.strict_mask = sum(FIELD << (TRANSPORTS.index(t) * WIDTH) for t in on_board) if self.strict else 0
        # Results: best value per (collected, end) and the moves reaching it. A value is (score, -cards spent,
        # -counters placed).
        self.found: dict[tuple[int, int], tuple[tuple[int, int, int], tuple[_Taken, ...]]] = {}
        self.threshold: tuple[int, int, int] = (-(10**9), -(10**9), -(10**9))
        self.frontier: dict[int, list[int]] = {}
        """The undominated cards seen per (town, collected, placed roads), packed in one integer (:meth:`_key`)."""
        self.town_bits = len(self.codes).bit_length()
        self.mask_bits = len(self.codes)
        self.nodes = 0
        self.ceiling: int | None = None
        """The latest proven upper bound on the score from elsewhere (CP-SAT's), or None."""

    @functools.cached_property
    def options(self) -> list[list[_Option]]:
        """The ways out of each town, cheapest first, as (town index, way, placed-roads marks)."""
        return [[(e[0], e[8], e[6]) for e in entries] for entries in self.entries]

    def _entry(self, to: int, way: Way, marks: int) -> _Entry:
        return (to, self.bit[to], way.count, way.shift, way.delta, (way, way.paid), marks,
                0 if way.place is None else 1, way)

    def _add_empty_roads(self, position: Position, index: dict[str, int], tiles: dict[str, Any],
                         supply: tuple[int, ...], size: int) -> None:
        """The options of every empty road that a counter type of the supply can travel (see _EmptyRoad)."""
        hand = position.hand.counts
        for number, c in enumerate(position.board.roads):
            if c.id in tiles:
                continue
            types = [i for i, t in enumerate(COUNTER_TRANSPORTS) if supply[i] and can_carry(t, c.terrain)]
            if not types:
                continue
            for frm in (c.a, c.b):
                fresh: dict[int, tuple[_Entry, ...]] = {}
                placed: dict[int, tuple[_Entry, ...]] = {}
                for i in types:
                    for where, place in ((fresh, True), (placed, False)):
                        ways = placing_ways(c, frm, COUNTER_TRANSPORTS[i], position.rules, place=place)
                        marks = (i + 1) << (number * _PLACED_BITS) if place else 0
                        where[i] = tuple(self._entry(index[w.to], w, marks) for w in ways
                                         if w.count <= size and (w.card is None or w.count <= hand[w.card]))
                self.empty[index[frm]].append(_EmptyRoad(number * _PLACED_BITS, fresh, placed))

    # -- the bound ---------------------------------------------------------------------------------------------
    def _card_bound(self, position: Position, supply: tuple[int, ...]) -> None:
        """What the card bound needs (see :meth:`_by_cards`): per counter type, what a step on each road that may
        carry it costs, cheapest first (the board's counters of that type, and my supply's on the cheapest terrain
        for them), the board's part alone, the cheapest raft and the cheapest caravan."""
        board = position.board
        on_board: list[list[int]] = [[] for _ in COUNTER_TRANSPORTS]
        for tile in position.tiles:
            if tile.transport is not None:
                cost = counter_cost(tile.transport, board.connections[tile.road].terrain, obstacle=tile.obstacle)
                if cost is not None:
                    on_board[COUNTER_TRANSPORTS.index(tile.transport)].append(cost)
        mine = [list(costs) for costs in on_board]
        cheapest, rafts = _cheapest_steps()
        for i, n in enumerate(supply):
            least = cheapest[i]
            if n and least is not None:
                mine[i] += [least] * n
        self.board_counters = sum(len(costs) for costs in on_board)
        self.board_by_card = tuple((i * WIDTH, tuple(sorted(c))) for i, c in enumerate(on_board) if c)
        size = len(position.hand)
        # Per type, for each number of its cards up to the hand's: the cheapest steps they pay (no sum per node).
        self.by_card = tuple((i * WIDTH, _affordable(tuple(sorted(c)), size)) for i, c in enumerate(mine) if c)
        self.raft_least = rafts
        self.rafts_by_cards = _rafts(rafts, size)
        self.by_cards_seen: dict[int, tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]] = {}
        """:meth:`_by_cards` of the card fields met so far (most states share their cards with others)."""
        self.caravan_least = position.rules.caravan_cost(1, obstacle=False)
        # A road gives at most one new town (both its ends are visited once travelled), except a way back to a
        # start town still to collect: one town more.
        self.start_slack = 1 if self.bit[self.start] else 0

    def _by_cards(self, cards: int) -> tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]:
        """What the bound reads from the cards alone (kept per card fields: most states share theirs with others).

        At most how many more towns the cards pay for; the running totals of the costs of the steps into them that
        matching cards or rafts may pay, cheapest first (``totals[k]``: the ``k`` cheapest): a step into a new town
        pays a counter (on a road of its own, so per type at most the cheapest roads its cards pay for), a raft, or
        a caravan (at least ``caravan_least`` of the budget, which shares what is left); and per price the budget
        pays, cheapest first, the towns some way at that price enters that the cards can pay (collected or not).
        """
        key = cards & _CARD_FIELDS
        known = self.by_cards_seen.get(key)
        if known is not None:
            return known
        s = (cards >> BUDGET) & FIELD
        steps = [*self.rafts_by_cards[(cards >> (RAFT * WIDTH)) & FIELD]]
        steps += [1] * self.start_slack
        for shift, affordable in self.by_card:
            steps += affordable[(cards >> shift) & FIELD]
        steps.sort()
        totals = (0, *itertools.accumulate(steps))
        matched = len(steps)
        most = s if matched >= s else matched + (s - matched) // self.caravan_least
        levels = []
        for count, towns, entries in self.levels:
            if count > s:
                break
            for shift, into in entries:
                if (cards >> shift) & FIELD >= count:
                    towns |= into
            if towns:
                levels.append((count, towns))
        known = self.by_cards_seen[key] = (most, totals, tuple(levels))
        return known

    def _placements_needed(self, cards: int, towns: int, budget: int, start_open: bool) -> int:
        """At least how many more counters a route from this state places to collect ``towns`` more with at most
        ``budget`` more cards: a new town not reached by a raft or a counter on the board (one town per counter,
        by matching cards or a caravan) needs a road of mine still to place (a road I placed before has both its
        ends visited). Rafts, matching cards and placed roads take a card a step at least, a caravan
        ``caravan_least``: so at most ``(budget - towns) // (caravan_least - 1)`` steps are caravans."""
        rafts = min(((cards >> (RAFT * WIDTH)) & FIELD) // self.raft_least, budget)
        matched = 0
        for shift, costs in self.board_by_card:
            matched += _steps(costs, (cards >> shift) & FIELD)
        matched = min(matched, self.board_counters, budget - rafts)
        extra = self.caravan_least - 1
        caravans = min(self.board_counters - matched, max(0, budget - towns) // extra) if extra > 0 else 0
        return max(0, towns - rafts - matched - caravans - (1 if start_open else 0))

    def _optimistic(self, town: int, new: int, mask: int, cards: int) -> tuple[int, int]:
        """The most points any route on from this state can reach, and the fewest cards it then pays on top."""
        most, totals, levels = self._by_cards(cards)
        # Towns worth counting: as many as the cards pay for, and no more than the ceiling (no route scores above).
        ceiling = self.ceiling
        wanted = most if ceiling is None else min(most, max(0, ceiling - new))
        # Each uncollected town at the cheapest price the cards left can pay into it, the cheapest first, as many
        # as are wanted and the budget pays for (one pass: a price's towns are taken before the next is looked at).
        left = self.enterable & ~mask
        extra, needed, budget = 0, 0, (cards >> BUDGET) & FIELD
        first = True
        for count, towns in levels:
            if not left:
                break
            towns &= left
            if not towns:
                continue
            if first:
                first = False
                if not wanted:
                    break
                if not self.near[town] & ~mask:
                    # No uncollected town is one step away: a step that collects nothing comes first.
                    budget -= self.transit[town]
                    needed += self.transit[town]
            left &= ~towns
            n = towns.bit_count()
            taken = wanted - extra
            if n < taken:
                taken = n
            if budget < taken * count:
                taken = budget // count if budget > 0 else 0
            extra += taken
            budget -= taken * count
            needed += taken * count
            if taken < n:
                break
        top = new + extra if ceiling is None or new + extra < ceiling else ceiling
        # The cheapest steps matching cards and rafts may pay, and caravans for the towns beyond them.
        if extra:
            paid = len(totals) - 1
            if extra < paid:
                paid = extra
            paying = totals[paid] + (extra - paid) * self.caravan_least
            if paying > needed:
                needed = paying
        return top, needed

    def _prunable(self, town: int, new: int, mask: int, cards: int, placements: int) -> bool:
        # A cheaper bound first: one town per card left at most, and only towns some way enters.
        if new + min((cards >> BUDGET) & FIELD, (self.enterable & ~mask).bit_count()) < self.threshold[0]:
            return True
        return self._bounded(town, new, mask, cards, placements)

    def _bounded(self, town: int, new: int, mask: int, cards: int, placements: int) -> bool:
        """The full bound of :meth:`_prunable` (after its cheap one)."""
        best_score, best_neg_spent, best_neg_placed = self.threshold
        top, needed = self._optimistic(town, new, mask, cards)
        if top != best_score:
            return top < best_score
        spent = self.size - ((cards >> BUDGET) & FIELD) + needed
        if spent != -best_neg_spent:
            return spent > -best_neg_spent
        if placements >= -best_neg_placed:
            return True  # placing more can only make it worse
        if not self.joint:
            return False
        # It can at best tie on points and cards: then on the counters it must still place.
        start_open = bool(self.bit[self.start]) and not mask & self.bit[self.start]
        budget = -best_neg_spent - (self.size - ((cards >> BUDGET) & FIELD))  # to spend no more than the best
        return placements + self._placements_needed(cards, best_score - new, budget, start_open) >= -best_neg_placed

    def upper_bound(self) -> int:
        """A proven upper bound on the score of any route: the bound at the start (or the ceiling, if lower)."""
        top, _ = self._optimistic(self.start, 0, 0, self.start_cards)
        return top

    # -- results -------------------------------------------------------------------------------------------------
    def _record(self, town: int, mask: int, new: int, s: int, placements: int, path: list[_Taken]) -> None:
        value = (new - self.penalty[town], s - self.size, -placements)
        if value <= self.threshold:
            return
        key = (mask, town)
        old = self.found.get(key)
        if old is not None and old[0] >= value:
            return
        self.found[key] = (value, tuple(path))
        if len(self.found) > self.alternatives:
            worst = min(self.found, key=lambda k: self.found[k][0])
            del self.found[worst]
        if len(self.found) >= self.alternatives:
            self.threshold = min(v for v, _ in self.found.values())

    def best_moves(self) -> tuple[Move, ...]:
        """The moves of the best route found so far."""
        return _moves(max(self.found.values(), key=lambda item: item[0])[1]) if self.found else ()

    # -- the walk ------------------------------------------------------------------------------------------------
    def _key(self, town: int, mask: int, placed: int, cards: int) -> int:
        """The frontier's key of a state with these (capped) cards, one integer (it hashes faster than a tuple):
        (town, collected, placed roads), and under the strict rule the fields that must be equal too."""
        key = (((placed << self.mask_bits) | mask) << self.town_bits) | town
        return (key << SUPPLY) | (cards & self.strict_mask) if self.strict_mask else key

    def _dominated(self, key: int, cards: int) -> bool:
        """Whether cards seen before at the state ``key`` (:meth:`_key`) cover ``cards`` (capped: then more states
        compare); if not, ``cards`` join them."""
        seen = self.frontier.get(key)
        if seen is None:
            self.frontier[key] = [cards]
            return False
        return _covered(seen, cards)

    def run(self) -> None:
        self._visit(self.start, 0, 0, self.start_cards, 0, 0, [])

    def _visit(self, town: int, mask: int, new: int, cards: int, placed: int, placements: int,
               path: list[_Taken]) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchTimeout
        if self.nodes & 1023 == 0:
            if (self.budget is not None and self.budget.expired()) or (
                    self.interrupt is not None and self.interrupt(self.nodes, self.best_moves)):
                raise SearchTimeout
            if self.ceiling_source is not None:
                self.ceiling = self.ceiling_source()
        s = (cards >> BUDGET) & FIELD
        if new - self.penalty[town] >= self.threshold[0]:  # else it cannot be recorded
            self._record(town, mask, new, s, placements, path)
        if s == 0:
            return
        # The cheap bound of _prunable here, the full one only when it does not prune.
        enterable = (self.enterable & ~mask).bit_count()
        if (new + (s if s < enterable else enterable) < self.threshold[0]
                or self._bounded(town, new, mask, cards, placements)):
            return
        # Children in the order: collecting a town first, then the cheapest, then the board's order (the entries
        # are sorted by price, so the first too dear ends them; with empty roads too, sorted here).
        entries = self.entries[town]
        if self.empty[town]:
            entries = tuple(sorted([*entries, *self._empty_entries(town, cards, placed)], key=_entry_price))
        strict, strict_mask, visit, frontier = self.strict, self.strict_mask, self._visit, self.frontier
        placed_shift, town_shift = self.mask_bits, self.town_bits
        passing: list[_Entry] = []
        for gain, chosen in ((1, entries), (0, passing)):
            for entry in chosen:
                to, bit, count, shift, delta, taken, marks, places, way = entry
                if gain:
                    if count > s:
                        break
                    if not bit or mask & bit:
                        passing.append(entry)
                        continue
                    child_mask = mask | bit
                else:
                    child_mask = mask
                if shift >= 0:
                    if (cards >> shift) & FIELD < count:
                        continue
                    child = cards - delta
                    compared = capped(child)
                elif strict:
                    self._visit_caravans(entry, child_mask, new + gain, cards, placed, placements, path)
                    continue
                else:
                    child = compared = capped(cards - delta)
                # Dominance (:meth:`_dominated`, inlined: this runs for every child).
                key = ((((placed | marks) << placed_shift) | child_mask) << town_shift) | to
                if strict_mask:
                    key = (key << SUPPLY) | (compared & strict_mask)
                seen = frontier.get(key)
                if seen is None:
                    frontier[key] = [compared]
                elif _covered(seen, compared):
                    continue
                path.append(taken)
                visit(to, child_mask, new + gain, child, placed | marks, placements + places, path)
                path.pop()

    def _visit_caravans(self, entry: _Entry, mask: int, new: int, cards: int, placed: int, placements: int,
                        path: list[_Taken]) -> None:
        """The children of a caravan under the strict rule: one for each choice of exact cards (see ``pay``)."""
        to, _, _, _, _, _, marks, places, way = entry
        for child, paid in pay(way, cards, strict=True):
            compared = capped(child)
            if self._dominated(self._key(to, mask, placed | marks, compared), compared):
                continue
            path.append((way, paid))
            self._visit(to, mask, new, child, placed | marks, placements + places, path)
            path.pop()

    def _empty_entries(self, town: int, cards: int, placed: int) -> list[_Entry]:
        """The entries of the empty roads out of ``town``: the placed counter's if I placed one there, else those
        of placing each counter type the supply still holds."""
        found: list[_Entry] = []
        for road in self.empty[town]:
            code = (placed >> road.shift) & 7
            if code:
                found.extend(road.placed[code - 1])
                continue
            for i, ways in road.fresh.items():
                if (cards >> (SUPPLY + i * WIDTH)) & FIELD:
                    found.extend(ways)
        return found


def beam_route(position: Position, width: int) -> Plan:
    """A good route found fast, without proof: a beam search over (town, towns collected) states.

    Step by step, every state kept so far takes every step it can pay; per (town, towns collected) only the
    state with the most cards left survives, and of those the ``width`` with the most towns, then the most cards
    left, go on. The best route met on the way (most points, then fewest cards) is returned. It is a starting
    route for CP-SAT on puzzles, where it has the best score about three times as often as a short depth-first
    glance (docs/solver-measurements.md).

    Raises:
        SolverError: the route failed the verifier (a bug).
    """
    search = _Search(position, alternatives=1, budget=None)
    Trail = tuple[tuple[Way, Hand | None], Any] | None  # the steps so far, last first
    layer: list[tuple[int, int, int, int, Trail]] = [(search.start, 0, 0, search.start_cards, None)]
    best: tuple[tuple[int, int], Trail] = ((-(10**9), 0), None)
    while layer:
        kept: dict[tuple[int, int], tuple[int, int, int, int, Trail]] = {}
        for town, mask, new, cards, trail in layer:
            s = (cards >> BUDGET) & FIELD
            value = (new - search.penalty[town], s - search.size)
            if value > best[0]:
                best = (value, trail)
            for to, way, _ in search.options[town]:
                bit = search.bit[to]
                gain = 1 if bit and not mask & bit else 0
                key = (to, mask | bit)
                for child, paid in pay(way, cards, strict=search.strict):
                    old = kept.get(key)
                    if old is None or (old[3] >> BUDGET) & FIELD < (child >> BUDGET) & FIELD:
                        kept[key] = (to, mask | bit, new + gain, child, ((way, paid), trail))
        layer = sorted(kept.values(), key=lambda state: (state[2], (state[3] >> BUDGET) & FIELD),
                       reverse=True)[:width]
    moves = []
    trail = best[1]
    while trail is not None:
        (way, paid), trail = trail
        moves.append(Move(way.frm, way.to, way.connection, way.pay, paid, way.count))
    moves.reverse()
    return assemble(position, moves, proven=False, solver="search")


def best_value(position: Position, *, limit: Limit | None = None, joint: bool = False,
               ceiling: int | None = None) -> tuple[tuple[int, int], frozenset[str]]:
    """The best route's (score, -cards spent) and the connections it travels, by the same search, without
    building the plan (with ``joint``, the best joint plan's).

    For advice that only aggregates values over many positions (sampled opponent hands): the plan is not shown,
    so it is neither assembled nor replayed. The position is taken as legal (derived from a checked one).
    ``ceiling``, a score no route of the position can beat (known from a related position), prunes from the
    first node on; it must be a true bound, or the value is wrong.

    Raises:
        SearchTimeout: the limit ran out before the search finished (the value would not be proven).
    """
    search = _Search(position, alternatives=1, budget=Budget(limit or Limit()), joint=joint)
    search.ceiling = ceiling
    search.run()
    (score, neg_spent, _), steps = max(search.found.values(), key=lambda item: item[0])
    return (score, neg_spent), frozenset(way.connection for way, _ in steps)


def solve_search(position: Position, *, alternatives: int = 1, limit: Limit | None = None,
                 budget: Budget | None = None, interrupt: Interrupt | None = None,
                 ceiling: Ceiling | None = None, joint: bool = False) -> Solution:
    """The best route (and ``alternatives - 1`` runners-up with other towns or end town) by exact search.

    With ``joint``, the best joint plan: my supply's counters placed on empty roads together with the route
    (the most points, then the fewest cards, then the fewest counters placed); without, the supply is ignored.

    The search gives up when ``limit`` (or the running ``budget``, which also carries a stop event) runs out, or
    when ``interrupt`` returns true (it is asked every 1024 nodes, and given a way to read the best moves so far);
    the best route found so far is then returned unproven. ``ceiling``, asked as often, may return an upper bound
    on the score proven elsewhere (CP-SAT's): the search then prunes every branch that could only beat it, and its
    proof leans on that bound (``stats["ceiling"]``). A node limit gives the same answer on any machine.

    Raises:
        SolverError: a found route failed the verifier (a bug).
    """
    budget = budget or Budget(limit or Limit())
    search = _Search(position, alternatives=alternatives, budget=budget, interrupt=interrupt, ceiling=ceiling,
                     joint=joint)
    proven = True
    try:
        search.run()
    except SearchTimeout:
        proven = False
    ranked = sorted(search.found.values(), key=lambda item: item[0], reverse=True)
    plans = tuple(assemble(position, _moves(steps), proven=proven, solver="search") for _, steps in ranked)
    stats: dict[str, Any] = {"nodes": search.nodes, "states": sum(len(v) for v in search.frontier.values())}
    if search.ceiling is not None:
        stats["ceiling"] = search.ceiling  # the proof leans on this bound too
    bound = plans[0].score if proven else max(plans[0].score, search.upper_bound())
    return Solution(plans, budget.status(proven=proven), bound, "search", budget.elapsed(), stats)
