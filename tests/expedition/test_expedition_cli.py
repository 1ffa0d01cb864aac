"""The ``expedition`` command: tables, the JSON contract, the bundled scenarios' hand-derived answers, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from planner.cli.expedition import cli
from planner.expedition.board import load_board
from planner.expedition.position_file import load_position

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "expedition"


def _run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def _json(*args: str) -> dict[str, object]:
    result = _run(*args, "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["schema"] == "expedition-planner/1"
    return document  # type: ignore[no-any-return]


def test_every_bundled_scenario_loads_and_says_what_it_shows() -> None:
    files = sorted(SCENARIOS.glob("*.toml"))
    assert len(files) >= 4
    for path in files:
        assert path.read_text("utf-8").startswith("#"), path.name
        load_position(path)


def test_reach_all_json_has_every_green_for_each_colour() -> None:
    document = _json("reach", str(SCENARIOS / "01-spec-example.toml"), "--all")
    reach = document["reach"]
    assert isinstance(reach, dict) and set(reach) == {"yellow", "blue", "red"}
    for by_green in reach.values():
        assert set(by_green) == set(load_board().greens)
        assert all(set(d) == {"arrows", "turns"} for d in by_green.values())
    # yellow's head is Sigiriya, next to Taj Mahal: 1 arrow, this turn
    assert reach["yellow"]["Taj Mahal"] == {"arrows": 1, "turns": 1}


@pytest.mark.parametrize(("name", "tickets", "points"), [
    ("02-ticket-pays.toml", 0, 2), ("02-ticket-pays.toml", 1, 6), ("02-ticket-pays.toml", 2, 6),
    ("03-loop-on-a-blue-square.toml", 0, 4),
])
def test_move_json_gives_the_hand_derived_points(name: str, tickets: int, points: int) -> None:
    document = _json("move", str(SCENARIOS / name), "--tickets", str(tickets))
    assert document["points"] == points
    assert isinstance(document["actions"], list) and isinstance(document["alternatives"], list)
    assert document["status"] == "optimal"


def test_move_and_reach_tables_open_with_a_verdict() -> None:
    result = _run("move", str(SCENARIOS / "02-ticket-pays.toml"), "--tickets", "1")
    assert result.exit_code == 0
    assert result.stdout.startswith("Best move with up to 1 ticket: +6 points")
    result = _run("reach", str(SCENARIOS / "02-ticket-pays.toml"))
    assert result.exit_code == 0 and result.stdout.startswith("Nearest of your cards: Gizeh")


def test_setup_places_four_tokens_on_far_cards_of_my_hand() -> None:
    document = _json("setup", str(SCENARIOS / "04-setup.toml"))
    position = load_position(SCENARIOS / "04-setup.toml")
    tokens = document["tokens"]
    assert isinstance(tokens, list) and len(tokens) == 4
    assert all(t in position.hand and t not in load_board().near_start for t in tokens)
    assert tokens[0] == "Elmina"  # the gate to West Africa and the South Atlantic: most routes go through it


def test_a_position_in_notation_and_on_stdin() -> None:
    text = (SCENARIOS / "02-ticket-pays.toml").read_text("utf-8")
    assert _run("reach", "-", "--json", stdin=text).exit_code == 0
    line = str(load_position(SCENARIOS / "02-ticket-pays.toml"))
    assert _run("move", line, "--tickets", "0", "--json").exit_code == 0


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (("reach", "no-such-file.toml"), None, "no such position file"),
    (("reach", "-"), "format = [", "TOML"),
    (("move", "-"), 'format = "expedition/1"\nplayers = ["A", "B"]\nme = "C"\n', "me"),
    (("reach", "Ann,Ben* | - | start>Gizex | - | -"), None, "Gizeh"),
    (("move", "Ann,Ben* | - | start>Gizeh | - | -"), None, "no link"),
    (("move", "x.toml", "--tickets", "3"), None, "3 is not in the range"),
])
def test_bad_input_exits_2_with_a_message_and_no_traceback(args: tuple[str, ...], stdin: str | None,
                                                           message: str) -> None:
    result = _run(*args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_an_unknown_location_in_a_file_gets_a_hint(tmp_path: Path) -> None:
    text = (SCENARIOS / "02-ticket-pays.toml").read_text("utf-8").replace('"Sahara"', '"Sahra"')
    path = tmp_path / "typo.toml"
    path.write_text(text, "utf-8")
    result = _run("move", str(path))
    assert result.exit_code == 2 and "Sahara" in result.output
    assert path.read_text("utf-8") == text  # input files are never modified


def test_move_draws_the_map_with_the_suggested_move(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    picture = tmp_path / "move.svg"
    result = _run("move", str(SCENARIOS / "02-ticket-pays.toml"), "--tickets", "1", "--svg", str(picture))
    assert result.exit_code == 0 and "drew" in result.stderr
    root = ET.fromstring(picture.read_text("utf-8"))
    groups = {g.get("class"): g for g in root.iter("{http://www.w3.org/2000/svg}g")}
    assert len(groups["links"]) == 206
    assert len(groups["move"].findall("{http://www.w3.org/2000/svg}line")) == 2  # Athens>Gizeh, Gizeh>Sahara
    assert _run("reach", str(SCENARIOS / "02-ticket-pays.toml"), "--svg", str(tmp_path / "x.gif")).exit_code == 2


def test_the_command_loads_neither_elfenland_nor_ortools() -> None:
    code = ("import sys; from click.testing import CliRunner; from planner.cli.expedition import cli; "
            "r = CliRunner().invoke(cli, ['reach', 'scenarios/expedition/01-spec-example.toml']); "
            "assert r.exit_code == 0, r.output; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('planner.elfenland', 'ortools')))))")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []
