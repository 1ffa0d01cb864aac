"""The JSON documents of the planner (schema ``elfenland-planner/1``), built from plans, solutions and problems.

Plain dicts of strings, numbers and lists, ready for :func:`json.dumps`; the README's "JSON output" section is the
contract. Kept out of the CLI so that the table server and scripts build the same documents.
"""

from __future__ import annotations

from typing import Any

from planner.common.problems import Problem
from planner.elfenland.board import Board
from planner.elfenland.explain import step_records
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers.common import Solution

__all__ = ["SCHEMA", "board_dict", "check_dict", "error_dict", "plan_dict", "solution_dict"]

SCHEMA = "elfenland-planner/1"


def plan_dict(plan: Plan) -> dict[str, Any]:
    """The JSON shape of one plan (see README, "JSON output")."""
    board = plan.position.board
    return {
        "score": plan.score,
        "new_towns": [board.towns[t].name for t in plan.new_towns],
        "home_penalty": plan.outcome.home_penalty,
        "cards_spent": plan.cards_spent,
        "end": board.towns[plan.end].name,
        "keep": plan.keep.names(),
        "cards_left": plan.outcome.cards_left.names(),
        "route": str(plan),
        "steps": [
            {"from": r.frm, "to": r.to, "via": r.via, "pay": r.pay, "cards": r.cards,
             "connection": s.connection, "new_town": r.new_town}
            for r, s in zip(step_records(plan), plan.steps, strict=True)
        ],
    }


def solution_dict(position: Position, solution: Solution, *, source: str | None = None) -> dict[str, Any]:
    """The JSON document for one solved position: the best plan's fields at top level, then alternatives."""
    document: dict[str, Any] = {"schema": SCHEMA}
    if source is not None:
        document["source"] = source
    document.update({
        "title": position.title,
        "position": str(position),
        **plan_dict(solution.plan),
        "optimal": solution.proven,
        "status": str(solution.status),
        "bound": solution.bound,
        "solver": solution.solver,
        "seconds": round(solution.elapsed, 4),
        "alternatives": [plan_dict(p) for p in solution.plans[1:]],
    })
    return document


def error_dict(error: Exception, *, source: str | None = None) -> dict[str, Any]:
    """The JSON line of a position that failed: ``{"schema", "source", "error"}`` (plus ``problems`` when the
    error lists them)."""
    document: dict[str, Any] = {"schema": SCHEMA, "source": source, "error": str(error)}
    problems: list[Problem] | None = getattr(error, "problems", None)
    if problems:
        document["problems"] = [p.as_dict() for p in problems]
    return document


def check_dict(position: Position | None, problems: list[Problem], *,
               route: tuple[Plan | None, Plan, Exception | None] | None = None) -> dict[str, Any]:
    """What ``check --json`` prints: ``valid``, structured ``problems`` or ``warnings``, the ``position``, and with
    a route ``route_legal`` and ``yours`` (or ``step`` and ``reason``) beside the ``best``."""
    document: dict[str, Any] = {"schema": SCHEMA, "valid": position is not None and not problems}
    if position is None or problems:
        document["problems"] = [p.as_dict() for p in problems]
        return document
    document["warnings"] = [p.as_dict() for p in position.warnings()]
    document["position"] = str(position)
    if route is not None:
        yours, best, error = route
        document["route_legal"] = yours is not None
        if yours is not None:
            document["yours"] = plan_dict(yours)
        elif error is not None:
            document["step"] = getattr(error, "index", 0) + 1
            document["reason"] = getattr(error, "reason", str(error))
        document["best"] = plan_dict(best)
    return document


def board_dict(board: Board, code: str | None = None) -> dict[str, Any]:
    """The towns and connections (all, or those of one town) as ``board --json`` prints them."""
    towns = [t for t in board.towns.values() if code is None or t.code == code]
    connections = [c for c in board.connections.values() if code is None or c.touches(code)]
    return {
        "schema": SCHEMA,
        "towns": [{"code": t.code, "name": t.name, "aliases": list(t.aliases), "home_card": t.home_card,
                   "capital": t.capital, "x": t.x, "y": t.y} for t in towns],
        "connections": [{"id": c.id, "a": c.a, "b": c.b, "kind": c.kind, "terrain": str(c.terrain),
                         "downstream_to": c.downstream_to, "lake": c.lake} for c in connections],
    }
