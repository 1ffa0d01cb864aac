"""Issue 26: every user text in every title, caption and cell is shown as typed. Opponent names, the position's
title and the file name look like rich markup (``[/red]``, ``[bold]Anna``, ``[link=x]``); every command's text
output shows them exactly, and nothing raises."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from planner.cli import cli

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
TITLE = "[link=x]Round 4[/link]: [bold]block the [red]leader"
NAMES = ("[/red]", "[bold]Anna")
FILE_NAME = "[red]pos[bold].toml"


@pytest.fixture(scope="module")
def position_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    text = (SCENARIOS / "22-obstacle-on-the-leader.toml").read_text(encoding="utf-8")
    text = text.replace('title = "Round 4: block the leader\'s only way out"', f"title = {TITLE!r}")
    text = text.replace('name = "Anna"', f"name = {NAMES[0]!r}").replace('name = "Ben"', f"name = {NAMES[1]!r}")
    text = text.replace("players = 3", 'players = 3\nsupply = "E"\ndisplay = "UT"')
    text = text.split("[expect]")[0]
    path = tmp_path_factory.mktemp("markup") / FILE_NAME
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args), env={"NO_COLOR": "1", "COLUMNS": "250"})
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def test_obstacle_shows_the_opponents_names_as_typed(position_file: Path) -> None:
    out = run("obstacle", str(position_file), "--samples", "10").stdout
    assert TITLE in out
    for name in NAMES:
        assert f"{name} (" in out, name  # each opponent's table title
    assert "against [/red]: [/red] leads with 14 points" in out


@pytest.mark.parametrize("command", [["route", "-k", "2", "--keep"], ["place"], ["draw"], ["explain"], ["check"]])
def test_every_command_shows_the_title_as_typed(position_file: Path, command: list[str]) -> None:
    out = run(command[0], str(position_file), *command[1:]).stdout
    assert TITLE in out


def test_checking_a_route_renders(position_file: Path) -> None:
    assert "your route" in run("check", str(position_file), "--route", "VIR:l/RR").stdout


def test_several_files_show_their_names_as_typed(position_file: Path) -> None:
    other = position_file.with_name("[link=x]two.toml")
    other.write_text(position_file.read_text(encoding="utf-8"), encoding="utf-8")
    out = run("route", str(position_file), str(other), "--jobs", "1").stdout
    assert str(position_file) in out and str(other) in out


def test_a_problem_quoting_markup_is_shown_as_typed(tmp_path: Path) -> None:
    bad = tmp_path / "[bold]bad.toml"
    bad.write_text('at = "[/red]"\nhand = "D"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(bad)], env={"NO_COLOR": "1", "COLUMNS": "250"})
    assert result.exit_code == 2 and "'[/red]'" in result.output and "Traceback" not in result.output
