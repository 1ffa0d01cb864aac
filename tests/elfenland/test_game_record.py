"""Game records: they replay through the engine, a tampered one names its first illegal action, the same seeds
give the same records on one and two processes, and every travel recorded replays legal under the verifier."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from planner.cli.elfenland import cli
from planner.elfenland.game.record import SCHEMA, replay
from planner.elfenland.game.selfplay import jobs_for, selfplay, summary
from planner.elfenland.game.state import GameRules
from planner.elfenland.plan import parse_route, verify
from planner.elfenland.position import Hand, Position

SEATS = ("router", "greedy", "random")


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return [game.record for game in selfplay(jobs_for(1, SEATS, seed=11))]


def test_a_record_holds_the_game(records: list[dict[str, Any]]) -> None:
    record = records[0]
    assert record["schema"] == SCHEMA and record["seed"] == 11
    assert [p["seat"] for p in record["players"]] == list(SEATS)
    assert len(record["rounds"]) == 4
    first = record["rounds"][0]
    assert all(len(Hand.from_str(h)) == 8 for h in first["hands"].values())
    assert [a["phase"] for a in first["actions"][:9]] == ["draw"] * 9
    assert {s["name"] for s in record["scores"]} == {p["name"] for p in record["players"]}
    assert record["winners"]


def test_records_replay_legal_with_the_same_result(records: list[dict[str, Any]]) -> None:
    for record in records:
        verdict = replay(json.loads(json.dumps(record)))
        assert verdict.ok, verdict.problem


def test_a_tampered_action_is_the_first_illegal_one(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[0])
    actions = record["rounds"][0]["actions"]
    planning = next(i for i, a in enumerate(actions) if a["phase"] == "plan")
    actions[planning]["action"] = "D@BEA-ELV:r"  # water carries no counter
    verdict = replay(record)
    assert not verdict.legal and verdict.index == planning
    assert verdict.problem is not None and "no road" in verdict.problem.message


def test_a_changed_score_is_legal_but_a_different_result(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[0])
    record["scores"][0]["points"] += 1
    verdict = replay(record)
    assert verdict.legal and not verdict.same
    assert verdict.problem is not None and "scores[0].points" in verdict.problem.message


def test_every_travel_replays_legal_under_the_verifier(records: list[dict[str, Any]]) -> None:
    for record in records:
        for round_ in record["rounds"]:
            board = round_["board"]
            for travel in round_["travel"]:
                position = Position.from_str(f"{board} {travel['town']} {travel['hand'] or '-'} "
                                             f"{','.join(travel['collected']) or '-'} {round_['round']}")
                steps = parse_route(position, travel["route"]) if travel["route"] != "-" else ()
                verify(position, steps)
                assert len(steps) == len(travel["steps"])


def test_the_same_seeds_give_the_same_records_on_one_and_two_processes() -> None:
    jobs = jobs_for(1, ("greedy", "router"), seed=4, rules=GameRules(home_towns=True))
    one = [g.record for g in selfplay(jobs, processes=1)]
    two = [g.record for g in selfplay(jobs, processes=2)]
    assert one == two


def test_the_summary_pairs_each_seed_with_the_reference_seat() -> None:
    games = list(selfplay(jobs_for(2, ("greedy", "random"), seed=0)))
    document = summary(games, ("greedy", "random"))
    assert document["games"] == 4 and document["seeds"] == 2 and document["reference"] == "greedy#1"
    points = {s["name"]: s["points"] for g in games for s in g.record["scores"] if s["name"] == "greedy#1"}
    assert points  # the reference's own row has no difference
    rows = {r["seat"]: r for r in document["seats"]}
    assert rows["greedy#1"]["difference"] is None
    by_seed: dict[int, list[int]] = {}
    for g in games:
        found = {s["name"]: s["points"] for s in g.record["scores"]}
        by_seed.setdefault(g.job.seed, []).append(found["random#2"] - found["greedy#1"])
    mean = sum(sum(v) / len(v) for v in by_seed.values()) / len(by_seed)
    assert rows["random#2"]["difference"]["mean"] == pytest.approx(mean)


def test_cli_selfplay_writes_records_that_replay(tmp_path: Path) -> None:
    runner = CliRunner()
    games = tmp_path / "games.jsonl"
    result = runner.invoke(cli, ["selfplay", "-n", "1", "--seats", "greedy,random", "--out", str(games), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 2
    replayed = runner.invoke(cli, ["replay", str(games)])
    assert replayed.exit_code == 0 and replayed.stdout.count("legal, same result") == 2
    again = runner.invoke(cli, ["selfplay", "-n", "1", "--seats", "greedy,random", "--out", str(games)])
    assert again.exit_code == 2 and "exists" in again.output
    lines = games.read_text().splitlines()
    record = json.loads(lines[0])
    record["rounds"][0]["actions"][0]["action"] = "9"
    games.write_text(json.dumps(record) + "\n" + lines[1] + "\n")
    tampered = runner.invoke(cli, ["replay", str(games), "--json"])
    assert tampered.exit_code == 2
    verdicts = [json.loads(line) for line in tampered.stdout.splitlines()]
    assert [v["ok"] for v in verdicts] == [False, True] and verdicts[0]["index"] == 0


def test_cli_selfplay_refuses_an_unknown_seat() -> None:
    result = CliRunner().invoke(cli, ["selfplay", "--seats", "greedy,wizard"])
    assert result.exit_code == 2 and "wizard" in result.output
