"""The elfenland command: exit codes first, then output (JSON parsed, text searched)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from planner.cli import cli

POSITION = ["--at", "riv", "--hand", "E D R", "--tile", "riv-thr E, jac-thr D"]


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, list(args), input=input, env={"NO_COLOR": "1"})

    return invoke


def test_version_and_help(run) -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert "elfenland" in result.output
    for command in ("route", "check", "board", "show"):
        result = run(command, "--help")
        assert result.exit_code == 0, command
        assert "Example" in result.output, command


def test_route_from_flags_as_json(run) -> None:
    result = run("route", *POSITION, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["schema"] == "elfenland-planner/1"
    assert doc["score"] == 2
    assert doc["new_towns"] == ["Throtmanni", "Jaccaranda"]
    assert doc["cards_spent"] == 2
    assert doc["end"] == "Jaccaranda"
    assert doc["optimal"] is True
    assert doc["home_penalty"] == 0
    assert doc["keep"] == ["raft"]
    assert doc["steps"] == [
        {"from": "Rivinia", "to": "Throtmanni", "via": "road", "pay": "counter", "cards": ["elfcycle"],
         "connection": "RIV-THR:f", "new_town": True},
        {"from": "Throtmanni", "to": "Jaccaranda", "via": "road", "pay": "counter", "cards": ["dragon"],
         "connection": "JAC-THR:m", "new_town": True},
    ]


def test_route_table_and_verdict(run) -> None:
    result = run("route", *POSITION)
    assert result.exit_code == 0, result.output
    assert "2 new towns, 2 cards, ends in Jaccaranda, keep raft" in result.output
    assert "optimal" in result.output
    assert "\x1b[" not in result.output  # NO_COLOR and not a terminal: plain text


def test_route_alternatives(run) -> None:
    result = run("route", *POSITION, "-k", "3", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert len(doc["alternatives"]) == 2
    assert all(alt["score"] <= doc["score"] for alt in doc["alternatives"])


@pytest.mark.parametrize("solver", ["search", "cpsat", "auto"])
def test_route_each_solver(run, solver: str) -> None:
    result = run("route", *POSITION, "--solver", solver, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == 2


def test_file_flags_override(run, tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('at = "Rivinia"\nhand = "E"\n[tiles]\n"riv-thr" = "elfcycle"\n"jac-thr" = "dragon"\n')
    before = path.read_text()
    assert json.loads(run("route", str(path), "--json").output)["score"] == 1
    result = run("route", str(path), "--hand", "ED", "--json")
    assert result.exit_code == 0
    assert json.loads(result.output)["score"] == 2
    assert path.read_text() == before  # input files are never modified


def test_tile_removal_and_round_rules(run, tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('at = "Rivinia"\nhand = "ED"\n[tiles]\n"riv-thr" = "elfcycle"\n"jac-thr" = "dragon"\n')
    result = run("route", str(path), "--tile", "jac-thr -", "--json")
    assert json.loads(result.output)["score"] == 1
    result = run("route", str(path), "--home", "jac", "--round", "3", "--rounds", "3", "--json")
    doc = json.loads(result.output)
    assert doc["end"] == "Jaccaranda" and doc["home_penalty"] == 0


def test_stdin_and_folder_json_lines(run, tmp_path: Path) -> None:
    text = 'at = "Rivinia"\nhand = "E"\n[tiles]\n"riv-thr" = "elfcycle"\n'
    result = run("route", "-", "--json", input=text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == 1
    (tmp_path / "a.toml").write_text(text)
    (tmp_path / "b.toml").write_text(text.replace('"E"', '"-"'))
    result = run("route", str(tmp_path), "--json")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [d["score"] for d in lines] == [1, 0]
    assert lines[0]["source"].endswith("a.toml")


def test_compact_notation_argument(run) -> None:
    result = run("route", "E@RIV-THR:f,D@JAC-THR:m RIV EDR - 1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == 2


def test_bad_input_exit_2_names_problem(run) -> None:
    result = run("route", "--at", "Virts", "--hand", "DQ")
    assert result.exit_code == 2
    assert "Virts" in result.output and "did you mean 'Virst'" in result.output
    assert "'Q'" in result.output
    assert "Traceback" not in result.output


def test_bad_tile_and_missing_file(run) -> None:
    result = run("route", "--at", "elv", "--tile", "alb-dag P")
    assert result.exit_code == 2
    assert "giant pig counter on ALB-DAG:d" in result.output
    result = run("route", "no-such-file.toml")
    assert result.exit_code == 2
    assert "no such position file 'no-such-file.toml'" in result.output
    result = run("route")
    assert result.exit_code == 2
    assert "--at" in result.output


def test_folder_with_a_bad_file_continues(run, tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('at = "Rivinia"\nhand = "E"\n')
    (tmp_path / "b.toml").write_text('at = "Nowhere"\n')
    result = run("route", str(tmp_path), "--json")
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert lines[0]["score"] == 0
    assert "Nowhere" in lines[1]["error"]


def test_check_lists_every_problem(run, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('at = "Elvnhold"\nround = 7\nhand = "DDDDDDDDDDD"\n[tiles]\n"alb-dag" = "pig"\n')
    result = run("check", str(path))
    assert result.exit_code == 2
    for fragment in ("Elvnhold", "round 7", "11 dragon", "ALB-DAG:d"):
        assert fragment in result.output
    result = run("check", str(path), "--json")
    assert result.exit_code == 2
    assert len(json.loads(result.output)["problems"]) == 4


def test_check_route(run) -> None:
    result = run("check", *POSITION, "--route", "thr/E")
    assert result.exit_code == 0, result.output
    assert "your route gets 1" in result.output and "the best gets 2" in result.output
    result = run("check", *POSITION, "--route", "thr/E jac/D")
    assert result.exit_code == 0
    assert "that is optimal" in result.output
    result = run("check", *POSITION, "--route", "thr/D", "--json")
    assert result.exit_code == 2
    doc = json.loads(result.output)
    assert doc["route_legal"] is False and doc["step"] == 1
    assert "costs E" in doc["reason"]
    result = run("check", *POSITION, "--route", "xyz/E")
    assert result.exit_code == 2
    assert "unknown town 'xyz'" in result.output


def test_check_warns_big_hand(run) -> None:
    result = run("check", "--at", "elv", "--hand", "DDDDDEEEEE")
    assert result.exit_code == 0
    assert "10 cards" in result.output


def test_board(run) -> None:
    result = run("board")
    assert result.exit_code == 0
    assert "KIH" in result.output and "Kihromah" in result.output
    assert "flows Virst → Jxara" in result.output
    result = run("board", "dag", "--json")
    doc = json.loads(result.output)
    assert [t["code"] for t in doc["towns"]] == ["DAG"]
    assert "DAG-KIH:f" in [c["id"] for c in doc["connections"]]
    result = run("board", "virst")
    assert result.exit_code == 0
    assert "upstream" in result.output or "downstream" in result.output
    result = run("board", "t")
    assert result.exit_code == 2
    assert "ambiguous town 't'" in result.output


def test_show_needs_an_output(run) -> None:
    result = run("show", "--at", "elv")
    assert result.exit_code == 2
    assert "--svg" in result.output


def test_python_dash_m_planner() -> None:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "planner", "--version"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0
    assert "elfenland" in result.stdout


def test_default_path_does_not_import_ortools() -> None:
    import subprocess
    import sys

    code = ("import sys; from click.testing import CliRunner; from planner.cli import cli; "
            "r = CliRunner().invoke(cli, ['route', '--at', 'riv', '--hand', 'ED', '--tile', 'riv-thr E']); "
            "assert r.exit_code == 0, r.output; print('ortools' in sys.modules, 'networkx' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False"]


def test_route_and_show_draw_pictures(run, tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    svg = tmp_path / "route.svg"
    result = run("route", *POSITION, "--svg", str(svg))
    assert result.exit_code == 0, result.output
    steps = [g for g in ET.parse(svg).iter() if g.get("class") == "step" and g.get("data-plan") == "0"]
    assert [(g.get("data-from"), g.get("data-to")) for g in steps] == [("RIV", "THR"), ("THR", "JAC")]
    shown = tmp_path / "position.svg"
    result = run("show", *POSITION, "--svg", str(shown))
    assert result.exit_code == 0, result.output
    assert not [g for g in ET.parse(shown).iter() if g.get("class") == "step"]


def test_bad_picture_path_is_a_clear_error(run, tmp_path: Path) -> None:
    result = run("show", *POSITION, "--svg", str(tmp_path / "missing" / "x.svg"))
    assert result.exit_code == 1
    assert "does not exist" in result.output and "Traceback" not in result.output
    result = run("route", *POSITION, "--png", str(tmp_path / "x.txt"))
    assert result.exit_code == 1
    assert "use a .svg or .png file name" in result.output
