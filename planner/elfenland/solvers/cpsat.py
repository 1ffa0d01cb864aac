"""The CP-SAT route optimizer: solves :mod:`~planner.elfenland.solvers.cpsat_model`'s model, points then cards.

What makes it fast (each measured against the plain model; the numbers and the commands that made them are in
``docs/solver-measurements.md``): two lexicographic solves (points, then cards), static subset cuts for
neighbouring pairs and triangles, ``linearization_level = 2`` (the one parameter beyond the style guide's four),
one worker, payments counted per price class, connectivity by cuts added as needed, and a starting route.

Only this module and the model's import ortools, and only inside functions (the import costs about half a second).
"""

from __future__ import annotations

import logging
import math
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from planner.common.limits import Budget, Limit, StopLike
from planner.common.threads import Workers
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers.common import MAX_SEED, CutPool, Solution
from planner.elfenland.solvers.cpsat_model import SOLVER_NAME, RouteModel, load_ortools
from planner.elfenland.solvers.network import build_network, strict_rule_bites
from planner.errors import IllegalPlacementError, IllegalStepError, SolverError, UnsupportedError

__all__ = ["load_ortools", "solve_cpsat"]

logger = logging.getLogger(__name__)

FIRST_PHASE_SHARE = 0.75
"""Share of the remaining time the points phase may use, so the cards phase always gets some."""



def _usable_route(position: Position, plan: Plan | None, *, joint: bool) -> Plan | None:
    """``plan`` if it is a legal route (a joint plan, with ``joint``) of ``position`` (a hint from elsewhere)."""
    if plan is None or (plan.placements and not joint):
        return None
    try:
        return Plan.of(position, plan.steps, placements=plan.placements)
    except (IllegalStepError, IllegalPlacementError):
        logger.debug("ignoring a hint that is not a legal route of %s: %s", position, plan)
        return None


