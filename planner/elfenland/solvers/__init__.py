"""The route optimizer: one :func:`solve` over two independent exact solvers.

- ``search``: depth-first branch and bound in pure Python (no ortools import), fastest on real-game hands;
- ``cpsat``: an OR-Tools CP-SAT model by arc traversal counts, fastest on big puzzle hands;
- ``auto`` (default): the search first, within a short budget, then CP-SAT if the search has not finished.
"""

from __future__ import annotations

import time

from planner.elfenland.position import Position
from planner.elfenland.solvers.common import Solution
from planner.elfenland.solvers.search import solve_search
from planner.errors import NotationError

__all__ = ["SOLVERS", "Solution", "solve"]

SOLVERS = ("auto", "search", "cpsat")
#: Seconds the search may take under ``auto`` before CP-SAT takes over (the search answers most 12-card
#: positions well inside this; CP-SAT's import alone costs about as much).
AUTO_SEARCH_BUDGET = 0.4
DEFAULT_TIME_LIMIT = 60.0


def solve(
    position: Position,
    *,
    solver: str = "auto",
    alternatives: int = 1,
    time_limit: float = DEFAULT_TIME_LIMIT,
    seed: int = 0,
) -> Solution:
    """The best route of ``position`` (most new towns, then fewest cards), verified, with proof status.

    Args:
        position: a legal position (checked here).
        solver: ``auto``, ``search`` or ``cpsat``.
        alternatives: how many plans to return, best first, each with other (towns collected, end town).
        time_limit: seconds before giving up the proof; the best route found so far is returned unproven.
        seed: CP-SAT's random seed.

    Raises:
        IllegalPositionError: the position breaks the rules.
        NotationError: an unknown solver name.
        SolverError: a solver failed or returned a route the verifier rejects (a bug).
    """
    position.check()
    if solver not in SOLVERS:
        raise NotationError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVERS)}")
    if solver == "search" or (solver == "auto" and position.rules.caravan_when == "strict"):
        return solve_search(position, alternatives=alternatives, time_limit=time_limit)
    if solver == "cpsat":
        return _cpsat(position, alternatives=alternatives, time_limit=time_limit, seed=seed)
    started = time.perf_counter()
    quick = solve_search(position, alternatives=alternatives, time_limit=min(AUTO_SEARCH_BUDGET, time_limit))
    if quick.proven:
        return quick
    remaining = max(0.1, time_limit - (time.perf_counter() - started))
    full = _cpsat(position, alternatives=alternatives, time_limit=remaining, seed=seed)
    if not full.proven and full.plan.value < quick.plan.value:
        return quick
    full.stats["search_first"] = quick.elapsed
    return full


def _cpsat(position: Position, *, alternatives: int, time_limit: float, seed: int) -> Solution:
    from planner.elfenland.solvers.cpsat import solve_cpsat  # ortools costs ~1 s to import

    return solve_cpsat(position, alternatives=alternatives, time_limit=time_limit, seed=seed)
