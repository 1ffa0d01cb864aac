"""The table's game mode without a browser (issue 22, items 1-3): a round entered as the table sees it, played by
the engine, every action attributed in words and undone by name, advice only on my turn and once my hand is in,
the save file's record read by the record's own replay (and a restarted table), malformed changes answered 422.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from english import leaks
from tables import served

from planner.common import i18n
from planner.elfenland.board import load_board
from planner.elfenland.game.review import RecordError, review_game
from planner.elfenland.game.table import TableGame, replay, table_record
from planner.elfenland.position import Position
from planner.table.state import TableState, open_table

START = {"op": "game_start", "names": ["Anna", "You", "Ben"], "me": 1, "display": "PEUTD", "hand": "PPEECCUT",
         "secret": "D"}
DRAFT = [  # Anna, me, Ben, three times: what each took (and the counter that turned up)
    {"action": "0", "took": "P", "turned": "C"}, {"action": "blind", "took": "T"},
    {"action": "blind", "took": "U"}, {"action": "blind", "took": "T"},
    {"action": "1", "took": "E", "turned": "E"}, {"action": "2", "took": "U", "turned": "P"},
    {"action": "blind", "took": "D"}, {"action": "1", "took": "E", "turned": "D"}, {"action": "blind", "took": "E"},
]
PLANNING = [{"action": "P@PAR-WYL:p"}, {"action": "E@ELV-LAP:p"}, {"action": "U@PAR-USS:f"},
            {"action": "pass"}, {"action": "pass"}, {"action": "pass"}]


def table_state(tmp_path: Path | None = None) -> TableState:
    return TableState(Position.from_str("- ELV - - 1"), save=None if tmp_path is None else tmp_path / "game.jsonl")


def made(state: TableState, change: dict[str, Any]) -> str:
    applied = state.apply(change)
    assert applied.ok, applied.problems
    assert applied.said is not None
    return applied.said


def through_planning(state: TableState) -> list[str]:
    said = [made(state, START)]
    said += [made(state, {"op": "game_act", **entry}) for entry in DRAFT + PLANNING]
    return said


def test_every_action_is_said_with_whose_it_was() -> None:
    state = table_state()
    said = through_planning(state)
    assert said[:4] == ["a game of Anna, You, Ben begins; Anna draws first",
                        "Anna took the face-up giant pig (magic cloud turned up)", "you drew a troll wagon blind",
                        "Ben drew a unicorn blind"]
    assert said[10:13] == ["Anna placed a giant pig on Parundia – Wylhien", "you placed an elfcycle on Elvenhold – "
                           "Lapphalya", "Ben placed a unicorn on Parundia – Usselen"]
    assert state.game is not None and state.game.state.phase.value == "travel"  # three passes in a row end it
    # Anna's move, as the table saw it: her end town; the towns collected on the way follow (fewest links: the one
    # shortest path from Elvenhold to Dag'Amura, networkx says, goes through Lapphalya).
    assert [p for p in nx.all_shortest_paths(load_board().graph, "ELV", "DAG")] == [["ELV", "LAP", "DAG"]]
    assert made(state, {"op": "game_act", "town": "DAG"}) == ("Anna travelled to Dag'Amura, collecting Lapphalya, "
                                                              "Dag'Amura")
    anna = state.game.state.players[0]
    assert anna.town == "DAG" and anna.visited == {"ELV", "LAP", "DAG"} and len(anna.hand) == 4


def test_undo_and_redo_name_what_they_take_back() -> None:
    state = table_state()
    made(state, START)
    made(state, {"op": "game_act", **DRAFT[0]})
    assert made(state, {"op": "undo"}) == "undone: Anna took the face-up giant pig (magic cloud turned up)"
    assert state.game is not None and state.game.state.turn == 0 and state.game.state.display[0].letter == "P"
    assert made(state, {"op": "redo"}) == "redone: Anna took the face-up giant pig (magic cloud turned up)"
    assert state.game.state.turn == 1


def test_an_action_out_of_the_rules_is_refused_with_the_engines_reason() -> None:
    state = table_state()
    made(state, START)
    version = state.version
    applied = state.apply({"op": "game_act", "action": "P@PAR-WYL:p"})  # a placement in the draw phase
    assert not applied.ok and state.version == version
    assert applied.problems[0].kind == "wrong-phase" and "Anna is drawing a counter" in applied.problems[0].message
    edit = state.apply({"op": "tile", "road": "ELV-LAP:p", "counter": "P"})  # the freehand editor: analysis only
    assert [p.kind for p in edit.problems] == ["game-mode"]


def test_my_turns_are_advised_and_others_are_not() -> None:
    state = table_state()
    assert state.apply({"op": "mode", "mode": "game"}).ok and state.advisable == "start"
    made(state, START)
    assert state.advisable == "turn"  # Anna draws first
    made(state, {"op": "game_act", **DRAFT[0]})
    assert state.advisable is None and state.phase == "draw"  # mine: the draw advice on my position
    position = state.position
    assert str(position.hand) == "PPEECCUT" and position.supply.as_dict()[position.supply.cards()[0]] == 1
    assert [o.name for o in position.opponents] == ["Anna", "Ben"] and str(position.opponents[0].counters) == "P"


def test_a_new_round_waits_for_my_cards_before_any_advice(tmp_path: Path) -> None:
    state = table_state(tmp_path)
    through_planning(state)
    moves: list[dict[str, Any]] = [{"town": "LAP"}, {"action": "LAP/E"}, {"action": "PPC"},
                                   {"town": "ELV", "collected": []}, {"action": "?"}, {"action": "D"}, {"action": "-"}]
    for entry in moves:
        made(state, {"op": "game_act", **entry})
    assert state.game is not None and state.game.state.round == 2 and state.advisable == "deal"
    assert state.game.document()["carried"] == "ECUT"  # PPEECCUT less the elfcycle paid and PPC discarded
    refused = state.apply({"op": "game_act", "action": "blind", "took": "P"})
    assert [p.kind for p in refused.problems] == ["needs-deal"]
    short = state.apply({"op": "game_deal", "hand": "ECUTDD"})
    assert [p.kind for p in short.problems] == ["deal-count"]
    assert made(state, {"op": "game_deal", "hand": "RRECUTDD", "secret": "T"}) == "your hand for round 2: ECUTDDRR"
    me = state.game.state.players[1]
    assert str(me.hand) == "ECUTDDRR"
    assert sorted(t.letter for t in me.secret.cards()) == ["D", "T"]  # the one kept face down and the new one
    assert state.advisable is None  # round 2 starts with me (the start player moves on)
    record = json.loads((tmp_path / "game.jsonl").read_text(encoding="utf-8"))
    verdict = replay(record)
    assert verdict.ok, verdict.problem
    assert record["table"] == {"me": "You"} and record["rounds"][1]["hands"] == {"You": "ECUTDDRR"}


def test_the_saved_game_resumes_where_it_was(tmp_path: Path) -> None:
    state = table_state(tmp_path)
    through_planning(state)
    assert state.game is not None
    before = state.game.state
    resumed, notes = open_table(None, save=tmp_path / "game.jsonl")
    assert resumed.mode == "game" and resumed.game is not None and resumed.game.state == before
    assert notes == [f"resuming the game saved in {tmp_path / 'game.jsonl'}"]
    assert resumed.phase == "travel" and resumed.advisable == "turn"


def test_analysis_mode_starts_from_the_game_and_leaves_it_saved(tmp_path: Path) -> None:
    state = table_state(tmp_path)
    through_planning(state)
    assert state.game is not None
    mine = state.game.position()
    made(state, {"op": "mode", "mode": "analysis"})
    assert state.position == mine  # the analysis board starts from my position in the game
    assert state.apply({"op": "tile", "road": "JAC-THR:m", "counter": "D"}).ok
    assert json.loads((tmp_path / "game.jsonl").read_text(encoding="utf-8"))["table"] == {"me": "You"}
    made(state, {"op": "mode", "mode": "game"})
    assert state.position == mine


def test_a_table_record_replays_and_a_changed_one_is_caught() -> None:
    game = TableGame(["Anna", "You", "Ben"], 1, seed=3)
    entries: list[dict[str, Any]] = [{"deal": "PPEECCUT", "secret": "D", "display": "PEUTD"}, *DRAFT]
    played, problem, _ = game.replay(entries)
    assert problem is None
    record = table_record(game, played)
    assert replay(record).ok
    record["scores"][0]["towns"] = 5  # a result the game did not reach
    verdict = replay(record)
    assert verdict.legal and not verdict.same and verdict.problem is not None
    assert verdict.problem.message == "scores[0].towns: recorded 5, replayed 0"
    record["rounds"][0]["actions"][2]["player"] = "Anna"  # out of turn: Ben draws third
    verdict = replay(record)
    assert not verdict.legal and verdict.problem is not None and verdict.problem.kind == "out-of-turn"


@pytest.mark.parametrize(("body", "kind"), [
    ({"op": "game_act", "action": 3}, "bad-type"),
    ({"op": "game_act", "collected": "LAP"}, "bad-type"),
    ({"op": "game_start", "names": "Anna", "me": "one", "hand": "PP", "display": "P"}, "bad-type"),
    ({"op": "game_deal"}, "missing-key"),
    ({"op": "mode", "mode": "chess"}, "bad-mode"),
    ({"op": "game_act", "action": "pass", "who": "Anna"}, "unknown-key"),
])
def test_a_malformed_game_change_is_answered_422(body: dict[str, Any], kind: str) -> None:
    with served("- ELV - - 1", "draw") as table:
        response = table.client.post("/api/change", json=body)
        assert response.status_code == 422, response.text
        assert kind in [p["kind"] for p in response.json()["problems"]]


def test_a_game_change_is_answered_in_words() -> None:
    with served("- ELV - - 1", "draw") as table:
        answer = table.post(START)
        assert answer["ok"] and answer["said"] == "a game of Anna, You, Ben begins; Anna draws first"
        assert answer["view"]["mode"] == "game" and answer["view"]["game"]["turn"] == 0
        answer = table.post({"op": "game_act", **DRAFT[0]})
        assert answer["said"] == "Anna took the face-up giant pig (magic cloud turned up)"
        view = table.complete(answer["version"])
        assert view["waiting"] is None and view["advice"]["phase"] == "draw"  # my turn: advised
        refused = table.post({"op": "game_act", "action": "9", "took": "P"})
        assert not refused["ok"] and refused["problems"][0]["field"] == "action"


def test_a_whole_game_at_the_table_ends_scored_and_replays(tmp_path: Path) -> None:
    """Four rounds of blind draws, passes and standing still: the game ends, nothing is advised, the record replays
    with its scores and (nobody's towns, four cards each: a full tie) every player a winner."""
    state = table_state(tmp_path)
    made(state, START)
    game = state.game
    assert game is not None
    for _ in range(200):
        now = game.state
        if now.over:
            break
        if game.waiting_for_deal:
            made(state, {"op": "game_deal", "hand": "PPPPCCCC"[:len(now.players[1].hand)], "secret": "D"})
            continue
        phase, mine = now.phase.value, now.turn == 1
        entry: dict[str, Any] = {
            "draw": {"action": "blind", "took": "U"}, "plan": {"action": "pass"},
            "travel": {"action": "-"} if mine else {"town": now.players[now.turn].town, "collected": []},
            "discard": {"action": str(now.players[1].hand)[:4]}, "keep": {"action": "-"}}[phase]
        if phase == "draw" and len(now.players[now.turn].counters) >= 5:
            entry = {"action": "pass"}
        made(state, {"op": "game_act", **entry})
    assert game.state.over and state.advisable == "over"
    record = json.loads((tmp_path / "game.jsonl").read_text(encoding="utf-8"))
    assert len(record["rounds"]) == 4 and record["winners"] == ["Anna", "You", "Ben"]
    assert [s["points"] for s in record["scores"]] == [0, 0, 0]
    assert replay(record).ok
    refused = state.apply({"op": "game_act", "action": "pass"})
    assert [p.kind for p in refused.problems] == ["game-over"]
    saved = (tmp_path / "game.jsonl").read_text(encoding="utf-8")
    again = state.apply(START)  # a new game would write its record over the finished one's
    assert [p.kind for p in again.problems] == ["game-saved"] and "another --save" in again.problems[0].message
    assert (tmp_path / "game.jsonl").read_text(encoding="utf-8") == saved and state.game is game


def test_a_table_game_reviews_my_decisions_only() -> None:
    game = TableGame(["Anna", "You", "Ben"], 1, seed=3)
    played, problem, _ = game.replay([{"deal": "PPEECCUT", "secret": "D", "display": "PEUTD"}, *DRAFT])
    assert problem is None
    record = table_record(game, played)
    review = review_game(record, decisions=False)
    assert review.player == "You"  # by default: me, whose cards the table saw
    with pytest.raises(RecordError, match="Anna's cards were not seen at the table: only You's decisions"):
        review_game(record, "anna", decisions=False)


ODD = ["", "-", "?", "pass", "blind", "9", "P@PAR-WYL:p", "X@ELV-LAP:p", "ZZZ", "lap/E", "@", "P@", "PP@ELV-LAP:p",
       "DDDDDDDDD", "é"]


@pytest.mark.parametrize("phase", ["draw", "travel"])
def test_odd_game_changes_are_refused_in_words_and_change_nothing(phase: str) -> None:
    """Every text a page may send in each key of an action, in the draw phase and at an opponent's move: an answer
    (made, or refused with problems and the table unchanged), never an exception."""
    state = table_state()
    if phase == "draw":
        made(state, START)
    else:
        through_planning(state)
    for key in ("action", "took", "turned", "town", "collected"):
        for value in ODD:
            body = {"op": "game_act", key: [value] if key == "collected" else value}
            if key == "collected":
                body["town"] = "LAP"
            before = state.version
            applied = state.apply(body)
            if applied.ok:
                assert applied.said and state.version == before + 1
                made(state, {"op": "undo"})
            else:
                assert applied.problems and state.version == before
                assert all(p.message for p in applied.problems)


def test_a_game_in_progress_is_never_replaced_and_its_first_deal_never_undone() -> None:
    state = table_state()
    made(state, START)
    assert not state.can_undo  # the first deal holds the display: a new game replaces it instead
    made(state, {**START, "names": ["Anna", "You"], "me": 1})  # nothing played yet: begun again
    assert state.game is not None and state.game.game.names == ("Anna", "You")
    made(state, {"op": "game_act", **DRAFT[0]})
    refused = state.apply(START)
    assert [p.kind for p in refused.problems] == ["game-in-progress"]
    assert state.game.game.names == ("Anna", "You")
    made(state, {"op": "undo"})
    assert made(state, START) == "a game of Anna, You, Ben begins; Anna draws first"


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_every_action_is_said_in_the_language_spoken(lang: str) -> None:
    english = through_planning(table_state())
    i18n.use(lang)  # for this test only: conftest sets English again before the next
    state = table_state()
    said = through_planning(state)
    said.append(made(state, {"op": "game_act", "town": "DAG"}))
    assert len(said) == len(english) + 1 and said[1:] != english[1:]
    moves = [str(entry["action"]) for entry in DRAFT + PLANNING] + ["PPEECCUT", "Anna", "Ben"]
    for sentence in said[1:]:  # the first is the page's own (its catalogue is tested in test_table_texts.py)
        assert not leaks(sentence, spared=moves), sentence


@pytest.mark.parametrize("change", [
    {**START, "display": "RRRRR"}, {**START, "secret": "R"}, {**START, "display": "PEUTX"},
    {**START, "names": ["Anna", " ", "Ben"]},
])
def test_a_game_cannot_start_with_a_raft_counter_or_a_blank_name(change: dict[str, Any]) -> None:
    state = table_state()
    refused = state.apply(change)
    assert not refused.ok and state.game is None, refused


@pytest.mark.parametrize("entry", [{"action": "blind", "took": "R"}, {"action": "0", "took": "R", "turned": "C"},
                                   {"action": "0", "took": "P", "turned": "R"}, {"action": "blind", "took": "X"}])
def test_no_raft_counter_is_taken_or_turned_up(entry: dict[str, Any]) -> None:
    # Rafts are cards only: a raft counter the stack never held would break the game's views later (a 500 once).
    state = table_state()
    made(state, START)
    version = state.version
    refused = state.apply({"op": "game_act", **entry})
    assert not refused.ok and state.version == version
    assert state.game is not None and state.game.document()["turn"] == 0  # the view the page reads still builds
