"""The scripts in ``examples/`` run as a user runs them (a fresh interpreter, from the repository root) and say
what they promise."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def run(script: str, *args: str, cwd: Path = ROOT, folder: Path = EXAMPLES,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``examples/<script>`` (or one in ``folder``) with this interpreter; fail with its output if it exits
    non-zero."""
    result = subprocess.run(
        [sys.executable, str(folder / script), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert result.returncode == 0, f"{script} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def test_every_example_has_a_docstring_and_a_main_guard() -> None:
    scripts = sorted(EXAMPLES.glob("*.py"))
    assert {p.name for p in scripts} >= {"solve_position.py", "compare_alternatives.py", "analyse_folder.py"}
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        assert text.lstrip().startswith('"""'), f"{script.name} needs a module docstring"
        assert 'if __name__ == "__main__":' in text, f"{script.name} needs a main guard"


def test_solve_position_default_scenario() -> None:
    out = run("solve_position.py").stdout
    assert out.startswith("First steps")
    assert "1. Elvenhold -> Lapphalya" in out
    assert "verdict: 6 new towns, 6 cards" in out
    assert "[optimal," in out
    assert "expected: score 6, 6 cards (agrees)" in out


def test_solve_position_given_file_and_empty_route() -> None:
    out = run("solve_position.py", "scenarios/09-nothing-affordable.toml").stdout
    assert "stay put" in out
    assert "route: -" in out
    assert "verdict: 0 new towns, 0 cards, ends in Kihromah" in out


def test_compare_alternatives() -> None:
    out = run("compare_alternatives.py").stdout
    lines = out.splitlines()
    assert lines[0] == "Last round: home to Virst, or one more town?"
    ranks = [line for line in lines if line[:3] in ("1. ", "2. ", "3. ")]
    assert [r[:3] for r in ranks] == ["1. ", "2. ", "3. "], out
    assert ranks[0].startswith("1. score 5")
    assert "ends in Virst, home, score 5" in out
    assert "tie on score 5: the route spending 6 cards beats the one spending 8" in out


def test_analyse_folder_scenarios() -> None:
    # The search solver keeps the run fast and deterministic on any machine; the default ("auto") is run below.
    out = run("analyse_folder.py", "--solver", "search").stdout
    lines = out.splitlines()
    scenarios = sorted(p.stem for p in (ROOT / "scenarios").glob("*.toml"))
    assert [line.split()[0] for line in lines[:-1]] == scenarios
    assert all(("expect ok" in line or "advice" in line) and "optimal" in line for line in lines[:-1]), out
    assert sum("advice" in line for line in lines[:-1]) == 2  # the draw and the obstacle scenarios
    assert lines[-1] == f"{len(scenarios)} positions, 0 problems"


def test_analyse_folder_given_folder_with_defaults(tmp_path: Path) -> None:
    for name in ("02-caravan.toml", "12-strict-caravan.toml"):
        shutil.copy(ROOT / "scenarios" / name, tmp_path / name)
    out = run("analyse_folder.py", str(tmp_path), cwd=tmp_path).stdout
    assert "02-caravan" in out and "12-strict-caravan" in out
    assert out.count("expect ok") == 2
    assert out.splitlines()[-1] == "2 positions, 0 problems"


def test_analyse_folder_reports_a_bad_file(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text('at = "Atlantis"\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "analyse_folder.py"), str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "broken  ERROR" in result.stdout and "Atlantis" in result.stdout


def _benchmark(script: str, *args: str) -> str:
    """Run ``benchmarks/<script>`` tiny, as the README shows it; its output."""
    scripts = str(Path(sys.executable).parent)  # the console script `elfenland` lives beside the interpreter
    env = {**os.environ, "PATH": scripts + os.pathsep + os.environ.get("PATH", "")}
    return run(script, *args, folder=ROOT / "benchmarks", env=env).stdout


@pytest.mark.slow
def test_the_solver_benchmark_runs_and_reports_agreement() -> None:
    out = _benchmark("solvers.py", "-n", "3", "--sizes", "6", "--solvers", "search,cpsat,auto")
    assert "disagreements in total: 0" in out
    assert len([line for line in out.splitlines() if line.split()[:1] == ["6"]]) == 3


@pytest.mark.slow
def test_the_cli_benchmark_runs_fresh_processes() -> None:
    out = _benchmark("cli.py", "-n", "2", "--cards", "6")
    assert "fresh process, 6 cards" in out and "median" in out


@pytest.mark.slow
def test_the_advice_benchmark_runs_and_cross_checks() -> None:
    out = _benchmark("advice.py", "-n", "3", "--obstacles", "1", "--samples", "20", "--cpsat-every", "1")
    assert "joint plan (auto)" in out and "0 disagree" in out and "same road for seeds 1 and 2" in out


@pytest.mark.slow
def test_the_selfplay_benchmark_reports_games_a_minute_and_latencies_by_decision() -> None:
    out = _benchmark("selfplay.py", "-n", "1", "--home", "--clock", "cpu", "--mixes", "greedy,greedy", "advisor,random")
    assert "games/min/core" in out and "p99 s" in out
    rows = {tuple(line.split()[:2]) for line in out.splitlines()}
    assert {("greedy,greedy", "2"), ("advisor,random", "2"), ("advisor", "draw"), ("advisor", "place")} <= rows
