"""What the table works out for each phase of a round: the advice, the map to draw, and what comes after.

Every phase answers in two stages. :func:`first_stage` is what a tap waits for, and every call in it takes the
session's stop event, so a newer change cuts it short:

- **draw**: each face-up counter and the blind draw, by the joint plan it makes (:func:`advise_draw`); the map
  shows the joint plan with the counter to take;
- **plan**: the joint plan, the placement to make now and what each road of the plan costs if an opponent gets
  there first (:func:`place_now`, :func:`risks`); the map shows the joint plan, my placements in it;
- **travel**: the best route on the board as it is (:func:`solve`), as the page showed before the advisor.

:func:`later_stage` is what the page may wait for: the obstacle advice in the plan phase (while I hold my
obstacle and opponents are known), and in the travel phase the keep advice, then the explanation of the route
("Why this route?", with the player's own route beside it: :mod:`planner.table.explaining`). The session runs
them in a thread of their own, where a newer change never waits for them, and stops them when their position is
gone (a stopped one rests on the samples solved so far, and nobody sees it).

Library code: plain data out (:mod:`planner.table.views` documents, their words said later in each phone's
language: :mod:`planner.table.localized`), no thread, no web import.
"""

from __future__ import annotations

from typing import Any

from planner.common.limits import Limit, StopLike
from planner.common.values import frozen
from planner.elfenland.advice.drawing import advise_draw
from planner.elfenland.advice.keeping import advise_keep
from planner.elfenland.advice.obstacle import advise_obstacle
from planner.elfenland.advice.placing import joint_plan, place_now, risks
from planner.elfenland.plan import Plan, Step
from planner.elfenland.position import Position
from planner.elfenland.rules import SUPPLY_LIMIT
from planner.elfenland.solvers import solve
from planner.table import PAGE_SAMPLES
from planner.table.explaining import explain_stage
from planner.table.localized import Localized, localized
from planner.table.views import (
    draw_document,
    keep_document,
    obstacle_document,
    place_document,
    solution_document,
    travel_document,
)

__all__ = ["KEEP_ALTERNATIVES", "TABLE_LIMIT", "Later", "Settings", "Stage", "Superseded", "first_stage",
           "later_stage"]

TABLE_LIMIT = Limit(time=20.0)
"""How long one position is solved before its best route so far is shown as unproven."""
KEEP_ALTERNATIVES = 6
"""Routes solved for the keep advice: its end towns are those of the routes as good as the best (as ``place``)."""


class Superseded(Exception):  # noqa: N818 (not an error: a newer change made the work pointless)
    """The stop event was set between two of a stage's advisor calls: the rest is not worth working out."""


@frozen
class Settings:
    """How the table solves: the solver, the limit of each solve, and the obstacle advice's sampled hands per
    opponent (the keep advice samples as many next rounds as the advisor does by default)."""

    solver: str = "auto"
    limit: Limit = TABLE_LIMIT
    samples: int = PAGE_SAMPLES


@frozen
class Later:
    """Advice still to come after the first stage: ``obstacle``, ``keep`` or ``explain``, for this position
    (``route``: the player's own route, which the explanation compares with the best)."""

    kind: str
    position: Position
    route: tuple[Step, ...] | None = None


@frozen
class Stage:
    """A phase's first answer: the route table's solution, the advice, the map to draw, and what comes later."""

    solution: Localized | None
    """The solve behind the route table (the route; the joint plan in the plan phase); None in the draw phase."""
    advice: Localized
    """The phase's advice document (``phase``, ``verdict``, ``status`` and the phase's own keys), said in each
    phone's language when asked (:mod:`planner.table.localized`)."""
    picture: Position
    """The board to draw: with the placements of the plan drawn on it."""
    plans: tuple[Plan, ...]
    later: tuple[Later, ...] = ()
    """The advice still to come, in the order it is worked out."""


def first_stage(phase: str, position: Position, *, alternatives: int = 1, settings: Settings = Settings(),
                stop: StopLike | None = None, route: tuple[Step, ...] | None = None) -> Stage:
    """The first answer of ``phase`` for ``position`` (legal), every solve stopped by ``stop``; ``route`` is the
    player's own (legal) route, for the travel phase's explanation.

    Raises:
        SolverError: a solver failed (a bug).
        Superseded: ``stop`` was set between two advisor calls.
        ValueError: an unknown phase.
    """
    if phase == "travel":
        solution = solve(position, solver=settings.solver, alternatives=alternatives, limit=settings.limit,
                         stop=stop)
        keep = () if position.last_round else (Later("keep", position),)
        later = (*keep, Later("explain", position, route))
        return Stage(localized(solution_document, solution), localized(travel_document, position, solution), position,
                     solution.plans, later)
    if phase == "plan":
        advice = place_now(position, solver=settings.solver, limit=settings.limit, stop=stop)
        if stop is not None and stop.is_set():
            raise Superseded  # the regrets would take as long again, for a position nobody will see
        roads = risks(advice, solver=settings.solver, limit=settings.limit, stop=stop)
        later = (Later("obstacle", position),) if position.obstacle and position.opponents else ()
        plan = advice.joint.plan
        return Stage(localized(solution_document, advice.joint),
                     localized(place_document, advice, roads, samples=settings.samples), plan.position, (plan,), later)
    if phase == "draw":
        if len(position.supply) >= SUPPLY_LIMIT:  # nothing to draw: show the joint plan the supply makes
            full = joint_plan(position, solver=settings.solver, limit=settings.limit, stop=stop)
            return Stage(None, localized(draw_document, position, None, full), full.plan.position, (full.plan,))
        draw = advise_draw(position, solver=settings.solver, limit=settings.limit, stop=stop)
        shown = draw.best.plan or draw.now
        return Stage(None, localized(draw_document, position, draw, None), shown.position, (shown,))
    raise ValueError(f"unknown phase {phase!r}")


def later_stage(later: Later, *, settings: Settings = Settings(), stop: StopLike | None = None) -> dict[str, Any]:
    """The advice that comes after the first stage, as keys to merge into the phase's advice document (their
    words said later, in each phone's language).

    Raises:
        SolverError: a solver failed (a bug).
        ValueError: an unknown kind.
    """
    position = later.position
    if later.kind == "obstacle":
        advice = advise_obstacle(position, samples=settings.samples, stop=stop)
        return {"obstacle": localized(obstacle_document, advice)}
    if later.kind == "keep":
        plans = solve(position, solver=settings.solver, alternatives=KEEP_ALTERNATIVES, limit=settings.limit,
                      stop=stop).plans
        keep = advise_keep(position, plans, stop=stop)
        return {"keep": None if keep is None else localized(keep_document, position, keep)}
    if later.kind == "explain":
        return {"explain": explain_stage(position, later.route, limit=settings.limit, stop=stop)}
    raise ValueError(f"unknown advice {later.kind!r}")
