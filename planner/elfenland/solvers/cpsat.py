"""The CP-SAT route optimizer: how often the boot takes each connection each way, not the order of the steps.

Modelling assumptions (the agreement tests against a brute force guard each one):

* **Traversal counts.** A route is the multiset of its steps: for every connection and direction, how often the
  boot takes it (towns and roads may repeat). Flow balance at every town (what enters leaves again, except one
  more leaves the start and one more enters the end, which may be the start) plus connectivity to the start make
  the steps one walk, which :meth:`_RouteModel._extract_plan` rebuilds (Hierholzer). Connectivity comes from
  subset cuts added as needed (``connectivity = "cuts"``, the default): whenever the best solution collects towns
  in loops the start cannot reach, each such loop's towns, and everything outside the start's own group, get a
  cut "a town of this set is collected only if the route enters the set", and the phase is solved again. With
  ``connectivity = "flow"`` a single-commodity flow does it in one model instead: every collected town absorbs
  one unit sent from the start along taken arcs.
* **Order-free payment.** Every step is paid out of the starting hand, so a route is affordable exactly when,
  for each card type, the matching cards it pays (counters and rafts) fit the hand, and the caravans' any-cards
  fit what is left. Cards are counted per type, never per step; counter and caravan payments are counted per
  price class (transport, counter price, caravan price), not per road or direction: roads of one class are
  interchangeable for paying, whichever way the boot goes.
* **Strict caravans are not modelled.** Under ``caravan_when = "strict"`` a caravan is legal only while the hand
  *at that moment* cannot pay the counter, which depends on the step order. :func:`solve_cpsat` raises
  :class:`~planner.errors.UnsupportedError` for it (use the search solver), unless the rule cannot bite: no road whose
  counter the hand can pay also has an affordable caravan.

What makes the model fast (each measured against the plain model; the numbers and the commands that made them are
in ``docs/solver-measurements.md``): two lexicographic solves (points, then cards), static subset cuts for
neighbouring pairs and triangles, ``linearization_level = 2`` (the one parameter beyond the style guide's four),
one worker, payments counted per price class, connectivity by cuts added as needed, and a starting route.

Only this module imports ortools, and only inside functions (the import costs about a second).
"""

from __future__ import annotations

import logging
import math
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from planner.common.limits import Budget, Limit, StopLike
from planner.common.threads import Workers
from planner.elfenland.plan import Pay, Plan
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, TRANSPORTS, Transport
from planner.elfenland.solvers.common import Move, Solution, assemble, plan_key
from planner.elfenland.solvers.network import Arc, Network, Road, build_network, strict_rule_bites
from planner.errors import IllegalPlacementError, IllegalStepError, SolverError, UnsupportedError

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["load_ortools", "solve_cpsat"]

logger = logging.getLogger(__name__)

SOLVER_NAME = "cpsat"
CONNECTIVITY = ("flow", "cuts", "cuts-wide")
"""How the model keeps the collected towns reachable: a flow from the start, or subset cuts added as needed
(``cuts-wide``: with every connected set of three towns and every ring of four cut too once a solution
strays)."""
FIRST_PHASE_SHARE = 0.75
"""Share of the remaining time the points phase may use, so the cards phase always gets some."""
MAX_SEED = 2**31 - 1
"""CP-SAT's random seed is a 32-bit signed integer."""


def load_ortools() -> Any:
    """Import CP-SAT's ``cp_model`` (about half a second the first time) and return it.

    Call it from the thread that keeps the GIL busy: imported from a second thread while a pure-Python loop runs,
    every file access hands the GIL back and waits a whole switch interval for it, and the import takes 10-20
    times longer (measured: 0.5 s alone, 9-11 s beside the search).
    """
    try:
        from ortools.sat.python import cp_model
    except ImportError as error:
        if isinstance(error.__cause__, KeyboardInterrupt):  # Ctrl-C while the extension initialised
            raise KeyboardInterrupt from None
        raise
    return cp_model


