"""The bots: each seat chooses its actions from its :class:`~planner.elfenland.game.state.View`, never the state.

- ``random``: a uniform choice among the legal actions (a travel is a random walk: at each town, stop or one of
  the legal steps, uniformly);
- ``greedy``, the baseline: draws the counter the next empty road of its way needs (else blind), places a counter
  on the first empty road of that way, travels to the nearest affordable uncollected town one after another,
  discards down to its most plentiful cards and keeps the cheapest counter. Its way is the shortest path (every
  link) to the nearest uncollected town, then on from there to the next, ``WAY_TOWNS`` towns in all;
- ``router``: greedy drawing and placing, but it travels the proven best route (:func:`~planner.elfenland.solvers.
  solve`) and keeps cards, end town and counter by the keep advice (:mod:`~planner.elfenland.advice.keeping`);
- ``advisor``: every decision by the project's advice (one exception below): the draw
  (:mod:`~planner.elfenland.advice.drawing`), the placement to make now (:mod:`~planner.elfenland.advice.placing`),
  the obstacle (:mod:`~planner.elfenland.advice.obstacle`), the route and the keep as the router. The exception:
  where the placement advice says pass while its joint plan still places a counter, the advisor places (the advice
  counts planning's end, once everybody passes in a row, as one reply to a pass, but still passes where placing
  invites a worse reply; the advisor does not wait).

Every solve of the router and the advisor runs the pure-Python search under a node limit (``ROUTE_NODES``,
``ADVICE_NODES``), so a seat's choices are the same on any machine and bounded in time; an unproven route is still
legal (the verifier replays it). The obstacle advice takes no limit of its own (its solves run under its time
limits, which real-game positions stay far inside); it gets few samples (``OBSTACLE_SAMPLES``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from planner.common.limits import Limit
from planner.elfenland.board import load_board
from planner.elfenland.game.engine import options, position_of, step_options
from planner.elfenland.game.state import (
    Action,
    Discard,
    Draw,
    Keep,
    Pass,
    Phase,
    Place,
    PlaceObstacle,
    Travel,
    View,
)
from planner.elfenland.keep import cheapest_cards, keep_cards
from planner.elfenland.plan import Pay, Step
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COSTS, COUNTER_TRANSPORTS, KEEP_LIMIT, TRANSPORTS, Transport, counter_cost

__all__ = ["ADVICE_NODES", "ROUTE_NODES", "SEATS", "Seat", "make_seat"]

#: Towns the greedy way runs through.
WAY_TOWNS = 4
#: Steps the greedy traveller looks ahead for the nearest affordable town.
LOOK_AHEAD = 4
#: Search nodes of each route solve of the router and the advisor.
ROUTE_NODES = 200_000
#: Search nodes of each joint solve inside the draw and placement advice.
ADVICE_NODES = 20_000
#: Samples of the next round for the keep advice.
KEEP_SAMPLES = 6
#: Routes as good as the best, offered to the keep advice as choices of end town.
KEEP_CHOICES = 4
#: Sampled opponent hands of the obstacle advice.
OBSTACLE_SAMPLES = 12


class Seat(Protocol):
    """A player at the table: one action for each view in which it is to act."""

    kind: str
    timings: dict[str, list[float]]
    """Seconds per decision, by kind (``draw``, ``place``, ``obstacle``, ``route``, ``keep``)."""

    def choose(self, seen: View) -> Action: ...


def _only(seen: View) -> Action | None:
    """The single legal action, when there is just one (a forced pass or keep)."""
    found = []
    for action in options(seen):
        found.append(action)
        if len(found) > 1:
            return None
    return found[0] if found else None


@dataclass
class RandomSeat:
    """Uniform among the legal actions; a travel is a uniform random walk."""

    seed: str
    kind: str = "random"
    timings: dict[str, list[float]] = field(default_factory=dict)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, seen: View) -> Action:
        if seen.phase is Phase.TRAVEL:
            position = position_of(seen)
            here, hand = position.at, position.hand
            steps: list[Step] = []
            while True:
                nexts = list(step_options(position, here, hand))
                pick = self.rng.randrange(len(nexts) + 1)
                if pick == len(nexts):
                    return Travel(tuple(steps))
                steps.append(nexts[pick])
                here, hand = nexts[pick].to, hand.without(nexts[pick].cards)
        return self.rng.choice(list(options(seen)))


# -- the greedy baseline ---------------------------------------------------------------------------------------------
def way(position: Position, towns: int = WAY_TOWNS) -> list[str]:
    """The connections of the greedy way: the shortest path (every link, fewest links, board order on ties) to the
    nearest uncollected town, then on to the next nearest from there, ``towns`` towns in all.

    A breadth-first search over the board's networkx graph, whose neighbours and parallel links keep the board's
    order, so the first uncollected town it reaches is the nearest one, first in board order among equals.
    """
    import networkx as nx  # the seats' graph searches; no command on the route's path loads it

    graph = position.board.graph
    here, left = position.at, set(position.collectable())
    links: list[str] = []
    for _ in range(towns):
        parent: dict[str, str] = {}
        target = None
        for frm, to in nx.bfs_edges(graph, here):
            parent[to] = frm
            if to in left:
                target = to
                break
        if target is None:
            break
        path, node = [], target
        while node != here:
            prev = parent[node]
            path.append(next(iter(graph[prev][node])))  # the first link between the two in board order
            node = prev
        links += reversed(path)
        left.discard(target)
        here = target
    return links


def _empty_roads(position: Position) -> list[str]:
    board, tiles = position.board, position.tile_map()
    return list(dict.fromkeys(r for r in way(position) if board.connections[r].is_road and r not in tiles))


def _fit(road: str, counters: list[Transport], hand: Hand) -> Transport | None:
    """The counter of ``counters`` best for ``road``: one my hand pays, then the cheapest (chart order on ties)."""
    terrain = load_board().connections[road].terrain
    fits = [(hand[t] < cost, cost, TRANSPORTS.index(t), t) for t in dict.fromkeys(counters)
            if (cost := counter_cost(t, terrain)) is not None]
    return min(fits)[3] if fits else None


def greedy_draw(seen: View) -> Action:
    """The face-up counter the next empty road of the way needs, else blind."""
    roads = _empty_roads(position_of(seen))
    if roads:
        wanted = _fit(roads[0], list(seen.display), seen.hand)
        if wanted is not None:
            return Draw(seen.display.index(wanted))
    return Draw(None) if seen.stack else Draw(0)


def greedy_place(seen: View) -> Action:
    """A counter on the first empty road of the way that one of mine fits, else pass."""
    held = [t for t in COUNTER_TRANSPORTS if seen.counters[t]]
    for road in _empty_roads(position_of(seen)):
        counter = _fit(road, held, seen.hand)
        if counter is not None:
            return Place(counter, road)
    return Pass()


def greedy_route(position: Position) -> Travel:
    """To the nearest affordable uncollected town (fewest steps, then cards, then town code), again and again."""
    here, hand, visited = position.at, position.hand, set(position.visited)
    steps: list[Step] = []
    while True:
        frontier: list[tuple[str, Hand, tuple[Step, ...]]] = [(here, hand, ())]
        found: tuple[tuple[int, str], tuple[Step, ...], Hand] | None = None
        for _ in range(LOOK_AHEAD):
            nxt = []
            for town, cards, path in frontier:
                for step in _greedy_steps(position, town, cards):
                    left = cards.without(step.cards)
                    moved: tuple[Step, ...] = (*path, step)
                    if step.to not in visited and position.board.towns[step.to].has_marker:
                        key = (len(position.hand) - len(left), step.to)
                        if found is None or key < found[0]:
                            found = (key, moved, left)
                    nxt.append((step.to, left, moved))
            if found is not None or not nxt:
                break
            frontier = nxt
        if found is None:
            return Travel(tuple(steps))
        _, moved, hand = found
        steps += moved
        here = moved[-1].to
        visited |= {s.to for s in moved}


def _greedy_steps(position: Position, here: str, hand: Hand) -> list[Step]:
    """One step per link: matching cards or rafts when the hand pays them, else the cheapest caravan."""
    chosen: dict[str, Step] = {}
    for step in step_options(position, here, hand):
        old = chosen.get(step.connection)
        if old is None or (old.pay is Pay.CARAVAN and step.pay is not Pay.CARAVAN):
            chosen[step.connection] = step
    out = []
    for step in chosen.values():
        if step.pay is Pay.CARAVAN:
            step = Step(step.frm, step.to, step.connection, step.pay, cheapest_cards(hand, len(step.cards)))
        out.append(step)
    return out


def plentiful(hand: Hand) -> Hand:
    """The four cards of the types I hold most of (chart order on ties)."""
    ranked = sorted(hand.cards(), key=lambda t: (-hand[t], TRANSPORTS.index(t)))
    return Hand.of(ranked[:KEEP_LIMIT])


def _mean_cost(transport: Transport) -> float:
    roads = load_board().roads
    costs = [COSTS[transport][r.terrain] for r in roads if r.terrain in COSTS[transport]]
    return sum(costs) / len(costs)


def cheapest_counter(counters: Hand) -> Transport | None:
    """The counter that costs the fewest cards on the roads it travels, on average (chart order on ties)."""
    held = [t for t in COUNTER_TRANSPORTS if counters[t]]
    return min(held, key=lambda t: (_mean_cost(t), TRANSPORTS.index(t))) if held else None


def _timed(timings: dict[str, list[float]], kind: str, work: Callable[[], Action]) -> Action:
    started = time.perf_counter()
    try:
        return work()
    finally:
        timings.setdefault(kind, []).append(time.perf_counter() - started)


@dataclass
class GreedySeat:
    """The baseline (see the module docstring)."""

    seed: str
    kind: str = "greedy"
    timings: dict[str, list[float]] = field(default_factory=dict)

    def choose(self, seen: View) -> Action:
        forced = _only(seen)
        if forced is not None:
            return forced
        if seen.phase is Phase.DRAW:
            return _timed(self.timings, "draw", lambda: self.draw(seen))
        if seen.phase is Phase.PLAN:
            return _timed(self.timings, "place", lambda: self.place(seen))
        if seen.phase is Phase.TRAVEL:
            return _timed(self.timings, "route", lambda: self.travel(seen))
        if seen.phase is Phase.DISCARD:
            return Discard(seen.hand.without(self.cards_to_keep(seen)))
        return Keep(self.counter_to_keep(seen))

    def draw(self, seen: View) -> Action:
        return greedy_draw(seen)

    def place(self, seen: View) -> Action:
        return greedy_place(seen)

    def travel(self, seen: View) -> Action:
        return greedy_route(position_of(seen))

    def cards_to_keep(self, seen: View) -> Hand:
        return plentiful(seen.hand)

    def counter_to_keep(self, seen: View) -> Transport | None:
        return cheapest_counter(seen.counters)


@dataclass
class RouterSeat(GreedySeat):
    """Greedy drawing and placing; the proven best route and the keep advice."""

    kind: str = "router"
    _keep_cards: Hand | None = None
    _keep_counter: Transport | None = None

    def travel(self, seen: View) -> Action:
        from planner.elfenland.advice.keeping import advise_keep
        from planner.elfenland.solvers import solve

        position = position_of(seen)
        solution = solve(position, solver="search", alternatives=KEEP_CHOICES, limit=Limit(nodes=ROUTE_NODES))
        plan = solution.plan
        self._keep_cards, self._keep_counter = None, None
        started = time.perf_counter()
        advice = advise_keep(position_of(seen, advice=True), solution.plans, samples=KEEP_SAMPLES,
                             seed=seen.round)
        if advice is not None:
            best = advice.best
            plan = next((p for p in solution.plans if p.value == plan.value and p.end == best.end), plan)
            self._keep_cards, self._keep_counter = best.cards, best.counter
            self.timings.setdefault("keep", []).append(time.perf_counter() - started)
        return Travel(plan.steps)

    def cards_to_keep(self, seen: View) -> Hand:
        cards = self._keep_cards
        if cards is not None and len(cards) == KEEP_LIMIT and seen.hand.contains(cards):
            return cards
        return keep_cards(seen.hand)

    def counter_to_keep(self, seen: View) -> Transport | None:
        counter = self._keep_counter
        return counter if counter is not None and seen.counters[counter] else None


@dataclass
class AdvisorSeat(RouterSeat):
    """Every decision by the project's advice (see the module docstring)."""

    kind: str = "advisor"
    _obstacle_checked: tuple[object, ...] | None = None

    def draw(self, seen: View) -> Action:
        from planner.elfenland.advice.drawing import advise_draw

        advice = advise_draw(position_of(seen, advice=True), solver="search", limit=Limit(nodes=ADVICE_NODES))
        counter = advice.best.counter
        if counter is None or counter not in seen.display:
            return Draw(None) if seen.stack else Draw(0)
        return Draw(seen.display.index(counter))

    def place(self, seen: View) -> Action:
        position = position_of(seen, advice=True)
        if len(seen.counters):
            tile = advised_placement(position)
            if tile is not None and tile.transport is not None:
                return Place(tile.transport, tile.road)
        if seen.own.obstacle and any(t.transport is not None and not t.obstacle for t in seen.tiles):
            return _timed(self.timings, "obstacle", lambda: self.obstacle(seen, position))
        return Pass()

    def obstacle(self, seen: View, position: Position) -> Action:
        """My obstacle where the obstacle advice puts it, or pass when it says hold (asked once per board)."""
        from planner.elfenland.advice.obstacle import advise_obstacle

        key = (seen.round, seen.tiles)
        if self._obstacle_checked == key:
            return Pass()
        self._obstacle_checked = key
        advice = advise_obstacle(position, samples=OBSTACLE_SAMPLES, seed=seen.round)
        if advice.hold or advice.effect is None:
            return Pass()
        return PlaceObstacle(advice.effect.road)


