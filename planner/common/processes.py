"""Independent work spread over processes, in order, stoppable: batches of positions, sampled hands.

The GIL lets only one Python thread compute at a time, so independent pure-Python work (a folder of positions,
hundreds of sampled opponent hands) uses the other cores through processes. :func:`ordered_map` keeps the items'
order, passes a stop event on to the workers (a shared event the parent sets when its own stop is set), cancels
what has not started, and falls back on working in this process when the workers cannot start (e.g. under an
interpreter reading its program from stdin, whose ``__main__`` a new process cannot import again).

Workers cost something to start, so :func:`workers_for` decides whether a batch is worth them at all: a worker is
added only when the work it takes over outweighs its start. This process works beside its workers (it takes the
chunks none of them has started), so ``jobs`` processes keep ``jobs`` cores busy. Starting is made cheap where it
is safe: a ``fork`` of this process (its modules already loaded, about a millisecond a worker) talking through
plain pipes, while this process runs no other thread and has not loaded OR-Tools (a fork of a process that has can
inherit a held lock); otherwise a fork server (through multiprocessing) that loads the work's module once, before
it forks the workers. Workers leave Ctrl-C to the parent.
"""

from __future__ import annotations

import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from planner.common.limits import StopLike
from planner.common.threads import POLL

_in_worker = False
"""Set in a worker process: its own :func:`ordered_map` calls work there, not in workers of their own."""

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["FORK_START", "SERVER_START", "chunk_sizes", "idle_cores", "ordered_map", "start_seconds", "workers_for"]

FORK_START = 0.004
"""Seconds to start one forked worker and hand it its first item (measured: 0.4-1.5 ms from the fork to the
worker's first item, 1.6-2.6 ms for a whole map of two items, on an idle machine; through multiprocessing it
was 9-12 ms, most of it importing multiprocessing)."""

SERVER_START = 0.5
"""Seconds before workers from a fork server answer: the server starts Python and loads the planner first."""

CHUNKS_PER_WORKER = 4
"""Items travel to the workers in chunks (each one message each way instead of one per item: a position is solved
in about a millisecond, about as long as handing it over), each chunk this many times smaller than a worker's share
of the items still to send: chunks shrink to single items towards the end, so no worker is left with a long last
chunk while the others wait (guided scheduling)."""

MAX_CHUNK = 32
"""The most items in one chunk: the first answers are not held back for long."""

STOP_WAIT = 5.0
"""Seconds the workers get to finish their chunks after the caller stopped early (they see its stop), before they
are terminated."""

GAIN = 0.85
"""A batch takes another worker only if its estimated time falls below this share of the time without it."""

def workers_for(costs: Sequence[float], *, cores: int, start: float, handoff: float = 0.0) -> int:
    """How many processes should share the items of estimated ``costs`` (seconds each) on ``cores`` cores, this
    one included: 1 (work here, start nothing) unless more cut the estimated time below :data:`GAIN` of the best
    so far.

    ``start`` is one worker's start-up (they start one after another while this process already works),
    ``handoff`` the cost per item of sending it and its result between processes. With ``w`` processes a batch
    is estimated at ``max(largest item, (total + n * handoff) / w + start * (w - 1) / 2)``: this process works
    from the first moment, the k-th worker from ``k * start``. Pure, so that the choice is tested without timing
    anything.
    """
    if not costs:
        return 1
    total, largest = sum(costs), max(costs)
    best, best_time = 1, total
    for workers in range(2, min(cores, len(costs)) + 1):
        estimate = max(largest, (total + len(costs) * handoff) / workers + start * (workers - 1) / 2)
        if estimate < GAIN * best_time:
            best, best_time = workers, estimate
    return best


def idle_cores() -> int:
    """Cores this process may run on that others leave idle (from the last minute's load average, one unit of it
    counted as this process), at least 1: workers beyond them only queue for a core."""
    import os

    from planner.common.threads import cores

    mine = cores()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this system
        return mine
    return max(1, min(mine, int(mine + 1 - load + 0.5)))


def _become_worker() -> None:
    """Mark this process a worker (see :data:`_in_worker`)."""
    global _in_worker
    _in_worker = True


def _can_fork() -> bool:
    """Whether a fork of this process is safe: POSIX fork, no other thread running, OR-Tools not loaded, and not
    itself a worker (whose cores its parent has already shared out)."""
    return (not _in_worker and hasattr(os, "fork") and threading.active_count() == 1
            and "ortools" not in sys.modules)


def start_seconds() -> float:
    """One worker's start-up as :func:`ordered_map` would start it now (for :func:`workers_for`)."""
    return FORK_START if _can_fork() else SERVER_START


