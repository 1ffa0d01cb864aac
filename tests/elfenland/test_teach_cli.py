"""``elfenland explain`` and ``elfenland puzzle`` end to end: exit codes first, then output; the trainer through
its input loop (scripted standard input) and in a real terminal (a pseudo-terminal)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from planner.cli import cli
from planner.elfenland.teach.puzzles import generate
from planner.elfenland.teach.scores import DATA_DIR_ENV, SCORE_FILE

REPO = Path(__file__).resolve().parents[2]
Run = Callable[..., Result]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every score file of these tests goes to a temporary folder."""
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_ENV, str(folder))
    return folder


@pytest.fixture
def run(data_dir: Path) -> Run:
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        return runner.invoke(cli, list(args), input=input,
                             env={"NO_COLOR": "1", "COLUMNS": "200", DATA_DIR_ENV: str(data_dir)})

    return invoke


def test_explain_shows_why_reach_what_if_and_your_route(run: Run) -> None:
    result = run("explain", "scenarios/06-dead-end.toml", "--route", "dag/U mah/D gra:m/D")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in ("Why each step", "Kihromah is a dead end for the cards left", "Reach: the fewest cards",
                 "What if", "one more card", "one more counter", "it falls behind at step 2"):
        assert text in out, text


def test_explain_as_json(run: Run) -> None:
    result = run("explain", "scenarios/07-last-round-home.toml", "--json", "--no-what-if")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["schema"] == "elfenland-planner/1" and doc["kind"] == "explain" and doc["proven"]
    assert doc["best"]["score"] == 2 and doc["what_if"] is None and doc["yours"] is None
    assert doc["end_towns"]["rows"][0] == {"end": "Virst", "towns": 2, "home_distance": 0, "score": 2,
                                           "cards_spent": 2, "route": "LAP/U VIR/E", "best": True,
                                           "most_towns": False}
    assert [s["reasons"][0] for s in doc["steps"]] == ["counter", "counter"]
    assert all(row["cards"] is not None or row["route"] is None for row in doc["reach"])


def test_explain_of_an_illegal_route_says_why_and_exits_2(run: Run) -> None:
    result = run("explain", "scenarios/02-caravan.toml", "--route", "feo/DD", "--no-what-if")
    assert result.exit_code == 2
    assert "your route breaks at step 1" in result.stdout and "costs DDD" in result.stdout


def test_explain_of_a_bad_position_exits_2_without_a_traceback(run: Run) -> None:
    result = run("explain", "--at", "nowhere", "--hand", "DD")
    assert result.exit_code == 2 and "unknown town" in result.stderr and "Traceback" not in result.output


