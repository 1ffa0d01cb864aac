"""The route optimizer: one budgeted, cancellable :func:`solve` over two independent exact solvers.

- ``search``: depth-first branch and bound in pure Python (no ortools import), fastest on real-game hands;
- ``cpsat``: an OR-Tools CP-SAT model by arc traversal counts;
- ``auto`` (default): the search alone while it is quick; when it has run for ``AUTO_SEARCH_BUDGET`` seconds,
  CP-SAT starts in a background thread and the two race: the first to prove the optimum answers and the other
  is stopped. Each is fastest on different positions, so the race takes whichever wins. They also help each
  other: the search's best route so far is CP-SAT's starting point, and every upper bound CP-SAT proves on the
  score caps the search's own bound. Puzzle-sized hands (``PUZZLE_CARDS``) skip the race: after a glance of
  search and a beam search (about 40 ms) for a starting route, CP-SAT runs on every core (up to ``PUZZLE_RUNS``,
  one seed each) and the first proof wins.

Every solve has a :class:`~planner.common.limits.Limit` (seconds, nodes) and may be stopped from another thread
with an event; it then answers the best route found so far with status ``feasible`` or ``stopped`` and a proven
upper bound on the score. Threads are started, stopped and waited for by :class:`~planner.common.threads.Workers`,
one set per solve, so solves in several threads of one process never see each other. Why each constant has its
value, with the measurements and the commands that made them: ``docs/solver-measurements.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial

from planner.common.limits import Budget, Limit, Status, StopLike
from planner.common.threads import Job, Workers, cores
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers.common import Move, Solution, assemble, plan_key
from planner.elfenland.solvers.search import beam_route, solve_search
from planner.errors import NotationError, PlannerError

__all__ = ["DEFAULT_LIMIT", "MAX_SEED", "SOLVERS", "Limit", "Solution", "Status", "solve"]

SOLVERS = ("auto", "search", "cpsat")
#: Seconds the search runs alone under ``auto`` before CP-SAT joins the race (the search answers almost every
#: real-game position well inside this, and importing ortools alone takes about half a second).
AUTO_SEARCH_BUDGET = 0.3
#: Hands this big are puzzles: the search alone rarely proves them (20 cards with every road holding a counter: 3
#: of 60 positions within 0.3 s), so after a glance for a starting route CP-SAT takes over on every core.
PUZZLE_CARDS = 18
#: Search nodes of the glance for a puzzle's starting route (about 20 ms; it finds a fair route within a few
#: hundred). Nodes, not seconds, so the start, and CP-SAT's runs from it, are the same on any machine.
PUZZLE_START_NODES = 1500
#: States per step of the beam search that then looks for a better starting route.
PUZZLE_BEAM_WIDTH = 300
#: Most CP-SAT runs (different seeds) side by side on a puzzle, one per core.
PUZZLE_RUNS = 2
#: How each of those runs keeps the route connected, in turn.
PUZZLE_CONNECTIVITY = ("cuts", "cuts-wide")
#: The limit of a solve that names none.
DEFAULT_LIMIT = Limit(time=60.0)
#: The largest seed (CP-SAT's is a 32-bit signed integer; the portfolio's further runs wrap around).
MAX_SEED = 2**31 - 1


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
        return _cpsat(position, alternatives=alternatives, budget=budget, seed=seed, joint=joint)
    if len(position.hand) >= PUZZLE_CARDS:
        return _portfolio(position, alternatives=alternatives, budget=budget, seed=seed, joint=joint)
    return _race(position, alternatives=alternatives, budget=budget, seed=seed, joint=joint)


def _cpsat(position: Position, *, alternatives: int, budget: Budget, seed: int, stop: StopLike | None = None,
           hint: Plan | None = None, on_bound: Callable[[int], None] | None = None,
           connectivity: str = "cuts", joint: bool = False) -> Solution:
    """CP-SAT under ``budget``'s limit, stopped by ``stop`` (a worker's) or the budget's own stop."""
    from planner.elfenland.solvers.cpsat import solve_cpsat  # ortools takes ~0.5 s to import

    run_budget = Budget(budget.limit, stop or budget.stop, started=budget.started)
    return solve_cpsat(position, alternatives=alternatives, budget=run_budget, seed=seed, hint=hint,
                       on_bound=on_bound, connectivity=connectivity, joint=joint)


