"""The advice's sentences (one plain-text module for the terminal, the JSON and the table page): counts and signs
the same everywhere, and a one-line ``verdict`` in every JSON document the advice and route commands print."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from planner.cli import cli
from planner.elfenland.position import Position
from planner.elfenland.render import position_summary
from planner.elfenland.sentences import MINUS, amount, change, count, signed, spread

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def run_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    document: dict[str, object] = json.loads(result.stdout)
    return document


@pytest.mark.parametrize(("value", "noun", "text"), [(1, "town", "1 town"), (0, "card", "0 cards"),
                                                     (2.0, "card", "2 cards"), (0.85, "town", "0.85 towns"),
                                                     (1.0, "counter", "1 counter")])
def test_amounts_are_counted_with_one_plural_rule(value: float, noun: str, text: str) -> None:
    assert amount(value, noun) == text
    if value == int(value):
        assert count(int(value), noun) == text


def test_a_loss_is_negative_and_extra_cards_positive_in_every_table() -> None:
    assert change(-1, 2) == f"{MINUS}1 town"  # towns first, as plans are compared
    assert change(-2, -2) == f"{MINUS}2 towns"
    assert change(0, 2) == "+2 cards" and change(0, -1) == f"{MINUS}1 card" and change(0, 0) == "nothing"
    assert signed(-0.5, "town") == f"{MINUS}0.50 towns"
    assert spread(-0.85, 0.1, "town") == f"{MINUS}0.85 ± 0.10 towns" and spread(0, 0, "card") == "0.00 ± 0.00 cards"


def test_the_position_summary_counts_in_the_singular() -> None:
    line = position_summary(Position.from_str("D@JAC-THR:m THR D - 1")).plain
    assert "(1 card)" in line and "1 counter on the board" in line


def test_route_json_has_the_verdict() -> None:
    document = run_json("route", "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1")  # by hand: THR/E JAC/D
    assert document["verdict"] == "2 new towns, 2 cards, ends in Jaccaranda, keep raft"
    stay = run_json("route", "- RIV P - 1")  # no counter on the board, no raft: no step
    assert stay["verdict"] == "stay: 0 new towns, 0 cards, ends in Rivinia, keep giant pig"


def test_route_keep_json_has_the_keeps_verdict() -> None:
    keep = run_json("route", str(SCENARIOS / "01-first-steps.toml"), "--keep")["keep"]
    assert isinstance(keep, dict) and keep["verdict"].startswith(f"end in {keep['end']}, keep ")


def test_advice_json_has_the_verdicts() -> None:
    place = run_json("place", str(SCENARIOS / "21-contested-road.toml"), "--no-keep")
    assert place["verdict"] == "place now: your elfcycle on Dag'Amura–Kihromah"
    draw = run_json("draw", str(SCENARIOS / "20-opening-draft.toml"))
    assert draw["verdict"] == "draw the face-up unicorn: 1 town for 1 card (now 1 town for 3 cards)"
    obstacle = run_json("obstacle", str(SCENARIOS / "22-obstacle-on-the-leader.toml"), "--samples", "20")
    assert obstacle["verdict"] == "obstacle on Al'Baran–Throtmanni against Anna"
    assert str(obstacle["reason"]).startswith("Anna leads with 14 points; an obstacle on Al'Baran–Throtmanni takes ")


def test_the_place_table_signs_a_loss_as_the_table_page_does() -> None:
    result = CliRunner().invoke(cli, ["place", str(SCENARIOS / "21-contested-road.toml"), "--no-keep"],
                                env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"{MINUS}2 towns (magic cloud)" in result.stdout  # the magic cloud on Dag'Amura–Kihromah: 2 towns lost


def test_the_table_page_takes_no_sentence_from_the_terminal_renderer() -> None:
    code = "import sys, planner.table.advising; print(sorted(m for m in sys.modules if m.startswith(('rich', " \
           "'planner.elfenland.render'))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