def _usable_route(position: Position, plan: Plan | None, *, joint: bool) -> Plan | None:
    """``plan`` if it is a legal route (a joint plan, with ``joint``) of ``position`` (a hint from elsewhere)."""
    if plan is None or (plan.placements and not joint):
        return None
    try:
        return Plan.of(position, plan.steps, placements=plan.placements)
    except (IllegalStepError, IllegalPlacementError):
        logger.debug("ignoring a hint that is not a legal route of %s: %s", position, plan)
        return None


# -- variables ---------------------------------------------------------------------------------------------------
@dataclass(slots=True)
class _Variables:
    """The model's variables, keyed by domain ids (arc ids, road ids, town codes, transports)."""

    net: Network
    travel: dict[str, Any] = field(default_factory=dict)
    """Arc id -> how often the boot takes it."""
    flow: dict[str, Any] = field(default_factory=dict)
    """Arc id -> connectivity flow from the start."""
    counter: dict[str, Any] = field(default_factory=dict)
    """Price class (:attr:`Road.price`) -> steps paid with the counter's matching cards."""
    caravan: dict[str, Any] = field(default_factory=dict)
    """Road id -> steps paid as caravans."""
    visit: dict[str, Any] = field(default_factory=dict)
    """Collectable town -> whether the route enters it."""
    matching: dict[Transport, Any] = field(default_factory=dict)
    """Transport -> matching cards (counters, rafts) the route pays."""
    caravan_cards: Any = None
    """Any-cards paid for caravans."""
    place: dict[str, Any] = field(default_factory=dict)
    """Road opened by one of my counters (``LAP-RIV:f+D``) -> whether the counter is placed there."""

    def entering(self, town: str) -> Any:
        """How often the route enters ``town``."""
        return sum(self.travel[a.id] for a in self.net.entering[town])

    def leaving(self, town: str) -> Any:
        """How often the route leaves ``town``."""
        return sum(self.travel[a.id] for a in self.net.leaving[town])

    def ends(self, town: str) -> Any:
        """1 if the route ends in ``town``, else 0 (a linear expression of the counts)."""
        return self.entering(town) - self.leaving(town) + (1 if town == self.net.start else 0)

    def visits(self, town: str) -> Any:
        """Whether the route collects ``town``'s marker."""
        return self.visit[town]

    def cards_spent(self, transport: Transport | None = None) -> Any:
        """Matching cards of ``transport`` the route pays, or every card (caravans included) for None."""
        if transport is not None:
            return self.matching[transport]
        return sum(self.matching.values()) + self.caravan_cards

    def all(self) -> list[Any]:
        """Every variable, for hints."""
        return [*self.travel.values(), *self.flow.values(), *self.counter.values(), *self.caravan.values(),
                *self.visit.values(), *self.matching.values(), self.caravan_cards, *self.place.values()]