def advised_placement(position: Position) -> Tile | None:
    """The counter to place now by the placement advice (node-limited), or None to pass.

    Where the advice passes while its joint plan still places a counter, its best placement instead. The advice
    counts planning's end (everybody passes in a row) as one reply to a pass, yet still passes where a placement
    invites a worse reply; the seat does not wait (measured: placing then changes the games, so it stays).
    """
    from planner.elfenland.advice.placing import place_now

    advice = place_now(position, solver="search", limit=Limit(nodes=ADVICE_NODES))
    tile = advice.now.placement
    if tile is None and advice.joint.plan.placements:
        placed = [c for c in advice.candidates if c.placement is not None]
        best = max(placed, key=lambda c: (not c.refuted, c.worst), default=None)
        tile = best.placement if best is not None else advice.joint.plan.placements[0]
    return tile


SEATS: dict[str, Callable[[str], Seat]] = {
    "random": RandomSeat, "greedy": GreedySeat, "router": RouterSeat, "advisor": AdvisorSeat,
}


def make_seat(kind: str, seed: str) -> Seat:
    """A new seat of ``kind`` (one of :data:`SEATS`), its randomness (if any) seeded by ``seed``.

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in SEATS:
        raise ValueError(f"unknown seat {kind!r}; choose from {', '.join(SEATS)}")
    return SEATS[kind](seed)
