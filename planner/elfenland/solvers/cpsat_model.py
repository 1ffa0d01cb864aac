"""The CP-SAT model of a route: how often the boot takes each connection each way, not the order of the steps.

Modelling assumptions (the agreement tests against a brute force guard each one):

* **Traversal counts.** A route is the multiset of its steps: for every connection and direction, how often the
  boot takes it (towns and roads may repeat). Flow balance at every town (what enters leaves again, except one
  more leaves the start and one more enters the end, which may be the start) plus connectivity to the start make
  the steps one walk, which :meth:`RouteModel.extract_plan` rebuilds (Hierholzer). Connectivity comes from
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

:mod:`planner.elfenland.solvers.cpsat` solves the model. Only these two modules import ortools, and only inside
functions (the import costs about half a second).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from planner.elfenland.plan import Pay, Plan
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, TRANSPORTS, Transport
from planner.elfenland.solvers.common import Move, assemble, plan_key
from planner.elfenland.solvers.network import Arc, Network, Road

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["CONNECTIVITY", "RouteModel", "Variables", "load_ortools"]

logger = logging.getLogger(__name__)

SOLVER_NAME = "cpsat"
CONNECTIVITY = ("flow", "cuts", "cuts-wide")
"""How the model keeps the collected towns reachable: a flow from the start, or subset cuts added as needed
(``cuts-wide``: with every connected set of three towns and every ring of four cut too once a solution
strays)."""


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


# -- variables ---------------------------------------------------------------------------------------------------
@dataclass(slots=True)
class Variables:
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
class RouteModel:
    """One CP-SAT model of a position's routes (joint plans, when its network has roads to place counters on).

    It grows as it is solved: :meth:`add_cut` and :meth:`widen` add connectivity cuts, :meth:`set_objective`
    switches phases, :meth:`exclude` forbids a route found (for runners-up).
    """

    def __init__(self, position: Position, net: Network, *, connectivity: str = "cuts") -> None:
        if connectivity not in CONNECTIVITY:
            raise ValueError(f"connectivity must be one of {', '.join(CONNECTIVITY)}, got {connectivity!r}")
        self.connectivity = connectivity
        self.cp = load_ortools()
        self.position = position
        self.hand = position.hand
        self.size = len(position.hand)
        self.net = net
        self.prices: dict[str, Road] = {road.price: road for road in net.roads.values()}
        """One road of each price class (:attr:`Road.price`), keyed by class."""
        self.model: cp_model.CpModel = self.cp.CpModel()
        self.v = Variables(net)
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

        With cuts (``connectivity`` ``"cuts"`` or ``"cuts-wide"``) only the subset cuts are added here; the solver
        adds more (:meth:`add_cut`) as solutions show them to be needed.
        """
        m, v, net = self.model, self.v, self.net
        if not v.visit:
            return  # nothing to collect: a stray loop could only waste cards, and cards are minimised
        # Subset cuts (redundant with the flow): collecting a town of a small set means entering the set (see the
        # module docstring).
        for towns in net.cut_sets():
            self.add_cut(towns)
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

    def add_cut(self, towns: frozenset[str]) -> None:
        """Collecting a town of ``towns`` (a set without the start) means entering the set.

        The towns are taken in sorted order, not the set's: its order follows ``PYTHONHASHSEED``, and the order of a
        constraint's terms steers CP-SAT (one puzzle's proof took 0.27-0.59 deterministic seconds by the hash seed),
        so a run is now the same in every process.
        """
        v, net = self.v, self.net
        ordered = sorted(towns)
        inside = [t for t in ordered if t in v.visit]
        if not inside:
            return
        entering = sum(v.travel[a.id] for t in ordered for a in net.entering[t] if a.frm not in towns)
        for town in inside:
            self.model.add(entering >= v.visit[town])

    def strays(self, solver: Any) -> list[frozenset[str]]:
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

    def widen(self) -> int:
        """With ``cuts-wide``, the first time: cut every connected set of three towns and every ring of four.

        Returns how many cuts were added (0 when not ``cuts-wide`` or already widened).
        """
        if self.connectivity != "cuts-wide" or self._widened:
            return 0
        self._widened = True
        wide = self.net.wide_cut_sets()
        for towns in wide:
            self.add_cut(towns)
        return len(wide)

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

    def set_objective(self, *, points: int | None) -> None:
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


    # -- extract -------------------------------------------------------------------------------------------------
    def extract_plan(self, solver: cp_model.CpSolver, *, proven: bool) -> Plan:
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