# -- the model ---------------------------------------------------------------------------------------------------
class _RouteModel:
    """One CP-SAT model of a position; :meth:`solve` may be called again after :meth:`exclude`."""

    def __init__(self, position: Position, net: Network, *, connectivity: str = "cuts", budget: Budget | None = None,
                 seed: int = 0, workers: int = 1, log: bool = False) -> None:
        if connectivity not in CONNECTIVITY:
            raise ValueError(f"connectivity must be one of {', '.join(CONNECTIVITY)}, got {connectivity!r}")
        self.connectivity = connectivity
        self.budget = budget or Budget(Limit())
        self.seed = seed
        self.workers = workers
        self.log = log
        self.bound: int | None = None
        """The lowest upper bound on the best score proven so far (by the first plan's points phase)."""
        self.cp = load_ortools()
        self.position = position
        self.hand = position.hand
        self.size = len(position.hand)
        self.net = net
        self.prices: dict[str, Road] = {road.price: road for road in net.roads.values()}
        """One road of each price class (:attr:`Road.price`), keyed by class."""
        self.model: cp_model.CpModel = self.cp.CpModel()
        self.v = _Variables(net)
        self._add_variables()
        self._add_walk_constraints()
        self._add_collect_constraints()
        self._add_connectivity_constraints()
        self._add_payment_constraints()
        self._add_placement_constraints()
        self.score = self._score_expr()
        self._phase = 0
        self._widened = False
        """Whether the wide cut sets are in (``cuts-wide``: from the first solution that strays on)."""

    # -- variables -----------------------------------------------------------------------------------------------
    def _add_variables(self) -> None:
        m, v, net = self.model, self.v, self.net
        for arc in net.arcs:
            v.travel[arc.id] = m.new_int_var(0, arc.most, f"travel[{arc.id}]")
        if net.collectable and self.connectivity == "flow":
            cap = min(len(net.collectable), self.size)
            for arc in net.arcs:
                v.flow[arc.id] = m.new_int_var(0, cap, f"flow[{arc.id}]")
        for price, road in self.prices.items():
            v.counter[price] = m.new_int_var(0, road.counter_max, f"counter[{price}]")
            v.caravan[price] = m.new_int_var(0, road.caravan_max, f"caravan[{price}]")
        for town in net.collectable:
            v.visit[town] = m.new_bool_var(f"visit[{town}]")
        for transport in TRANSPORTS:
            v.matching[transport] = m.new_int_var(0, self.hand[transport], f"matching[{transport.letter}]")
        v.caravan_cards = m.new_int_var(0, self.size, "caravan_cards")
        for road in net.roads.values():
            if road.placed is not None:
                v.place[road.id] = m.new_bool_var(f"place[{road.id}]")

    # -- constraints ---------------------------------------------------------------------------------------------
    def _add_walk_constraints(self) -> None:
        """The steps form one trip from the start: what enters a town leaves it again, except at the end."""
        m, v = self.model, self.v
        for town in self.net.towns:
            # 1 in the end town, 0 elsewhere; the counts sum to one end town by themselves.
            m.add_linear_constraint(v.ends(town), 0, 1)
        # Every step costs at least one card.
        if v.travel:
            m.add(sum(v.travel.values()) <= self.size)

    def _add_collect_constraints(self) -> None:
        """A marker is collected from every town entered, and only from those (so alternatives stay honest)."""
        m, v = self.model, self.v
        for town, visit in v.visit.items():
            m.add(v.entering(town) >= visit)
            m.add(v.entering(town) <= sum(a.most for a in self.net.entering[town]) * visit)

    def _add_connectivity_constraints(self) -> None:
        """The steps are one walk: every collected town is reached from the start along taken arcs.

        With cuts (``connectivity`` ``"cuts"`` or ``"cuts-wide"``) only the subset cuts are added here; :meth:`_run`
        adds more as solutions show them to be needed.
        """
        m, v, net = self.model, self.v, self.net
        if not v.visit:
            return  # nothing to collect: a stray loop could only waste cards, and cards are minimised
        # Subset cuts (redundant with the flow): collecting a town of a small set means entering the set (see the
        # module docstring).
        for towns in net.cut_sets():
            self._add_cut(towns)
        if self.connectivity != "flow":
            return
        cap = min(len(net.collectable), self.size)
        for arc in net.arcs:
            m.add(v.flow[arc.id] <= cap * v.travel[arc.id])
        for town in net.towns:
            out = sum(v.flow[a.id] for a in net.leaving[town])
            inn = sum(v.flow[a.id] for a in net.entering[town])
            if town == net.start:
                m.add(out - inn == sum(v.visit.values()))
            elif town in v.visit:
                m.add(inn - out == v.visit[town])
            elif net.entering[town] or net.leaving[town]:
                m.add(inn == out)

    def _add_cut(self, towns: frozenset[str]) -> None:
        """Collecting a town of ``towns`` (a set without the start) means entering the set."""
        v, net = self.v, self.net
        inside = [t for t in towns if t in v.visit]
        if not inside:
            return
        entering = sum(v.travel[a.id] for t in towns for a in net.entering[t] if a.frm not in towns)
        for town in inside:
            self.model.add(entering >= v.visit[town])

    def _strays(self, solver: Any) -> list[frozenset[str]]:
        """The towns of each group of taken arcs that the start cannot reach and that collect a marker."""
        near: dict[str, set[str]] = defaultdict(set)
        for arc in self.net.arcs:
            if solver.value(self.v.travel[arc.id]):
                near[arc.frm].add(arc.to)
                near[arc.to].add(arc.frm)
        seen: set[str] = set()
        groups = []
        home: set[str] = set()
        for town in [self.net.start, *near]:
            if town in seen:
                continue
            group, todo = {town}, [town]
            while todo:
                for other in near[todo.pop()] - group:
                    group.add(other)
                    todo.append(other)
            seen |= group
            if town == self.net.start:
                home = group
            elif any(t in self.v.visit and solver.value(self.v.visit[t]) for t in group):
                groups.append(frozenset(group))
        if groups:
            # Everything the start's group does not reach: cuts off every other way of leaving that group too.
            groups.append(frozenset(self.net.towns) - home)
        return groups

    def _add_payment_constraints(self) -> None:
        """Each step pays its counter's matching cards, a caravan's any-cards, or rafts; all from the hand."""
        m, v, net = self.model, self.v, self.net
        prices = self.prices
        steps: dict[str, list[Any]] = defaultdict(list)
        for arc in net.arcs:
            if arc.road is not None:
                steps[arc.road.price].append(v.travel[arc.id])
        for price in prices:
            m.add(sum(steps[price]) == v.counter[price] + v.caravan[price])
        for transport in COUNTER_TRANSPORTS:
            m.add(v.matching[transport] == sum(
                r.cost * v.counter[price] for price, r in prices.items() if r.transport is transport))
        m.add(v.matching[Transport.RAFT] == sum(a.rafts * v.travel[a.id] for a in net.arcs if a.road is None))
        m.add(v.caravan_cards == sum(r.caravan * v.caravan[price] for price, r in prices.items()))
        # Caravans take any cards, so they fit when the whole bill fits the hand.
        m.add(v.cards_spent() <= self.size)

    def _add_placement_constraints(self) -> None:
        """My counters: an empty road takes at most one, each from the supply, and only a road holding one of
        mine can be travelled (the cheapest joint plan places a counter only where the walk goes)."""
        m, v, net = self.model, self.v, self.net
        if not v.place:
            return
        for arc in net.arcs:
            if arc.road is not None and arc.road.placed is not None:
                m.add(v.travel[arc.id] <= arc.most * v.place[arc.road.id])
        by_road: dict[str, list[Any]] = defaultdict(list)
        by_type: dict[Transport, list[Any]] = defaultdict(list)
        for road_id, placed in v.place.items():
            road = net.roads[road_id]
            assert road.placed is not None
            by_road[road.connection].append(placed)
            by_type[road.placed].append(placed)
        for placements in by_road.values():
            m.add(sum(placements) <= 1)
        for transport, placements in by_type.items():
            m.add(sum(placements) <= self.position.supply[transport])

    # -- objective -----------------------------------------------------------------------------------------------
    def _score_expr(self) -> Any:
        """Towns collected minus the home-town penalty of the end town."""
        points = sum(self.v.visit.values())
        penalty = sum(p * self.v.ends(t) for t, p in self.net.penalty.items() if p)
        return points - penalty

    def _add_objective(self, *, points: int | None) -> None:
        """Phase one (``points`` None): the most points. Phase two: at least ``points``, the fewest cards."""
        m = self.model
        m.clear_assumptions()
        if points is None:
            m.maximize(self.score)
            return
        # Enforced by an assumption, so that a later alternative can drop it (it may score less).
        self._phase += 1
        reached = m.new_bool_var(f"score_at_least[{points}]#{self._phase}")
        m.add(self.score >= points).only_enforce_if(reached)
        m.add_assumptions([reached])
        # Then the fewest counters placed: at most one per card spent saved is worth it, so cards weigh more.
        placed = sum(self.v.place.values())
        weight = len(self.position.supply) + 1 if self.v.place else 1
        m.minimize(weight * self.v.cards_spent() + placed)

    def assignment(self, plan: Plan | None) -> dict[int, int]:
        """Every variable's value for a legal route or joint plan (the empty route for None): a complete hint."""
        v, net = self.v, self.net
        values = {var.index: 0 for var in v.all()}
        if plan is None or not plan.steps:
            return values
        steps = plan.steps
        mine = {tile.road: f"+{tile.transport.letter}" for tile in plan.placements if tile.transport is not None}
        arcs = {a.id: a for a in net.arcs}
        keys = (f"{s.frm}>{s.to}:{s.connection[-1]}{mine.get(s.connection, '')}" for s in steps)
        taken = [arcs[key] for key in keys if key in arcs]
        if len(taken) < len(steps):
            return values  # not a route of this position: fall back on the empty one
        for arc in taken:
            if arc.road is not None and arc.road.id in v.place:
                values[v.place[arc.road.id].index] = 1
        for step, arc in zip(steps, taken, strict=True):
            values[v.travel[arc.id].index] += 1
            if arc.road is not None:
                paid = v.counter if step.pay is Pay.COUNTER else v.caravan
                values[paid[arc.road.price].index] += 1
        for transport, var in v.matching.items():
            values[var.index] = sum(step.cards[transport] for step in steps if step.pay is not Pay.CARAVAN)
        values[v.caravan_cards.index] = sum(len(step.cards) for step in steps if step.pay is Pay.CARAVAN)
        if not v.flow:
            for town in {arc.to for arc in taken} & v.visit.keys():
                values[v.visit[town].index] = 1
            return values
        # Connectivity flow: one unit to each collected town along the loop-erased walk that first reaches it.
        path: list[Arc] = []  # a simple path from the start to where the boot stands
        for arc in taken:
            if arc.to == net.start:
                path = []
            else:
                again = next((i for i, hop in enumerate(path) if hop.to == arc.to), None)
                path = path[: again + 1] if again is not None else [*path, arc]
            if arc.to in v.visit and values[v.visit[arc.to].index] == 0:
                values[v.visit[arc.to].index] = 1
                for hop in path:
                    values[v.flow[hop.id].index] += 1
        return values

    def exclude(self, plan: Plan) -> None:
        """Forbid routes collecting exactly ``plan``'s towns and ending where it ends (for alternatives)."""
        towns, end = plan_key(plan)
        v = self.v
        differs = [1 - lit if town in towns else lit for town, lit in v.visit.items()]
        self.model.add(sum(differs) + (1 - v.ends(end)) >= 1)

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

        solver, status, stats = self._run_once(time_limit=time_limit, hint=hint, on_bound=report)
        while self.connectivity != "flow" and status in (self.cp.OPTIMAL, self.cp.FEASIBLE):
            strays = self._strays(solver)
            if not strays:
                break
            for towns in strays:
                self._add_cut(towns)
            stats["cuts"] = stats.get("cuts", 0) + len(strays)
            if self.connectivity == "cuts-wide" and not self._widened:
                self._widened = True
                wide = self.net.wide_cut_sets()
                for towns in wide:
                    self._add_cut(towns)
                stats["widened"] = len(wide)
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
                         branches=stats["branches"] + more["branches"],
                         conflicts=stats["conflicts"] + more["conflicts"])
        return solver, status, stats

    def _run_once(self, *, time_limit: float | None, hint: dict[int, int] | None,
                  on_bound: Callable[[int], None] | None = None) -> tuple[Any, int, dict[str, Any]]:
        cp = self.cp
        m = self.model
        m.clear_hints()  # type: ignore[no-untyped-call]
        if hint is not None:
            for var in self.v.all():
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
        }
        if status == cp.MODEL_INVALID:
            raise SolverError(f"cp-sat model is invalid for {self.position}: {m.validate()}")
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
        self._add_objective(points=None)
        points_time = None if remaining is None else remaining * FIRST_PHASE_SHARE

        def bounded(bound: int) -> None:
            self.bound = bound if self.bound is None else min(self.bound, bound)
            if on_bound is not None:
                on_bound(bound)

        best, status, points_stats = self._run(time_limit=points_time, hint=self.assignment(start),
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
            return self._extract_plan(best, proven=False), runs
        points = round(best.objective_value)
        hint = {var.index: best.value(var) for var in self.v.all()}
        self._add_objective(points=points)
        second, status, cards_stats = self._run(time_limit=self.budget.remaining(), hint=hint)
        cards_stats["phase"] = "cards"
        runs.append(cards_stats)
        self.model.clear_assumptions()
        if status == cp.OPTIMAL or (status == cp.FEASIBLE and self.connectivity == "flow"):
            return self._extract_plan(second, proven=proven and status == cp.OPTIMAL), runs
        # Out of time in the cards phase: the points phase's route is legal, just perhaps not frugal.
        return self._extract_plan(best, proven=False), runs

    # -- extract -------------------------------------------------------------------------------------------------
    def _extract_plan(self, solver: cp_model.CpSolver, *, proven: bool) -> Plan:
        """Rebuild one walk from the counts (Hierholzer) and pay each step; the verifier checks the result."""
        net, v = self.net, self.v
        leaving: dict[str, list[Arc]] = defaultdict(list)
        for arc in net.arcs:
            leaving[arc.frm].extend([arc] * solver.value(v.travel[arc.id]))
        for arcs in leaving.values():
            arcs.sort(key=lambda a: a.id, reverse=True)  # popped in id order: a deterministic route
        walk: list[Arc] = []
        stack: list[tuple[str, Arc | None]] = [(net.start, None)]
        while stack:
            town, via = stack[-1]
            if leaving[town]:
                arc = leaving[town].pop()
                stack.append((arc.to, arc))
            else:
                stack.pop()
                if via is not None:
                    walk.append(via)
        walk.reverse()
        if any(leaving.values()):
            # Loops away from the start collect nothing (collected towns are connected); they only cost cards.
            logger.debug("dropped steps not connected to the start: %s", {t: a for t, a in leaving.items() if a})
        counters_left = {price: solver.value(var) for price, var in v.counter.items()}
        moves = []
        opened: set[str] = set()
        for arc in walk:
            road = arc.road
            if road is None:
                cards = Hand.from_counts({Transport.RAFT: arc.rafts})
                moves.append(Move(arc.frm, arc.to, arc.connection, Pay.RAFT, cards, arc.rafts))
                continue
            place = road.placed if road.placed is not None and road.id not in opened else None
            opened.add(road.id)
            if counters_left[road.price] > 0:
                counters_left[road.price] -= 1
                cards = Hand.from_counts({road.transport: road.cost})
                moves.append(Move(arc.frm, arc.to, arc.connection, Pay.COUNTER, cards, road.cost, place))
            else:
                moves.append(Move(arc.frm, arc.to, arc.connection, Pay.CARAVAN, None, road.caravan, place))
        return assemble(self.position, moves, proven=proven, solver=SOLVER_NAME)


class _NoSolution(Exception):
    """CP-SAT found no route at all before its budget ran out or it was stopped."""


def solve_cpsat(position: Position, *, alternatives: int = 1, limit: Limit | None = None,
                stop: StopLike | None = None, budget: Budget | None = None, seed: int = 0, workers: int = 1,
                log: bool = False, hint: Plan | None = None, on_bound: Callable[[int], None] | None = None,
                connectivity: str = "cuts", joint: bool = False) -> Solution:
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
    portfolio) or ``"flow"`` (one model; see the module docstring).

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
    route_model = _RouteModel(position, net, connectivity=connectivity, budget=budget, seed=seed, workers=workers,
                              log=log)
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
            plan, runs = route_model.solve(start=None if plans else start, proven_before=all(p.proven for p in plans),
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
    best = plans[0]
    plans.sort(key=lambda p: p.objective, reverse=True)  # an unproven first plan may lose to a runner-up
    proven = best.proven and plans[0] is best
    trivial = len(net.collectable)  # every reachable town collected, no penalty
    proven_bound = trivial if route_model.bound is None else min(trivial, route_model.bound)
    bound = plans[0].score if proven else max(plans[0].score, proven_bound)
    return Solution(tuple(plans), budget.status(proven=proven), bound, SOLVER_NAME,
                    time.perf_counter() - started, stats)
