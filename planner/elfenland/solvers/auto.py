"""The ``auto`` solver: the search alone while it is quick, then a race with CP-SAT; a puzzle's CP-SAT portfolio.

- The race (hands under ``PUZZLE_CARDS``): the search runs alone; once it has run ``AUTO_SEARCH_BUDGET`` seconds,
  CP-SAT starts in a worker beside it, from the search's best route so far. The first to prove the optimum
  answers and the other is stopped; every upper bound CP-SAT proves on the score caps the search's own bound.
- The portfolio (puzzle-sized hands): a glance of search (``PUZZLE_START_NODES``) and a beam search for a starting
  route, then one CP-SAT run per core (up to ``PUZZLE_RUNS``, one seed each); the first proof wins.

Whom they call on (the search, a CP-SAT run, the beam, the ortools loader, the core count) is a :class:`Team`
passed in, so a test hands in fakes and spies instead of patching this module. Why each constant has its value,
with the measurements and the commands that made them: ``docs/solver-measurements.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from planner.common.limits import Budget, Limit, StopLike
from planner.common.threads import Job, Workers, cores
from planner.common.values import frozen
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers.common import MAX_SEED, CutPool, Move, Solution, assemble, plan_key
from planner.elfenland.solvers.search import Ceiling, Interrupt, beam_route, solve_search
from planner.errors import PlannerError

__all__ = ["AUTO_SEARCH_BUDGET", "PUZZLE_CARDS", "TEAM", "Team", "portfolio", "race", "run_cpsat", "solve_auto"]

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
#: Whether those runs share the connectivity cuts they find (a :class:`~.common.CutPool`).
PUZZLE_SHARE_CUTS = True


class SearchRun(Protocol):
    """The exact search, as :func:`~planner.elfenland.solvers.search.solve_search`."""

    def __call__(self, position: Position, *, alternatives: int = ..., budget: Budget | None = ...,
                 interrupt: Interrupt | None = ..., ceiling: Ceiling | None = ..., joint: bool = ...) -> Solution: ...


class CpsatRun(Protocol):
    """One CP-SAT run, as :func:`run_cpsat`."""

    def __call__(self, position: Position, *, alternatives: int, budget: Budget, seed: int,
                 stop: StopLike | None = ..., hint: Plan | None = ..., on_bound: Callable[[int], None] | None = ...,
                 connectivity: str = ..., joint: bool = ..., cuts: CutPool | None = ...) -> Solution: ...


def run_cpsat(position: Position, *, alternatives: int, budget: Budget, seed: int, stop: StopLike | None = None,
              hint: Plan | None = None, on_bound: Callable[[int], None] | None = None,
              connectivity: str = "cuts", joint: bool = False, cuts: CutPool | None = None) -> Solution:
    """CP-SAT under ``budget``'s limit, stopped by ``stop`` (a worker's) or the budget's own stop; ``cuts`` is the
    pool of connectivity cuts it shares with the other runs on the position."""
    from planner.elfenland.solvers.cpsat import solve_cpsat  # ortools takes ~0.5 s to import

    run_budget = Budget(budget.limit, stop or budget.stop, started=budget.started)
    return solve_cpsat(position, alternatives=alternatives, budget=run_budget, seed=seed, hint=hint,
                       on_bound=on_bound, connectivity=connectivity, joint=joint, cuts=cuts)


def load_ortools() -> object:
    """Import ortools now (see :func:`~planner.elfenland.solvers.cpsat_model.load_ortools`: from the busy thread)."""
    from planner.elfenland.solvers.cpsat_model import load_ortools as load

    return load()


@frozen
class Team:
    """Whom the auto solver calls on; the defaults are the real ones, a test passes fakes and spies."""

    search: SearchRun = solve_search
    cpsat: CpsatRun = run_cpsat
    beam: Callable[[Position, int], Plan] = beam_route
    """A good route fast, without proof, of a beam this wide (see :func:`~.search.beam_route`)."""
    load_ortools: Callable[[], object] = load_ortools
    """Imports ortools; the race and the portfolio call it in the calling thread before CP-SAT's threads start."""
    cores: Callable[[], int] = cores


#: The real collaborators.
TEAM = Team()


def solve_auto(position: Position, *, alternatives: int, budget: Budget, seed: int, joint: bool,
               team: Team = TEAM) -> Solution:
    """The portfolio for a puzzle-sized hand (``PUZZLE_CARDS``), the race otherwise. The position is checked."""
    if len(position.hand) >= PUZZLE_CARDS:
        return portfolio(position, alternatives=alternatives, budget=budget, seed=seed, joint=joint, team=team)
    return race(position, alternatives=alternatives, budget=budget, seed=seed, joint=joint, team=team)


