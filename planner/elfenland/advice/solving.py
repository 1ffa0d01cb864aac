"""One cache of proven joint solves, shared by the advice: place now, its replies, the risks, the draws and keep.

A tap at the table changes one thing, and the advice of one position solves many positions that differ by a
counter; many of them come back (the risks' obstacles are the candidates' obstacle replies, the draws are the
positions of the next tap). A joint plan depends only on where I am, my cards, the board, the towns collected,
home, round, rules and supply: that is the key (opponents, display and notes are not). Only proven solutions are
kept (a solution cut short by a limit or a stop is solved again next time), the most recent ``CACHE_SIZE``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from planner.common.limits import Budget, Limit, StopLike
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers import Solution, solve
from planner.elfenland.solvers.auto import PUZZLE_CARDS, race

__all__ = ["CACHE_SIZE", "SEARCH_FIRST_NODES", "cached_joint", "cached_joints", "clear_cache", "position_key"]

#: Search nodes an advice solve spends alone before CP-SAT may join it in the solvers' race (about 0.25 s on an
#: idle machine, the race's own head start). Nodes, not seconds: on a busy machine a real-game solve that needs a
#: few thousand nodes no longer passes the race's 0.3 s and waits for ortools to load (3-7 s there) and CP-SAT.
SEARCH_FIRST_NODES = 30_000
#: Solutions kept: a plan phase's advice solves 10 to 30 positions, a draw 7; a few taps' worth stay. Not more: the
#: collector's sweeps over a great many live objects slow every solve (see ``_board_options`` in the search).
CACHE_SIZE = 512
#: Seconds a shared batch of joint solves is charged for each worker when deciding whether to fork them: more than
#: a fork's own start (``processes.FORK_START``, 4 ms), because a shared batch also takes on the ``spare`` positions.
#: Measured with ``benchmarks/advice.py -n 100 --only draw``: charging only the fork's start made the draw advice's
#: median 1 ms slower (10.5 against 9.5 ms, p95 and max the same).
SHARED_START = 0.02

_cache: OrderedDict[Hashable, tuple[Position, Solution]] = OrderedDict()
_lock = threading.Lock()


def position_key(position: Position) -> Hashable:
    """What a joint plan of ``position`` depends on (the tiles as a set: their order means nothing)."""
    return (position.at, position.hand, frozenset(position.tiles), position.visited, position.home, position.round,
            position.rules, position.supply)


def clear_cache() -> None:
    """Forget every solution (for tests and measurements)."""
    with _lock:
        _cache.clear()


def cached_joint(position: Position, *, solver: str, limit: Limit, stop: StopLike | None, seed: int,
                 alternatives: int) -> Solution:
    """:func:`~planner.elfenland.solvers.solve` of ``position`` with ``joint``, from the cache when a proven one
    is there (its plans then walked again on ``position`` itself when it differs outside the key, so every plan
    carries the position it was asked for and replays under the verifier).

    Raises:
        IllegalPositionError: the position breaks the rules.
        SolverError: a solver failed (a bug).
    """
    key = (position_key(position), solver, seed, alternatives)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
    if hit is not None:
        source, solution = hit
        if source == position:
            return solution
        position.check()
        plans = tuple(Plan.of(position, p.steps, proven=p.proven, solver=p.solver, placements=p.placements)
                      for p in solution.plans)
        return Solution(plans, solution.status, solution.bound, solution.solver, 0.0, dict(solution.stats))
    if solver == "auto" and not position.rules.strict and len(position.hand) < PUZZLE_CARDS:
        # One search from the first node: CP-SAT joins it only after SEARCH_FIRST_NODES (and the race's head
        # start), so a solve that needs a few thousand nodes never waits for ortools on a busy machine.
        solution = race(position, alternatives=alternatives, budget=Budget(limit, stop), seed=seed, joint=True,
                        search_nodes=SEARCH_FIRST_NODES)
    else:
        solution = solve(position, solver=solver, limit=limit, stop=stop, seed=seed, joint=True,
                         alternatives=alternatives)
    if solution.proven:
        _remember(key, position, solution)
    return solution


def _remember(key: Hashable, position: Position, solution: Solution) -> None:
    with _lock:
        _cache[key] = (position, solution)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def cached_joints(positions: Sequence[Position], *, solver: str, limit: Limit, stop: StopLike | None, seed: int,
                  each: float, spare: Sequence[Position] = ()) -> list[Solution]:
    """:func:`cached_joint` of every position (one plan each), in order; those not in the cache side by side in
    forks of this process when their estimated cost (``each`` seconds apiece) pays for starting them
    (:func:`~planner.common.processes.workers_for`) and a fork is safe (no other thread, no OR-Tools loaded), their
    proven solutions then kept here too. The answers are the same in one process or several.

    ``spare`` positions, which the caller may ask for next, join a batch that is shared between processes (and are
    cached): there they mostly fill a process's idle turn at the end, where after the batch they would be solved
    one after another.

    Raises:
        IllegalPositionError: a position breaks the rules.
        SolverError: a solver failed (a bug).
    """
    from planner.common.processes import FORK_START, idle_cores, ordered_map, start_seconds, workers_for

    def key(position: Position) -> Hashable:
        return (position_key(position), solver, seed, 1)

    with _lock:
        missing = list(dict.fromkeys(key(p) for p in positions if key(p) not in _cache))
    # Only forks of this process: a fork server's start outweighs a few solves, and a library caller's script
    # without a main guard could not start one.
    forks = start_seconds() <= FORK_START
    jobs = workers_for([each] * len(missing), cores=idle_cores(), start=SHARED_START) \
        if forks and len(missing) > 1 else 1
    if jobs > 1:
        with _lock:
            missing += [k for k in dict.fromkeys(key(p) for p in spare) if k not in _cache and k not in missing]
        first = {key(p): p for p in reversed([*positions, *spare])}  # the first position asked for each key
        tasks = [(first[k], solver, limit, seed) for k in missing]
        for k, solution in zip(missing, ordered_map(_solve_task, tasks, jobs=jobs, stop=stop), strict=True):
            if solution.proven:
                _remember(k, first[k], solution)
    return [cached_joint(p, solver=solver, limit=limit, stop=stop, seed=seed, alternatives=1) for p in positions]


def _solve_task(task: tuple[Position, str, Limit, int], stop: StopLike | None) -> Solution:
    """One joint solve in a worker process (see :func:`cached_joints`)."""
    position, solver, limit, seed = task
    return cached_joint(position, solver=solver, limit=limit, stop=stop, seed=seed, alternatives=1)

