"""The review of a game: the best route of each round against an independent brute force, decisions beside the
advisor's, towns per round as the record says, and the command's JSON and pictures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from brute import brute_force
from click.testing import CliRunner

from planner.cli.elfenland import cli
from planner.elfenland.game.review import GameReview, RecordError, review_game
from planner.elfenland.game.selfplay import jobs_for, selfplay


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return next(iter(selfplay(jobs_for(1, ("greedy", "greedy"), seed=21)))).record


@pytest.fixture(scope="module")
def review(record: dict[str, Any]) -> GameReview:
    return review_game(record, "greedy#2", decisions=False)


def test_each_rounds_best_route_is_the_brute_forces(review: GameReview) -> None:
    assert [r.round for r in review.rounds] == [1, 2, 3, 4]
    for r in review.rounds:
        value, _ = brute_force(r.position)
        assert (r.best.score, -r.best.cards_spent) == value[:2]
        assert r.cost[0] >= 0


def test_towns_per_round_end_in_the_final_scores(record: dict[str, Any], review: GameReview) -> None:
    assert review.player == "greedy#2"
    final = {s["name"]: s["towns"] for s in record["scores"]}
    assert {name: counts[-1] for name, counts in review.towns.items()} == final
    assert all(counts == sorted(counts) for counts in review.towns.values())
    assert review.summary.startswith("greedy#2: ")


def test_an_unknown_player_is_named(record: dict[str, Any]) -> None:
    with pytest.raises(RecordError, match="no player 'nobody'"):
        review_game(record, "nobody")


def test_cli_review_json_and_pictures(record: dict[str, Any], tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(record) + "\n")
    result = CliRunner().invoke(cli, ["review", str(games), "--routes-only", "--json", "--svg",
                                      str(tmp_path / "svg")])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["player"] == "greedy#1" and len(document["rounds"]) == 4
    assert sorted(p.name for p in (tmp_path / "svg").iterdir()) == [f"round-{k}.svg" for k in (1, 2, 3, 4)]
    again = CliRunner().invoke(cli, ["review", str(games), "--routes-only", "--svg", str(tmp_path / "svg")])
    assert again.exit_code == 2 and "exists" in again.output


@pytest.mark.slow
def test_decisions_are_weighed_beside_the_advisors(record: dict[str, Any]) -> None:
    review = review_game(record, "greedy#1", nodes=300)
    assert {d.phase for d in review.decisions} == {"draw", "plan"}
    for d in review.decisions:
        if d.phase == "draw":  # the advised draw is the best option: nothing better to give up
            assert d.cost is not None and d.cost >= (0, 0)
