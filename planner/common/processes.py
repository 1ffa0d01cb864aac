"""Independent work spread over processes, in order, stoppable: batches of positions, sampled hands.

The GIL lets only one Python thread compute at a time, so independent pure-Python work (a folder of positions,
hundreds of sampled opponent hands) uses the other cores through processes. :func:`ordered_map` keeps the items'
order, passes a stop event on to the workers (a shared event the parent sets when its own stop is set), cancels
what has not started, and falls back on working in this process when the workers cannot start (e.g. under an
interpreter reading its program from stdin, whose ``__main__`` a new process cannot import again).

Workers come from a fork server, not a fork of this process: a fork of a process that has loaded OR-Tools can
inherit a held lock. Workers leave Ctrl-C to the parent.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from planner.common.limits import StopLike
from planner.common.threads import POLL

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["ordered_map"]

_worker_stop: Any = None


def _worker_init(stop: Any) -> None:
    global _worker_stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_stop = stop


def _call(fn: Callable[[T, StopLike | None], R], item: T) -> R:
    return fn(item, _worker_stop)


def ordered_map(fn: Callable[[T, StopLike | None], R], items: Iterable[T], *, jobs: int,
                stop: StopLike | None = None) -> Iterator[R]:
    """``fn(item, stop)`` for each item, in order, in up to ``jobs`` processes (here when ``jobs`` is 1 or there is
    one item). ``fn`` must be a module-level function and the items picklable; ``stop`` (another thread's) reaches
    the workers as the ``stop`` they are given.
    """
    todo = list(items)
    if jobs <= 1 or len(todo) <= 1:
        for item in todo:
            yield fn(item, stop)
        return
    import multiprocessing  # a batch's cost only: a single solve never loads it
    from concurrent.futures import ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    shared = context.Event()
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=context, initializer=_worker_init,
                               initargs=(shared,))
    done = 0
    try:
        futures = [pool.submit(_call, fn, item) for item in todo]
        for future in futures:
            while not future.done():
                if stop is not None and stop.is_set():
                    shared.set()
                wait([future], timeout=POLL * 5)
            result = future.result()
            done += 1
            yield result
    except BrokenProcessPool:
        for item in todo[done:]:
            yield fn(item, stop)
    finally:
        shared.set()  # stop what still runs if the caller stopped early
        pool.shutdown(wait=True, cancel_futures=True)
