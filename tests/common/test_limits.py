"""planner.common.limits: the limit a solve runs under, and the budget solvers poll (no test waits on the clock)."""

from __future__ import annotations

import threading
import time

import pytest

from planner.common.limits import Budget, Limit, Status


@pytest.mark.parametrize("time_limit", [0, -1, float("inf"), float("nan"), True, "5"])
def test_a_time_limit_must_be_a_positive_finite_number(time_limit: object) -> None:
    with pytest.raises(ValueError, match="a time limit must be a positive number of seconds"):
        Limit(time=time_limit)  # type: ignore[arg-type]


@pytest.mark.parametrize("nodes", [0, -3, 2.5, True, "100"])
def test_a_node_limit_must_be_a_whole_number_of_at_least_one(nodes: object) -> None:
    with pytest.raises(ValueError, match="a node limit must be a whole number of at least 1"):
        Limit(nodes=nodes)  # type: ignore[arg-type]


def test_limits_print_what_they_allow() -> None:
    assert str(Limit()) == "no limit"
    assert str(Limit(time=2.5)) == "2.5 s"
    assert str(Limit(time=3, nodes=2000)) == "3 s, 2000 nodes"
    assert str(Limit(nodes=1)) == "1 nodes"


def test_only_optimal_is_proven() -> None:
    assert [s.proven for s in Status] == [True, False, False]
    assert [str(s) for s in Status] == ["optimal", "feasible", "stopped"]


def test_no_limit_never_expires() -> None:
    budget = Budget(Limit())
    assert budget.remaining() is None
    assert not budget.out_of_time() and not budget.expired(10**9) and not budget.stopped


def test_a_node_limit_expires_past_its_count_on_any_machine() -> None:
    budget = Budget(Limit(nodes=100))
    assert not budget.expired(100)
    assert budget.expired(101)
    assert budget.status(proven=False) is Status.FEASIBLE


def test_a_time_limit_counts_from_the_start_given() -> None:
    # Started ten seconds ago with five to spend: out of time whatever the machine's speed.
    late = Budget(Limit(time=5), started=time.perf_counter() - 10)
    assert late.out_of_time() and late.expired() and late.remaining() == 0.0
    assert late.elapsed() >= 10
    # A day to spend, started now: not out of time.
    early = Budget(Limit(time=86_400))
    remaining = early.remaining()
    assert remaining is not None and 0 < remaining <= 86_400 and not early.expired()


def test_a_stop_expires_the_budget_and_says_stopped() -> None:
    stop = threading.Event()
    budget = Budget(Limit(nodes=10), stop)
    assert not budget.expired() and budget.status(proven=False) is Status.FEASIBLE
    stop.set()
    assert budget.stopped and budget.expired()
    assert budget.status(proven=False) is Status.STOPPED
    assert budget.status(proven=True) is Status.OPTIMAL  # a proof found before the stop still counts
