"""``selfplay --ray``: the games as Ray tasks give the records the games give here, and everything that can stop
Ray from playing is one clear line and exit 2, never a traceback.

The quick tests need no Ray: a missing package is simulated, and the address checks happen before Ray is asked
(a fake module stands in, whose ``init`` must not be reached). The slow tests start a local Ray with 2 CPUs; without
the package they are skipped, saying how to install it, except in CI's slow lane (``CI`` set), where they fail.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from planner.cli import cli
from planner.common.cluster import CLUSTER_INSTALL_HINT, check_address, connect
from planner.elfenland.game.selfplay import jobs_for, selfplay
from planner.elfenland.game.state import GameRules
from planner.errors import UnsupportedError

REPO = Path(__file__).resolve().parents[2]
SHORT = ["-n", "2", "--seats", "greedy,random", "--seed", "5"]
"""A few short seeded games (2 seeds x 2 rotations, well under a second each)."""


def missing(reason: str, config: pytest.Config) -> None:
    """Skip, saying how to install Ray; fail in CI's slow lane, which must run these tests."""
    if os.environ.get("CI") and config.getoption("--slow"):
        pytest.fail(f"{reason}: CI must run the Ray tests ({CLUSTER_INSTALL_HINT})")
    pytest.skip(f"{reason} ({CLUSTER_INSTALL_HINT})")


def _fake_ray(monkeypatch: pytest.MonkeyPatch, init: Any) -> None:
    """Put a stand-in for Ray where ``import ray`` finds it: not connected, ``init`` as given."""
    monkeypatch.setitem(sys.modules, "ray", SimpleNamespace(is_initialized=lambda: False, init=init))


def _refuse(**kwargs: Any) -> None:
    raise AssertionError("ray.init must not be reached")


