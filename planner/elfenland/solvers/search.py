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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from planner.common.limits import Budget, Limit
from planner.elfenland.board import load_board
from planner.elfenland.keep import card_values
from planner.elfenland.plan import Pay, Plan
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, TRANSPORTS, Rules, Transport, can_carry, counter_cost, raft_cost
from planner.elfenland.solvers.common import Move, Solution, assemble

_RAFT = TRANSPORTS.index(Transport.RAFT)
_NO_LIMIT = 1 << 62
_ANY = -1  # card index of a caravan's any-card payment


# Cards left are packed in one integer, eight bits per field: fields 0..6 hold the cards of each type not yet
# paid to counters or rafts (h), field 7 the budget of cards not yet committed at all (s), fields 8..13 the
# counters of each land transport left in the supply. Bit 7 of every field is kept clear, so "a >= b in every
# field" is one subtraction: ((a | GUARD) - b) & GUARD == GUARD.
_BITS = 8
_FIELD = (1 << _BITS) - 1
_BUDGET = len(TRANSPORTS) * _BITS
_SUPPLY = _BUDGET + _BITS
"""Shift of the supply's first field; the field of counter type ``i`` is at ``_SUPPLY + i * _BITS``."""
_GUARD = sum(1 << (i * _BITS + _BITS - 1) for i in range(len(TRANSPORTS) + 1 + len(COUNTER_TRANSPORTS)))
_PLACED_BITS = 3
"""Bits per road in the placed-roads integer: 0 for none, else 1 + the index of the counter placed there."""


def _pack(h: tuple[int, ...], s: int, supply: tuple[int, ...] = ()) -> int:
    packed = s << _BUDGET
    for i, n in enumerate(h):
        packed |= n << (i * _BITS)
    for i, n in enumerate(supply):
        packed |= n << (_SUPPLY + i * _BITS)
    return packed


def _unpack(packed: int) -> tuple[tuple[int, ...], int]:
    return tuple((packed >> (i * _BITS)) & _FIELD for i in range(len(TRANSPORTS))), (packed >> _BUDGET) & _FIELD


@dataclass(frozen=True, slots=True)
class _Option:
    """One way to take one step from a town."""

    to: int
    connection: str
    pay: Pay
    card: int
    """Index of the card type paid, or _ANY for a caravan."""
    count: int
    strict_card: int = _ANY
    """For caravans under the strict rule: the counter's card type and cost that must be unaffordable."""
    strict_cost: int = 0
    delta: int = 0
    """What paying this option takes off the packed cards (the chosen type, if any, and the budget)."""
    paid: Hand | None = None
    """The exact cards paid (None for a caravan under the default rule: chosen at the end)."""
    place: int = _ANY
    """For a step onto an empty road: the index of the counter placed there first (taken from the supply)."""
    placed: int = 0
    """What placing the counter adds to the placed-roads integer (its road's field)."""

    @classmethod
    def make(cls, to: int, connection: str, pay: Pay, card: int, count: int, strict_card: int = _ANY,
             strict_cost: int = 0, *, place: int = _ANY, road: int = 0) -> _Option:
        supply = (1 << (_SUPPLY + place * _BITS)) if place != _ANY else 0
        placed = (place + 1) << (road * _PLACED_BITS) if place != _ANY else 0
        if card == _ANY:
            return cls(to, connection, pay, card, count, strict_card, strict_cost, (count << _BUDGET) | supply,
                       None, place, placed)
        paid = Hand(tuple(count if i == card else 0 for i in range(len(TRANSPORTS))))
        return cls(to, connection, pay, card, count, strict_card, strict_cost,
                   (count << _BUDGET) | (count << (card * _BITS)) | supply, paid, place, placed)


@dataclass(frozen=True, slots=True)
class _EmptyRoad:
    """One direction of an empty road a counter of the supply could open: the options for each counter type, to
    place (``fresh``) or to use once placed (``placed``), by type index."""

    shift: int
    """The road's field in the placed-roads integer."""
    fresh: dict[int, tuple[_Option, ...]]
    placed: dict[int, tuple[_Option, ...]]


