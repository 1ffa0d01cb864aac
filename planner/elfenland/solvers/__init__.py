"""The route optimizer: one :func:`solve` over two independent exact solvers.

- ``search``: depth-first branch and bound in pure Python (no ortools import), fastest on real-game hands;
- ``cpsat``: an OR-Tools CP-SAT model by arc traversal counts;
- ``auto`` (default): the search alone while it is quick; when it has run for ``AUTO_SEARCH_BUDGET`` seconds
  (at once for puzzle-sized hands), CP-SAT starts in a background thread and the two race: the first to prove
  the optimum answers and the other is stopped. Each is fastest on different positions, so the race takes
  whichever wins. They also help each other: the search's best route so far is CP-SAT's starting point, and
  every upper bound CP-SAT proves on the score caps the search's own bound.

Measured on 20-card puzzles and dropped (see the README for what stayed): a beam search (2,000 states per step)
for CP-SAT's starting route: it finds the best score in 0.2 s on most of them, but CP-SAT then spends its time
proving the towns bound or the fewest cards, so the median only grew by the beam's 0.2 s; a search bound that
charges the walk into towns that give nothing (visited ones, Elvenhold): up to 20 times fewer nodes on some
20-card positions, but 1.5-2 times slower on 12-16-card hands; two CP-SAT runs with different seeds instead of,
or beside, the search.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers.common import Move, Solution, assemble
from planner.elfenland.solvers.search import solve_search
from planner.errors import NotationError, PlannerError, SolverTimeoutError

__all__ = ["SOLVERS", "Solution", "solve"]

SOLVERS = ("auto", "search", "cpsat")
#: Seconds the search runs alone under ``auto`` before CP-SAT joins the race (the search answers almost every
#: real-game position well inside this, and importing ortools alone takes about half a second).
AUTO_SEARCH_BUDGET = 0.3
#: Hands this big are puzzles: the search alone rarely proves them within the budget above (20 cards with every
#: road holding a counter: 3 of 60 positions), so CP-SAT joins at once.
RACE_AT_ONCE_CARDS = 18
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
    delay = 0.0 if len(position.hand) >= RACE_AT_ONCE_CARDS else AUTO_SEARCH_BUDGET
    race = _Race(position, alternatives=alternatives, time_limit=time_limit, seed=seed, delay=delay)
    try:
        searched = solve_search(position, alternatives=alternatives, time_limit=time_limit, interrupt=race.poll,
                                ceiling=race.ceiling)
    except BaseException:  # Ctrl-C or a bug: still never leave CP-SAT running (see _Race.finish)
        race.abandon()
        raise
    return race.finish(searched)


def _cpsat(position: Position, *, alternatives: int, time_limit: float, seed: int, workers: int = 1,
           stop: threading.Event | None = None, hint: Plan | None = None,
           on_bound: Callable[[int], None] | None = None) -> Solution:
    from planner.elfenland.solvers.cpsat import solve_cpsat  # ortools takes ~0.5 s to import

    return solve_cpsat(position, alternatives=alternatives, time_limit=time_limit, seed=seed, workers=workers,
                       stop=stop, hint=hint, on_bound=on_bound)


class _Race:
    """CP-SAT in a background thread, started once the search has run for ``delay`` seconds.

    CP-SAT releases the GIL while it solves, so on two cores the search and CP-SAT truly run side by side.
    """

    def __init__(self, position: Position, *, alternatives: int, time_limit: float, seed: int,
                 delay: float) -> None:
        self.position = position
        self.alternatives = alternatives
        self.time_limit = time_limit
        self.seed = seed
        self.delay = delay
        self.started = time.perf_counter()
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.result: Solution | None = None
        self.error: Exception | None = None
        self.bound: int | None = None
        """CP-SAT's latest proven upper bound on the score (set from its thread)."""

    def poll(self, best_moves: Callable[[], tuple[Move, ...]]) -> bool:
        """Asked by the search now and then: start CP-SAT when due (from the search's best route so far);
        true when CP-SAT has proven the optimum."""
        if self.thread is None and time.perf_counter() - self.started >= self.delay:
            from planner.elfenland.solvers.cpsat import load_ortools

            load_ortools()  # here, not in CP-SAT's thread, where it would crawl beside the search (see there)
            hint = assemble(self.position, best_moves(), proven=False, solver="search")
            self.thread = threading.Thread(target=self._run, args=(hint,), name="elfenland-cpsat", daemon=True)
            self.thread.start()
        return self.result is not None and self.result.proven  # set once CP-SAT is done

    def ceiling(self) -> int | None:
        """Asked by the search now and then: CP-SAT's proven upper bound on the score, if any yet."""
        return self.bound

    def _bounded(self, bound: int) -> None:
        self.bound = bound  # one assignment: atomic under the GIL

    def _run(self, hint: Plan) -> None:
        remaining = max(0.1, self.time_limit - (time.perf_counter() - self.started))
        try:
            self.result = _cpsat(self.position, alternatives=self.alternatives, time_limit=remaining,
                                 seed=self.seed, workers=1, stop=self.stop, hint=hint, on_bound=self._bounded)
        except Exception as error:  # noqa: BLE001 (raised again by finish(), in the caller's thread)
            self.error = error

    def abandon(self) -> None:
        """Stop CP-SAT and wait for it, whatever it found."""
        self.stop.set()
        if self.thread is not None:
            self.thread.join()

    def finish(self, searched: Solution) -> Solution:
        """The winner: the first proven answer, else the better unproven one.

        Raises:
            SolverError: CP-SAT failed for another reason than being stopped or running out of time (a bug).
            Exception: whatever crashed CP-SAT's thread (a bug), raised here rather than lost in that thread.
        """
        if self.thread is None:
            return searched
        race = {"search_seconds": searched.elapsed, "cpsat_started_after": self.delay}
        if searched.proven:
            # Stopped, CP-SAT ends within STOP_POLL once solving, or once its model is built (a few hundredths
            # of a second; ortools is already imported). Waiting for it matters: a process that exits while
            # CP-SAT's C++ threads still run aborts.
            self.abandon()
            if self.error is not None and not isinstance(self.error, PlannerError):
                raise self.error  # a crash, not a planner error: a bug, whoever won
            searched.stats["race"] = {**race, "cpsat_bound": self.bound}
            if "ceiling" in searched.stats:
                # The proof leaned on CP-SAT's bound: say so.
                return dataclasses.replace(searched, solver=f"{searched.solver}+cpsat")
            return searched
        self.thread.join()
        if self.error is not None and (not isinstance(self.error, PlannerError) or (
                not self.stop.is_set() and not isinstance(self.error, SolverTimeoutError))):
            raise self.error  # a CP-SAT failure that is not a time-out is a bug, whoever won
        if self.result is not None and self.result.proven:
            winner = self.result
        else:
            candidates = [s for s in (searched, self.result) if s is not None]
            winner = max(candidates, key=lambda s: s.plan.value)
        winner.stats["race"] = {**race, "cpsat_bound": self.bound,
                                "cpsat_error": str(self.error) if self.error else None}
        return winner
