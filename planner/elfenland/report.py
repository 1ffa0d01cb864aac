"""The JSON documents of the planner (schema ``elfenland-planner/1``), built from plans, solutions and problems.

Plain dicts of strings, numbers and lists, ready for :func:`json.dumps`; the README's "JSON output" section is the
contract. Kept out of the CLI so that the table server and scripts build the same documents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planner.common.problems import Problem, error_text
from planner.elfenland import sentences
from planner.elfenland.board import Board
from planner.elfenland.explain import step_records
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.rules import Transport
from planner.elfenland.solvers.common import Solution

if TYPE_CHECKING:  # the advice modules load only with the commands that give advice
    from planner.elfenland.advice.drawing import DrawAdvice, DrawOption
    from planner.elfenland.advice.keeping import KeepAdvice
    from planner.elfenland.advice.obstacle import ObstacleAdvice
    from planner.elfenland.advice.placing import PlaceAdvice, RoadRisk

__all__ = ["SCHEMA", "board_dict", "check_dict", "draw_dict", "error_dict", "keep_dict", "obstacle_dict",
           "place_dict", "plan_dict", "solution_dict"]

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
             "connection": s.connection, "new_town": r.new_town, "placed": r.placed}
            for r, s in zip(step_records(plan), plan.steps, strict=True)
        ],
    }


def solution_dict(position: Position, solution: Solution, *, source: str | None = None) -> dict[str, Any]:
    """The JSON document for one solved position: the best plan's fields at top level and its one-line ``verdict``
    (plain text), then alternatives."""
    document: dict[str, Any] = {"schema": SCHEMA}
    if source is not None:
        document["source"] = source
    document.update({
        "title": position.title,
        "position": str(position),
        **plan_dict(solution.plan),
        "verdict": sentences.route_verdict(solution.plan),
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
    document: dict[str, Any] = {"schema": SCHEMA, "source": source, "error": error_text(error)}
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


# -- the round advisor ------------------------------------------------------------------------------------------
def _road(position: Position, road: str, counter: Transport | None) -> dict[str, Any]:
    c = position.board.connections[road]
    towns = position.board.towns
    return {"from": towns[c.a].name, "to": towns[c.b].name, "road": road,
            "counter": counter.title if counter is not None else None}


def _loss(before: tuple[int, int], after: tuple[int, int]) -> dict[str, int]:
    return {"towns": before[0] - after[0], "cards": before[1] - after[1]}


def place_dict(advice: PlaceAdvice, risks: list[RoadRisk], keep: KeepAdvice | None, *,
               source: str | None = None) -> dict[str, Any]:
    """``elfenland place --json``: the keys of ``route`` for the joint plan (``verdict`` the placement's, plain
    text), plus ``placements`` (the roads my
    counters go on), ``now`` (the placement to make this turn, or null to pass), ``passing_is_free``, ``worst``
    (my plan after the worst reply to ``now``), ``replies`` and ``regrets`` (per road of the plan: the loss if an
    opponent fills it first with their worst counter, or puts an obstacle on the counter there), and ``keep``."""
    position = advice.position
    document = solution_dict(position, advice.joint, source=source)
    document["verdict"] = sentences.place_verdict(advice)
    plan = advice.joint.plan
    document["placements"] = [_road(position, t.road, t.transport) for t in plan.placements]
    now = advice.now.placement
    document["now"] = None if now is None else _road(position, now.road, now.transport)
    document["passing_is_free"] = advice.passing_is_free
    document["worst"] = {"score": advice.now.worst[0], "cards_spent": -advice.now.worst[1]}
    document["replies"] = advice.replies
    document["regrets"] = [
        {**_road(position, r.road, r.mine),
         "filled": None if r.filled is None else {"counter": r.filled.counter.title if r.filled.counter else None,
                                                  **_loss(plan.value, r.filled.value)},
         "obstacle": None if r.blocked is None else _loss(plan.value, r.blocked.value)}
        for r in risks]
    document["keep"] = None if keep is None else keep_dict(position, keep)
    return document


def keep_dict(position: Position, keep: KeepAdvice) -> dict[str, Any]:
    """The end-of-round advice: the end town, the cards and the counter to keep, with the sampled next-round value,
    and its one-line ``verdict``."""
    best = keep.best
    return {"verdict": sentences.keep_verdict(position, keep), "end": position.board.towns[best.end].name,
            "cards": best.cards.names(),
            "counter": best.counter.title if best.counter else None, "next_round_score": round(best.score, 3),
            "next_round_cards": round(best.cards_spent, 3), "error": round(best.error, 3), "samples": keep.samples}


def draw_dict(advice: DrawAdvice, *, source: str | None = None) -> dict[str, Any]:
    """``elfenland draw --json``: ``verdict`` (one line), ``best`` (a counter's name, or ``blind``) and ``options``
    (each with the joint plan's expected score and cards, the blind draw with the chance of each type)."""
    def name(option: DrawOption) -> str:
        return option.counter.title if option.counter else "blind"

    return {"schema": SCHEMA, "source": source, "position": str(advice.position),
            "verdict": sentences.draw_verdict(advice), "best": name(advice.best),
            "now": {"score": advice.now.score, "cards_spent": advice.now.cards_spent},
            "options": [{"draw": name(o), "score": round(o.score, 4), "cards_spent": round(o.cards, 4),
                         "chances": None if o.chances is None else {t.title: round(p, 4) for t, p in o.chances.items()},
                         "route": None if o.plan is None else str(o.plan),
                         "placements": [] if o.plan is None else [t.road for t in o.plan.placements]}
                        for o in advice.options]}


def obstacle_dict(advice: ObstacleAdvice, *, source: str | None = None) -> dict[str, Any]:
    """``elfenland obstacle --json``: ``verdict`` (one line), ``target``, ``road`` (null when holding), ``hold``,
    ``reason`` and, per opponent, every road's expected effect with standard errors."""
    position = advice.position
    return {
        "schema": SCHEMA, "source": source, "position": str(position),
        "verdict": sentences.obstacle_verdict(advice),
        "target": advice.target.opponent.name if advice.target else None,
        "road": None if advice.hold or advice.effect is None else advice.effect.road,
        "hold": advice.hold, "reason": sentences.obstacle_reason(advice),
        "opponents": [{"name": o.opponent.name, "points": o.opponent.points, "samples": o.samples,
                       "towns": round(o.towns, 4),
                       "roads": [{**_road(position, e.road, position.tile_map()[e.road].transport),
                                  "towns_lost": round(e.towns, 4), "towns_error": round(e.towns_error, 4),
                                  "extra_cards": round(e.cards, 4), "cards_error": round(e.cards_error, 4),
                                  "on_route": round(e.hit, 4), "my_towns_lost": e.my_towns,
                                  "my_extra_cards": e.my_cards} for e in o.effects]}
                      for o in advice.outlooks],
    }
