"""``elfenland serve`` as a player starts it, the board-only picture, and what the default path never imports."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx2
import pytest
from click.testing import CliRunner

from planner.cli import cli
from planner.elfenland.board import load_board
from planner.elfenland.plan import Plan, parse_route
from planner.elfenland.position import Position
from planner.elfenland.position_file import load_position
from planner.elfenland.svg import BOARD_CROP, render_svg

SIMPLE = "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"
NS = "{http://www.w3.org/2000/svg}"
STATIC = Path(__file__).resolve().parents[2] / "planner" / "table" / "static"


def test_the_scripts_parse() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed: CI must check the page's script")
        pytest.skip("node is not installed")
    for script in ("round.js", "explain.js", "app.js"):
        done = subprocess.run([node, "--check", str(STATIC / script)], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr


def test_help_names_the_table_options() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--no-token", "--save", "--time-limit"):
        assert option in result.output


def test_a_save_file_in_a_missing_folder_is_refused_before_serving(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--save", str(tmp_path / "gone" / "t.toml"), "--port", "0"])
    assert result.exit_code == 2
    assert "does not exist" in " ".join(result.output.split())


def test_an_illegal_start_position_is_refused() -> None:
    result = CliRunner().invoke(cli, ["serve", "U@ELV-LAP:p ELV D - 1", "--port", "0"])
    assert result.exit_code == 2
    assert "unicorn counter on ELV-LAP:p" in result.output


def _serve(*args: str) -> subprocess.Popen[str]:
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    return subprocess.Popen([sys.executable, "-m", "planner", "serve", *args, "--host", "127.0.0.1", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)


def _url(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    for line in process.stdout:
        if "http://" in line:
            return line[line.index("http://"):].split()[0]
    raise AssertionError(f"no URL printed; stderr: {process.stderr.read() if process.stderr else ''}")


def _stop(process: subprocess.Popen[str]) -> str:
    process.terminate()  # uvicorn ends gracefully on SIGTERM, as on Ctrl-C
    _, errors = process.communicate(timeout=20)
    assert process.returncode == 0, errors
    return errors


@pytest.mark.slow  # two server processes: about 3 s
def test_serve_prints_the_url_and_its_code_and_a_restart_resumes_the_saved_table(tmp_path: Path) -> None:
    save = tmp_path / "table.toml"
    process = _serve(SIMPLE, "--save", str(save))
    try:
        url = _url(process)
        assert "?t=" in url
        with httpx2.Client(timeout=20, follow_redirects=True) as phone:
            assert phone.get(url.split("?")[0] + "api/view").status_code == 403  # no token, no table
            assert phone.get(url).status_code == 200  # the token sets the cookie
            answer = phone.post(url.split("?")[0] + "api/change", json={"op": "visit", "town": "TIC"}).json()
            assert answer["ok"]
    finally:
        _stop(process)
    assert load_position(str(save)).visited == {"RIV", "TIC"}
    again = _serve(SIMPLE, "--save", str(save))
    try:
        url = _url(again)
        with httpx2.Client(timeout=20, follow_redirects=True) as phone:
            phone.get(url)
            view = phone.get(url.split("?")[0] + "api/view").json()
            assert view["position"]["visited"] == ["RIV", "TIC"]
    finally:
        errors = _stop(again)
    assert f"resuming the table saved in {save}" in errors


def test_the_default_path_imports_no_web_package() -> None:
    code = ("import sys, planner.cli; from planner.cli import cli; "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'segno', 'ortools') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_board_only_picture_has_the_map_and_nothing_else() -> None:
    position = Position.from_str(SIMPLE)
    plan = Plan.of(position, parse_route(position, "thr/E jac/D"))
    root = ET.fromstring(render_svg(position, [plan], board_only=True))
    assert root.get("viewBox") == f"{BOARD_CROP.x:g} {BOARD_CROP.y:g} {BOARD_CROP.w:g} {BOARD_CROP.h:g}"
    ids = {e.get("id") for e in root.iter()}
    assert "legend" not in ids and not [e for e in root.iter() if "notation" in (e.get("class") or "")]
    assert {"board", "towns", "counters", "routes", "plan-0"} <= ids
    for town in load_board().towns.values():  # every town well inside the crop
        assert BOARD_CROP.x + 40 < town.x < BOARD_CROP.x + BOARD_CROP.w - 40
        assert BOARD_CROP.y + 40 < town.y < BOARD_CROP.y + BOARD_CROP.h - 30
    steps = [e for e in root.iter(NS + "g") if "step" in (e.get("class") or "").split()]
    assert [(s.get("data-from"), s.get("data-to")) for s in steps] == [("RIV", "THR"), ("THR", "JAC")]