class _Search:
    """Solves one :class:`RouteModel` within a budget; :meth:`solve` may be called again after ``exclude``."""

    def __init__(self, route_model: RouteModel, *, budget: Budget, seed: int = 0, workers: int = 1,
                 log: bool = False, pool: CutPool | None = None) -> None:
        self.rm = route_model
        self.cp = route_model.cp
        self.model = route_model.model
        self.connectivity = route_model.connectivity
        self.budget = budget
        self.seed = seed
        self.workers = workers
        self.log = log
        self.bound: int | None = None
        """The lowest upper bound on the best score proven so far (by the first plan's points phase)."""
        self.pool = pool
        self.cut: set[frozenset[str]] = set()
        """The town sets of the cuts this run found or took from the pool (each is added once)."""
        self.pooled = 0
        """How many of the pool's cuts this run has looked at."""
        self.taken = 0
        """How many cuts it took from the pool (found by another run)."""

    def _take_pooled(self) -> int:
        """Add the cuts other runs have published since the last look (those already in are skipped): how many."""
        if self.pool is None:
            return 0
        cuts, self.pooled = self.pool.since(self.pooled)
        taken = self._add_cuts(cuts)
        self.taken += taken
        return taken

    def _add_cuts(self, cuts: Iterable[frozenset[str]]) -> int:
        """Add the cuts of these town sets that are not in yet and hold no start (such a set is no cut; a pool may
        hold one): how many. A round's own strays always pass, as its solution kept every cut already in."""
        start, added = self.rm.net.start, 0
        for towns in cuts:
            if towns not in self.cut and start not in towns:
                self.cut.add(towns)
                self.rm.add_cut(towns)
                added += 1
        return added

    # -- solve ---------------------------------------------------------------------------------------------------
    def _run(self, *, time_limit: float | None, hint: dict[int, int] | None,
             on_bound: Callable[[int], None] | None = None) -> tuple[Any, int, dict[str, Any]]:
        """One phase's solve; with cuts, solved again with a cut for each group of taken arcs that collects towns
        the start cannot reach, until none is left (with ``"cuts-wide"``, the first time also with a cut for every
        connected set of three towns and every ring of four).

        The cuts' relaxation only loses solutions that are not one walk, so its bounds hold for the walks too. A
        stopped or timed-out solve whose towns are not all reachable comes back FEASIBLE: its steps from the start
        are still a legal route, just not the one it scored.
        """
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        lowest: list[int] = []

        def report(bound: int) -> None:  # each solve starts over: pass on only what is news
            if on_bound is not None and (not lowest or bound < lowest[0]):
                lowest[:] = [bound]
                on_bound(bound)

        cuts = self.connectivity != "flow"
        # with cuts-wide, the first cut taken from another run widens the cuts as a stray of this run's own would
        widened = self.rm.widen() if cuts and self._take_pooled() else 0
        solver, status, stats = self._run_once(time_limit=time_limit, hint=hint, on_bound=report)
        if widened:
            stats["widened"] = widened
        while cuts and status in (self.cp.OPTIMAL, self.cp.FEASIBLE):
            strays = self.rm.strays(solver)
            if not strays:
                break
            self._add_cuts(strays)
            if self.pool is not None:
                self.pool.publish(strays)
                self._take_pooled()
            stats["cuts"] = stats.get("cuts", 0) + len(strays)
            widened = self.rm.widen()
            if widened:
                stats["widened"] = widened
            remaining = None if deadline is None else deadline - time.perf_counter()
            if (remaining is not None and remaining <= 0) or self.budget.stopped:
                status = self.cp.FEASIBLE
                break
            again, status, more = self._run_once(time_limit=remaining, hint=hint, on_bound=report)
            if status not in (self.cp.OPTIMAL, self.cp.FEASIBLE):
                status = self.cp.FEASIBLE  # no new solution: keep the last one, unproven
                break
            solver = again
            stats.update(status=more["status"], objective=more["objective"], bound=more["bound"],
                         wall_time=stats["wall_time"] + more["wall_time"],
                         deterministic_time=stats["deterministic_time"] + more["deterministic_time"],
                         branches=stats["branches"] + more["branches"],
                         conflicts=stats["conflicts"] + more["conflicts"])
        return solver, status, stats

    def _run_once(self, *, time_limit: float | None, hint: dict[int, int] | None,
                  on_bound: Callable[[int], None] | None = None) -> tuple[Any, int, dict[str, Any]]:
        cp = self.cp
        m = self.model
        m.clear_hints()  # type: ignore[no-untyped-call]
        if hint is not None:
            for var in self.rm.v.all():
                m.add_hint(var, hint[var.index])
        solver = cp.CpSolver()
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.01)
        if self.budget.limit.nodes is not None:
            solver.parameters.max_number_of_conflicts = self.budget.limit.nodes
        solver.parameters.num_workers = self.workers
        solver.parameters.random_seed = self.seed
        solver.parameters.linearization_level = 2  # see docs/solver-measurements.md
        # CP-SAT's own Ctrl-C handler answers unproven, says it timed out, or aborts the process (measured); the
        # caller's stop event is the way to end a solve early.
        solver.parameters.catch_sigint_signal = False
        solver.parameters.log_search_progress = self.log
        if self.log:
            solver.parameters.log_to_stdout = False
            solver.log_callback = lambda line: print(line, file=sys.stderr)
        if on_bound is not None:
            # A maximisation's bound may come as 13.999999: the small slack keeps the floor honest.
            solver.best_bound_callback = lambda bound: on_bound(math.floor(bound + 1e-6))
        status = self._solve_watched(solver)
        stats: dict[str, Any] = {
            "status": solver.status_name(status),
            "wall_time": solver.wall_time,
            "branches": solver.num_branches,
            "conflicts": solver.num_conflicts,
            "deterministic_time": solver.response_proto.deterministic_time,  # the same at any load
        }
        if status == cp.MODEL_INVALID:
            raise SolverError(f"cp-sat model is invalid for {self.rm.position}: {m.validate()}")
        if status in (cp.OPTIMAL, cp.FEASIBLE):
            stats["objective"] = round(solver.objective_value)
            stats["bound"] = math.floor(solver.best_objective_bound + 1e-6)
        return solver, status, stats

    def _solve_watched(self, solver: Any) -> Any:
        """Solve in a worker thread while this one watches the stop event (and stays free to take Ctrl-C).

        CP-SAT releases the GIL, so the watching costs nothing. However this ends (an exception included), the
        solve is stopped and waited for: a process that exits while CP-SAT still runs aborts.
        """
        workers = Workers(self.budget.stop, name="cpsat")
        try:
            return workers.call(lambda: solver.solve(self.model), on_stop=solver.stop_search, name="solve")
        finally:
            workers.close(on_stop=solver.stop_search)

    def solve(self, *, start: Plan | None = None, proven_before: bool = True, first: bool = True,
              on_bound: Callable[[int], None] | None = None) -> tuple[Plan | None, list[dict[str, Any]]]:
        """The best route still allowed: the most points, then the fewest cards; None when no route is left.

        The plan counts as proven when both phases are optimal and so were the solves before
        (``proven_before``): a runner-up is only the best of what is left when the plans before it were the best.
        A stop or the end of the budget ends the search early; the best route found so far comes back unproven.
        ``start`` is a legal route to begin from (the empty route when None): it only speeds the search up.
        ``on_bound`` is called (from the solver's thread) with every better upper bound on the score the points
        phase proves. Only the ``first`` solve (no route excluded yet) bounds every route: its bounds are kept in
        :attr:`bound`.

        Raises:
            _NoSolution: no route at all within the budget (or before the stop).
            SolverError: an invalid model, or a route the verifier rejects.
        """
        cp = self.cp
        remaining = self.budget.remaining()
        self.rm.set_objective(points=None)
        points_time = None if remaining is None else remaining * FIRST_PHASE_SHARE

        def bounded(bound: int) -> None:
            self.bound = bound if self.bound is None else min(self.bound, bound)
            if on_bound is not None:
                on_bound(bound)

        best, status, points_stats = self._run(time_limit=points_time, hint=self.rm.assignment(start),
                                               on_bound=bounded if first else on_bound)
        points_stats["phase"] = "points"
        runs = [points_stats]
        if status == cp.INFEASIBLE:
            return None, runs
        if status not in (cp.OPTIMAL, cp.FEASIBLE):
            raise _NoSolution
        if first and "bound" in points_stats:
            found = points_stats["bound"]
            self.bound = found if self.bound is None else min(self.bound, found)
        proven = proven_before and status == cp.OPTIMAL
        if self.budget.stopped or (self.connectivity != "flow" and status != cp.OPTIMAL):
            # Stopped in the points phase (or, with cuts, perhaps not one walk): its steps from the start are a
            # legal route, just perhaps not frugal or not the best.
            return self.rm.extract_plan(best, proven=False), runs
        points = round(best.objective_value)
        hint = {var.index: best.value(var) for var in self.rm.v.all()}
        self.rm.set_objective(points=points)
        second, status, cards_stats = self._run(time_limit=self.budget.remaining(), hint=hint)
        cards_stats["phase"] = "cards"
        runs.append(cards_stats)
        self.model.clear_assumptions()
        if status == cp.OPTIMAL or (status == cp.FEASIBLE and self.connectivity == "flow"):
            return self.rm.extract_plan(second, proven=proven and status == cp.OPTIMAL), runs
        # Out of time in the cards phase: the points phase's route is legal, just perhaps not frugal.
        return self.rm.extract_plan(best, proven=False), runs

