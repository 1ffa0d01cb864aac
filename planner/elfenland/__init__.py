"""Elfenland (Alan R. Moon, 1998): board, rules, positions, the route verifier and the route optimizer.

The names most programs need::

    from planner.elfenland import Position, Hand, Tile, Transport, load_position, solve, verify
"""

from planner.elfenland.board import Board, Connection, Terrain, Town, load_board
from planner.elfenland.plan import Outcome, Pay, Plan, Step, parse_route, verify
from planner.elfenland.position import Expect, Hand, Position, Tile, load_position, position_from_toml
from planner.elfenland.rules import Rules, Transport
from planner.elfenland.solvers import Solution, solve

__all__ = [
    "Board", "Connection", "Expect", "Hand", "Outcome", "Pay", "Plan", "Position", "Rules", "Solution", "Step",
    "Terrain", "Tile", "Town", "Transport", "load_board", "load_position", "parse_route", "position_from_toml",
    "solve", "verify",
]
