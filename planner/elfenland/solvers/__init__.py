"""The route optimizer: one :func:`solve` over two independent exact solvers.

- ``search``: depth-first branch and bound in pure Python (no ortools import), fastest on real-game hands;
- ``cpsat``: an OR-Tools CP-SAT model by arc traversal counts;
- ``auto`` (default): the search alone while it is quick; when it has run for ``AUTO_SEARCH_BUDGET`` seconds,
  CP-SAT starts in a background thread and the two race: the first to prove the optimum answers and the other
  is stopped. Each is fastest on different positions, so the race takes whichever wins. They also help each
  other: the search's best route so far is CP-SAT's starting point, and every upper bound CP-SAT proves on the
  score caps the search's own bound. Puzzle-sized hands (``PUZZLE_CARDS``) skip the race: after 20 ms of search
  and a beam search (about 40 ms) for a starting route, CP-SAT runs on every core (up to ``PUZZLE_RUNS``, one
  seed each) and the first proof wins (see :func:`_portfolio` for why).

Measured on 20-card puzzles and dropped (see the README for what stayed): a search bound that
charges the walk into towns that give nothing (visited ones, Elvenhold): up to 20 times fewer nodes on some
20-card positions, but 1.5-2 times slower on 12-16-card hands; a search that first proves the best score and
only then the fewest cards (slower: its bound, not the tie-break, is what costs); the puzzles' portfolio for
16-card hands (median 0.25 s against the race's 0.16 s, the tail alike)."""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Callable

from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers.common import Move, Solution, assemble, plan_key
from planner.elfenland.solvers.search import beam_route, solve_search
from planner.errors import NotationError, PlannerError, SolverTimeoutError

__all__ = ["SOLVERS", "Solution", "solve"]

SOLVERS = ("auto", "search", "cpsat")
#: Seconds the search runs alone under ``auto`` before CP-SAT joins the race (the search answers almost every
#: real-game position well inside this, and importing ortools alone takes about half a second).
AUTO_SEARCH_BUDGET = 0.3
#: Hands this big are puzzles: the search alone rarely proves them (20 cards with every road holding a counter: 3
#: of 60 positions within 0.3 s), so after a glance for a starting route CP-SAT takes over on every core.
PUZZLE_CARDS = 18
#: Seconds of search for the starting route of a puzzle (it finds a fair route within a few hundred nodes).
PUZZLE_START_SECONDS = 0.02
#: States per step of the beam search that then looks for a better starting route (see :func:`_portfolio`).
PUZZLE_BEAM_WIDTH = 300
#: Most CP-SAT runs (different seeds) side by side on a puzzle, one per core.
PUZZLE_RUNS = 2
#: How each of those runs keeps the route connected, in turn (see :func:`_portfolio`).
PUZZLE_CONNECTIVITY = ("cuts", "cuts-wide")
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
    if len(position.hand) >= PUZZLE_CARDS:
        return _portfolio(position, alternatives=alternatives, time_limit=time_limit, seed=seed)
    race = _Race(position, alternatives=alternatives, time_limit=time_limit, seed=seed, delay=AUTO_SEARCH_BUDGET)
    try:
        searched = solve_search(position, alternatives=alternatives, time_limit=time_limit, interrupt=race.poll,
                                ceiling=race.ceiling)
    except BaseException:  # Ctrl-C or a bug: still never leave CP-SAT running (see _Race.finish)
        race.abandon()
        raise
    return race.finish(searched)


def _cpsat(position: Position, *, alternatives: int, time_limit: float, seed: int, workers: int = 1,
           stop: threading.Event | None = None, hint: Plan | None = None,
           on_bound: Callable[[int], None] | None = None, connectivity: str = "cuts") -> Solution:
    from planner.elfenland.solvers.cpsat import solve_cpsat  # ortools takes ~0.5 s to import

    return solve_cpsat(position, alternatives=alternatives, time_limit=time_limit, seed=seed, workers=workers,
                       stop=stop, hint=hint, on_bound=on_bound, connectivity=connectivity)