@functools.lru_cache(maxsize=64)
def _board_options(tiles: tuple[Tile, ...], rules: Rules, size: int) -> tuple[tuple[_Option, ...], ...]:
    """Every way to take one step from each town (by town index) on this board, for hands of ``size`` cards.

    Cached: advice solves the same board for many hands (sampled opponent hands, what-ifs), and building the
    options is a good part of a small solve. The last 64 boards only (the keep advice's 30 sampled next rounds
    fit): 256 held some 50,000 objects, and the collector's sweeps over them cost a real-game solve 15-20 ms now
    and then.
    """
    board = load_board()
    index = {code: i for i, code in enumerate(board.towns)}
    tile_of = {t.road: t for t in tiles}
    options: list[list[_Option]] = [[] for _ in board.towns]
    for c in board.connections.values():
        for frm, to in ((c.a, c.b), (c.b, c.a)):
            here = options[index[frm]]
            if not c.is_road:
                here.append(_Option.make(index[to], c.id, Pay.RAFT, _RAFT, raft_cost(c, frm)))
                continue
            tile = tile_of.get(c.id)
            if tile is None or tile.transport is None:
                continue
            cost = counter_cost(tile.transport, c.terrain, obstacle=tile.obstacle)
            assert cost is not None
            card = TRANSPORTS.index(tile.transport)
            here.append(_Option.make(index[to], c.id, Pay.COUNTER, card, cost))
            price = rules.caravan_cost(cost, obstacle=tile.obstacle)
            if price <= size:
                here.append(_Option.make(index[to], c.id, Pay.CARAVAN, _ANY, price, card, cost))
    return tuple(tuple(here) for here in options)


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


