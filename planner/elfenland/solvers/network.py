"""The arcs a CP-SAT route may use: every payable direction of every connection within the hand's reach.

Kept apart from the model (:mod:`planner.elfenland.solvers.cpsat`) because it needs no OR-Tools: which roads
hold a payable counter, what a step costs each way, how often the hand can pay for it. For a joint plan, an empty
road that a counter type of my supply can travel becomes one road per such type (``LAP-RIV:f+D``: the road with
my dragon on it), whose arcs the model opens only when it places that counter there.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass, field

from planner.common.values import frozen
from planner.elfenland.position import Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, Transport, counter_cost, raft_cost

__all__ = ["Arc", "Network", "Road", "build_network", "strict_rule_bites"]


@frozen
class Road:
    """A road holding a counter: its matching-card price and its caravan price."""

    id: str
    transport: Transport
    cost: int
    """Matching cards per step (obstacle included)."""
    caravan: int
    """Any cards per caravan step."""
    counter_max: int
    """Most matching-card payments the hand allows (0: the hand cannot pay the counter)."""
    caravan_max: int
    """Most caravan payments the hand allows."""
    connection: str = ""
    """The road's connection id (``id`` itself, but for a road opened by one of my counters)."""
    placed: Transport | None = None
    """For a road opened by a counter of my supply: that counter (``id`` is then ``connection+letter``)."""

    @property
    def cheapest(self) -> int:
        """The fewest cards one step on this road can cost."""
        return self.cost if self.counter_max else self.caravan

    @property
    def price(self) -> str:
        """The road's price class, e.g. ``U2/4``: roads of one class are interchangeable for paying."""
        return f"{self.transport.letter}{self.cost}/{self.caravan}"


@frozen
class Arc:
    """One direction of a connection that the hand can pay; its id reads ``LAP>RIV:f``."""

    id: str
    frm: str
    to: str
    connection: str
    road: Road | None
    """The road's prices, or None for water."""
    rafts: int
    """Raft cards per step on water (0 on roads)."""
    most: int
    """Upper bound on how often the boot takes the arc."""


