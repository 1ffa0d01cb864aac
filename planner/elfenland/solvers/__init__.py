"""The route optimizer: one budgeted, cancellable :func:`solve` over two independent exact solvers.

- ``search``: depth-first branch and bound in pure Python (no ortools import), fastest on real-game hands;
- ``cpsat``: an OR-Tools CP-SAT model by arc traversal counts;
- ``auto`` (default): the search alone while it is quick, then CP-SAT joins and the two race, each helping the
  other; puzzle-sized hands go to a portfolio of CP-SAT runs instead (:mod:`~planner.elfenland.solvers.auto`).

Every solve has a :class:`~planner.common.limits.Limit` (seconds, nodes) and may be stopped from another thread
with an event; it then answers the best route found so far with status ``feasible`` or ``stopped`` and a proven
upper bound on the score. Threads are started, stopped and waited for by :class:`~planner.common.threads.Workers`,
one set per solve, so solves in several threads of one process never see each other. Why each constant has its
value, with the measurements and the commands that made them: ``docs/solver-measurements.md``.
"""

from __future__ import annotations

from planner.common.limits import Budget, Limit, Status, StopLike
from planner.elfenland.position import Position
from planner.elfenland.solvers.auto import run_cpsat, solve_auto
from planner.elfenland.solvers.common import MAX_SEED, Solution
from planner.elfenland.solvers.search import solve_search
from planner.errors import NotationError

__all__ = ["DEFAULT_LIMIT", "MAX_SEED", "SOLVERS", "Limit", "Solution", "Status", "solve"]

SOLVERS = ("auto", "search", "cpsat")
#: The limit of a solve that names none.
DEFAULT_LIMIT = Limit(time=60.0)


def solve(
    position: Position,
    *,
    solver: str = "auto",
    alternatives: int = 1,
    limit: Limit = DEFAULT_LIMIT,
    stop: StopLike | None = None,
    seed: int = 0,
    joint: bool = False,
) -> Solution:
    """The best route of ``position`` (most new towns, then fewest cards), verified, with proof status.

    With ``joint``, the best joint plan instead (``elfenland place``): my supply's counters placed on empty roads
    together with the route, the most points, then the fewest cards, then the fewest counters placed (a counter I
    do not need stays in hand); the plans carry their placements. Without, the supply is ignored.

    Works from any thread; solves in several threads at once do not see each other.

    Args:
        position: a legal position (checked here).
        solver: ``auto``, ``search`` or ``cpsat``.
        alternatives: how many plans to return, best first, each with other (towns collected, end town).
        limit: seconds and/or nodes before giving up the proof; the best route found so far is then returned
            with status ``feasible``. A node limit gives the same answer on any machine for the search.
        stop: an event (``threading.Event``) another thread may set to end the solve at once; the best route
            found so far is returned with status ``stopped``.
        seed: CP-SAT's random seed, 0..2**31-1.

    Raises:
        IllegalPositionError: the position breaks the rules.
        NotationError: an unknown solver name, or a seed out of range.
        UnsupportedError: ``cpsat`` with the strict caravan rule where it matters.
        SolverError: a solver failed or returned a route the verifier rejects (a bug).
    """
    position.check()
    if solver not in SOLVERS:
        raise NotationError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVERS)}", kind="bad-solver",
                            value=solver)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise NotationError(f"seed {seed!r} must be a whole number 0..{MAX_SEED}", kind="bad-seed", value=str(seed))
    budget = Budget(limit, stop)
    if solver == "search" or (solver == "auto" and position.rules.strict):
        return solve_search(position, alternatives=alternatives, budget=budget, joint=joint)
    if solver == "cpsat":
        return run_cpsat(position, alternatives=alternatives, budget=budget, seed=seed, joint=joint)
    return solve_auto(position, alternatives=alternatives, budget=budget, seed=seed, joint=joint)
