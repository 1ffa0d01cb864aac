"""Solver threads, started, stopped and waited for in one place.

Every solve that runs work in threads (a race of two solvers, a portfolio of CP-SAT runs, a CP-SAT solve watched
for a stop) does it through :class:`Workers`:

- each :class:`Workers` has its own :class:`Stop`, set when the caller's stop is set or the workers close, so two
  solves in one process never see each other's threads or stops;
- a job's result or exception comes back to the caller's thread (:meth:`Job.value`): a crash in a worker is
  raised, never printed and lost;
- closing (also on an exception, Ctrl-C included) sets the stop and waits for every job, because a process that
  exits while a CP-SAT solve still runs in C++ aborts.

Waits use :meth:`threading.Event.wait` in short slices rather than :meth:`threading.Thread.join`: interrupted by
Ctrl-C, ``join`` can mark a running thread as ended (Python 3.11-3.12).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from planner.common.limits import StopLike

T = TypeVar("T")

__all__ = ["POLL", "Job", "Stop", "Workers", "cores"]

POLL = 0.01
"""Seconds between looks at a stop or at finished jobs (a stopped solve ends within a few of these)."""

_numbers = itertools.count(1)


def cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Stop:
    """A stop signal, also set while any of its parents is (a race's own stop under the caller's)."""

    def __init__(self, *parents: StopLike | None) -> None:
        self._event = threading.Event()
        self._parents = [p for p in parents if p is not None]

    def set(self) -> None:
        """Ask to stop."""
        self._event.set()

    def is_set(self) -> bool:
        """Whether this stop or a parent is set."""
        return self._event.is_set() or any(p.is_set() for p in self._parents)

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the stop; whether it is set."""
        deadline = time.perf_counter() + timeout
        while not self.is_set():
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            self._event.wait(min(POLL, left))
        return True


class Job(Generic[T]):
    """One function running in a worker thread."""

    def __init__(self, name: str, fn: Callable[[], T], finished: threading.Event) -> None:
        self.name = name
        self.done = threading.Event()
        self.result: T | None = None
        self.error: BaseException | None = None
        self._fn = fn
        self._finished = finished
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        try:
            self.result = self._fn()
        except BaseException as error:  # noqa: BLE001 (handed to the caller's thread by value())
            self.error = error
        finally:
            self.done.set()
            self._finished.set()

    def value(self) -> T:
        """The function's result.

        Raises:
            BaseException: whatever the function raised, in the caller's thread.
            RuntimeError: the job has not finished.
        """
        if not self.done.is_set():
            raise RuntimeError(f"job {self.name} has not finished")
        if self.error is not None:
            raise self.error
        return self.result  # type: ignore[return-value]  # set by _run when no error


class Workers:
    """Threads of one solve; use as a context manager, which stops and waits for them on the way out.

    Jobs should watch :attr:`stop` (pass it to the solves they run): it is set when the caller's ``stop`` is set,
    and when the workers close.
    """

    def __init__(self, stop: StopLike | None = None, *, name: str = "planner") -> None:
        self.stop = Stop(stop)
        self.name = name
        self.jobs: list[Job[Any]] = []
        self._finished = threading.Event()

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self, fn: Callable[[], T], *, name: str = "") -> Job[T]:
        """Run ``fn()`` in a new thread; its :class:`Job` gives the result."""
        job = Job(f"{self.name}-{name or 'job'}-{next(_numbers)}", fn, self._finished)
        self.jobs.append(job)
        job.thread.start()
        return job

    def all_done(self) -> bool:
        """Whether every job has finished."""
        return all(job.done.is_set() for job in self.jobs)

    def wait(self, until: Callable[[], bool] | None = None, *, on_stop: Callable[[], object] | None = None) -> None:
        """Wait until ``until()`` is true or every job has finished; while the stop is set, call ``on_stop`` at
        every look (e.g. CP-SAT's ``stop_search``, which must be repeated until the solve has really begun)."""
        while not self.all_done() and (until is None or not until()):
            if on_stop is not None and self.stop.is_set():
                on_stop()
            self._finished.wait(POLL)
            self._finished.clear()

    def call(self, fn: Callable[[], T], *, on_stop: Callable[[], object] | None = None, name: str = "") -> T:
        """Run ``fn()`` in a worker thread and wait for it here, calling ``on_stop`` while the stop is set.

        The caller's thread stays free to take Ctrl-C, which a C++ solve running in it would not.

        Raises:
            BaseException: whatever ``fn`` raised.
        """
        job = self.start(fn, name=name)
        self.wait(job.done.is_set, on_stop=on_stop)
        return job.value()

    def close(self, *, on_stop: Callable[[], object] | None = None) -> None:
        """Set the stop and wait for every job, through Ctrl-C too (raised again once all have ended)."""
        self.stop.set()
        interrupted = False
        for job in self.jobs:
            while not job.done.is_set():
                try:
                    if on_stop is not None:
                        on_stop()
                    job.done.wait(POLL)
                except KeyboardInterrupt:
                    interrupted = True
        if interrupted:
            raise KeyboardInterrupt