@dataclass(slots=True)
class Network:
    """The arcs within the hand's reach from the start, and the towns they join."""

    start: str
    arcs: list[Arc]
    roads: dict[str, Road]
    towns: list[str]
    """Towns reachable from the start (the start first)."""
    collectable: list[str]
    """Reachable towns whose marker is still to be collected."""
    penalty: dict[str, int]
    """Home-town penalty for ending in each reachable town."""
    entering: dict[str, list[Arc]] = field(default_factory=dict)
    leaving: dict[str, list[Arc]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.entering = {t: [a for a in self.arcs if a.to == t] for t in self.towns}
        self.leaving = {t: [a for a in self.arcs if a.frm == t] for t in self.towns}

    def _neighbours(self) -> dict[str, set[str]]:
        """The towns each town shares an arc with, the start left out."""
        near: dict[str, set[str]] = defaultdict(set)
        for arc in self.arcs:
            if self.start not in (arc.frm, arc.to):
                near[arc.frm].add(arc.to)
                near[arc.to].add(arc.frm)
        return near

    def cut_sets(self) -> list[frozenset[str]]:
        """Every pair of neighbouring towns and every triangle of them (three pairwise neighbours), without the
        start, in a fixed order: the sets where the shortest loops away from the start close."""
        near = self._neighbours()
        pairs = {frozenset([a, b]) for a in near for b in near[a]}
        found = pairs | {pair | {c} for pair in pairs for c in set.intersection(*(near[t] for t in pair))}
        return sorted(found, key=lambda s: (len(s), sorted(s)))

    def wide_cut_sets(self) -> list[frozenset[str]]:
        """The connected sets of three towns that :meth:`cut_sets` leaves out (a town and two neighbours of it
        that are not neighbours of each other) and every ring of four (four towns, each a neighbour of the next,
        the last of the first), without the start, in a fixed order."""
        near = self._neighbours()
        found = {frozenset((a, b, c)) for b in near for a in near[b] for c in near[b] - near[a] - {a}}
        found |= {frozenset((a, b, c, d)) for a in near for b in near[a] for c in near[b] - {a}
                  for d in (near[c] & near[a]) - {b}}
        return sorted(found, key=lambda s: (len(s), sorted(s)))


def build_network(position: Position, *, joint: bool = False) -> Network:
    """Every payable arc, pruned to those the hand can reach from the start (cheapest-cost search); with
    ``joint``, also the arcs of the empty roads my supply could open (one road per counter type)."""
    board = position.board
    hand = position.hand
    size = len(hand)
    tiles = position.tile_map()
    candidates: list[tuple[str, str, str, str, Road | None, int]] = []  # from, to, connection, letter, road, rafts
    for connection in board.connections.values():
        ends = ((connection.a, connection.b), (connection.b, connection.a))
        if connection.is_road:
            tile = tiles.get(connection.id)
            if tile is None and joint:
                for transport in COUNTER_TRANSPORTS:
                    cost = counter_cost(transport, connection.terrain)
                    if not position.supply[transport] or cost is None:
                        continue
                    caravan = position.rules.caravan_cost(cost, obstacle=False)
                    road = Road(f"{connection.id}+{transport.letter}", transport, cost, caravan,
                                hand[transport] // cost, size // caravan, connection.id, transport)
                    if road.counter_max or road.caravan_max:
                        candidates += [(a, b, connection.id, f"{connection.terrain.letter}+{transport.letter}", road, 0)
                                       for a, b in ends]
                continue
            cost = None if tile is None or tile.transport is None else counter_cost(
                tile.transport, connection.terrain, obstacle=tile.obstacle)
            if tile is None or tile.transport is None or cost is None:
                continue  # a road without a counter cannot be travelled
            caravan = position.rules.caravan_cost(cost, obstacle=tile.obstacle)
            road = Road(connection.id, tile.transport, cost, caravan, hand[tile.transport] // cost, size // caravan,
                        connection.id)
            if road.counter_max or road.caravan_max:
                candidates += [(a, b, connection.id, connection.terrain.letter, road, 0) for a, b in ends]
        else:
            for a, b in ends:
                rafts = raft_cost(connection, a)
                if hand[Transport.RAFT] >= rafts:
                    candidates.append((a, b, connection.id, connection.terrain.letter, None, rafts))

    def cheapest(road: Road | None, rafts: int) -> int:
        return road.cheapest if road is not None else rafts

    # Fewest cards to reach each town, whatever their type: a lower bound on what any route spends first.
    out: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for frm, to, _, _, priced, rafts in candidates:
        out[frm].append((to, cheapest(priced, rafts)))
    reach = {position.at: 0}
    queue = [(0, position.at)]
    while queue:
        spent, town = heapq.heappop(queue)
        if spent > reach[town]:
            continue
        for to, cost in out[town]:
            if spent + cost <= size and spent + cost < reach.get(to, size + 1):
                reach[to] = spent + cost
                heapq.heappush(queue, (spent + cost, to))

    arcs = []
    for frm, to, connection_id, letter, priced, rafts in candidates:
        budget = size - reach.get(frm, size + 1)  # cards left, at most, when the boot first stands in `frm`
        step = cheapest(priced, rafts)
        if step > budget:
            continue
        payable = priced.counter_max + priced.caravan_max if priced is not None else hand[Transport.RAFT] // rafts
        arcs.append(Arc(f"{frm}>{to}:{letter}", frm, to, connection_id, priced, rafts,
                         min(payable, budget // step)))
    roads = {a.road.id: a.road for a in arcs if a.road is not None}
    towns = [position.at] + sorted(t for t in reach if t != position.at)
    collectable = sorted(t for t in reach if t in position.collectable())
    penalty = {t: position.home_penalty(t) for t in towns}
    return Network(position.at, arcs, dict(sorted(roads.items())), towns, collectable, penalty)


def strict_rule_bites(net: Network) -> bool:
    """Whether some road's counter is payable from the start hand while a caravan there is affordable too."""
    return any(road.counter_max and road.caravan_max for road in net.roads.values())
