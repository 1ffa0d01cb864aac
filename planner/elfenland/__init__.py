"""Elfenland (Alan R. Moon, 1998): board, rules, positions, the route verifier and the route optimizer.

The names most programs need::

    from planner.elfenland import Limit, Position, Hand, Tile, Transport, load_position, solve, verify
"""

from planner.common.limits import Limit, Status
from planner.elfenland.board import Board, Connection, Terrain, Town, load_board
from planner.elfenland.plan import Outcome, Pay, Plan, Step, parse_route, verify
from planner.elfenland.position import Expect, Hand, Position, Tile
from planner.elfenland.position_file import load_position, position_from_toml, position_to_toml
from planner.elfenland.rules import Rules, Transport
from planner.elfenland.solvers import Solution, solve

__all__ = [
    "Board", "Connection", "Expect", "Hand", "Limit", "Outcome", "Pay", "Plan", "Position", "Rules", "Solution",
    "Status", "Step", "Terrain", "Tile", "Town", "Transport", "load_board", "load_position", "parse_route",
    "position_from_toml", "position_to_toml", "solve", "verify",
]