def _steps(costs: tuple[int, ...], cards: int) -> int:
    """How many of the steps ``costs`` (cheapest first) ``cards`` pay for at most."""
    steps = 0
    for cost in costs:
        if cost > cards:
            break
        cards -= cost
        steps += 1
    return steps


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
        options = _board_options(position.tiles, position.rules, size)
        hand = position.hand.counts
        self.options = [[o for o in opts if o.card == _ANY or o.count <= hand[o.card]] for opts in options]
        # Empty roads the supply could open, per town.
        supply = position.supply.counts[:len(COUNTER_TRANSPORTS)] if joint else (0,) * len(COUNTER_TRANSPORTS)
        self.joint = any(supply)
        self.empty: list[list[_EmptyRoad]] = [[] for _ in self.codes]
        if self.joint:
            self._add_empty_roads(position, index, tiles, supply, size)
        # Ways into each collectable town, cheapest first, for the bound (placements counted as if unlimited).
        reach = [[*opts, *(o for road in self.empty[i] for opts_t in road.fresh.values() for o in opts_t)]
                 for i, opts in enumerate(self.options)]
        into: dict[int, set[tuple[int, int]]] = {}
        for opts in reach:
            for o in opts:
                if self.bit[o.to]:
                    into.setdefault(o.to, set()).add((o.card * _BITS if o.card != _ANY else _ANY, o.count))
        self.entries: list[tuple[int, list[tuple[int, int]]]] = [
            (self.bit[i], sorted(into[i], key=lambda w: w[1])) for i in range(len(self.codes)) if i in into]
        # Collectable towns one step away, and the cheapest step, per town.
        self.near = [0] * len(self.codes)
        self.transit = [0] * len(self.codes)
        for i, opts in enumerate(reach):
            for o in opts:
                self.near[i] |= self.bit[o.to]
            self.transit[i] = min((o.count for o in opts), default=0)
        self.start = index[position.at]
        self._card_bound(position, supply)
        self.size = size
        self.start_cards = _pack(hand, size, supply)
        # Under the strict rule, the fields that must be equal for one state to dominate another: every counter
        # transport on the board (see the module docstring); none otherwise.
        on_board = {t.transport for t in position.tiles if t.transport is not None}
        on_board |= {t for t, n in zip(COUNTER_TRANSPORTS, supply, strict=False) if n}  # counters I may place
        self.strict_mask = sum(_FIELD << (TRANSPORTS.index(t) * _BITS) for t in on_board) if self.strict else 0
        # Results: best value per (collected, end) and the moves reaching it. A value is (score, -cards spent,
        # -counters placed).
        self.found: dict[tuple[int, int], tuple[tuple[int, int, int], tuple[Move, ...]]] = {}
        self.threshold: tuple[int, int, int] = (-(10**9), -(10**9), -(10**9))
        self.frontier: dict[tuple[int, int, int], list[int]] = {}
        self.nodes = 0
        self.ceiling: int | None = None
        """The latest proven upper bound on the score from elsewhere (CP-SAT's), or None."""

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
            for frm, to in ((c.a, c.b), (c.b, c.a)):
                fresh: dict[int, tuple[_Option, ...]] = {}
                placed: dict[int, tuple[_Option, ...]] = {}
                for i in types:
                    cost = counter_cost(COUNTER_TRANSPORTS[i], c.terrain)
                    assert cost is not None
                    price = position.rules.caravan_cost(cost, obstacle=False)
                    for where, place in ((fresh, i), (placed, _ANY)):
                        road = number if place != _ANY else 0
                        ways = []
                        if cost <= hand[i]:
                            ways.append(_Option.make(index[to], c.id, Pay.COUNTER, i, cost, place=place, road=road))
                        if price <= size:
                            ways.append(_Option.make(index[to], c.id, Pay.CARAVAN, _ANY, price, i, cost, place=place,
                                                     road=road))
                        where[i] = tuple(ways)
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
        self.board_by_card = tuple((i * _BITS, tuple(sorted(c))) for i, c in enumerate(on_board) if c)
        self.by_card = tuple((i * _BITS, tuple(sorted(c))) for i, c in enumerate(mine) if c)
        self.raft_least = rafts
        self.caravan_least = position.rules.caravan_cost(1, obstacle=False)
        # A road gives at most one new town (both its ends are visited once travelled), except a way back to a
        # start town still to collect: one town more.
        self.start_slack = 1 if self.bit[self.start] else 0

    def _by_cards(self, cards: int) -> tuple[int, list[int]]:
        """At most how many more towns the cards pay for, and the costs of the steps into them that matching
        cards or rafts may pay, cheapest first: a step into a new town pays a counter (on a road of its own, so
        per type at most the cheapest roads its cards pay for), a raft, or a caravan (at least
        ``caravan_least`` of the budget, which shares what is left)."""
        s = (cards >> _BUDGET) & _FIELD
        steps = [self.raft_least] * (((cards >> (_RAFT * _BITS)) & _FIELD) // self.raft_least)
        steps += [1] * self.start_slack
        for shift, costs in self.by_card:
            steps += costs[:_steps(costs, (cards >> shift) & _FIELD)]
        steps.sort()
        matched = len(steps)
        if matched >= s:
            return s, steps
        return matched + (s - matched) // self.caravan_least, steps

    def _placements_needed(self, cards: int, towns: int, budget: int, start_open: bool) -> int:
        """At least how many more counters a route from this state places to collect ``towns`` more with at most
        ``budget`` more cards: a new town not reached by a raft or a counter on the board (one town per counter,
        by matching cards or a caravan) needs a road of mine still to place (a road I placed before has both its
        ends visited). Rafts, matching cards and placed roads take a card a step at least, a caravan
        ``caravan_least``: so at most ``(budget - towns) // (caravan_least - 1)`` steps are caravans."""
        rafts = min(((cards >> (_RAFT * _BITS)) & _FIELD) // self.raft_least, budget)
        matched = 0
        for shift, costs in self.board_by_card:
            matched += _steps(costs, (cards >> shift) & _FIELD)
        matched = min(matched, self.board_counters, budget - rafts)
        extra = self.caravan_least - 1
        caravans = min(self.board_counters - matched, max(0, budget - towns) // extra) if extra > 0 else 0
        return max(0, towns - rafts - matched - caravans - (1 if start_open else 0))

    def _optimistic(self, town: int, new: int, mask: int, cards: int) -> tuple[int, int]:
        """The most points any route on from this state can reach, and the fewest cards it then pays on top."""
        s = (cards >> _BUDGET) & _FIELD
        costs = []
        for bit, ways in self.entries:
            if mask & bit:
                continue
            for shift, count in ways:
                if count > s:
                    break
                if shift == _ANY or (cards >> shift) & _FIELD >= count:
                    costs.append(count)
                    break
        costs.sort()
        # Towns worth counting: all, or only up to the ceiling (no route scores above it).
        wanted = len(costs) if self.ceiling is None else min(len(costs), max(0, self.ceiling - new))
        most, steps = self._by_cards(cards)
        wanted = min(wanted, most)
        extra, budget, needed = 0, s, 0
        if wanted and not self.near[town] & ~mask:
            # No uncollected town is one step away: a step that collects nothing comes first.
            budget -= self.transit[town]
            needed += self.transit[town]
        for cost in costs[:wanted]:
            if cost > budget:
                break
            budget -= cost
            needed += cost
            extra += 1
        top = new + extra if self.ceiling is None else min(new + extra, self.ceiling)
        # The cheapest steps matching cards and rafts may pay, and caravans for the towns beyond them.
        if extra:
            paid = min(extra, len(steps))
            needed = max(needed, sum(steps[:paid]) + (extra - paid) * self.caravan_least)
        return top, needed

    def _prunable(self, town: int, new: int, mask: int, cards: int, placements: int) -> bool:
        best_score, best_neg_spent, best_neg_placed = self.threshold
        top, needed = self._optimistic(town, new, mask, cards)
        if top != best_score:
            return top < best_score
        spent = self.size - ((cards >> _BUDGET) & _FIELD) + needed
        if spent != -best_neg_spent:
            return spent > -best_neg_spent
        if placements >= -best_neg_placed:
            return True  # placing more can only make it worse
        if not self.joint:
            return False
        # It can at best tie on points and cards: then on the counters it must still place.
        start_open = bool(self.bit[self.start]) and not mask & self.bit[self.start]
        budget = -best_neg_spent - (self.size - ((cards >> _BUDGET) & _FIELD))  # to spend no more than the best
        return placements + self._placements_needed(cards, best_score - new, budget, start_open) >= -best_neg_placed

    def upper_bound(self) -> int:
        """A proven upper bound on the score of any route: the bound at the start (or the ceiling, if lower)."""
        top, _ = self._optimistic(self.start, 0, 0, self.start_cards)
        return top

    # -- results -------------------------------------------------------------------------------------------------
    def _record(self, town: int, mask: int, new: int, s: int, placements: int, path: list[Move]) -> None:
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
        return max(self.found.values(), key=lambda item: item[0])[1] if self.found else ()

    # -- the walk ------------------------------------------------------------------------------------------------
    def _dominated(self, town: int, mask: int, placed: int, cards: int) -> bool:
        s = (cards >> _BUDGET) & _FIELD
        if s < self.size:
            # More cards of a type than the budget can never be spent: cap them, so more states compare.
            for i in range(len(TRANSPORTS)):
                shift = i * _BITS
                n = (cards >> shift) & _FIELD
                if n > s:
                    cards -= (n - s) << shift
        key = (town, mask, placed)
        seen = self.frontier.get(key)
        if seen is None:
            self.frontier[key] = [cards]
            return False
        guarded = cards | _GUARD
        strict_mask = self.strict_mask
        same = cards & strict_mask
        for other in seen:
            if ((other | _GUARD) - cards) & _GUARD == _GUARD and other & strict_mask == same:
                return True
        seen[:] = [other for other in seen
                   if (guarded - other) & _GUARD != _GUARD or other & strict_mask != same]
        seen.append(cards)
        return False

    def run(self) -> None:
        self._visit(self.start, 0, 0, self.start_cards, 0, 0, [])

    def _visit(self, town: int, mask: int, new: int, cards: int, placed: int, placements: int,
               path: list[Move]) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchTimeout
        if self.nodes & 1023 == 0:
            if (self.budget is not None and self.budget.expired()) or (
                    self.interrupt is not None and self.interrupt(self.nodes, self.best_moves)):
                raise SearchTimeout
            if self.ceiling_source is not None:
                self.ceiling = self.ceiling_source()
        s = (cards >> _BUDGET) & _FIELD
        self._record(town, mask, new, s, placements, path)
        if s == 0 or self._prunable(town, new, mask, cards, placements):
            return
        children: list[tuple[int, int, int, int, int, int, _Option, Hand | None]] = []
        bits = self.bit
        options = self.options[town]
        if self.empty[town]:
            options = [*options, *self._empty_options(town, cards, placed)]
        for option in options:
            to = option.to
            gain = 1 if bits[to] and not mask & bits[to] else 0
            for child, cards_paid in self._payments(option, cards, s):
                children.append((-gain, option.count, len(children), to, gain, child, option, cards_paid))
        children.sort()
        code = self.codes[town]
        for _, _, _, to, gain, child, option, cards_paid in children:
            child_mask = mask | bits[to] if gain else mask
            child_placed = placed | option.placed
            if self._dominated(to, child_mask, child_placed, child):
                continue
            place = COUNTER_TRANSPORTS[option.place] if option.place != _ANY else None
            path.append(Move(code, self.codes[to], option.connection, option.pay, cards_paid, option.count, place))
            self._visit(to, child_mask, new + gain, child, child_placed, placements + (place is not None), path)
            path.pop()

    def _empty_options(self, town: int, cards: int, placed: int) -> list[_Option]:
        """The options of the empty roads out of ``town``: the placed counter's if I placed one there, else those
        of placing each counter type the supply still holds."""
        found: list[_Option] = []
        for road in self.empty[town]:
            code = (placed >> road.shift) & 7
            if code:
                found.extend(road.placed[code - 1])
                continue
            for i, ways in road.fresh.items():
                if (cards >> (_SUPPLY + i * _BITS)) & _FIELD:
                    found.extend(ways)
        return found

    def _payments(self, option: _Option, cards: int, s: int) -> list[tuple[int, Hand | None]]:
        count = option.count
        if count > s:
            return []
        if option.card != _ANY:
            if (cards >> (option.card * _BITS)) & _FIELD < count:
                return []
            return [(cards - option.delta, option.paid)]
        if not self.strict:
            return [(cards - option.delta, None)]
        h, _ = _unpack(cards)
        if h[option.strict_card] >= option.strict_cost:
            return []
        # Strict rule: the hand is exact (h sums to s), so branch over which cards the caravan takes.
        return [(cards - option.delta - _pack(combo, 0), Hand(combo)) for combo in _sub_multisets(h, count)]


def _sub_multisets(h: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    """Every way to take ``count`` cards from the hand ``h`` (as count vectors), least valuable first.

    The order matters: among equally good routes the search keeps the first it finds, so caravans then pay
    with the cards the keep rule values least.
    """
    result = []
    for combo in itertools.combinations_with_replacement(range(len(h)), count):
        taken = [0] * len(h)
        for i in combo:
            taken[i] += 1
        if all(t <= n for t, n in zip(taken, h, strict=True)):
            result.append(tuple(taken))
    values = [card_values()[t] for t in TRANSPORTS]
    result.sort(key=lambda taken: sum(n * v for n, v in zip(taken, values, strict=True)))
    return result


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
    codes = search.codes
    Trail = tuple[tuple[int, _Option, Hand | None], Any] | None  # the steps so far, last first
    layer: list[tuple[int, int, int, int, Trail]] = [(search.start, 0, 0, search.start_cards, None)]
    best: tuple[tuple[int, int], Trail] = ((-(10**9), 0), None)
    while layer:
        kept: dict[tuple[int, int], tuple[int, int, int, int, Trail]] = {}
        for town, mask, new, cards, trail in layer:
            s = (cards >> _BUDGET) & _FIELD
            value = (new - search.penalty[town], s - search.size)
            if value > best[0]:
                best = (value, trail)
            for option in search.options[town]:
                bit = search.bit[option.to]
                gain = 1 if bit and not mask & bit else 0
                key = (option.to, mask | bit)
                for child, paid in search._payments(option, cards, s):
                    old = kept.get(key)
                    if old is None or (old[3] >> _BUDGET) & _FIELD < (child >> _BUDGET) & _FIELD:
                        kept[key] = (option.to, mask | bit, new + gain, child, ((town, option, paid), trail))
        layer = sorted(kept.values(), key=lambda state: (state[2], (state[3] >> _BUDGET) & _FIELD),
                       reverse=True)[:width]
    moves = []
    trail = best[1]
    while trail is not None:
        (town, option, paid), trail = trail
        moves.append(Move(codes[town], codes[option.to], option.connection, option.pay, paid, option.count))
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
    (score, neg_spent, _), moves = max(search.found.values(), key=lambda item: item[0])
    return (score, neg_spent), frozenset(move.connection for move in moves)


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
    plans = tuple(assemble(position, list(moves), proven=proven, solver="search") for _, moves in ranked)
    stats: dict[str, Any] = {"nodes": search.nodes, "states": sum(len(v) for v in search.frontier.values())}
    if search.ceiling is not None:
        stats["ceiling"] = search.ceiling  # the proof leans on this bound too
    bound = plans[0].score if proven else max(plans[0].score, search.upper_bound())
    return Solution(plans, budget.status(proven=proven), bound, "search", budget.elapsed(), stats)