def _one_line_error(result: Any) -> str:
    """The command's output, checked to be one ``error:`` line at exit 2 with no traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return str(lines[0])


def test_without_ray_the_command_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` raise ImportError
    games = tmp_path / "games.jsonl"
    result = CliRunner().invoke(cli, ["selfplay", *SHORT, "--ray", "auto", "--out", str(games)])
    assert CLUSTER_INSTALL_HINT in _one_line_error(result)
    assert not games.exists()  # nothing is written before the cluster is there


@pytest.mark.parametrize("address", ["", "nonsense", "head", ":6379", "head:0", "head:65536", "http://head:6379",
                                     "ray://head", "head:6379/x"])
def test_an_address_that_is_none_is_refused_before_ray_is_asked(address: str, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    _fake_ray(monkeypatch, _refuse)
    result = CliRunner().invoke(cli, ["selfplay", *SHORT, "--ray", address])
    assert f"{address!r} is no Ray address" in _one_line_error(result)


def test_addresses_name_their_head() -> None:
    assert check_address("auto") is None and check_address("local") is None
    assert check_address("head.example:6379") == ("head.example", 6379)
    assert check_address("ray://10.0.0.7:10001") == ("10.0.0.7", 10001)
    assert check_address("[::1]:6379") == ("::1", 6379)
    with pytest.raises(UnsupportedError, match="'head' is no Ray address"):
        check_address("head")


def test_an_address_where_nothing_answers_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_ray(monkeypatch, _refuse)  # Ray itself would try for minutes
    with socket.socket() as bound:  # bound but not listening: a connection is refused, and no one can take the port
        bound.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{bound.getsockname()[1]}"
        result = CliRunner().invoke(cli, ["selfplay", *SHORT, "--ray", address])
    line = _one_line_error(result)
    assert f"no Ray cluster answers at {address!r} (connection refused)" in line and "ray start --head" in line


def test_auto_without_a_cluster_says_how_to_start_one(monkeypatch: pytest.MonkeyPatch) -> None:
    def init(**kwargs: Any) -> None:
        assert kwargs["address"] == "auto"
        raise ConnectionError("Could not find any running Ray instance.")

    _fake_ray(monkeypatch, init)
    line = _one_line_error(CliRunner().invoke(cli, ["selfplay", *SHORT, "--ray", "auto"]))
    assert "no Ray cluster runs here" in line and "--ray local" in line


def test_a_game_failing_on_a_node_is_one_line_naming_the_cause(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    class RayError(Exception):
        pass

    def get(ref: Any) -> Any:  # what a node without the planner answers: Ray's traceback, the cause last
        raise RayError("ray::play() (pid=7, ip=10.0.0.7)\n  File \"worker.py\", line 3\n"
                       "ModuleNotFoundError: No module named 'planner'\n")

    task = SimpleNamespace(remote=lambda *args: object())
    monkeypatch.setitem(sys.modules, "ray", SimpleNamespace(
        is_initialized=lambda: True, cluster_resources=lambda: {"CPU": 2}, remote=lambda fn: task,
        wait=lambda refs, timeout: (refs, []), get=get, cancel=lambda ref: None,
        exceptions=SimpleNamespace(RayError=RayError)))
    games = tmp_path / "games.jsonl"
    line = _one_line_error(CliRunner().invoke(cli, ["selfplay", *SHORT, "--ray", "auto", "--out", str(games)]))
    assert "No module named 'planner'" in line and "same planner" in line and "Traceback" not in line


def test_the_planners_own_error_in_a_task_is_raised_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    from planner.common.cluster import Cluster

    class RayError(Exception):
        def __init__(self, cause: Exception) -> None:
            super().__init__(f"ray::play()\n{cause}")
            self.cause = cause

    def get(ref: Any) -> Any:
        raise RayError(UnsupportedError("a bot of the task refused"))

    task = SimpleNamespace(remote=lambda *args: object())
    fake = SimpleNamespace(cluster_resources=lambda: {"CPU": 1}, remote=lambda fn: task, wait=lambda refs, timeout:
                           (refs, []), get=get, cancel=lambda ref: None, exceptions=SimpleNamespace(RayError=RayError))
    with pytest.raises(UnsupportedError, match="^a bot of the task refused$"):  # not "every node needs ..."
        next(Cluster(fake, owned=False).map(lambda item, stop: item, [1]))


def test_ctrl_c_while_ray_starts_stops_without_a_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def init(**kwargs: Any) -> None:
        raise KeyboardInterrupt

    _fake_ray(monkeypatch, init)
    games = tmp_path / "games.jsonl"
    result = CliRunner().invoke(cli, ["selfplay", *SHORT, "--ray", "auto", "--out", str(games)])
    assert result.exit_code == 130 and "Traceback" not in result.output and not games.exists()
    assert result.output.strip() == "stopped before the cluster was reached: no games played"


def test_ray_and_jobs_exclude_each_other() -> None:
    result = CliRunner().invoke(cli, ["selfplay", *SHORT, "--ray", "auto", "--jobs", "2"])
    assert result.exit_code == 2 and "--jobs" in result.output and "Traceback" not in result.output


def test_selfplay_without_ray_never_loads_it() -> None:
    code = ("import sys; from click.testing import CliRunner; from planner.cli import cli; "
            f"r = CliRunner().invoke(cli, ['selfplay', *{SHORT!r}, '--jobs', '1', '--json']); "
            "assert r.exit_code == 0, r.output; print(sorted(m for m in sys.modules if m.split('.')[0] == 'ray'))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.fixture(scope="module")
def ray_address(request: pytest.FixtureRequest) -> Iterator[str]:
    """A local Ray with 2 CPUs for this module, connected in this process; the address of its head."""
    try:
        import ray
    except ImportError:
        missing("ray is not installed", request.config)
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


@pytest.mark.slow
def test_ray_tasks_give_the_records_of_one_process(ray_address: str) -> None:
    jobs = jobs_for(2, ("greedy", "router"), seed=4, rules=GameRules(home_towns=True))
    here = [game.record for game in selfplay(jobs, processes=1)]
    with connect("auto") as cluster:  # this process is connected already: that Ray is used, and left running
        assert cluster.cpus == 2
        there = [game.record for game in selfplay(jobs, cluster=cluster)]
    assert there == here
    import ray

    assert ray.is_initialized()


@pytest.mark.slow
def test_a_stop_ends_the_games_on_ray_after_the_one_in_hand(ray_address: str) -> None:
    stop = threading.Event()
    played = []
    with connect("auto") as cluster:
        for game in selfplay(jobs_for(3, ("greedy", "random"), seed=0), cluster=cluster, stop=stop):
            played.append(game)
            stop.set()
    assert [game.job.seed for game in played] == [0]


@pytest.mark.slow
def test_the_command_on_a_cluster_writes_the_records_of_one_process(ray_address: str, tmp_path: Path) -> None:
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    local = CliRunner().invoke(cli, ["selfplay", *SHORT, "--jobs", "1", "--json", "--out", str(here)])
    assert local.exit_code == 0, local.output
    # A second driver joins the test's cluster by the address of its head, as on a cluster's node.
    remote = subprocess.run([sys.executable, "-m", "planner", "selfplay", *SHORT, "--ray", ray_address, "--json",
                             "--out", str(there)], capture_output=True, text=True, cwd=REPO, check=False)
    assert remote.returncode == 0, remote.stderr
    assert "Traceback" not in remote.stderr
    assert there.read_text() == here.read_text()
    assert len(here.read_text().splitlines()) == 4
    assert json.loads(remote.stdout) == json.loads(local.stdout)
