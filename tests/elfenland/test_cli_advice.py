"""elfenland place, draw and obstacle: exit codes, then the JSON contract, then the text."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from planner.cli import cli

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env={"NO_COLOR": "1", "COLUMNS": "200"})


def test_place_json_has_the_route_keys_and_the_placements() -> None:
    result = run("place", str(SCENARIOS / "21-contested-road.toml"), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    for key in ("schema", "score", "cards_spent", "optimal", "steps", "route", "position", "status", "bound"):
        assert key in doc, key
    assert (doc["score"], doc["cards_spent"]) == (2, 2)
    assert doc["now"] == {"from": "Dag'Amura", "to": "Kihromah", "road": "DAG-KIH:f", "counter": "elfcycle"}
    assert len(doc["placements"]) == 2 and all(p["counter"] == "elfcycle" for p in doc["placements"])
    assert doc["steps"][0]["placed"] is True
    kih = next(r for r in doc["regrets"] if r["road"] == "DAG-KIH:f")
    assert kih["filled"] == {"counter": "magic cloud", "towns": 2, "cards": -2} and kih["obstacle"] is None
    assert doc["passing_is_free"] is False and doc["replies"] == 1
    assert doc["keep"] is not None and set(doc["keep"]) >= {"end", "cards", "counter"}


def test_place_text_says_what_to_place_now() -> None:
    result = run("place", str(SCENARIOS / "21-contested-road.toml"), "--no-keep")
    assert result.exit_code == 0, result.output
    assert "place now: your elfcycle on Dag'Amura–Kihromah" in result.stdout
    assert "if an opponent gets there first" in result.stdout
    assert "for the next round" not in result.stdout


def test_place_from_flags_with_a_supply() -> None:
    result = run("place", "--at", "kih", "--hand", "EE", "--supply", "EE", "--json", "--no-keep")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["score"] == 2 and len(doc["placements"]) == 2
    assert doc["position"] == "- KIH EE - 1 supply=EE"


def test_draw_json_and_text() -> None:
    result = run("draw", str(SCENARIOS / "20-opening-draft.toml"), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["best"] == "unicorn"
    blind = next(o for o in doc["options"] if o["draw"] == "blind")
    assert abs(sum(blind["chances"].values()) - 1) < 1e-3
    text = run("draw", str(SCENARIOS / "20-opening-draft.toml"))
    assert "draw the face-up unicorn" in text.stdout


def test_draw_with_a_full_supply_is_bad_input() -> None:
    result = run("draw", "--at", "elv", "--supply", "PPEED")
    assert result.exit_code == 2
    assert "nothing left to draw" in result.stderr


def test_obstacle_json_and_text() -> None:
    path = str(SCENARIOS / "22-obstacle-on-the-leader.toml")
    result = run("obstacle", path, "--samples", "40", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["target"], doc["road"], doc["hold"]) == ("Anna", "ALB-THR:d", False)
    anna = doc["opponents"][0]
    assert anna["name"] == "Anna" and anna["samples"] == 40
    assert {"towns_lost", "towns_error", "extra_cards", "my_towns_lost"} <= set(anna["roads"][0])
    text = run("obstacle", path, "--samples", "40")
    assert "obstacle on Al'Baran–Throtmanni against Anna" in text.stdout


def test_obstacle_without_opponents_is_bad_input() -> None:
    result = run("obstacle", "--at", "elv", "--tile", "elv-lap P")
    assert result.exit_code == 2
    assert "no opponent given" in result.stderr


def test_route_can_say_what_to_keep_for_the_next_round() -> None:
    result = run("route", str(SCENARIOS / "01-first-steps.toml"), "--keep", "--json")
    assert result.exit_code == 0, result.output
    keep = json.loads(result.stdout)["keep"]
    assert keep["end"] == "Yttar" and len(keep["cards"]) <= 4 and keep["counter"] is None
    last = run("route", "- ELV DD - 4", "--keep", "--json")
    assert json.loads(last.stdout)["keep"] is None  # no next round after the last
    assert "for the next round" in run("route", str(SCENARIOS / "01-first-steps.toml"), "--keep").stdout


def test_the_draws_status_line_runs_no_thread_so_its_solves_may_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    # a fork is refused while another thread runs: rich's spinner would keep the draw's joint solves in one process
    from planner.cli import advise, conventions

    threads: list[int] = []
    real = conventions.still_status

    def watched(text: str) -> Any:
        @contextlib.contextmanager
        def inside() -> Iterator[None]:
            before = threading.active_count()
            with real(text):
                threads.append(threading.active_count() - before)
                yield
        return inside()

    monkeypatch.setattr(advise, "still_status", watched)
    result = CliRunner().invoke(cli, ["draw", "- ELV PECUTDRR - 1 supply=EUT,display=PUTTD"])
    assert result.exit_code == 0, result.output
    assert threads == [0]