def _cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _portfolio(position: Position, *, alternatives: int, time_limit: float, seed: int) -> Solution:
    """A puzzle: a glance of search and a beam search for a starting route, then one CP-SAT run per core (seeds
    ``seed``, ``seed + 1``, ...) from the better of the two; the first proof wins and the others are stopped.

    Why not the search beside CP-SAT, as for smaller hands: on 150 twenty-card puzzles with a counter on every
    road, CP-SAT beside the search took 0.40 s at the median and 2.3 s at the slowest; alone from the same kind of
    start, 0.29 s and 1.85 s; two seeds side by side, 0.28-0.33 s and 1.0-1.8 s over three runs (CP-SAT's time on
    one puzzle varies several-fold with its seed, and the search, in Python, slows the Python between CP-SAT's
    solves).

    Why the beam: CP-SAT's rounds of connectivity cuts (see the cpsat module) each end as soon as their bound
    comes down to the starting route's score, so a start at the best score saves whole rounds. On the 40 slowest
    of 600 twenty-card puzzles with every road holding a counter, the 20 ms glance had the best score on 10, a
    beam of width 300 on 31 (in about 40 ms), and the optimum itself as start halved CP-SAT's time (41 s to
    21 s in all, one seed); the portfolio from the better of glance and beam took 29-30 s on them instead of
    38-44 s, and the slowest of 300 other such puzzles 1.5 s instead of 2.0-3.1 s. A wider beam (600, 1,000)
    was no better in all.

    Why the second run cuts wider (``PUZZLE_CONNECTIVITY``): the puzzles still slow with a best-score start are
    those where proving the bound takes many rounds of cuts, and they need a fraction of the time when every
    connected set of three towns and every ring of four is cut once the first solution strays (two of them, four
    seeds each: 2.4-4.0 s to 0.9-1.6 s, and 2.6-3.6 s to 1.0-1.8 s), though that is about a quarter slower on
    most puzzles. So one run cuts narrow and one wide. On 600 twenty-card puzzles with every road holding a
    counter (seed 2035), narrow-only runs had two over 2 s (2.25, 2.46 s), narrow and wide with triples only two
    as well (2.01, 2.86 s), with rings of four too none (slowest 1.45 s; median 0.28 s either way); on another
    600 (seed 2036) the slowest went from 2.05 s (narrow only) to 1.80 s (triples) and 1.68 s (rings too).

    Raises:
        SolverError: a CP-SAT run failed (a bug).
        Exception: whatever crashed a CP-SAT thread (a bug), raised here rather than lost in that thread.
    """
    started = time.perf_counter()
    searched = solve_search(position, alternatives=alternatives, time_limit=PUZZLE_START_SECONDS)
    if searched.proven:
        return searched
    beamed = beam_route(position, PUZZLE_BEAM_WIDTH)
    start_by = "search"
    if beamed.value > searched.plan.value:
        start_by = "beam"
        others = tuple(p for p in searched.plans if plan_key(p) != plan_key(beamed))
        searched = dataclasses.replace(searched, plans=(beamed, *others)[:alternatives])
    searched = dataclasses.replace(searched, elapsed=time.perf_counter() - started)
    from planner.elfenland.solvers.cpsat import load_ortools

    load_ortools()  # here, before the threads start (see load_ortools)
    seeds = [seed + i for i in range(max(1, min(PUZZLE_RUNS, _cores())))]
    stop = threading.Event()
    settled = threading.Event()
    results: dict[int, Solution | Exception] = {}
    ended: list[threading.Event] = []

    connectivity = {run_seed: PUZZLE_CONNECTIVITY[i % len(PUZZLE_CONNECTIVITY)] for i, run_seed in enumerate(seeds)}

    def run(run_seed: int, done: threading.Event) -> None:
        try:
            remaining = max(0.1, time_limit - (time.perf_counter() - started))
            results[run_seed] = _cpsat(position, alternatives=alternatives, time_limit=remaining, seed=run_seed,
                                       stop=stop, hint=searched.plan, connectivity=connectivity[run_seed])
        except Exception as error:  # noqa: BLE001 (raised again below, in the caller's thread)
            results[run_seed] = error
        finally:
            done.set()
            outcome = results.get(run_seed)
            if len(results) == len(seeds) or (isinstance(outcome, Solution) and outcome.proven):
                settled.set()

    threads: list[threading.Thread] = []
    interrupted = False
    try:
        for run_seed in seeds:
            ended.append(threading.Event())
            threads.append(threading.Thread(target=run, args=(run_seed, ended[-1]), daemon=True,
                                            name=f"elfenland-cpsat-{run_seed}"))
            threads[-1].start()
        while not settled.wait(0.05):
            pass
    except KeyboardInterrupt:
        interrupted = True
    # Whatever happened, stop every run and wait for it: a process that exits while CP-SAT runs aborts.
    stop.set()
    interrupted |= _wait_for(ended)
    for thread in threads:
        thread.join()  # only its last lines are left to run
    if interrupted:
        raise KeyboardInterrupt
    failures = [r for r in results.values() if isinstance(r, Exception) and not isinstance(r, SolverTimeoutError)]
    if failures:
        raise failures[0]
    solutions = [r for r in results.values() if isinstance(r, Solution)]
    proven = [s for s in solutions if s.proven]
    winner = proven[0] if proven else max([searched, *solutions], key=lambda s: s.plan.value)
    winner.stats["portfolio"] = {"start_seconds": searched.elapsed, "start_by": start_by, "seeds": seeds,
                                 "connectivity": [connectivity[s] for s in seeds],
                                 "proven_by": [s for s, r in results.items() if isinstance(r, Solution) and r.proven]}
    return dataclasses.replace(winner, elapsed=time.perf_counter() - started)


def _wait_for(events: list[threading.Event]) -> bool:
    """Wait until every event is set, through Ctrl-C too; whether Ctrl-C came meanwhile.

    Not Thread.join(): interrupted by Ctrl-C, it can mark a running thread as ended (Python 3.11-3.12).
    """
    interrupted = False
    for event in events:
        while True:
            try:
                event.wait()
                break
            except KeyboardInterrupt:
                interrupted = True
    return interrupted


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