class _NoSolution(Exception):
    """CP-SAT found no route at all before its budget ran out or it was stopped."""


def solve_cpsat(position: Position, *, alternatives: int = 1, limit: Limit | None = None,
                stop: StopLike | None = None, budget: Budget | None = None, seed: int = 0, workers: int = 1,
                log: bool = False, hint: Plan | None = None, on_bound: Callable[[int], None] | None = None,
                connectivity: str = "cuts", joint: bool = False, cuts: CutPool | None = None) -> Solution:
    """The best route of ``position`` by CP-SAT, and up to ``alternatives - 1`` runners-up.

    Best means the most points (new towns minus the home-town penalty), then the fewest cards. Alternatives
    differ in the towns they collect or the town where they end; each is the best route among those not yet
    listed. ``limit`` (or a running ``budget``) is the budget of all solves together (``nodes`` counts CP-SAT's
    conflicts per solve); setting ``stop`` (from another thread) ends the search early. Either way the best
    route found so far comes back unproven, or, when none was found, ``hint``'s route or staying put. ``log``
    writes CP-SAT's search log to stderr.
    ``hint`` is a known route of ``position`` (another solver's best so far, the previous plan when re-planning)
    to start from: a good one saves much of the search, a bad or foreign one only its own cost.
    One worker is the default and the fastest on this model (see docs/solver-measurements.md). ``on_bound`` is
    called, from CP-SAT's thread, with each better proven upper bound on the best route's score (new towns minus
    the home-town penalty) while the best route is sought: another solver may use it to prune (see ``solve``).
    With ``joint``, the best joint plan: my supply's counters placed on empty roads with the route (the most
    points, then the fewest cards, then the fewest counters placed); without, the supply is ignored.
    ``connectivity`` picks how the model keeps collected towns reachable from the start: ``"cuts"`` (added as
    needed; the faster), ``"cuts-wide"`` (the same, plus a cut for every connected set of three towns and every
    ring of four once a solution strays: slower at the median, much faster on some puzzles; see :func:`solve`'s
    portfolio) or ``"flow"`` (one model; see the module docstring). ``cuts``, a pool shared with other runs on
    the same position (a portfolio's), receives the connectivity cuts this run finds and gives it theirs at each
    round (the wide sets of ``"cuts-wide"`` stay this run's own).

    Raises:
        IllegalPositionError: the position breaks the rules.
        UnsupportedError: the strict caravan rule where it matters (use the search solver).
        SolverError: an invalid model, or a route the verifier rejects (a bug).
        ValueError: ``alternatives`` or ``workers`` is below 1, a seed outside 0..2**31-1, or an unknown
            ``connectivity``.
    """
    if alternatives < 1 or workers < 1:
        raise ValueError(f"alternatives and workers must be at least 1, got {alternatives!r} and {workers!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"CP-SAT's random seed must be in 0..{MAX_SEED}, got {seed!r}")
    position.check()
    budget = budget or Budget(limit or Limit(), stop)
    started = time.perf_counter()
    net = build_network(position, joint=joint)
    if position.rules.strict and strict_rule_bites(net):
        raise UnsupportedError(
            "the strict caravan rule is not supported by the CP-SAT solver (whether a caravan is allowed depends "
            "on the order of the steps); use the search solver"
        )
    route_model = RouteModel(position, net, connectivity=connectivity)
    search = _Search(route_model, budget=budget, seed=seed, workers=workers, log=log, pool=cuts)
    proto = route_model.model.proto
    stats: dict[str, Any] = {
        "build_time": time.perf_counter() - started,
        "variables": len(proto.variables),
        "constraints": len(proto.constraints),
        "arcs": len(net.arcs),
        "solves": [],
    }
    logger.debug("cp-sat model for %s: %d variables, %d constraints, built in %.3f s",
                 position, stats["variables"], stats["constraints"], stats["build_time"])
    start = _usable_route(position, hint, joint=joint)
    plans: list[Plan] = []
    while len(plans) < alternatives:
        if plans and budget.expired():
            break
        try:
            plan, runs = search.solve(start=None if plans else start, proven_before=all(p.proven for p in plans),
                                           first=not plans, on_bound=None if plans else on_bound)
        except _NoSolution:
            if not plans:
                stats["status"] = "no solution"
                plans.append(Plan.of(position, start.steps if start else (), solver=SOLVER_NAME,
                                     placements=start.placements if start else ()))
            break
        stats["solves"] += runs
        if not plans:
            stats["status"] = runs[-1]["status"]  # the best plan's last phase
        if plan is None:
            if not plans:
                raise SolverError(f"cp-sat reports no route at all for {position}, but staying put is legal")
            break
        plans.append(plan)
        if len(plans) < alternatives:
            route_model.exclude(plan)
    solves = stats["solves"]
    stats.update(wall_time=sum(s["wall_time"] for s in solves), branches=sum(s["branches"] for s in solves))
    if cuts is not None:
        stats["pooled_cuts"] = search.taken
    best = plans[0]
    plans.sort(key=lambda p: p.objective, reverse=True)  # an unproven first plan may lose to a runner-up
    proven = best.proven and plans[0] is best
    trivial = len(net.collectable)  # every reachable town collected, no penalty
    proven_bound = trivial if search.bound is None else min(trivial, search.bound)
    bound = plans[0].score if proven else max(plans[0].score, proven_bound)
    return Solution(tuple(plans), budget.status(proven=proven), bound, SOLVER_NAME,
                    time.perf_counter() - started, stats)
