"""The elfenland command: exit codes first, then output (JSON parsed, text searched), stdout and stderr apart.

The second half holds one regression test per problem found by trying the CLI as a new user would and by fuzzing
it (issue 11): each once crashed, gave a wrong answer or a misleading message.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from planner.cli import cli
from planner.elfenland.inputs import read_position
from planner.elfenland.position import Position
from planner.errors import SolverError

POSITION = ["--at", "riv", "--hand", "E D R", "--tile", "riv-thr E, jac-thr D"]
REPO = Path(__file__).resolve().parents[2]
Run = Callable[..., Result]


@pytest.fixture
def run() -> Run:
    runner = CliRunner()

    def invoke(*args: str, input: str | bytes | None = None) -> Result:
        return runner.invoke(cli, list(args), input=input, env={"NO_COLOR": "1", "COLUMNS": "200"})

    return invoke


def test_version_and_help(run: Run) -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert "elfenland" in result.stdout
    for command in ("route", "check", "board", "show"):
        result = run(command, "--help")
        assert result.exit_code == 0, command
        assert "Example" in result.stdout, command


def test_route_from_flags_as_json(run: Run) -> None:
    result = run("route", *POSITION, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["schema"] == "elfenland-planner/1"
    assert doc["score"] == 2
    assert doc["new_towns"] == ["Throtmanni", "Jaccaranda"]
    assert doc["cards_spent"] == 2
    assert doc["end"] == "Jaccaranda"
    assert doc["optimal"] is True and doc["status"] == "optimal" and doc["bound"] == 2
    assert doc["home_penalty"] == 0
    assert doc["keep"] == ["raft"]
    assert doc["steps"] == [
        {"from": "Rivinia", "to": "Throtmanni", "via": "road", "pay": "counter", "cards": ["elfcycle"],
         "connection": "RIV-THR:f", "new_town": True, "placed": False},
        {"from": "Throtmanni", "to": "Jaccaranda", "via": "road", "pay": "counter", "cards": ["dragon"],
         "connection": "JAC-THR:m", "new_town": True, "placed": False},
    ]
    assert result.stderr == ""


def test_route_table_verdict_and_the_position_to_copy(run: Run) -> None:
    result = run("route", *POSITION)
    assert result.exit_code == 0, result.output
    assert "2 new towns, 2 cards, ends in Jaccaranda, keep raft" in result.stdout
    assert "optimal" in result.stdout
    assert "position: D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1" in result.stdout  # one line, to copy and edit
    assert "\x1b[" not in result.output  # NO_COLOR and not a terminal: plain text


def test_route_alternatives_print_with_town_names(run: Run) -> None:
    result = run("route", *POSITION, "-k", "3", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert len(doc["alternatives"]) == 2
    assert all(alt["score"] <= doc["score"] for alt in doc["alternatives"])
    text = run("route", *POSITION, "-k", "3").stdout
    assert "alternative 2:" in text
    assert "Rivinia → Throtmanni (E)" in text  # names, not step codes like THR/E


@pytest.mark.parametrize("solver", ["search", "cpsat", "auto"])
def test_route_each_solver(run: Run, solver: str) -> None:
    result = run("route", *POSITION, "--solver", solver, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"] == 2


def test_file_flags_override_and_the_file_is_never_modified(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('at = "Rivinia"\nhand = "E"\n[tiles]\n"riv-thr" = "elfcycle"\n"jac-thr" = "dragon"\n')
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    assert json.loads(run("route", str(path), "--json").stdout)["score"] == 1
    result = run("route", str(path), "--hand", "ED", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["score"] == 2
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_tile_removal_and_round_rules(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('at = "Rivinia"\nhand = "ED"\n[tiles]\n"riv-thr" = "elfcycle"\n"jac-thr" = "dragon"\n')
    result = run("route", str(path), "--tile", "jac-thr -", "--json")
    assert json.loads(result.stdout)["score"] == 1
    result = run("route", str(path), "--home", "jac", "--round", "3", "--rounds", "3", "--json")
    doc = json.loads(result.stdout)
    assert doc["end"] == "Jaccaranda" and doc["home_penalty"] == 0
    assert doc["position"].endswith(" 3 JAC rounds=3")


def test_stdin_and_folder_json_lines(run: Run, tmp_path: Path) -> None:
    text = 'at = "Rivinia"\nhand = "E"\n[tiles]\n"riv-thr" = "elfcycle"\n'
    result = run("route", "-", "--json", input=text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"] == 1
    (tmp_path / "a.toml").write_text(text)
    (tmp_path / "b.toml").write_text(text.replace('"E"', '"-"'))
    result = run("route", str(tmp_path), "--json", "--jobs", "1")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["score"] for d in lines] == [1, 0]
    assert lines[0]["source"].endswith("a.toml")


@pytest.mark.slow
def test_a_folder_on_several_cores_keeps_its_order(run: Run) -> None:
    one = run("route", str(REPO / "scenarios"), "--json", "--jobs", "1", "--solver", "search")
    two = run("route", str(REPO / "scenarios"), "--json", "--jobs", "2", "--solver", "search")
    assert one.exit_code == two.exit_code == 0, two.output
    first = [json.loads(line) for line in one.stdout.splitlines()]
    second = [json.loads(line) for line in two.stdout.splitlines()]
    assert [d["source"] for d in first] == [d["source"] for d in second] == sorted(d["source"] for d in first)
    assert [(d["score"], d["cards_spent"]) for d in first] == [(d["score"], d["cards_spent"]) for d in second]


def test_compact_notation_argument(run: Run) -> None:
    result = run("route", "E@RIV-THR:f,D@JAC-THR:m RIV EDR - 1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"] == 2


def test_bad_input_exit_2_names_problem_on_stderr(run: Run) -> None:
    result = run("route", "--at", "Virts", "--hand", "DQ")
    assert result.exit_code == 2
    assert "Virts" in result.stderr and "did you mean 'Virst'" in result.stderr
    assert "'DQ'" in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_bad_tile_and_missing_file(run: Run) -> None:
    result = run("route", "--at", "elv", "--tile", "alb-dag P")
    assert result.exit_code == 2
    assert "giant pig counter on ALB-DAG:d" in result.stderr
    result = run("route", "no-such-file.toml")
    assert result.exit_code == 2
    assert "no such position file 'no-such-file.toml'" in result.stderr
    result = run("route")
    assert result.exit_code == 2
    assert "--at" in result.stderr


def test_folder_with_a_bad_file_continues(run: Run, tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('at = "Rivinia"\nhand = "E"\n')
    (tmp_path / "b.toml").write_text('at = "Nowhere"\n')
    result = run("route", str(tmp_path), "--json")
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["score"] == 0
    assert "Nowhere" in lines[1]["error"]
    assert lines[1]["problems"][0]["kind"] == "unknown-town"
    text = run("route", str(tmp_path))
    assert text.exit_code == 2
    assert "b.toml" in text.stderr and "Nowhere" in text.stderr  # the error goes to stderr...
    assert "Nowhere" not in text.stdout and "0 new towns" in text.stdout  # ...the results to stdout


def test_check_lists_every_problem(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('at = "Elvnhold"\nround = 7\nhand = "DDDDDDDDDDD"\n[tiles]\n"alb-dag" = "pig"\n')
    result = run("check", str(path))
    assert result.exit_code == 2
    for fragment in ("Elvnhold", "round 7", "11 dragon", "ALB-DAG:d"):
        assert fragment in result.stdout
    result = run("check", str(path), "--json")
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert doc["valid"] is False and len(doc["problems"]) == 4
    by_kind = {p["kind"]: p for p in doc["problems"]}
    assert by_kind["terrain"]["field"] == "tiles" and by_kind["terrain"]["value"] == "ALB-DAG:d"
    assert by_kind["unknown-town"]["field"] == "at" and by_kind["unknown-town"]["value"] == "Elvnhold"
    assert set(by_kind["terrain"]) == {"kind", "field", "value", "message"}


def test_check_route(run: Run) -> None:
    result = run("check", *POSITION, "--route", "thr/E")
    assert result.exit_code == 0, result.output
    assert "your route gets 1" in result.stdout and "the best gets 2" in result.stdout
    result = run("check", *POSITION, "--route", "thr/E jac/D")
    assert result.exit_code == 0
    assert "that is optimal" in result.stdout
    result = run("check", *POSITION, "--route", "thr/D", "--json")
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert doc["route_legal"] is False and doc["step"] == 1
    assert "costs E" in doc["reason"]
    result = run("check", *POSITION, "--route", "xyz/E")
    assert result.exit_code == 2
    assert "unknown town 'xyz'" in result.stderr


def test_check_warns_big_hand_on_stderr(run: Run) -> None:
    result = run("check", "--at", "elv", "--hand", "DDDDDEEEEE")
    assert result.exit_code == 0
    assert "10 cards" in result.stderr and "position is legal" in result.stdout
    doc = json.loads(run("check", "--at", "elv", "--hand", "DDDDDEEEEE", "--json").stdout)
    assert doc["valid"] is True and doc["warnings"][0]["kind"] == "big-hand"


def test_board(run: Run) -> None:
    result = run("board")
    assert result.exit_code == 0
    assert "KIH" in result.stdout and "Kihromah" in result.stdout
    assert "flows Virst → Jxara" in result.stdout
    result = run("board", "dag", "--json")
    doc = json.loads(result.stdout)
    assert [t["code"] for t in doc["towns"]] == ["DAG"]
    assert "DAG-KIH:f" in [c["id"] for c in doc["connections"]]
    result = run("board", "virst")
    assert result.exit_code == 0
    assert "upstream" in result.stdout or "downstream" in result.stdout
    result = run("board", "t")
    assert result.exit_code == 2
    assert "ambiguous town 't'" in result.stderr


def test_show_needs_an_output(run: Run) -> None:
    result = run("show", "--at", "elv")
    assert result.exit_code == 2
    assert "--svg" in result.output


def test_python_dash_m_planner() -> None:
    result = subprocess.run([sys.executable, "-m", "planner", "--version"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0
    assert "elfenland" in result.stdout


HEAVY = ("ortools", "networkx", "multiprocessing", "concurrent.futures", "planner.common.processes",
         "planner.elfenland.advice", "planner.elfenland.teach", "planner.elfenland.svg", "planner.common.svg",
         "planner.table", "starlette", "uvicorn", "segno", "planner.expedition", "planner.cli.advise",
         "planner.cli.teach", "planner.cli.serve", "planner.cli.expedition", "planner.cli.board", "planner.cli.check",
         "importlib.resources", "zipfile", "rich._emoji_codes", "ray", "planner.common.cluster", "difflib",
         "locale")
"""What a plain ``elfenland route`` of one position never loads: each costs start-up time that only its own
commands need (the group loads a command's module when the command runs; worker processes are for batches; the
board is read beside its module; no emoji is ever drawn; a "did you mean" is worked out only for a misspelling;
click's words in English are its own, with no catalogue looked for)."""

TABLES = ("rich.table", "rich.panel", "planner.elfenland.render")
"""What ``elfenland route --json`` never loads on top: the tables are drawn for a terminal only."""


def _loaded(args: list[str], prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with one of ``prefixes`` that ``elfenland ARGS`` loads, in a fresh interpreter."""
    code = ("import sys; from click.testing import CliRunner; from planner.cli import cli; "
            f"r = CliRunner().invoke(cli, {args!r}); "
            "assert r.exit_code == 0, r.output; print(' '.join(sorted(m for m in sys.modules if m.startswith("
            f"{prefixes!r}))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_default_path_loads_nothing_it_does_not_use() -> None:
    assert _loaded(["route", "--at", "riv", "--hand", "ED", "--tile", "riv-thr E"], HEAVY) == []
    assert _loaded(["route", str(REPO / "scenarios" / "01-first-steps.toml"), "--json"], HEAVY + TABLES) == []


def test_route_of_a_file_compiles_none_of_the_planners_patterns() -> None:
    # Reading a hand of card names and the roads of a file once compiled nine of them (5.6 M instructions).
    ours = {r"[\s'’‘`´_\-.]", r"[\s,;+]+", r"[x*][0-9]+$", r"(?<=[a-zA-Z])[sS]$", r"\s*[-/]\s*|\s+"}
    scenario = str(REPO / "scenarios" / "01-first-steps.toml")
    code = ("import re, sys; from click.testing import CliRunner; from planner.cli import cli; "
            f"r = CliRunner().invoke(cli, ['route', {scenario!r}, '--json']); "
            f"assert r.exit_code == 0, r.output; from planner.elfenland import notation; ours = {ours!r}; "
            "print(sorted(p for (_, p, *_) in re._cache if p in ours), notation._counts.cache_info().currsize, "
            "notation._step.cache_info().currsize)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["[]", "0", "0"]


def test_start_up_is_frozen_out_of_collections_once_a_process() -> None:
    code = ("import gc; from click.testing import CliRunner; from planner.cli import cli; "
            "before = gc.get_freeze_count(); "
            "r = CliRunner().invoke(cli, ['route', '--at', 'riv', '--hand', 'ED', '--tile', 'riv-thr E']); "
            "assert r.exit_code == 0, r.output; first = gc.get_freeze_count(); "
            "r = CliRunner().invoke(cli, ['check', '--at', 'riv', '--hand', 'ED', '--route', 'thr/E']); "
            "print(before == 0, first > 10000, gc.get_freeze_count() <= first, gc.isenabled())")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True", "True"]


def test_route_and_show_draw_pictures(run: Run, tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    svg = tmp_path / "route.svg"
    result = run("route", *POSITION, "--svg", str(svg))
    assert result.exit_code == 0, result.output
    assert f"drew {svg}" in result.stderr
    steps = [g for g in ET.parse(svg).iter() if g.get("class") == "step" and g.get("data-plan") == "0"]
    assert [(g.get("data-from"), g.get("data-to")) for g in steps] == [("RIV", "THR"), ("THR", "JAC")]
    shown = tmp_path / "position.svg"
    result = run("show", *POSITION, "--svg", str(shown))
    assert result.exit_code == 0, result.output
    assert not [g for g in ET.parse(shown).iter() if g.get("class") == "step"]


def test_a_solver_failure_is_the_only_exit_code_1(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    import planner.cli.route as route_command

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise SolverError("cp-sat model is invalid (a bug)")

    monkeypatch.setattr(route_command, "solve", broken)
    result = run("route", *POSITION)
    assert result.exit_code == 1
    assert "error: cp-sat model is invalid (a bug)" in result.stderr


# -- regressions: found by trying the CLI as a new user would and by fuzzing it ---------------------------------
def test_a_long_compact_position_is_not_looked_up_as_a_file_name(run: Run) -> None:
    # The printed position of a busy board is over 255 bytes: once stat()ed first ("File name too long").
    position = read_position(str(REPO / "scenarios" / "18-puzzle-every-road.toml"))
    text = str(position)
    assert len(text.encode()) > 255
    result = run("route", text, "--json", "--solver", "search", "--nodes", "2000")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["position"] == text


@pytest.mark.parametrize("command", ["route", "check"])
def test_rich_markup_in_user_text_is_printed_as_typed(run: Run, command: str, tmp_path: Path) -> None:
    result = run(command, "--at", "[/red]")
    assert result.exit_code == 2
    assert "unknown town '[/red]' in --at" in result.output and "Traceback" not in result.output
    (tmp_path / "a.toml").write_text('at = "[bold]x[/bold]"\n')
    (tmp_path / "b.toml").write_text('at = "elv"\n[rules]\ncaravan = "[cheap]"\n')
    result = run("route", str(tmp_path))
    assert result.exit_code == 2
    assert "unknown town '[bold]x[/bold]' in at" in result.stderr
    assert "rule option caravan = '[cheap]' is not one of flat, scaled" in result.stderr


def test_bracketed_words_reach_the_user_intact(run: Run) -> None:
    result = run("check", "-", input='at = "elv"\ntiles = "lap-riv"\nrules = 3\n')
    assert result.exit_code == 2
    assert "[tiles] must be a table of road = counter, got 'lap-riv'" in result.stdout
    assert "[rules] must be a table, got 3" in result.stdout


@pytest.mark.parametrize("hand", ["² dragon", "0 dragons", "D" + "9" * 3000, "9" * 5000, "dragon x" + "9" * 5000])
def test_odd_card_counts_are_bad_input_not_a_crash(run: Run, hand: str) -> None:
    result = run("route", "--at", "elv", "--hand", hand)
    assert result.exit_code == 2, result.output
    assert "hand" in result.stderr and "Traceback" not in result.output
    assert len(result.stderr) < 400  # the offending token is quoted cut short, not echoed in full


@pytest.mark.parametrize("text", ["a = " + "[" * 3000 + "]" * 3000, "at = 1" + "0" * 5000,
                                  "[a]\n" * 2 + "b = {" * 2000 + "}" * 2000])
def test_toml_that_crashed_the_reader_is_bad_input(run: Run, text: str) -> None:
    result = run("route", "-", input=text)
    assert result.exit_code == 2, result.output
    assert "stdin" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("seed", ["-1", "2147483648", "99999999999999999999"])
def test_a_seed_outside_32_bits_is_a_usage_error(run: Run, seed: str) -> None:
    result = run("route", *POSITION, "--seed", seed)
    assert result.exit_code == 2
    assert "--seed" in result.output and "Traceback" not in result.output


def test_closed_or_non_utf8_stdin_is_bad_input(run: Run) -> None:
    result = run("route", "-", input=b'at = "Beat\xe1"\n')
    assert result.exit_code == 2
    assert "standard input is not UTF-8 text" in result.stderr
    closed = subprocess.run([sys.executable, "-m", "planner", "route", "-"], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, check=False)
    assert closed.returncode == 2  # empty stdin: the position file lacks its `at`
    assert "missing key 'at'" in closed.stderr
    code = "import sys, os; os.close(0); from planner.cli import cli; cli(['route', '-'])"
    shut = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert shut.returncode == 2, shut.stderr
    assert "standard input" in shut.stderr and "Traceback" not in shut.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "soon"])
def test_a_time_limit_that_is_no_number_of_seconds_is_refused(run: Run, value: str) -> None:
    result = run("route", *POSITION, "--time-limit", value)
    assert result.exit_code == 2
    assert "--time-limit" in result.output


def test_the_printed_position_carries_the_rule_options_and_re_solves_the_same(run: Run) -> None:
    args = ["--at", "riv", "--hand", "CCPPP", "--tile", "riv-thr C, jac-thr C", "--caravan", "scaled",
            "--home-distance", "roads", "--no-home-variant"]
    first = json.loads(run("route", *args, "--json").stdout)
    assert first["position"] == "C@JAC-THR:m,C@RIV-THR:f RIV PPPCC - 1 caravan=scaled,home_distance=roads," \
                                "home_variant=false"
    again = json.loads(run("route", first["position"], "--json").stdout)
    assert (again["score"], again["cards_spent"]) == (first["score"], first["cards_spent"])
    assert again["position"] == first["position"]


def test_a_compact_position_without_counters_may_start_with_a_dash(run: Run) -> None:
    result = run("route", "- RIV EDR - 1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["new_towns"] == ["Tichih"]
    result = run("route", "--json", "- JXA RR - 1", "-k", "2")
    assert result.exit_code == 0, result.output
    assert run("check", "- RIV EDR - 1").exit_code == 0
    assert run("route", "--nonsense").exit_code == 2  # real unknown options are still refused


def test_a_missing_file_whose_path_has_spaces_is_reported_missing(run: Run) -> None:
    result = run("route", "my games/round one of four.toml")
    assert result.exit_code == 2
    assert "no such position file 'my games/round one of four.toml'" in result.stderr
    result = run("route", "my saved game from last week")
    assert result.exit_code == 2
    assert "unknown town 'saved'" in result.stderr  # four fields and no path: read as a position


def test_pictures_that_cannot_be_written_are_bad_input(run: Run, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    result = run("show", *POSITION, "--svg", str(tmp_path / "missing" / "x.svg"))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr and "Traceback" not in result.output
    result = run("route", *POSITION, "--png", str(tmp_path / "x.txt"))
    assert result.exit_code == 2
    assert "--png writes PNG: name a .png file" in result.stderr
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # the optional converter is not installed
    result = run("route", *POSITION, "--png", str(tmp_path / "x.png"))
    assert result.exit_code == 2
    assert "pip install 'elfenland-planner[png]'" in result.stderr


def test_cpsat_with_the_strict_caravan_rule_is_bad_input(run: Run) -> None:
    result = run("route", "--at", "riv", "--hand", "CCPPP", "--tile", "riv-thr C, jac-thr C", "--caravan-when",
                 "strict", "--solver", "cpsat")
    assert result.exit_code == 2
    assert "strict caravan rule is not supported by the CP-SAT solver" in result.stderr


def test_json_with_one_failing_position_prints_its_error_object(run: Run) -> None:
    result = run("route", "--at", "Virts", "--json")
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert doc["schema"] == "elfenland-planner/1" and "Virts" in doc["error"]
    assert doc["problems"] == [{"kind": "unknown-town", "field": "--at", "value": "Virts",
                                "message": "unknown town 'Virts' in --at; did you mean 'Virst'?"}]


def test_an_empty_folder_says_so(run: Run, tmp_path: Path) -> None:
    result = run("route", str(tmp_path))
    assert result.exit_code == 2
    assert f"folder '{tmp_path}' holds no *.toml position files" in result.stderr


@pytest.mark.parametrize(("text", "message"), [
    ('at = "elv"\n[rules]\nrounds = 3.0\n', "rule option rounds = 3.0 must be 3 or 4"),
    ('at = "elv"\nhome = ""\n', "home is empty; leave the key out instead"),
    ('at = "elv"\nround = 2.0\n', "round must be a whole number 1..4, got 2.0"),
])
def test_values_of_the_wrong_type_are_refused(run: Run, text: str, message: str) -> None:
    result = run("route", "-", input=text)
    assert result.exit_code == 2
    assert message in result.stderr


def test_flags_fill_in_a_key_the_file_lacks(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "board-only.toml"
    path.write_text('hand = "ED"\n[tiles]\n"riv-thr" = "elfcycle"\n"jac-thr" = "dragon"\n')
    result = run("route", str(path), "--at", "riv", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"] == 2
    result = run("route", str(path))
    assert result.exit_code == 2
    assert "board-only.toml: missing key 'at'" in result.stderr and "or --at" in result.stderr


def test_a_device_as_a_position_file_is_refused_not_read_forever(run: Run) -> None:
    result = run("route", "/dev/zero")
    assert result.exit_code == 2
    assert "is larger than 1024 KiB" in result.stderr


def test_check_reads_the_route_before_it_solves(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    import planner.elfenland.checking as checking

    def no_solving(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("solved before the route was read")

    monkeypatch.setattr(checking, "solve", no_solving)
    result = run("check", *POSITION, "--route", "thr/E jcc/D")
    assert result.exit_code == 2
    assert "unknown town 'jcc' in route step 2" in result.stderr


@pytest.mark.parametrize(("hand", "cards"), [("ddc", ["magic cloud", "dragon", "dragon"]),
                                             ("D2", ["dragon", "dragon"]), ("e d2", ["elfcycle", "dragon", "dragon"])])
def test_hands_as_people_type_them(run: Run, hand: str, cards: list[str]) -> None:
    result = run("check", "--at", "elv", "--hand", hand, "--json")
    assert result.exit_code == 0, result.output
    position = Position.from_str(json.loads(result.stdout)["position"])
    assert position.hand.names() == cards


@pytest.mark.slow
def test_ctrl_c_answers_the_best_route_so_far_and_exits_130() -> None:
    # The one test with a real signal: a child process with SIGINT restored (a test run in the background has
    # it ignored, and children inherit that), on a 24-card puzzle the search alone needs minutes to prove.
    hard = ("U@ALB-DAG:d,D@ALB-FEO:d,U@ALB-PAR:d,D@ALB-THR:d,U@ALB-WYL:d,D@BEA-ELV:p,E@BEA-STR:p,U@DAG-FEO:d,"
            "P@DAG-JXA:f,C@DAG-KIH:f,D@DAG-LAP:f,U@DAG-MAH:m,T@ELV-ERG:f,P@ELV-LAP:p,E@ERG-TIC:f,T@FEO-LAP:f,"
            "C@FEO-RIV:f,D@FEO-THR:d,E@GRA-MAH:m,U@GRA-YTT:m,C@JAC-THR:m,T@JAC-TIC:m,C@JAC-WYL:m,E@JXA-LAP:f,"
            "E@JXA-MAH:m,T@JXA-VIR:p,P@LAP-RIV:f,P@LAP-VIR:p,P@PAR-USS:f,T@PAR-WYL:p,C@RIV-THR:f,E@STR-VIR:m,"
            "P@THR-TIC:p,T@USS-WYL:p,C@USS-YTT:f ELV PPPPEEEECCCCUUUUTTTTDDDD - 1")
    child = subprocess.Popen([sys.executable, "-m", "planner", "route", hard, "--solver", "search"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.0)  # started, parsed, searching
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=30)
    assert child.returncode == 130, (stdout, stderr)
    assert "stopped: best so far, NOT proven optimal" in stdout
    assert "stopped (Ctrl-C)" in stderr and "Traceback" not in stderr
