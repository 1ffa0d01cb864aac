"""What both solvers share: the raw move they find, turning moves into verified plans, and the result type."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Any

from planner.common.limits import Status
from planner.common.values import frozen
from planner.elfenland.keep import cheapest_cards
from planner.elfenland.plan import Pay, Plan, Step
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import Transport
from planner.errors import IllegalPlacementError, IllegalStepError, SolverError

__all__ = ["MAX_SEED", "CutPool", "Move", "Solution", "assemble", "plan_key", "stay"]

MAX_SEED = 2**31 - 1
"""The largest seed: CP-SAT's is a 32-bit signed integer (a portfolio's further runs wrap around)."""


@frozen
class Move:
    """A step as a solver finds it: a caravan names how many cards it takes, not which (``cards`` None)."""

    frm: str
    to: str
    connection: str
    pay: Pay
    cards: Hand | None
    """Exact cards, or None for a caravan of ``count`` cards paid from what is left at the end."""
    count: int
    place: Transport | None = None
    """The counter of my supply placed on this (empty) road as the walk first takes it, if any."""


def assemble(position: Position, moves: list[Move] | tuple[Move, ...], *, proven: bool, solver: str) -> Plan:
    """Turn solver moves into a verified plan, paying caravans with the least valuable cards left over.

    Raises:
        SolverError: the route does not replay legally (a solver bug: never shown to a player as a plan).
    """
    specific = Hand()
    for move in moves:
        if move.cards is not None:
            specific = specific + move.cards
    try:
        spare = position.hand.without(specific)
        steps = []
        for move in moves:
            cards = move.cards
            if cards is None:
                cards = cheapest_cards(spare, move.count)
                spare = spare.without(cards)
            steps.append(Step(move.frm, move.to, move.connection, move.pay, cards))
        placements = [Tile(move.connection, move.place) for move in moves if move.place is not None]
        return Plan.of(position, steps, proven=proven, solver=solver, placements=placements)
    except (ValueError, IllegalStepError, IllegalPlacementError) as exc:
        route = " ".join(f"{m.to}/{m.cards or m.count}" for m in moves)
        raise SolverError(f"{solver} returned an illegal route on {position}: {route}: {exc}") from exc


def stay(position: Position, *, solver: str) -> Plan:
    """The empty route: always legal, the answer of last resort when a solve is stopped before finding any."""
    return Plan.of(position, (), proven=False, solver=solver)


@frozen
class Solution:
    """What :func:`~planner.elfenland.solvers.solve` returns: the best plan, its runners-up, and how sure it is."""

    plans: tuple[Plan, ...]
    """Best first; alternatives differ in (towns collected, end town)."""
    status: Status
    """Optimal (proven), feasible (the limit ran out first) or stopped (the caller's stop event)."""
    bound: int
    """A proven upper bound on the score of any route: the best plan's score when optimal."""
    solver: str
    elapsed: float
    """Wall-clock seconds spent solving."""
    stats: Mapping[str, Any] = field(default_factory=dict)
    """How the solve went (nodes, CP-SAT's phases, the race's or the portfolio's), built complete: read only."""

    @property
    def plan(self) -> Plan:
        """The best plan."""
        return self.plans[0]

    @property
    def proven(self) -> bool:
        """Whether the best plan is proven optimal."""
        return self.status is Status.OPTIMAL


class CutPool:
    """The connectivity cuts the CP-SAT runs of one position have found, shared between them (a puzzle's
    portfolio): each run takes the others' at its next round instead of finding them again.

    A cut is a set of towns without the start ("a town of the set is collected only if the route enters it"), so it
    holds for every route of the position whichever run found it: sharing changes how fast a run proves, never
    what it proves. Runs in different threads publish and take; the pool locks.
    """

    __slots__ = ("_cuts", "_lock")

    def __init__(self) -> None:
        self._cuts: list[frozenset[str]] = []
        self._lock = threading.Lock()

    def publish(self, cuts: Iterable[frozenset[str]]) -> None:
        """Add the town sets of cuts one run has found."""
        with self._lock:
            self._cuts.extend(cuts)

    def since(self, seen: int) -> tuple[list[frozenset[str]], int]:
        """The cuts published after the first ``seen``, and how many there are now (the next call's ``seen``)."""
        with self._lock:
            return self._cuts[seen:], len(self._cuts)


def plan_key(plan: Plan) -> tuple[frozenset[str], str]:
    """What makes two alternatives different: the towns collected and the end town."""
    return frozenset(plan.new_towns), plan.end
