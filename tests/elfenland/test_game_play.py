"""``elfenland play``: typed decisions, hints, illegal input explained, the record saved when the input ends."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from planner.cli.elfenland import cli
from planner.elfenland.game.record import replay


def test_play_takes_typed_decisions_and_saves_the_record_on_the_way_out(tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    result = CliRunner().invoke(cli, ["play", "--seats", "me,greedy", "--seed", "3", "--out", str(saved)],
                                input="hint\n9\nblind\n0\n")
    assert result.exit_code == 130, result.output  # the input ended like a Ctrl-C: saved, then 130
    assert "advisor: " in result.stdout and "face-up index 9 is not one of 0..4" in result.stdout
    record = json.loads(saved.read_text())
    mine = [a for a in record["rounds"][0]["actions"] if a["player"] == "me"]
    assert [a["action"] for a in mine] == ["blind", "0"]
    assert replay(record).ok


def test_play_never_writes_over_a_file(tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    saved.write_text("mine\n")
    result = CliRunner().invoke(cli, ["play", "--out", str(saved)], input="")
    assert result.exit_code == 2 and "exists" in result.output and saved.read_text() == "mine\n"


def test_play_wants_me_once() -> None:
    result = CliRunner().invoke(cli, ["play", "--seats", "greedy,greedy"])
    assert result.exit_code == 2 and "'me' once" in result.output
