"""``elfenland puzzle`` and the score file, from the outside: ``--stats`` writes nothing, a path that is not a
regular file is refused at once, a file that is not a score file is never written, a rewrite keeps the mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from planner.cli import cli
from planner.elfenland.teach.puzzles import generate
from planner.elfenland.teach.scores import DATA_DIR_ENV, SCORE_FILE

PUZZLE = ("--seed", "1", "--theme", "caravan", "--difficulty", "1")


def run(data_dir: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["puzzle", *args], env={"NO_COLOR": "1", "COLUMNS": "200",
                                                           DATA_DIR_ENV: str(data_dir)})


def best_route() -> str:
    return str(generate(1, theme="caravan", difficulty=1).best)


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


@pytest.mark.parametrize("content", [b"{broken", b'{"format": "elfenland-scores/1", "streak": -3}'])
@pytest.mark.parametrize("where", ["data folder", "--scores"])
def test_stats_writes_nothing_even_for_a_damaged_file(tmp_path: Path, content: bytes, where: str) -> None:
    path = tmp_path / SCORE_FILE
    path.write_bytes(content)
    args = ("--stats",) if where == "data folder" else ("--stats", "--scores", str(path))
    for extra in ((), ("--json",)):
        result = run(tmp_path, *args, *extra)
        assert result.exit_code == 0, result.output
        assert listing(tmp_path) == {SCORE_FILE: content}


def test_a_damaged_score_file_is_set_aside_when_a_puzzle_is_scored(tmp_path: Path) -> None:
    path = tmp_path / SCORE_FILE
    path.write_bytes(b'{"format": "elfenland-scores/1", "streak": "lots"}')
    result = run(tmp_path, *PUZZLE, "--scores", str(path), "--route", best_route())
    assert result.exit_code == 0 and "damaged" in result.stderr
    assert (tmp_path / (SCORE_FILE + ".bad")).read_bytes() == b'{"format": "elfenland-scores/1", "streak": "lots"}'
    assert b'"caravan": 1' in path.read_bytes()


@pytest.mark.parametrize("content", [b"my notes, not scores\n", b'{"theme": "mine"}', b"[1, 2, 3]"])
def test_a_file_that_is_not_a_score_file_is_left_alone(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    result = run(tmp_path, *PUZZLE, "--scores", str(path), "--route", best_route())
    assert result.exit_code == 0, result.output
    assert "left alone" in result.stderr and "not a score file" in result.stderr
    assert listing(tmp_path) == {"notes.txt": content}


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_path_that_is_not_a_regular_file_is_a_clear_error(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "scores"
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    else:
        path.mkdir()
    for args in (("--stats",), (*PUZZLE, "--route", best_route())):
        result = run(tmp_path, *args, "--scores", str(path))
        assert result.exit_code == 2, result.output
        said = result.stderr.lower()  # a folder is refused by the option itself
        assert "error:" in said and ("not a regular file" in said or "is a directory" in said)
        assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores"]
    assert (stat.S_ISFIFO if kind == "fifo" else stat.S_ISDIR)(os.lstat(path).st_mode)


def test_a_rewrite_keeps_the_score_files_mode(tmp_path: Path) -> None:
    path = tmp_path / SCORE_FILE
    assert run(tmp_path, *PUZZLE, "--route", best_route()).exit_code == 0
    path.chmod(0o644)
    assert run(tmp_path, *PUZZLE, "--route", best_route()).exit_code == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 and b'"caravan": 2' in path.read_bytes()