def _race(position: Position, *, alternatives: int, budget: Budget, seed: int, joint: bool) -> Solution:
    """The search in this thread; after ``AUTO_SEARCH_BUDGET`` seconds, CP-SAT beside it in a worker; the first
    proof wins, and every bound CP-SAT proves caps the search's.

    CP-SAT releases the GIL while it solves, so on two cores the search and CP-SAT truly run side by side.

    Raises:
        SolverError: CP-SAT failed (a bug), whoever won.
        Exception: whatever crashed CP-SAT's thread (a bug), raised here rather than lost in that thread.
    """
    bound: list[int] = []  # CP-SAT's latest proven upper bound on the score (appended from its thread)
    cpsat: list[Job[Solution]] = []

    def bounded(value: int) -> None:
        bound.append(value)

    with Workers(budget.stop, name="elfenland-race") as workers:
        def poll(nodes: int, best_moves: Callable[[], tuple[Move, ...]]) -> bool:
            """Asked by the search now and then: start CP-SAT when due; true once CP-SAT has proven the optimum."""
            if not cpsat and budget.elapsed() >= AUTO_SEARCH_BUDGET:
                from planner.elfenland.solvers.cpsat import load_ortools

                load_ortools()  # here, not in CP-SAT's thread, where it would crawl beside the search (see there)
                hint = assemble(position, best_moves(), proven=False, solver="search")
                cpsat.append(workers.start(partial(_cpsat, position, alternatives=alternatives, budget=budget,
                                                   seed=seed, stop=workers.stop, hint=hint, on_bound=bounded,
                                                   joint=joint), name="cpsat"))
            job = cpsat[0] if cpsat else None
            return job is not None and job.done.is_set() and job.error is None and job.value().proven

        searched = solve_search(position, alternatives=alternatives, budget=budget, interrupt=poll,
                                ceiling=lambda: bound[-1] if bound else None, joint=joint)
        if not cpsat:
            return searched
        race = {"search_seconds": searched.elapsed, "cpsat_started_after": AUTO_SEARCH_BUDGET}
        if searched.proven:
            workers.close()  # stops CP-SAT and waits for it: a process that exits while CP-SAT runs aborts
            error = cpsat[0].error
            if error is not None and not isinstance(error, PlannerError):
                raise error  # a crash, not a planner error: a bug, whoever won
            searched.stats["race"] = {**race, "cpsat_bound": bound[-1] if bound else None}
            if "ceiling" in searched.stats:
                # The proof leaned on CP-SAT's bound: say so.
                return dataclasses.replace(searched, solver=f"{searched.solver}+cpsat")
            return searched
        workers.wait(cpsat[0].done.is_set)
    result = cpsat[0].value()  # raises what CP-SAT raised: a failure that is no time-out is a bug
    winner = result if result.proven or result.plan.objective > searched.plan.objective else searched
    bounds = [searched.bound, result.bound] + ([bound[-1]] if bound else [])
    winner.stats["race"] = {**race, "cpsat_bound": bound[-1] if bound else None}
    return dataclasses.replace(winner, bound=max(winner.plan.score, min(bounds)),
                               status=winner.status if winner.proven else budget.status(proven=False))


def _portfolio(position: Position, *, alternatives: int, budget: Budget, seed: int, joint: bool) -> Solution:
    """A puzzle: a glance of search and a beam search for a starting route, then one CP-SAT run per core (seeds
    ``seed``, ``seed + 1``, ..., wrapping at :data:`MAX_SEED`) from the better of the two, the first run cutting
    narrow and the second wide (``PUZZLE_CONNECTIVITY``); the first proof wins and the others are stopped.

    Raises:
        SolverError: a CP-SAT run failed (a bug).
        Exception: whatever crashed a CP-SAT thread (a bug), raised here rather than lost in that thread.
    """
    glance = Budget(Limit(nodes=PUZZLE_START_NODES), budget.stop)
    searched = solve_search(position, alternatives=alternatives, budget=glance, joint=joint)
    if searched.proven or budget.expired():
        return dataclasses.replace(searched, status=budget.status(proven=searched.proven), elapsed=budget.elapsed())
    beamed = beam_route(position, PUZZLE_BEAM_WIDTH)  # a route: it places no counter
    start_by = "search"
    if beamed.objective > searched.plan.objective:
        start_by = "beam"
        others = tuple(p for p in searched.plans if plan_key(p) != plan_key(beamed))
        searched = dataclasses.replace(searched, plans=(beamed, *others)[:alternatives])
    start_seconds = budget.elapsed()
    from planner.elfenland.solvers.cpsat import load_ortools

    load_ortools()  # here, before the threads start (see load_ortools)
    seeds = [(seed + i) % (MAX_SEED + 1) for i in range(max(1, min(PUZZLE_RUNS, cores())))]
    connectivity = [PUZZLE_CONNECTIVITY[i % len(PUZZLE_CONNECTIVITY)] for i in range(len(seeds))]
    with Workers(budget.stop, name="elfenland-portfolio") as workers:
        jobs = [workers.start(partial(_cpsat, position, alternatives=alternatives, budget=budget, seed=run_seed,
                                      stop=workers.stop, hint=searched.plan, connectivity=cuts, joint=joint),
                              name=f"cpsat-{i}")
                for i, (run_seed, cuts) in enumerate(zip(seeds, connectivity, strict=True))]

        def proven() -> bool:
            return any(job.done.is_set() and job.error is None and job.value().proven for job in jobs)

        workers.wait(proven)
    failures = [job.error for job in jobs if job.error is not None]
    if failures:
        raise failures[0]
    solutions = [job.value() for job in jobs]
    winner = next((s for s in solutions if s.proven), None)
    if winner is None:
        winner = max([searched, *solutions], key=lambda s: s.plan.objective)
        bound = min(s.bound for s in [searched, *solutions])
        winner = dataclasses.replace(winner, status=budget.status(proven=False),
                                     bound=max(winner.plan.score, bound))
    winner.stats["portfolio"] = {"start_seconds": start_seconds, "start_by": start_by, "seeds": seeds,
                                 "connectivity": connectivity,
                                 "proven_by": [seeds[i] for i, s in enumerate(solutions) if s.proven]}
    return dataclasses.replace(winner, elapsed=budget.elapsed())