def race(position: Position, *, alternatives: int, budget: Budget, seed: int, joint: bool, team: Team = TEAM,
         search_alone: float = AUTO_SEARCH_BUDGET, search_nodes: int = 0) -> Solution:
    """The search in this thread; after ``search_alone`` seconds and ``search_nodes`` nodes, CP-SAT beside it in a
    worker; the first proof wins, and every bound CP-SAT proves caps the search's.

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
            if not cpsat and nodes >= search_nodes and budget.elapsed() >= search_alone:
                team.load_ortools()  # here, not in CP-SAT's thread, where it would crawl beside the search
                hint = assemble(position, best_moves(), proven=False, solver="search")
                cpsat.append(workers.start(partial(team.cpsat, position, alternatives=alternatives, budget=budget,
                                                   seed=seed, stop=workers.stop, hint=hint, on_bound=bounded,
                                                   joint=joint), name="cpsat"))
            job = cpsat[0] if cpsat else None
            return job is not None and job.done.is_set() and job.error is None and job.value().proven

        searched = team.search(position, alternatives=alternatives, budget=budget, interrupt=poll,
                               ceiling=lambda: bound[-1] if bound else None, joint=joint)
        if not cpsat:
            return searched
        if searched.proven:
            workers.close()  # stops CP-SAT and waits for it: a process that exits while CP-SAT runs aborts
            error = cpsat[0].error
            if error is not None and not isinstance(error, PlannerError):
                raise error  # a crash, not a planner error: a bug, whoever won
            # A proof that leaned on CP-SAT's bound says so in its label.
            solver = f"{searched.solver}+cpsat" if "ceiling" in searched.stats else searched.solver
            return dataclasses.replace(searched, solver=solver, stats=_race_stats(searched, searched, bound,
                                                                                   search_alone))
        workers.wait(cpsat[0].done.is_set)
    result = cpsat[0].value()  # raises what CP-SAT raised: a failure that is no time-out is a bug
    winner = result if result.proven or result.plan.objective > searched.plan.objective else searched
    bounds = [searched.bound, result.bound] + ([bound[-1]] if bound else [])
    return dataclasses.replace(winner, bound=max(winner.plan.score, min(bounds)),
                               status=winner.status if winner.proven else budget.status(proven=False),
                               stats=_race_stats(winner, searched, bound, search_alone))


def _race_stats(winner: Solution, searched: Solution, bound: list[int], search_alone: float) -> dict[str, Any]:
    """The winner's stats with the race's: how long the search ran, when CP-SAT joined, its last bound."""
    return {**winner.stats, "race": {"search_seconds": searched.elapsed, "cpsat_started_after": search_alone,
                                     "cpsat_bound": bound[-1] if bound else None}}


def portfolio(position: Position, *, alternatives: int, budget: Budget, seed: int, joint: bool, team: Team = TEAM,
              glance_nodes: int = PUZZLE_START_NODES) -> Solution:
    """A puzzle: a glance of ``glance_nodes`` of search and a beam search for a starting route, then one CP-SAT run
    per core (seeds ``seed``, ``seed + 1``, ..., wrapping at :data:`MAX_SEED`) from the better of the two, the
    first run cutting narrow and the second wide (``PUZZLE_CONNECTIVITY``); the first proof wins and the others
    are stopped.

    Raises:
        SolverError: a CP-SAT run failed (a bug).
        Exception: whatever crashed a CP-SAT thread (a bug), raised here rather than lost in that thread.
    """
    glance = Budget(Limit(nodes=glance_nodes), budget.stop)
    searched = team.search(position, alternatives=alternatives, budget=glance, joint=joint)
    if searched.proven or budget.expired():
        return dataclasses.replace(searched, status=budget.status(proven=searched.proven), elapsed=budget.elapsed())
    beamed = team.beam(position, PUZZLE_BEAM_WIDTH)  # a route: it places no counter
    start_by = "search"
    if beamed.objective > searched.plan.objective:
        start_by = "beam"
        others = tuple(p for p in searched.plans if plan_key(p) != plan_key(beamed))
        searched = dataclasses.replace(searched, plans=(beamed, *others)[:alternatives])
    start_seconds = budget.elapsed()
    team.load_ortools()  # here, before the threads start (see load_ortools)
    seeds = [(seed + i) % (MAX_SEED + 1) for i in range(max(1, min(PUZZLE_RUNS, team.cores())))]
    connectivity = [PUZZLE_CONNECTIVITY[i % len(PUZZLE_CONNECTIVITY)] for i in range(len(seeds))]
    pool = CutPool() if PUZZLE_SHARE_CUTS and len(seeds) > 1 else None
    with Workers(budget.stop, name="elfenland-portfolio") as workers:
        jobs = [workers.start(partial(team.cpsat, position, alternatives=alternatives, budget=budget, seed=run_seed,
                                      stop=workers.stop, hint=searched.plan, connectivity=cuts, joint=joint,
                                      cuts=pool),
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
        best = max([searched, *solutions], key=lambda s: s.plan.objective)
        bound = min(s.bound for s in [searched, *solutions])
        winner = dataclasses.replace(best, status=budget.status(proven=False), bound=max(best.plan.score, bound))
    stats = {**winner.stats, "portfolio": {"start_seconds": start_seconds, "start_by": start_by, "seeds": seeds,
                                           "connectivity": connectivity,
                                           "proven_by": [seeds[i] for i, s in enumerate(solutions) if s.proven]}}
    return dataclasses.replace(winner, elapsed=budget.elapsed(), stats=stats)