def chunk_sizes(items: int, workers: int) -> list[int]:
    """How ``items`` travel to ``workers``: the sizes of the chunks in turn (see :data:`CHUNKS_PER_WORKER`,
    :data:`MAX_CHUNK`), at most :data:`~planner.common.forks.MAX_CHUNKS` of them (all their numbers fit in a pipe)."""
    from planner.common.forks import MAX_CHUNKS  # loaded only when work is shared out

    least = -(-items // MAX_CHUNKS)  # every chunk but the last at least this: no more than MAX_CHUNKS
    sizes = []
    left = items
    while left:
        size = min(left, max(least, min(MAX_CHUNK, left // (workers * CHUNKS_PER_WORKER))))
        sizes.append(size)
        left -= size
    return sizes


def _context(fn: Callable[..., Any]) -> Any:
    """Where a fork is not safe: a fork server that has loaded ``fn``'s module, else spawn."""
    import multiprocessing

    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([fn.__module__])
        return context
    return multiprocessing.get_context("spawn")


def ordered_map(fn: Callable[[T, StopLike | None], R], items: Iterable[T], *, jobs: int,
                stop: StopLike | None = None) -> Iterator[R]:
    """``fn(item, stop)`` for each item, in order, computed by ``jobs`` processes: this one and ``jobs - 1``
    workers (all here when ``jobs`` is 1 or there is one item). ``fn`` must be a module-level function and the
    items and results picklable (a forked worker's results that are not raise a RuntimeError in their turn);
    ``stop`` (another thread's) reaches the workers as the ``stop`` they are given. An exception of ``fn`` is
    raised in its item's turn, after the results before it.

    The items are cut into chunks (:func:`chunk_sizes`) that every process, this one included, takes in turn as
    soon as it is free: nobody waits for a chunk held for it in advance, and every process ends on the smallest
    chunks. A chunk's results come back together. Should the workers die, what they did not deliver is computed
    here. Forked workers talk through plain pipes (:mod:`planner.common.forks`); others through multiprocessing.
    """
    todo = list(items)
    if jobs <= 1 or len(todo) <= 1 or _in_worker:  # a worker's own work is not shared out again
        for item in todo:
            yield fn(item, stop)
        return
    from planner.common.forks import Forked, run_chunk  # loaded only when work is shared out

    processes = min(jobs, len(todo))
    starts = list(itertools.accumulate(chunk_sizes(len(todo), processes), initial=0))
    chunks = [todo[a:b] for a, b in itertools.pairwise(starts)]
    crew = Forked(fn, chunks, in_child=_become_worker, stop_wait=STOP_WAIT) if _can_fork() else _Pooled(fn, chunks)
    arrived = crew.arrived
    finished = False
    try:
        crew.start(processes - 1)
        for turn in range(len(chunks)):
            while turn not in arrived:
                if stop is not None and stop.is_set():
                    crew.stop()
                crew.receive(None)
                if turn in arrived:
                    break
                mine = crew.take()
                if mine is not None:
                    arrived[mine] = run_chunk(fn, chunks[mine], stop)
                elif not crew.alive():
                    crew.receive_rest()
                    if turn not in arrived:  # what the one that died had taken
                        arrived[turn] = run_chunk(fn, chunks[turn], stop)
                else:
                    crew.receive(POLL * 5)
            ok, value = arrived.pop(turn)
            if not ok:
                raise value
            yield from value
        finished = True
    finally:
        crew.close(finished)


class _Pooled:
    """Workers from a fork server (or spawned), through multiprocessing: a shared counter hands out the chunks, one
    queue brings the results back, an event stops them."""

    def __init__(self, fn: Callable[[T, StopLike | None], R], chunks: list[list[T]]) -> None:
        context = _context(fn)
        self.fn, self.chunks = fn, chunks
        self.arrived: dict[int, tuple[bool, Any]] = {}
        self.shared = context.Event()
        self.taken = context.Value("i", 0)
        self.results = context.Queue()
        self.context = context
        self.workers: list[Any] = []
        self.reading = False

    def start(self, workers: int) -> None:
        """Start ``workers`` workers (fewer if the system refuses more)."""
        for _ in range(workers):
            worker = self.context.Process(target=_drain, args=(self.fn, self.chunks, self.taken, self.results,
                                                                self.shared), daemon=True)
            self.workers.append(worker)
            try:
                worker.start()
            except OSError:  # no more processes: the others, and this one, do the work
                break

    def take(self) -> int | None:
        """The next chunk nobody has taken (and take it), or None when all are."""
        return _take(self.taken, len(self.chunks))

    def alive(self) -> bool:
        """Whether a worker still runs."""
        return any(worker.is_alive() for worker in self.workers)

    def stop(self) -> None:
        """Set the workers' stop."""
        self.shared.set()

    def receive(self, timeout: float | None) -> bool:
        """One message into :attr:`arrived` (waiting up to ``timeout`` seconds; None: only if one is there)."""
        import queue

        self.reading = True
        try:
            index, ok, value = self.results.get(timeout=timeout) if timeout else self.results.get_nowait()
        except queue.Empty:
            return False
        finally:
            self.reading = False
        self.arrived[index] = (ok, value)
        return True

    def receive_rest(self) -> None:
        """What the ended workers sent and is still in the queue."""
        while self.receive(POLL):
            pass

    def close(self, finished: bool) -> None:
        """Stop what still runs if the caller stopped early, hand out no more chunks, and end every worker."""
        self.shared.set()
        with self.taken.get_lock():
            self.taken.value = len(self.chunks)
        started = [worker for worker in self.workers if worker.pid is not None]
        if not finished and not self.reading:
            # keep the queue flowing: a worker ends only once what it sent has left it (when all chunks arrived,
            # nothing is left to send: a wait for a message here would only wait out its timeout)
            deadline = time.monotonic() + STOP_WAIT
            while any(worker.is_alive() for worker in started) and time.monotonic() < deadline:
                self.receive(POLL)
        for worker in started:
            if worker.is_alive():  # the caller stopped early: what still runs is not wanted
                worker.terminate()
            worker.join()
        self.results.close()


def _take(taken: Any, count: int) -> int | None:
    """The next chunk nobody has taken (and take it), or None when all are."""
    with taken.get_lock():
        index = taken.value
        if index >= count:
            return None
        taken.value = index + 1
        return int(index)


def _drain(fn: Callable[[T, StopLike | None], R], chunks: list[list[T]], taken: Any, results: Any,
           stop: Any) -> None:
    """A worker: chunks in turn until none is left, each one's results sent back with its number."""
    from planner.common.forks import run_chunk, sendable

    _become_worker()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's, which passes it on as ``stop``
    while (index := _take(taken, len(chunks))) is not None:
        ok, value = run_chunk(fn, chunks[index], stop)
        if not ok:
            value = sendable(value)
        results.put((index, ok, value))
