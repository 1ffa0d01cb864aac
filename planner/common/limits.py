"""How long a solve may run and how it ended: :class:`Limit`, :class:`Status` and the :class:`Budget` solvers poll.

A limit is a value (like ``chess.engine.Limit``): wall-clock seconds, or nodes, which a faster or slower machine
does not change, so tests and puzzle generators that need the same answer everywhere limit by nodes. A stop event
(any object with ``is_set()``, such as :class:`threading.Event`) ends a solve early from another thread.
"""

from __future__ import annotations

import enum
import math
import time
from typing import Protocol

from planner.common.values import frozen

__all__ = ["Budget", "Limit", "Status", "StopLike"]


class StopLike(Protocol):
    """Anything that says whether to stop: :class:`threading.Event`, :class:`~planner.common.threads.Stop`."""

    def is_set(self) -> bool: ...


class Status(enum.Enum):
    """How a solve ended."""

    OPTIMAL = "optimal"
    """The best plan is proven: nothing scores more (or spends fewer cards for the same score)."""
    FEASIBLE = "feasible"
    """The limit ran out first: the plan is legal and the best found, not proven."""
    STOPPED = "stopped"
    """The caller's stop event ended the solve: the plan is the best found so far, not proven."""

    @property
    def proven(self) -> bool:
        """Whether the plan is proven optimal."""
        return self is Status.OPTIMAL

    def __str__(self) -> str:
        return self.value


@frozen
class Limit:
    """How much a solve may spend; None means no limit of that kind.

    Attributes:
        time: wall-clock seconds (a positive finite number).
        nodes: work units, counted by each solver in its own terms: search nodes for the pure-Python search,
            conflicts per CP-SAT solve. Deterministic: the same limit gives the same answer on any machine.
    """

    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and (isinstance(self.time, bool) or not isinstance(self.time, int | float)
                                      or not math.isfinite(self.time) or self.time <= 0):
            raise ValueError(f"a time limit must be a positive number of seconds, got {self.time!r}")
        if self.nodes is not None and (isinstance(self.nodes, bool) or not isinstance(self.nodes, int)
                                       or self.nodes < 1):
            raise ValueError(f"a node limit must be a whole number of at least 1, got {self.nodes!r}")

    def __str__(self) -> str:
        parts = [f"{self.time:g} s" if self.time is not None else "", f"{self.nodes} nodes" if self.nodes else ""]
        return ", ".join(p for p in parts if p) or "no limit"


class Budget:
    """A limit started now, with a stop event: what solvers poll to know when to give up.

    ``expired(nodes)`` is true once the time is up, ``nodes`` exceed the node limit, or the stop is set;
    ``stopped`` tells the last apart (status STOPPED rather than FEASIBLE).
    """

    def __init__(self, limit: Limit, stop: StopLike | None = None, *, started: float | None = None) -> None:
        self.limit = limit
        self.stop = stop
        self.started = time.perf_counter() if started is None else started
        self.deadline = None if limit.time is None else self.started + limit.time

    @property
    def stopped(self) -> bool:
        """Whether the caller asked to stop."""
        return self.stop is not None and self.stop.is_set()

    def remaining(self) -> float | None:
        """Seconds left (never below 0), or None without a time limit."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def out_of_time(self) -> bool:
        """Whether the time limit has passed."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def expired(self, nodes: int = 0) -> bool:
        """Whether to give up: stopped, out of time, or over the node limit."""
        return self.stopped or self.out_of_time() or (self.limit.nodes is not None and nodes > self.limit.nodes)

    def elapsed(self) -> float:
        """Seconds since the budget started."""
        return time.perf_counter() - self.started

    def status(self, *, proven: bool) -> Status:
        """The status of a solve that ended now: optimal when proven, else stopped or feasible."""
        if proven:
            return Status.OPTIMAL
        return Status.STOPPED if self.stopped else Status.FEASIBLE
