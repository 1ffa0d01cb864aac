"""The steps a hand can take out of each town, with what a lesson sees in them: the teaching walks' view of
:mod:`planner.elfenland.cards` (the step generator and the packed cards, imported from there).
"""

from __future__ import annotations

import enum

from planner.elfenland.board import Crossing
from planner.elfenland.cards import Way, board_ways
from planner.elfenland.plan import Pay
from planner.elfenland.position import Position, Tile
from planner.elfenland.rules import counter_cost
from planner.elfenland.solvers.common import Move

__all__ = ["NO_FEATURE", "Feature", "features_of", "moves_of", "tile_costs", "ways_out"]


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


def features_of(way: Way) -> Feature:
    """What a lesson sees in one step (a backtrack depends on the route, not on the step: never here)."""
    found = NO_FEATURE
    for present, feature in ((way.pay is Pay.CARAVAN, Feature.CARAVAN), (way.crossing is Crossing.UPSTREAM,
                             Feature.UPSTREAM), (way.crossing is Crossing.LAKE, Feature.FERRY),
                             (way.obstacle, Feature.OBSTACLE)):
        if present:
            found |= feature
    return found


def tile_costs(position: Position, tile: Tile) -> tuple[int, int]:
    """What a counter on its road asks: (matching cards, the obstacle's included; cards a caravan takes)."""
    assert tile.transport is not None
    cost = counter_cost(tile.transport, position.board.connections[tile.road].terrain, obstacle=tile.obstacle)
    assert cost is not None
    return cost, position.rules.caravan_cost(cost, obstacle=tile.obstacle)


def ways_out(position: Position, *, forbid: Feature = NO_FEATURE) -> dict[str, list[Way]]:
    """Every way out of every town that the whole hand could pay, leaving out steps with a ``forbid`` feature."""
    hand = position.hand
    size = len(hand)
    return {town: [w for w in ways if not features_of(w) & forbid and w.count <= size
                   and (w.card is None or w.count <= hand.counts[w.card])]
            for town, ways in board_ways(position.tiles, position.rules).items()}


def moves_of(trail: tuple[Move, object] | None) -> tuple[Move, ...]:
    """The moves of a trail (the last move first, linked to the trail before it), in walking order."""
    moves: list[Move] = []
    while trail is not None:
        move, rest = trail
        moves.append(move)
        trail = rest  # type: ignore[assignment]  # a trail links to a trail
    return tuple(reversed(moves))