def test_puzzle_as_json_states_the_answer(run: Run) -> None:
    result = run("puzzle", "--seed", "3", "--theme", "ferry", "--difficulty", "2", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    p = generate(3, theme="ferry", difficulty=2)
    assert doc["kind"] == "puzzle" and doc["name"] == "ferry-2-3" and doc["position"] == str(p.position)
    assert doc["answer"]["score"] == p.score and doc["answer"]["cards_spent"] == p.cards
    assert "ferry" in [lesson["name"] for lesson in doc["answer"]["lessons"]]


def test_puzzle_grades_one_answer_and_keeps_the_score(run: Run, data_dir: Path) -> None:
    p = generate(3, theme="ferry", difficulty=2)
    result = run("puzzle", "--seed", "3", "--theme", "ferry", "--difficulty", "2", "--route", str(p.best), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["verdict"] == "optimal" and doc["solved"] and doc["scores"]["solved"] == {"ferry": 1}
    assert json.loads((data_dir / SCORE_FILE).read_text())["streak"] == 1
    bad = run("puzzle", "--seed", "3", "--theme", "ferry", "--difficulty", "2", "--route", "nowhere/D")
    assert bad.exit_code == 2 and "cannot read that route" in bad.stdout
    short = run("puzzle", "--seed", "3", "--theme", "ferry", "--difficulty", "2", "--route", "-")
    assert short.exit_code == 0 and "legal, 0 points" in short.stdout and "best:" in short.stdout
    stats = run("puzzle", "--stats")
    assert stats.exit_code == 0 and "streak 0 (best 1)" in stats.stdout and "ferry 1/2" in stats.stdout


def test_puzzle_exports_a_set_and_never_overwrites_it(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "set"
    result = run("puzzle", "--export", str(folder), "-n", "3", "--seed", "10", "--theme", "home",
                 "--theme", "caravan", "--difficulty", "1")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["caravan-1-11.toml", "home-1-10.toml", "home-1-12.toml"]
    assert "wrote 3 puzzles" in result.stderr
    again = run("puzzle", "--export", str(folder), "-n", "1", "--seed", "10", "--theme", "home",
                "--difficulty", "1")
    assert again.exit_code == 2 and "already exist" in again.stderr
    route = run("route", str(folder / "home-1-10.toml"), "--json")
    assert route.exit_code == 0
    expect = generate(10, theme="home", difficulty=1)
    assert json.loads(route.stdout)["score"] == expect.score


def test_the_trainer_loop_on_scripted_input(run: Run, data_dir: Path) -> None:
    first = generate(7, theme="caravan", difficulty=1)
    script = "\n".join(["help", "hint", "nowhere/D", str(first.best), "skip", "stats"]) + "\n"
    result = run("puzzle", "--seed", "7", "--theme", "caravan", "--difficulty", "1", input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.count("Puzzle ") >= 3  # the first, the skipped second, and the third when input ran out
    for text in ("Type your route", f"aim for {first.score} point", "cannot read that route",
                 "(not counted", "optimal:", "Why each step", "skipped: here is the answer",
                 "streak 0 (best 1)"):
        assert text in out, text
    assert json.loads((data_dir / SCORE_FILE).read_text())["tried"] == {"caravan": 2}


def test_a_damaged_score_file_is_set_aside_and_the_trainer_goes_on(run: Run, data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / SCORE_FILE).write_text("{broken")
    result = run("puzzle", "--seed", "1", "--theme", "caravan", "--difficulty", "1", input="skip\nq\n")
    assert result.exit_code == 0 and "damaged" in result.stderr
    assert (data_dir / (SCORE_FILE + ".bad")).exists()


def _read_until(fd: int, pattern: str, seen: list[str], timeout: float = 60.0) -> str:
    """Read the terminal until ``pattern`` shows up (the timeout only guards a hang: it is never what a passing
    run waits for)."""
    text = ""
    while not re.search(pattern, text):
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            raise AssertionError(f"no {pattern!r} on the terminal; it shows:\n{''.join(seen)}{text}")
        try:
            chunk = os.read(fd, 4096).decode("utf-8", "replace")
        except OSError:  # the child closed the terminal
            raise AssertionError(f"the trainer ended before {pattern!r}:\n{''.join(seen)}{text}") from None
        text += chunk
    seen.append(text)
    return text


@pytest.mark.slow
def test_the_trainer_in_a_real_terminal(tmp_path: Path) -> None:
    """The trainer in a pseudo-terminal, as a player runs it: prompt, typed answer, grade, quit."""
    p = generate(2, theme="upstream", difficulty=1)
    env = {**os.environ, DATA_DIR_ENV: str(tmp_path), "COLUMNS": "120", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the trainer on the terminal
        os.chdir(REPO)
        os.execvpe(sys.executable, [sys.executable, "-m", "planner", "puzzle", "--seed", "2", "--theme",
                                    "upstream", "--difficulty", "1"], env)
    seen: list[str] = []
    try:
        _read_until(fd, r"your route> ", seen)
        os.write(fd, b"hint\r")
        _read_until(fd, r"aim for .*\n.*your route> ", seen)
        os.write(fd, str(p.best).encode() + b"\r")
        graded = _read_until(fd, r"Puzzle 2.*\n(.*\n)*.*your route> ", seen)
        assert "optimal" in graded and "\x1b[" in graded  # a terminal: colours
        os.write(fd, b"quit\r")
        _read_until(fd, r"streak 1", seen)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, "".join(seen)
    assert json.loads((tmp_path / SCORE_FILE).read_text())["solved"] == {"upstream": 1}


@pytest.mark.slow
def test_python_m_planner_runs_the_trainer_on_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "planner", "puzzle", "--seed", "5", "--theme", "obstacle",
                           "--difficulty", "1", "-n", "1"], input="skip\n", capture_output=True, text=True,
                          cwd=REPO, env={**os.environ, DATA_DIR_ENV: str(tmp_path), "NO_COLOR": "1"}, check=False)
    assert done.returncode == 0, done.stderr
    assert "skipped: here is the answer" in done.stdout and "\x1b[" not in done.stdout


LEARNING = (REPO / "docs" / "learning.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("line", [line for block in re.findall(r"```console\n(.*?)```", LEARNING, flags=re.DOTALL)
                                  for line in block.splitlines() if line.startswith("$ elfenland")])
def test_the_learning_guides_examples_run(line: str, run: Run) -> None:
    args = shlex.split(line[2:])[1:]
    script = None
    if "<<<" in args:  # "$ elfenland puzzle ... <<< 'lines'": the lines typed
        at = args.index("<<<")
        script, args = args[at + 1].replace("\\n", "\n") + "\n", args[:at]
    result = run(*args, input=script)
    assert result.exit_code == 0, result.output


def test_the_puzzle_benchmark_runs() -> None:
    done = subprocess.run([sys.executable, "puzzles.py", "-n", "1", "--themes", "caravan", "--difficulties", "1"],
                          cwd=REPO / "benchmarks", capture_output=True, text=True, check=True)
    assert "caravan     1    1" in done.stdout and "slowest puzzle" in done.stdout
