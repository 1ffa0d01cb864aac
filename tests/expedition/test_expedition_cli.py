"""The ``expedition`` command: tables, the JSON contract, the bundled scenarios' hand-derived answers, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from planner.cli.expedition import cli
from planner.common.limits import Limit
from planner.errors import SolverError
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
    document = _json("move", str(SCENARIOS / name), "--tickets", str(tickets), "--nodes", "2000000")  # no clock
    assert document["points"] == points
    assert isinstance(document["actions"], list) and isinstance(document["alternatives"], list)
    assert document["status"] == "optimal" and document["proven"] is True
    assert isinstance(document["searched"], int) and document["searched"] > 0


def test_move_and_reach_tables_open_with_a_verdict() -> None:
    result = _run("move", str(SCENARIOS / "02-ticket-pays.toml"), "--tickets", "1", "--nodes", "2000000")
    assert result.exit_code == 0
    assert result.stdout.startswith("Best move with up to 1 ticket: +6 points")
    assert "proven best" in result.stdout
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
    assert _run("reach", str(SCENARIOS / "02-ticket-pays.toml"), "--svg", str(tmp_path / "no" / "x.svg")).exit_code == 2


def test_the_command_loads_neither_elfenland_nor_ortools() -> None:
    code = ("import sys; from click.testing import CliRunner; from planner.cli.expedition import cli; "
            "r = CliRunner().invoke(cli, ['reach', 'scenarios/expedition/01-spec-example.toml']); "
            "assert r.exit_code == 0, r.output; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('planner.elfenland', 'ortools')))))")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []


# -- issue 24's fixes ------------------------------------------------------------------------------------------------
def _long_notation() -> str:
    """The notation of a mid-game position whose text before its first '/' is longer than a file name may be."""
    import random

    from planner.expedition.generate import random_position

    for seed in range(40):
        line = str(random_position(random.Random(seed), turns=random.Random(seed).randint(5, 35)))
        if len(line.split("/")[0].encode()) > 255:
            return line
    raise AssertionError("no long notation among the random positions")


def test_the_notation_json_prints_is_read_back_even_when_longer_than_a_file_name() -> None:
    line = _long_notation()
    document = _json("reach", line)
    assert document["position"] == line
    assert _json("reach", str(document["position"]))["position"] == line


def test_a_notation_starting_with_a_dash_is_a_position_not_an_option() -> None:
    line = str(load_position(SCENARIOS / "02-ticket-pays.toml")).replace("Ann", "-Al")
    assert line.startswith("-Al")
    document = _json("reach", line)
    assert str(document["position"]).startswith("-Al,")


@pytest.mark.parametrize("count", ["9" * 5000, "1000", "²"])
def test_an_over_long_or_odd_count_in_the_notation_is_refused_in_the_planner_s_words(count: str) -> None:
    line = str(load_position(SCENARIOS / "02-ticket-pays.toml"))
    head, _, _ = line.rpartition("/")
    result = _run("reach", f"{head}/{count}")
    assert result.exit_code == 2, result.output
    assert "tickets" in result.stderr and "set_int_max_str_digits" not in result.output
    assert len(result.stderr) < 300


def test_an_over_long_integer_in_a_file_is_refused_in_the_planner_s_words() -> None:
    result = _run("reach", "-", stdin='format = "expedition/1"\nturn = ' + "9" * 5000 + "\n")
    assert result.exit_code == 2
    assert "5000 digits" in result.stderr and "set_int_max_str_digits" not in result.output


def test_an_empty_leg_is_bad_input_naming_the_expedition_and_the_leg(tmp_path: Path) -> None:
    text = (SCENARIOS / "02-ticket-pays.toml").read_text("utf-8")
    assert text.count("path = []") >= 1
    path = tmp_path / "empty-leg.toml"
    path.write_text(text.replace("path = []", "path = [[]]", 1), "utf-8")
    for command in ("reach", "move"):
        result = _run(command, str(path))
        assert result.exit_code == 2, result.output
        assert "the path is empty" in result.stderr and "Traceback" not in result.output


def test_json_errors_are_a_json_document() -> None:
    result = _run("move", "no-such-file.toml", "--json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["schema"] == "expedition-planner/1" and "no such position file" in document["error"]
    assert "no such position file" in result.stderr


def test_help_names_the_other_game_s_command() -> None:
    assert "elfenland" in _run("--help").stdout


def test_time_limit_and_its_deprecated_alias() -> None:
    scenario = str(SCENARIOS / "02-ticket-pays.toml")
    assert "--time-limit" in _run("move", "--help").stdout
    assert "--time " not in _run("move", "--help").stdout  # hidden
    result = _run("move", scenario, "--tickets", "0", "--time", "2")
    assert result.exit_code == 0 and "deprecated" in result.stderr


def test_svg_writes_svg_and_png_writes_png(tmp_path: Path) -> None:
    scenario = str(SCENARIOS / "02-ticket-pays.toml")
    svg, png = tmp_path / "map.svg", tmp_path / "map2.png"
    result = _run("reach", scenario, "--svg", str(svg))
    assert result.exit_code == 0
    assert svg.read_bytes().startswith(b"<svg") or b"<svg" in svg.read_bytes()[:200]
    wrong = tmp_path / "map.png"
    result = _run("reach", scenario, "--svg", str(wrong))  # the shared convention: --svg writes SVG only
    assert result.exit_code == 2 and "--png" in result.stderr and not wrong.exists()
    pytest.importorskip("cairosvg")
    result = _run("reach", scenario, "--png", str(png))
    if result.exit_code == 0:
        assert png.read_bytes().startswith(b"\x89PNG")
    else:  # the native cairo library is missing: a clear message
        assert result.exit_code == 2 and "cairo" in result.stderr


def test_an_unproven_answer_says_how_long_it_searched() -> None:
    result = _run("move", str(SCENARIOS / "01-spec-example.toml"), "--tickets", "2", "--nodes", "50", "--json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["proven"] is False and document["status"] == "feasible"
    result = _run("move", str(SCENARIOS / "01-spec-example.toml"), "--tickets", "2", "--nodes", "50")
    assert "not proven" in result.stdout and "best found in" in result.stdout


def _limit_flags(command: click.Command) -> dict[str, tuple[str, type, object]]:
    """The limit flags a command declares: name → (metavar, type, type's lowest value)."""
    return {opt: (p.make_metavar(click.Context(command)), type(p.type), getattr(p.type, "min", None))
            for p in command.params if isinstance(p, click.Option) and not p.hidden
            for opt in p.opts if opt in ("--time-limit", "--nodes")}


def test_both_games_spell_the_limit_flags_alike_and_build_the_same_limit(monkeypatch: pytest.MonkeyPatch,
                                                                        ) -> None:
    import planner.cli.expedition as expedition_command
    import planner.cli.route as route_command
    from planner.cli.elfenland import cli as elfenland

    elfenland_route = elfenland.commands["route"]
    expedition_move = cli.commands["move"]
    assert set(_limit_flags(expedition_move)) == {"--time-limit", "--nodes"}
    assert _limit_flags(expedition_move) == _limit_flags(elfenland_route)

    seen: list[Limit] = []

    def record(*args: Any, limit: Limit, **kwargs: Any) -> Any:
        seen.append(limit)
        raise SolverError("recorded")

    monkeypatch.setattr(route_command, "solve", record)
    monkeypatch.setattr(expedition_command, "best_moves", record)
    # the documented convention, by hand: the seconds given, the nodes given, and a node limit alone is the only one
    for flags, expected in [(("--time-limit", "3"), Limit(time=3.0)), (("--nodes", "500"), Limit(nodes=500)),
                            (("--time-limit", "3", "--nodes", "500"), Limit(time=3.0, nodes=500))]:
        seen.clear()
        CliRunner().invoke(elfenland, ["route", "scenarios/01-first-steps.toml", *flags])
        _run("move", str(SCENARIOS / "02-ticket-pays.toml"), *flags)
        assert seen == [expected, expected], flags
    for bad in ("0", "-1", "nan", "abc"):  # both refuse a bad limit in the same words
        answers = [CliRunner().invoke(elfenland, ["route", "scenarios/01-first-steps.toml", "--time-limit", bad]),
                   _run("move", str(SCENARIOS / "02-ticket-pays.toml"), "--time-limit", bad)]
        assert [a.exit_code for a in answers] == [2, 2]
        assert answers[0].stderr.splitlines()[-1] == answers[1].stderr.splitlines()[-1]


def test_a_bad_picture_path_with_json_is_a_json_document_too(tmp_path: Path) -> None:
    result = _run("reach", str(SCENARIOS / "02-ticket-pays.toml"), "--svg", str(tmp_path / "map.png"), "--json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["schema"] == "expedition-planner/1" and "--svg writes SVG" in document["error"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_is_an_error_naming_standard_output_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-c", "from planner.cli.expedition import cli; cli()", "reach",
                                 str(SCENARIOS / "01-spec-example.toml"), "--json"], stdout=full,
                                stderr=subprocess.PIPE, text=True, cwd=SCENARIOS.parents[1], check=False)
    assert result.returncode == 2, result.stderr
    assert "cannot write the answer to standard output" in result.stderr and "Traceback" not in result.stderr
