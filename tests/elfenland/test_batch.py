"""A folder of positions answers the same, in the same order, however many worker processes solve it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import planner.cli.route as route_command
from planner.cli import cli
from planner.common import processes
from planner.elfenland.generate import random_position
from planner.elfenland.position_file import position_to_toml

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("batch")
    rng = random.Random(7)
    for i in range(7):
        (where / f"{i:02d}.toml").write_text(position_to_toml(random_position(rng, cards=5, counters=12)))
    (where / "03-broken.toml").write_text('at = "Nowhere"\n')  # one bad file among them, in name order
    return where


def _answers(folder: Path, *flags: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(cli, ["route", str(folder), "--json", "--solver", "search", *flags])
    assert result.exit_code in (0, 2), result.output  # the broken file makes a batch end in 2
    documents = [json.loads(line) for line in result.stdout.splitlines()]
    for document in documents:
        document.pop("seconds", None)  # how long each solve took is the one thing that may differ
    return documents


def test_one_and_two_workers_answer_alike_in_order(folder: Path) -> None:
    one, two = _answers(folder, "--jobs", "1"), _answers(folder, "--jobs", "2")
    names = sorted(str(p) for p in folder.glob("*.toml"))
    assert [d["source"] for d in one] == names
    assert one == two
    assert [d["source"] for d in one if "error" in d] == [str(folder / "03-broken.toml")]


def _spy_on_ordered_map(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Each batch shared out by ``ordered_map``, as (items, processes), in the list returned."""
    shared: list[tuple[int, int]] = []
    real = processes.ordered_map

    def spy(fn: Any, items: Any, *, jobs: int, stop: Any = None) -> Any:
        items = list(items)
        shared.append((len(items), jobs))
        return real(fn, items, jobs=jobs, stop=stop)

    monkeypatch.setattr(processes, "ordered_map", spy)
    return shared


def test_workers_started_after_the_probe_keep_the_order(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = _answers(folder, "--jobs", "1")
    monkeypatch.setattr(route_command, "PROBE", 0.0)  # two positions solved here, then the workers take the rest
    # positions at the floor cost never pay for workers: this batch probes first
    monkeypatch.setattr("planner.common.processes.workers_for", lambda costs, **kwargs: 2 if sum(costs) else 1)
    monkeypatch.setattr(route_command, "FLOOR", 0.0)
    shared = _spy_on_ordered_map(monkeypatch)
    assert _answers(folder) == one
    assert shared == [(6, 2)]  # 8 files: the first (it warms up) and one more solved here, 6 by two workers


class _Clock:
    """``time`` for the route module: each solve of the probe takes the seconds given, in turn."""

    def __init__(self, seconds: list[float]) -> None:
        self.now, self.seconds, self.started = 0.0, list(seconds), False

    def perf_counter(self) -> float:
        if self.started:
            self.now += self.seconds.pop(0)
        self.started = not self.started
        return self.now


def test_the_first_positions_warm_up_never_makes_the_estimate(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the first solve pays for lazy imports and methods compiled at their first call: a batch whose first
    # position alone outlasts the probe must still be estimated from the positions after it
    estimated: list[list[float]] = []

    def spy(costs: list[float], **kwargs: Any) -> int:
        estimated.append(list(costs))
        return 1

    monkeypatch.setattr(route_command, "time", _Clock([1.0, 0.004, 0.004, 0.004]))
    monkeypatch.setattr("planner.common.processes.workers_for", spy)
    monkeypatch.setattr(route_command, "FLOOR", 0.0)
    _answers(folder)
    # first the floor (workers at once? no), then 8 files: four probed (the first's second not counted; three of
    # 4 ms pass the 10-ms probe), four left
    assert estimated == [[0.0] * 8, pytest.approx([0.004] * 4)]


def test_a_batch_worth_workers_at_any_cost_starts_them_before_its_first_position(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = _answers(folder, "--jobs", "1")
    monkeypatch.setattr(route_command, "FLOOR", 1.0)  # as if each position took a second at the least
    monkeypatch.setattr(processes, "idle_cores", lambda: 2)
    shared = _spy_on_ordered_map(monkeypatch)
    monkeypatch.setattr(route_command, "time", None)  # no probe: nothing is timed
    assert _answers(folder) == one
    assert shared == [(8, 2)]  # all 8 files shared from the start


@pytest.mark.parametrize(("positions", "document", "workers"),
                         [(300, True, 2), (70, True, 2), (40, True, 1), (300, False, 1)])
def test_only_a_large_batch_of_json_answers_is_worth_workers_at_the_floor_cost(
        monkeypatch: pytest.MonkeyPatch, positions: int, document: bool, workers: int) -> None:
    # 70 or 300 JSON answers start two workers at once (a fork costs about 2 ms); 40, or 300 drawn as tables (each
    # handed back as a position and its solution, dearer than the floor's work), probe first
    monkeypatch.setattr(processes, "idle_cores", lambda: 2)
    monkeypatch.setattr(processes, "start_seconds", lambda: processes.FORK_START)
    assert route_command._workers([route_command.FLOOR] * positions, document) == workers


@pytest.mark.slow
def test_the_batch_benchmark_times_both_ways() -> None:
    scripts = str(Path(sys.executable).parent)  # the console script `elfenland` lives beside the interpreter
    env = {**os.environ, "PATH": scripts + os.pathsep + os.environ.get("PATH", "")}
    result = subprocess.run([sys.executable, "batch.py", "--sizes", "3", "-r", "1"], cwd=BENCHMARKS, env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split()[0] == "3"


def test_a_position_on_standard_input_reaches_a_worker(folder: Path) -> None:
    # a worker process's standard input is empty: the text of '-' is read here and sent with the position
    text = 'at = "Rivinia"\nhand = "E"\n[tiles]\n"riv-thr" = "elfcycle"\n'
    first = str(sorted(folder.glob("0*.toml"))[0])
    result = CliRunner().invoke(cli, ["route", first, "-", first, "--json", "--jobs", "2"], input=text)
    assert result.exit_code == 0, result.output
    documents = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["source"] for d in documents] == [first, "-", first]
    assert documents[1]["score"] == 1  # Throtmanni, by the elfcycle on the only counter
