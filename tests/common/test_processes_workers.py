"""The choice of worker processes (a pure function of estimated costs) and the ordered map that uses them."""

from __future__ import annotations

import multiprocessing
import os
import threading

import pytest

from planner.common import processes
from planner.common.limits import StopLike
from planner.common.processes import ordered_map, workers_for


def test_no_workers_for_work_smaller_than_their_start() -> None:
    # ten items of 5 ms: 50 ms of work; two workers cost 2 x 20 ms to start, then 25 ms: 65 ms > 50 ms
    assert workers_for([0.005] * 10, cores=2, start=0.02) == 1
    assert workers_for([], cores=8, start=0.0) == 1
    assert workers_for([10.0], cores=8, start=0.0) == 1  # one item cannot be shared


def test_workers_when_the_work_outweighs_their_start() -> None:
    # 300 items of 10 ms: 3 s alone; two workers 2 x 0.02 + 300 x 0.001 + 1.5 = 1.84 s < 0.85 x 3 s
    assert workers_for([0.01] * 300, cores=2, start=0.02, handoff=0.001) == 2
    # the same batch behind a half-second fork server: 1 + 0.3 + 1.5 = 2.8 s is not worth it
    assert workers_for([0.01] * 300, cores=2, start=0.5, handoff=0.001) == 1


def test_never_more_workers_than_cores_or_items() -> None:
    assert workers_for([1.0] * 3, cores=8, start=0.0) == 3
    assert workers_for([1.0] * 100, cores=4, start=0.0) == 4
    assert workers_for([1.0] * 100, cores=1, start=0.0) == 1


def test_a_worker_must_save_a_real_share() -> None:
    # each added worker must beat GAIN of the best time so far: 4 items of 1 s, free start
    # 2 workers: 2 s < 0.85 x 4 s; 3 workers: max(1, 4/3) = 1.33 s < 0.85 x 2 s; 4 workers: 1 s < 0.85 x 1.33 s
    assert workers_for([1.0] * 4, cores=4, start=0.0) == 4
    # one long item bounds the batch: 3 workers cannot beat the 3 s item that two already wait for
    assert workers_for([3.0, 1.0, 1.0, 1.0], cores=4, start=0.0) == 2


@pytest.mark.parametrize(("load", "idle"), [(0.0, 2), (1.2, 2), (1.6, 1), (10.0, 1)])
def test_idle_cores_leave_out_the_load_of_others(monkeypatch: pytest.MonkeyPatch, load: float, idle: int) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, 0.0, 0.0))
    assert processes.idle_cores() == idle


def _square(item: int, stop: StopLike | None) -> int:
    return item * item


@pytest.mark.parametrize("jobs", [1, 2])
def test_ordered_map_keeps_the_order(jobs: int) -> None:
    assert list(ordered_map(_square, range(20), jobs=jobs)) == [i * i for i in range(20)]


@pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods(), reason="no fork server here")
def test_workers_come_from_a_fork_server_while_another_thread_runs() -> None:
    # a fork copies a held lock of a running thread: with one running, the workers come from a fork server

    release = threading.Event()
    waiting = threading.Thread(target=release.wait, daemon=True)
    waiting.start()
    try:
        assert processes.start_seconds() == processes.SERVER_START
        assert processes._context(_square).get_start_method() == "forkserver"
        assert list(ordered_map(_square, range(6), jobs=2)) == [i * i for i in range(6)]
    finally:
        release.set()
        waiting.join()


def test_items_travel_in_chunks_that_shrink_to_single_items_at_the_end() -> None:
    sizes = processes.chunk_sizes(300, 2)
    assert sum(sizes) == 300
    assert sizes[:3] == [32, 32, 236 // 8]  # an eighth of what is left (at most MAX_CHUNK), then less
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-8:] == [1] * 8  # the last items one by one: no worker is left with a long last chunk
    assert len(sizes) < 60  # far fewer messages than items
    assert processes.chunk_sizes(10, 2) == [1] * 10  # a small batch goes item by item
    assert processes.chunk_sizes(10_000, 2)[0] == processes.MAX_CHUNK
    assert processes.chunk_sizes(0, 2) == []


def test_chunked_items_keep_their_order_across_chunk_ends() -> None:
    assert processes.chunk_sizes(150, 2)[:2] == [18, 16]
    assert list(ordered_map(_square, range(150), jobs=2)) == [i * i for i in range(150)]
