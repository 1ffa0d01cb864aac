"""The one output path of the elfenland commands (issue 19): pictures, files and standard output that cannot be
written, standard input the trainer cannot read, and messages that say what they mean.

Each test here failed before its fix: a traceback, a half-written file, a PNG behind ``--svg``, a message naming
Python's internals or click's, or a line folded at 80 columns in a pipe.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from planner.cli import cli
from planner.cli.conventions import MAX_SEED, limit_from
from planner.cli.serve import this_machine_only, where_to_open
from planner.common.limits import Limit
from planner.elfenland import solvers

POSITION = ["--at", "riv", "--hand", "E D R", "--tile", "riv-thr E, jac-thr D"]
REPO = Path(__file__).resolve().parents[2]
Run = Callable[..., Result]


@pytest.fixture
def run(tmp_path: Path) -> Run:
    runner = CliRunner()

    def invoke(*args: str, input: str | bytes | None = None, columns: str = "200") -> Result:
        return runner.invoke(cli, list(args), input=input,
                             env={"NO_COLOR": "1", "COLUMNS": columns, "ELFENLAND_DATA_DIR": str(tmp_path)})

    return invoke


# -- pictures: --svg is SVG ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["route", *POSITION], ["show", *POSITION], ["explain", *POSITION, "--no-what-if"],
                                     ["puzzle", "--seed", "3", "--difficulty", "1", "--route", "-", "--no-scores"]])
def test_svg_with_a_png_name_is_refused_before_any_work(run: Run, tmp_path: Path, command: list[str]) -> None:
    picture = tmp_path / "move.png"
    result = run(*command, "--svg", str(picture))
    assert result.exit_code == 2, result.output
    assert "--svg writes SVG: name a .svg file" in result.stderr and f"--png {picture}" in result.stderr
    assert not picture.exists()  # not a PNG behind --svg, and nothing at all
    result = run(*command, "--png", str(tmp_path / "move.svg"))
    assert result.exit_code == 2 and "--png writes PNG: name a .png file" in result.stderr


def test_svg_writes_svg(run: Run, tmp_path: Path) -> None:
    picture = tmp_path / "route.svg"
    result = run("route", *POSITION, "--svg", str(picture))
    assert result.exit_code == 0, result.output
    assert picture.read_bytes().lstrip().startswith(b"<")  # XML, not the PNG signature


# -- a full disk ------------------------------------------------------------------------------------------------
def _full_disk(*args: Any) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_picture_on_a_full_disk_is_an_error_naming_it_and_leaves_nothing(run: Run, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", _full_disk)  # the disk fills up as the picture is written out
    picture = tmp_path / "route.svg"
    result = run("route", *POSITION, "--svg", str(picture))
    assert result.exit_code == 2, result.output
    assert f"cannot write picture {str(picture)!r}: No space left on device" in result.stderr
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # neither a half picture nor a temporary file


def test_puzzles_exported_to_a_full_disk_leave_no_half_file(run: Run, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    from planner.elfenland.teach import lesson

    opened: list[Any] = []

    def filling(path: Any, mode: str = "r", **kwargs: Any) -> Any:
        stream = builtins.open(path, mode, **kwargs)  # noqa: SIM115 (the caller closes it)
        opened.append(path)
        if len(opened) == 2:  # the second file: half of it fits
            real_write = stream.write

            def half(text: str) -> int:
                real_write(text[: len(text) // 2])
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

            stream.write = half  # type: ignore[method-assign, assignment]
        return stream

    monkeypatch.setattr(lesson, "open", filling, raising=False)
    folder = tmp_path / "puzzles"
    result = run("puzzle", "--export", str(folder), "-n", "3", "--seed", "11", "--difficulty", "1")
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.stderr and str(opened[1]) in result.stderr
    assert "Traceback" not in result.output
    assert list(folder.iterdir()) == []  # nothing half-written, and not the first puzzle alone either


def test_json_to_a_full_standard_output_is_an_error_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "planner", "route", *POSITION, "--json"], stdout=full,
                                stderr=subprocess.PIPE, text=True, check=False, env={**os.environ, "NO_COLOR": "1"})
    assert result.returncode == 2, result.stderr
    assert "cannot write the answer to standard output: No space left on device" in result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr


def test_the_trainer_on_a_full_standard_output_is_an_error_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "planner", "puzzle", "--seed", "2", "--difficulty", "1",
                                 "--no-scores", "-n", "1"], input="skip\n", stdout=full, stderr=subprocess.PIPE,
                                text=True, check=False, env={**os.environ, "NO_COLOR": "1"})
    assert result.returncode == 2, result.stderr
    assert "cannot write the answer to standard output: No space left on device" in result.stderr
    assert "Traceback" not in result.stderr


# -- puzzle --export checks first -----------------------------------------------------------------------------------
def test_export_into_a_folder_holding_the_files_says_so_before_generating(run: Run, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from planner.elfenland.teach import trainer

    def no_generating(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("generated puzzles before looking in the folder")

    monkeypatch.setattr(trainer, "generate", no_generating)
    (tmp_path / "any-1-6.toml").write_text("kept", encoding="utf-8")  # the second of seeds 5, 6
    result = run("puzzle", "--export", str(tmp_path), "-n", "2", "--seed", "5", "--difficulty", "1")
    assert result.exit_code == 2, result.output
    assert "1 puzzle file(s) already exist" in result.stderr and "any-1-6.toml" in result.stderr
    assert (tmp_path / "any-1-6.toml").read_text(encoding="utf-8") == "kept"


# -- the trainer's standard input ---------------------------------------------------------------------------------
def test_the_trainer_with_standard_input_closed_is_bad_input() -> None:
    code = ("import os, sys; os.close(0); sys.stdin = None; from planner.cli import cli; "
            "cli(['puzzle', '--seed', '1', '--difficulty', '1', '--no-scores'])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                            env={**os.environ, "NO_COLOR": "1"})
    assert result.returncode == 2, result.stderr
    assert "cannot read your routes from standard input: it is closed" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])  # strict UTF-8, and the C locale's surrogate escapes
def test_the_trainer_with_standard_input_not_utf8_is_bad_input(locale: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "planner", "puzzle", "--seed", "1", "--difficulty", "1", "--no-scores"],
        input=b"lap/\xff\xfe\n", capture_output=True, check=False,
        env={**os.environ, "NO_COLOR": "1", "LC_ALL": locale, "PYTHONIOENCODING": ""})
    stderr = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, stderr
    assert "cannot read your routes from standard input: it is not UTF-8 text" in stderr
    assert "Traceback" not in stderr


# -- numbers too long to read ---------------------------------------------------------------------------------------
def test_a_number_of_thousands_of_digits_is_named_in_the_games_words(run: Run, tmp_path: Path) -> None:
    position = tmp_path / "long.toml"
    position.write_text('at = "elv"\nhand = ["dragon"]\nround = ' + "1" * 5000 + "\n", encoding="utf-8")
    result = run("route", str(position))
    assert result.exit_code == 2, result.output
    assert "long.toml, line 3: 'round' is a number of 5000 digits" in result.stderr
    assert "set_int_max_str_digits" not in result.output and "integer string conversion" not in result.output


# -- messages ---------------------------------------------------------------------------------------------------
def test_the_alternatives_help_says_what_is_printed(run: Run) -> None:
    help_text = " ".join(run("route", "--help").stdout.split())
    assert "How many plans to show: the best, then up to K-1 runners-up (numbered 2..K)" in help_text
    shown = run("route", str(REPO / "scenarios" / "02-caravan.toml"), "-k", "3").stdout
    assert "alternative 3:" in shown and "alternative 4" not in shown  # 3 plans: the best, alternatives 2 and 3


def test_only_route_speaks_of_several_positions(run: Run) -> None:
    assert "several positions" not in run("board", "--help").stdout
    assert "several positions" not in run("check", "--help").stdout
    assert "several positions" in " ".join(run("route", "--help").stdout.split())


@pytest.mark.parametrize(("command", "flag"), [("place", "--replies"), ("obstacle", "--samples"),
                                               ("route", "-k"), ("route", "--nodes")])
def test_a_count_that_is_no_number_says_so(run: Run, command: str, flag: str) -> None:
    result = run(command, *POSITION, flag, "abc")
    assert result.exit_code == 2
    assert "'abc' is not a whole number" in result.stderr
    assert "integer range" not in result.stderr


def test_serving_on_loopback_does_not_send_the_phones_to_it() -> None:
    assert this_machine_only("127.0.0.1") and this_machine_only("::1") and this_machine_only("localhost")
    assert not this_machine_only("0.0.0.0") and not this_machine_only("192.168.1.20")
    text = where_to_open("http://127.0.0.1:8750/?t=x", "127.0.0.1")
    assert "a phone cannot reach 127.0.0.1" in text and "--host 0.0.0.0" in text and "scan" not in text
    assert "scan the code" in where_to_open("http://192.168.1.20:8750/?t=x", "0.0.0.0")


def test_the_help_names_the_expedition_command(run: Run) -> None:
    assert "expedition --help" in run("--help").stdout


def test_piped_output_is_not_folded_at_80_columns(run: Run) -> None:
    result = run("route", str(REPO / "scenarios" / "02-caravan.toml"), "-k", "3", columns="")
    assert result.exit_code == 0, result.output
    line = next(t for t in result.stdout.splitlines() if "→ Throtmanni (D) → Al'Baran" in t)
    assert line.rstrip().endswith("Al'Baran (D)") and len(line) > 80


# -- shared flags -----------------------------------------------------------------------------------------------
def test_the_limit_flags_build_one_limit() -> None:
    assert limit_from(None, None, default=10.0) == Limit(time=10.0)
    assert limit_from(None, 500, default=10.0) == Limit(nodes=500)  # nodes alone: the same answer on any machine
    assert limit_from(2.5, 500, default=10.0) == Limit(time=2.5, nodes=500)
    assert MAX_SEED == solvers.MAX_SEED
