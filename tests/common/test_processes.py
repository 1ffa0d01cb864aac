"""planner.common.processes: independent work over processes, in the items' order, with the caller's stop."""

from __future__ import annotations

import threading

from planner.common.limits import StopLike
from planner.common.processes import ordered_map

LONG = 60.0


def square(item: int, stop: StopLike | None) -> int:
    """Module level, so a worker process can import it."""
    return item * item


def waits_for_the_stop(item: int, stop: StopLike | None) -> tuple[int, bool]:
    """Returns once the stop reaches it: what an item whose work the caller stopped does."""
    assert stop is not None
    return item, bool(stop.wait(LONG))  # type: ignore[attr-defined]


def test_one_job_works_here_in_order() -> None:
    assert list(ordered_map(square, [3, 1, 2], jobs=1)) == [9, 1, 4]


def test_a_single_item_is_worked_here_whatever_the_jobs() -> None:
    here = threading.get_ident()
    assert list(ordered_map(lambda item, stop: (item, threading.get_ident()), [5], jobs=4)) == [(5, here)]


def test_nothing_to_do_yields_nothing() -> None:
    assert list(ordered_map(square, [], jobs=2)) == []


def test_processes_keep_the_items_order() -> None:
    items = list(range(12))
    assert list(ordered_map(square, items, jobs=2)) == [i * i for i in items]


def test_the_callers_stop_is_passed_to_the_work_here() -> None:
    stop = threading.Event()
    stop.set()
    assert list(ordered_map(waits_for_the_stop, [1, 2], jobs=1, stop=stop)) == [(1, True), (2, True)]


def test_the_callers_stop_reaches_the_worker_processes() -> None:
    # The parent passes its stop on while it waits; a worker waiting for it returns once it arrives.
    stop = threading.Event()
    stop.set()
    assert list(ordered_map(waits_for_the_stop, [1, 2, 3], jobs=2, stop=stop)) == [(1, True), (2, True), (3, True)]
