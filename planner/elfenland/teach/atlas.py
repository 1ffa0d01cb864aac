"""Every answer of a small position: the best route for each (towns collected, end town), by exhaustive search.

The solvers find *the* best route; teaching needs more: every equally good answer (is a puzzle's answer
unique?), and the best route that avoids a feature (does *every* best route take a caravan?). :func:`explore`
answers both for positions with small hands (puzzles, real-game hands of 8 cards), walking every route step by
step, with cards counted as :mod:`planner.elfenland.teach.ways` counts them:

- per (town, towns so far) only labels that no other label beats on every card count survive (under the strict
  caravan rule only exact repeats are dropped: one more matching card can forbid a caravan, so a bigger hand may
  do less);
- ``forbid`` leaves out steps with a feature (caravans, upstream rafts, ferries, obstacle roads, or coming back
  to a town the route already stood in): the best of what is left says whether every best route needs it.

No bound prunes anything, so the cost grows quickly with the hand: about 8-10 cards is the intended size (see
:data:`MAX_LABELS`). It shares the cost table and the rule options with the solvers, not their code; the tests
hold it against both solvers and a brute force.
"""

from __future__ import annotations

from planner.common.values import frozen
from planner.elfenland.board import Crossing
from planner.elfenland.cards import Cards, budget_of, covers, pay, start_cards
from planner.elfenland.plan import Pay, Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers.common import Move, assemble
from planner.elfenland.teach.ways import NO_FEATURE, Feature, moves_of, ways_out
from planner.errors import UnsupportedError

__all__ = ["MAX_LABELS", "Atlas", "Entry", "explore", "route_features"]

MAX_LABELS = 300_000
"""Most labels one exploration may make before it gives up (a few seconds of work): a partial atlas would prove
nothing, so none is returned."""
WORK_PER_LABEL = 50
"""Comparisons with earlier labels allowed per label on average: many labels that no other label beats make
every new one slow to compare, so the work is capped too."""


@frozen
class Entry:
    """The best route found for one answer: the towns it collects and where it ends."""

    towns: frozenset[str]
    end: str
    value: tuple[int, int]
    """(score, -cards spent): larger is better."""
    moves: tuple[Move, ...]

    @property
    def score(self) -> int:
        """New towns minus the home-town penalty."""
        return self.value[0]

    @property
    def cards(self) -> int:
        """Cards spent."""
        return -self.value[1]


@frozen
class Atlas:
    """What :func:`explore` found: the best route of every answer (towns collected, end town) it can reach."""

    position: Position
    entries: dict[tuple[frozenset[str], str], Entry]
    forbid: Feature
    labels: int
    """How many labels the exploration made: its effort."""

    @property
    def best(self) -> tuple[int, int]:
        """The best (score, -cards) of any route (staying put is always one)."""
        return max(e.value for e in self.entries.values())

    def answers(self) -> list[Entry]:
        """Every answer with the best value, in a fixed order (towns, then end)."""
        best = self.best
        return [e for e in self.ranked() if e.value == best]

    def ranked(self) -> list[Entry]:
        """Every answer, best first (ties in a fixed order: towns, then end)."""
        return sorted(self.entries.values(), key=lambda e: (-e.value[0], -e.value[1], sorted(e.towns), e.end))

    def most_towns(self) -> int:
        """The most new towns any route collects (whatever the home-town penalty)."""
        return max(len(e.towns) for e in self.entries.values())

    def plan(self, entry: Entry) -> Plan:
        """The entry's route as a verified plan (caravans paid with the least valuable cards left).

        Raises:
            SolverError: the route does not replay (a bug).
        """
        return assemble(self.position, entry.moves, proven=True, solver="atlas")


_Label = tuple[str, int, Cards, tuple[Move, object] | None]
"""(town, mask, cards left, trail)."""


def explore(position: Position, *, forbid: Feature = NO_FEATURE, max_labels: int = MAX_LABELS) -> Atlas:
    """The best route of every answer (towns collected, end town) of ``position``, avoiding ``forbid``.

    Raises:
        IllegalPositionError: the position breaks the rules.
        UnsupportedError: more than ``max_labels`` labels were needed, or more than :data:`WORK_PER_LABEL` times
            as many comparisons (the hand is too big to list every route).
    """
    position.check()
    codes = list(position.board.towns)
    bit = {code: 1 << i for i, code in enumerate(codes)}
    collectable = position.collectable()
    collect_mask = sum(bit[c] for c in collectable)
    ways = ways_out(position, forbid=forbid)
    strict = position.rules.strict
    # A label's mask holds the towns collected so far; with BACKTRACK forbidden, every town stood in (the start
    # too), so that no step may enter one again.
    simple = bool(forbid & Feature.BACKTRACK)
    size = len(position.hand)
    first: _Label = (position.at, bit[position.at] if simple else 0, start_cards(position), None)
    fronts: dict[tuple[str, int], list[Cards]] = {(first[0], first[1]): [first[2]]}
    best: dict[tuple[int, str], tuple[tuple[int, int], tuple[Move, object] | None]] = {}
    labels = work = 1
    layer = [first]
    while layer:
        following: list[_Label] = []
        for town, mask, cards, trail in layer:
            collected = mask & collect_mask
            value = (collected.bit_count() - position.home_penalty(town), budget_of(cards) - size)
            key = (collected, town)
            if key not in best or best[key][0] < value:
                best[key] = (value, trail)
            for way in ways[town]:
                to_bit = bit[way.to]
                if simple and mask & to_bit:
                    continue
                new_mask = mask | (to_bit if simple or way.to in collectable else 0)
                front = fronts.setdefault((way.to, new_mask), [])
                work += 1
                for left, paid in pay(way, cards, strict=strict):
                    work += len(front)
                    if left in front if strict else any(covers(other, left) for other in front):
                        continue
                    if not strict:
                        front[:] = [other for other in front if not covers(left, other)]
                    front.append(left)
                    labels += 1
                    if labels > max_labels or work > max_labels * WORK_PER_LABEL:
                        raise UnsupportedError(f"too many routes to list them all (over {max_labels} states) for "
                                               f"{position}: {size} cards are too many for an exhaustive look")
                    move = Move(town, way.to, way.connection, way.pay, paid, way.count)
                    following.append((way.to, new_mask, left, (move, trail)))
        layer = following
    entries = {}
    for (collected, end), (value, trail) in best.items():
        towns = frozenset(c for c in collectable if collected & bit[c])
        entries[(towns, end)] = Entry(towns, end, value, moves_of(trail))
    return Atlas(position, entries, forbid, labels)


def route_features(plan: Plan) -> Feature:
    """The features of a route's steps (caravan, upstream, ferry, obstacle, backtrack)."""
    position = plan.position
    board = position.board
    tiles = position.tile_map()
    found = NO_FEATURE
    been = {position.at}
    for step in plan.steps:
        connection = board.connections[step.connection]
        way = connection.way(step.frm)
        tile = tiles.get(step.connection)
        for present, feature in ((step.pay is Pay.CARAVAN, Feature.CARAVAN),
                                 (way is Crossing.UPSTREAM, Feature.UPSTREAM), (way is Crossing.LAKE, Feature.FERRY),
                                 (step.to in been, Feature.BACKTRACK),
                                 (connection.is_road and tile is not None and tile.obstacle, Feature.OBSTACLE)):
            if present:
                found |= feature
        been.add(step.to)
    return found
