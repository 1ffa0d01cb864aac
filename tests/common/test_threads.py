"""planner.common.threads: worker threads started, stopped and waited for in one place.

No test here sleeps or relies on which thread runs first: every job waits on an event the test sets, or on the
workers' own stop.
"""

from __future__ import annotations

import threading

import pytest

from planner.common.threads import Stop, Workers, cores

LONG = 60.0  # a wait that only a bug lets run out: every job here is released by an event long before


def test_a_stop_is_set_while_any_parent_is() -> None:
    parent = threading.Event()
    stop = Stop(parent, None)
    assert not stop.is_set()
    parent.set()
    assert stop.is_set()
    assert stop.wait(LONG)  # returns at once: already set
    own = Stop()
    own.set()
    assert own.is_set() and not Stop(Stop()).is_set()


def test_a_stop_wait_without_the_stop_returns_false() -> None:
    assert Stop().wait(0) is False


def test_a_job_returns_its_result_in_the_callers_thread() -> None:
    with Workers(name="test") as workers:
        job = workers.start(lambda: threading.current_thread().name, name="who")
        workers.wait(job.done.is_set)
        assert job.value().startswith("test-who-")
        assert job.value() != threading.current_thread().name


def test_a_job_that_has_not_finished_has_no_value() -> None:
    release = threading.Event()
    with Workers() as workers:
        job = workers.start(lambda: release.wait(LONG))
        with pytest.raises(RuntimeError, match="has not finished"):
            job.value()
        release.set()
        workers.wait()
        assert job.value() is True


def test_a_crash_in_a_worker_is_raised_in_the_caller() -> None:
    def crash() -> None:
        raise ZeroDivisionError("in the worker")

    with Workers() as workers, pytest.raises(ZeroDivisionError, match="in the worker"):
        workers.call(crash)


def test_wait_returns_once_every_job_has_finished() -> None:
    gates = [threading.Event() for _ in range(3)]
    with Workers() as workers:
        jobs = [workers.start(lambda gate=gate: gate.wait(LONG)) for gate in gates]  # type: ignore[misc]
        assert not workers.all_done()
        for gate in gates:
            gate.set()
        workers.wait()
        assert workers.all_done() and [job.value() for job in jobs] == [True, True, True]


def test_wait_until_returns_with_jobs_still_running() -> None:
    first, release = threading.Event(), threading.Event()
    with Workers() as workers:
        quick = workers.start(first.set)
        slow = workers.start(lambda: release.wait(LONG))
        workers.wait(first.is_set)
        assert first.is_set() and not slow.done.is_set()
        workers.wait(quick.done.is_set)
        release.set()


def test_closing_sets_the_stop_and_waits_for_every_job() -> None:
    started = threading.Event()

    def watches_the_stop(stop: Stop) -> str:
        started.set()
        return "stopped" if stop.wait(LONG) else "ran out"

    workers = Workers()
    with workers:
        job = workers.start(lambda: watches_the_stop(workers.stop))
        started.wait(LONG)
    # Leaving the block closed the workers: the job saw the stop and ended before close() returned.
    assert job.done.is_set() and job.value() == "stopped"


def test_the_callers_stop_reaches_the_jobs() -> None:
    caller = threading.Event()
    with Workers(caller) as workers:
        job = workers.start(lambda: workers.stop.wait(LONG))
        caller.set()
        workers.wait()
        assert job.value() is True


def test_call_repeats_on_stop_while_the_stop_is_set() -> None:
    # CP-SAT's stop_search must be repeated until the solve has begun: on_stop is called at every look.
    calls: list[int] = []
    enough = threading.Event()

    def on_stop() -> None:
        calls.append(1)
        if len(calls) >= 3:
            enough.set()

    caller = threading.Event()
    caller.set()
    with Workers(caller) as workers:
        assert workers.call(lambda: enough.wait(LONG), on_stop=on_stop) is True
    assert len(calls) >= 3


def test_two_workers_do_not_share_a_stop() -> None:
    with Workers() as one, Workers() as two:
        one.stop.set()
        assert not two.stop.is_set()


def test_a_closed_job_exception_still_surfaces_through_value() -> None:
    workers = Workers()
    with workers:
        job = workers.start(lambda: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        job.value()


def test_cores_is_at_least_one() -> None:
    assert cores() >= 1
