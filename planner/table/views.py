"""The JSON documents the table page reads: the board's fixed shapes, and a view of the table's position.

Plain dicts for :func:`json.dumps`. The page draws nothing from game knowledge of its own: which counters a road
can carry, the card names and the rule options all come from here, so the page stays a thin view of the library.
"""

from __future__ import annotations

import functools
from dataclasses import asdict
from typing import Any

from planner.common.problems import Problem
from planner.elfenland.board import load_board
from planner.elfenland.explain import step_records, verdict
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.report import plan_dict
from planner.elfenland.rules import COUNTER_TRANSPORTS, DECK, HAND_SIZE, RULE_OPTIONS, TRANSPORTS, can_carry
from planner.elfenland.solvers import Solution
from planner.elfenland.svg import BOARD_CROP, TRANSPORT_COLOURS, board_layout
from planner.table.changes import MAX_ALTERNATIVES, rules_text

__all__ = ["board_document", "position_document", "solution_document"]

SAMPLES = 16
"""Segments per road sent to the page for tap picking: a road bows at most 40 px, so 16 stay within a pixel."""


@functools.cache
def board_document() -> dict[str, Any]:
    """Towns, roads (sampled as polylines in the board-only picture's coordinates), cards and rule options."""
    board = load_board()
    layout = board_layout()
    return {
        "crop": [BOARD_CROP.x, BOARD_CROP.y, BOARD_CROP.w, BOARD_CROP.h],
        "towns": [{"code": t.code, "name": t.name, "x": t.x, "y": t.y, "r": layout.radius(t.code),
                   "capital": t.capital, "home_card": t.home_card} for t in board.towns.values()],
        "roads": [{"id": c.id, "a": c.a, "b": c.b, "terrain": str(c.terrain),
                   "counters": [t.letter for t in COUNTER_TRANSPORTS if can_carry(t, c.terrain)],
                   "points": [[round(x, 1), round(y, 1)] for x, y in layout.curves[c.id].points(SAMPLES)]}
                  for c in board.roads],
        "cards": [{"letter": t.letter, "title": t.title, "deck": DECK[t], "counter": t.is_counter,
                   "colour": TRANSPORT_COLOURS[t]} for t in TRANSPORTS],
        "rules": {name: {"values": list(option.texts), "help": option.help} for name, option in RULE_OPTIONS.items()},
        "hand_size": HAND_SIZE,
        "max_alternatives": MAX_ALTERNATIVES,
    }


def position_document(position: Position) -> dict[str, Any]:
    """The position as the page's controls show it, with its notation and warnings."""
    return {
        "notation": str(position),
        "title": position.title,
        "at": position.at,
        "hand": {t.letter: n for t, n in position.hand.as_dict().items()},
        "cards": len(position.hand),
        "tiles": [{"road": t.road, "counter": t.transport.letter if t.transport else None, "obstacle": t.obstacle}
                  for t in position.tiles],
        "visited": sorted(position.visited),
        "home": position.home,
        "round": position.round,
        "rounds": position.rules.rounds,
        "last_round": position.last_round,
        "rules": rules_text(position.rules),
        "warnings": [p.as_dict() for p in position.warnings()],
    }


def plan_document(plan: Plan) -> dict[str, Any]:
    """One plan: the report's fields, its one-line verdict and the step records of the route table."""
    return {**plan_dict(plan), "verdict": verdict(plan), "records": [asdict(r) for r in step_records(plan)]}


def solution_document(solution: Solution) -> dict[str, Any]:
    """The solve: how sure it is, and each plan, best first."""
    return {
        "status": str(solution.status),
        "optimal": solution.proven,
        "bound": solution.bound,
        "solver": solution.solver,
        "seconds": round(solution.elapsed, 4),
        "plans": [plan_document(p) for p in solution.plans],
    }


def problems_document(problems: tuple[Problem, ...] | list[Problem]) -> list[dict[str, str | None]]:
    """Problems as the page places them beside what caused them (``field`` and ``value``)."""
    return [p.as_dict() for p in problems]
