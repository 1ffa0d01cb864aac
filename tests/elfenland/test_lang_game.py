"""The game commands in Japanese and Ukrainian: ``replay`` and ``review`` print no English words (player names and
notation aside), and the review's JSON keeps its English summary, adding the sentence in the language as "text"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from english import leaks  # tests/helpers
from test_lang_output import WIDE

from planner.cli.elfenland import cli
from planner.elfenland.game.selfplay import jobs_for, selfplay

NOTATION = re.compile(r"\S*[/@]\S*|\b[A-Z]{3}\b|[PECUTDRX]+\b|greedy#\d")  # routes, counters, codes, hands, names


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    record: dict[str, Any] = next(iter(selfplay(jobs_for(1, ("greedy", "greedy"), seed=21)))).record
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    path.write_text(json.dumps(record) + "\n", "utf-8")
    return path


@pytest.mark.parametrize("lang", ["ja", "uk"])
@pytest.mark.parametrize("command", [["replay"], ["review", "--routes-only"]])
def test_game_commands_speak_the_language(games: Path, command: list[str], lang: str) -> None:
    runner = CliRunner(env=WIDE)
    english = runner.invoke(cli, [*command, str(games)])
    result = runner.invoke(cli, [*command, str(games), "--lang", lang])
    assert result.exit_code == english.exit_code == 0, result.output
    assert leaks(NOTATION.sub(" ", english.output), spared=[str(games)])  # the English answer is caught
    assert not leaks(NOTATION.sub(" ", result.output), spared=[str(games)]), result.output


def test_the_reviews_json_keeps_english_and_adds_the_text(games: Path) -> None:
    runner = CliRunner(env=WIDE)
    english = json.loads(runner.invoke(cli, ["review", "--routes-only", "--json", str(games)]).stdout)
    ukrainian = json.loads(runner.invoke(cli, ["review", "--routes-only", "--json", str(games), "--lang", "uk"]).stdout)
    assert "text" not in english
    assert ukrainian.pop("text").startswith("greedy#1: очок ")
    assert ukrainian == english


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_a_practice_games_mistyped_action_is_refused_in_the_language(lang: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the game's record is saved here
    result = CliRunner(env=WIDE).invoke(cli, ["play", "--seats", "me,greedy", "--seed", "3", "--lang", lang],
                                        input="zzz\n")
    lines = [line for line in result.output.splitlines() if "'zzz'" in line]
    assert lines, result.output
    assert not leaks(lines[0], spared=["'zzz'", "'blind'", "0..4"]), lines[0]
