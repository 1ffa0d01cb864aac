"""The choice of worker processes (a pure function of estimated costs) and the ordered map that uses them."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.common import forks, processes
from planner.common.limits import StopLike
from planner.common.processes import ordered_map, workers_for


def test_no_workers_for_work_smaller_than_their_start() -> None:
    # ten items of 2 ms: 20 ms of work; shared with a worker that joins after 20 ms: 10 + 10 = 20 ms > 0.85 x 20
    assert workers_for([0.002] * 10, cores=2, start=0.02) == 1
    assert workers_for([], cores=8, start=0.0) == 1
    assert workers_for([10.0], cores=8, start=0.0) == 1  # one item cannot be shared


def test_workers_when_the_work_outweighs_their_start() -> None:
    # 300 items of 10 ms: 3 s alone; with a worker (3 + 300 x 0.001) / 2 + 0.02 / 2 = 1.66 s < 0.85 x 3 s
    assert workers_for([0.01] * 300, cores=2, start=0.02, handoff=0.001) == 2
    # this process works while a half-second fork server starts: (3 + 0.3) / 2 + 0.25 = 1.9 s is still worth it
    assert workers_for([0.01] * 300, cores=2, start=0.5, handoff=0.001) == 2
    # but not for 300 items of 1 ms: (0.3 + 0.3) / 2 + 0.25 = 0.55 s > 0.3 s
    assert workers_for([0.001] * 300, cores=2, start=0.5, handoff=0.001) == 1


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


@given(st.integers(0, 200_000), st.integers(2, 256))
def test_chunks_never_outnumber_what_the_pipe_of_their_numbers_holds(items: int, workers: int) -> None:
    sizes = processes.chunk_sizes(items, workers)
    assert sum(sizes) == items
    assert len(sizes) <= forks.MAX_CHUNKS
    assert sizes == sorted(sizes, reverse=True)
    assert all(size <= max(processes.MAX_CHUNK, -(-items // forks.MAX_CHUNKS)) for size in sizes)
    if items <= forks.MAX_CHUNKS and items:
        assert sizes[-1] == 1  # a batch of usual size still ends item by item


def test_chunked_items_keep_their_order_across_chunk_ends() -> None:
    assert processes.chunk_sizes(150, 2)[:2] == [18, 16]
    assert list(ordered_map(_square, range(150), jobs=2)) == [i * i for i in range(150)]


def _pid(item: int, stop: StopLike | None) -> int:
    time.sleep(0.002)  # long enough for the pool to hand the worker its first chunks (a sleep lets its thread run)
    return os.getpid()


def test_this_process_shares_the_work_with_its_workers() -> None:
    # two jobs are this process and one worker: a bystander parent would leave one of two cores idle
    pids = list(ordered_map(_pid, range(200), jobs=2))
    assert os.getpid() in pids
    assert len(set(pids)) == 2


def _fails_at_five(item: int, stop: StopLike | None) -> int:
    if item == 5:
        raise ValueError("five")
    return item


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_is_raised_in_its_items_turn(jobs: int) -> None:
    seen: list[int] = []
    with pytest.raises(ValueError, match="five"):
        for result in ordered_map(_fails_at_five, range(40), jobs=jobs):
            seen.append(result)
    assert seen == [0, 1, 2, 3, 4]


_PARENT = os.getpid()


def _dies_in_a_worker(item: int, stop: StopLike | None) -> int:
    if os.getpid() != _PARENT:
        os._exit(3)  # a worker killed mid-chunk: what it took never comes back
    return item * 2


def test_what_dead_workers_took_is_done_here() -> None:
    assert list(ordered_map(_dies_in_a_worker, range(30), jobs=2)) == [i * 2 for i in range(30)]


def _children() -> set[int]:
    """This process's child processes, zombies included (Linux's /proc)."""
    mine = str(os.getpid())
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if fields[1] == mine:
            found.add(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc to list the children")
def test_a_caller_that_stops_early_leaves_no_worker_behind() -> None:
    before = _children()
    for _ in ordered_map(_pid, range(400), jobs=2):
        assert _children() - before  # a worker runs (forked: multiprocessing knows nothing of it)
        break
    assert _children() == before


def _fresh(program: str) -> list[str]:
    """The words ``program`` prints, run in a fresh interpreter: there no thread runs and OR-Tools is not loaded,
    so its workers are forks talking through pipes (a test process that loaded OR-Tools would use a fork server)."""
    preamble = ("import os, select, sys, threading\n"
                "from planner.common.processes import ordered_map\n"
                "PARENT = os.getpid()\n"
                "started_read, started_write = os.pipe()\n"
                "def meet(item):  # this process's first item ends once a worker has begun one: no timing\n"
                "    if os.getpid() != PARENT:\n"
                "        os.write(started_write, b'!')\n"
                "    elif item == 0:\n"
                "        assert select.select([started_read], [], [], 60)[0]\n")
    done = subprocess.run([sys.executable, "-c", preamble + textwrap.dedent(program)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_forked_workers_need_no_multiprocessing() -> None:
    # multiprocessing's modules cost a batch 9-11 ms before its worker starts; a fork with plain pipes needs none
    assert _fresh("""
        def work(item, stop):
            meet(item)
            return item, os.getpid()
        pids = list(ordered_map(work, range(200), jobs=2))
        assert [item for item, _ in pids] == list(range(200))
        print(len({pid for _, pid in pids}), 'multiprocessing' in sys.modules)
        """) == ["2", "False"]


def test_results_larger_than_a_pipe_arrive_whole_while_this_process_is_busy() -> None:
    # the worker sends chunks of 32 answers of 50 kB while this process is still at its first: far more than a pipe
    # holds, and the worker must not wait for this process to read them
    assert _fresh("""
        def work(item, stop):
            meet(item)
            return str(item) * 50_000
        print(list(ordered_map(work, range(300), jobs=2)) == [str(i) * 50_000 for i in range(300)])
        """) == ["True"]


def test_a_workers_results_that_cannot_travel_raise_in_their_turn() -> None:
    assert _fresh("""
        def work(item, stop):
            meet(item)
            return item if os.getpid() == PARENT else threading.Lock()  # a lock cannot be pickled
        try:
            list(ordered_map(work, range(200), jobs=2))
        except RuntimeError as error:
            print("could not be sent back" in str(error))
        """) == ["True"]


def test_no_chunk_numbers_in_the_pipe_means_all_work_here() -> None:
    # a pipe that takes none of the chunk numbers (smaller than any real system's): the workers find none
    assert _fresh("""
        from planner.common import forks
        real, refused = os.write, []
        numbers = b"".join(forks._token(index) for index in range(3))
        def write(descriptor, data):
            if bytes(data[:len(numbers)]) == numbers:
                refused.append(bytes(data))
                raise BlockingIOError
            return real(descriptor, data)
        os.write = write
        pids = list(ordered_map(lambda item, stop: os.getpid(), range(20), jobs=2))
        print(bool(refused), set(pids) == {PARENT})
        """) == ["True", "True"]


def test_a_pipe_stop_is_set_by_a_byte_or_by_the_writers_end() -> None:
    for end in ("write", "close"):
        read, write = os.pipe()
        stop = forks._PipeStop(read)
        assert not stop.is_set()
        assert not stop.wait(0.01)
        if end == "write":
            os.write(write, b"!")
        else:
            os.close(write)  # the parent died: its workers stop
        assert stop.is_set()
        assert stop.wait()
        os.close(read)
        if end == "write":
            os.close(write)


def _shares_again(item: int, stop: StopLike | None) -> tuple[int, int]:
    return item, len(set(ordered_map(_pid, range(4), jobs=2)))


def test_a_workers_own_ordered_map_works_there() -> None:
    # a worker may not start processes of its own (and its parent has shared out the cores already)
    results = list(ordered_map(_shares_again, range(6), jobs=2))
    assert [item for item, _ in results] == list(range(6))
    assert {processes_seen for _, processes_seen in results} <= {1, 2}
    assert any(processes_seen == 1 for _, processes_seen in results)  # those that ran in the worker


class _Unrebuildable(Exception):
    def __init__(self, message: str, extra: str) -> None:  # pickles, but cannot be rebuilt from its args
        super().__init__(message)
        self.extra = extra


def _fails_oddly_in_a_worker(item: int, stop: StopLike | None) -> int:
    if os.getpid() != _PARENT:
        raise _Unrebuildable("odd", "more")
    time.sleep(0.002)
    return item


def test_a_workers_error_that_cannot_travel_arrives_as_a_runtime_error_naming_it() -> None:
    with pytest.raises((RuntimeError, _Unrebuildable), match="odd") as raised:
        list(ordered_map(_fails_oddly_in_a_worker, range(200), jobs=2))
    if raised.type is RuntimeError:
        assert "_Unrebuildable" in str(raised.value)


def _counted(item: int, stop: StopLike | None) -> int:
    with open(os.environ["PLANNER_TEST_CALLS"], "a", encoding="utf-8") as calls:
        calls.write(f"{item}\n")
    # this process is long at its first item; a worker is slow on item 1 while the other sends the rest, so that
    # when this process comes back, item 1's answer (often) waits behind others in the queue
    time.sleep(0.5 if os.getpid() == _PARENT else 0.2 if item == 1 else 0.005)
    return item


def test_nothing_a_worker_delivered_is_computed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = tmp_path / "calls"
    monkeypatch.setenv("PLANNER_TEST_CALLS", str(calls))
    assert list(ordered_map(_counted, range(12), jobs=3)) == list(range(12))
    assert sorted(int(line) for line in calls.read_text().split()) == list(range(12))
