"""The table speaks each phone's language (issue 23): a refused change says why in the language of the phone that
sent it (the 200 refusals and the 422 malformed changes alike, their ``kind`` and ``field`` English), no refusal
message of the table's modules is left unmarked for translation, and the advice, worked out once, is said to each
phone in its own language (two phones at one table, one in Ukrainian and one in Japanese, each read their own).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from english import leaks, names
from starlette.testclient import TestClient
from test_table_texts import SOURCE

from planner.common import i18n
from planner.common.problems import Problem
from planner.elfenland.position import Position
from planner.table.advising import first_stage
from planner.table.app import COOKIE, create_app
from planner.table.changes import OPS
from planner.table.session import Session
from planner.table.state import TableState

ROOT = Path(__file__).resolve().parents[2]
SIMPLE = "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"  # the boot in Riverwood, the hand E D R, nothing in the supply
TOKEN = "speech-test-token-0123"
TABLE_WORDS = {word for message in SOURCE for word in re.findall(r"[a-z]{3,}", message.lower())}
"""The English words of the table domain's messages (the planner domain's are ``english``'s)."""
MACHINE = ["json", "JSON", "null", "true", "--save"]
"""What a translated refusal quotes as it is sent or typed: formats, JSON values, an option."""


def english_left(message: str, spared: list[str]) -> set[str]:
    """The English words of ``message`` (of either domain's messages) once names, notation and ``spared`` go."""
    rest = message
    for text in sorted([*spared, *MACHINE], key=len, reverse=True):
        rest = rest.replace(text, " ")
    for name in names():
        rest = rest.replace(name, " ")
    found = {w for w in re.findall(r"[A-Za-z]{3,}", rest) if w.lower() in TABLE_WORDS}
    return found | leaks(rest, spared=[])


# -- refusals ---------------------------------------------------------------------------------------------------
ANALYSIS: list[tuple[dict[str, Any], str, int, list[str]]] = [  # a change, its refusal's kind, status, words kept
    ({"op": "card", "card": "D", "delta": -5}, "no-card", 200, []),
    ({"op": "visit", "town": "RIV", "visited": False}, "boot-town", 200, []),
    ({"op": "undo"}, "no-undo", 200, []),
    ({"op": "redo"}, "no-redo", 200, []),
    ({"op": "place", "road": "JAC-THR:m", "counter": "E"}, "road-taken", 200, []),  # a road that holds one
    ({"op": "place", "road": "LAP-RIV:f", "counter": "E"}, "no-counter", 200, []),  # my supply is empty
    ({"op": "place", "road": "LAP-RIV:f", "obstacle": True}, "obstacle-road", 200, []),
    ({"op": "place", "road": "LAP-RIV:f", "counter": "E", "by": 2}, "no-opponent", 200, []),
    ({"op": "take", "counter": "D"}, "not-in-display", 200, []),
    ({"op": "counter", "pile": "seen", "counter": "P", "delta": -1}, "no-counter", 200, []),
    ({"op": "counter", "pile": "display", "counter": "P", "delta": -1}, "no-counter", 200, []),
    ({"op": "opponent", "index": 3, "remove": True}, "no-opponent", 200, []),
    ({"op": "new_round", "keep": "D"}, "no-counter", 200, []),
    ({"op": "new_round", "keep": "-", "cards": "DDD"}, "no-card", 200, []),
    ({"op": "new_round", "keep": "-", "cards": "EDR"}, "ok", 200, []),  # not refused: a round to refuse next
    ({"op": "rule", "name": "speed", "value": "1"}, "bad-rule", 200, ["speed", *__import__(
        "planner.elfenland.rules", fromlist=["RULE_OPTIONS"]).RULE_OPTIONS]),
    ({"op": "game_act", "action": "blind"}, "no-game", 200, []),
    ({"op": "nope"}, "bad-op", 422, ["nope", *OPS]),
    ({"op": "tile", "counter": "E"}, "missing-key", 422, ["road"]),
    ({"op": "phase", "phase": "dance"}, "bad-phase", 200, ["dance", "phase", "draw", "plan", "travel"]),
    ({"op": "counter", "pile": "box", "counter": "E"}, "bad-pile", 200, ["box", "pile", "supply", "display",
                                                                          "seen"]),
    ({"op": "take", "counter": "E", "source": "sky"}, "bad-source", 200, ["sky", "display", "blind"]),
    ({"op": "my_obstacle"}, "missing-key", 422, ["held"]),
    ({"op": "players"}, "missing-key", 422, ["players"]),
    ({"op": "place", "road": "LAP-RIV:f", "counter": "E", "by": "him"}, "bad-by", 200, ["him", "by", "me"]),
    ({"op": "new_round", "display": "old"}, "bad-display", 200, ["old", "display", "keep", "new"]),
    ({"op": "mode", "mode": "party"}, "bad-mode", 422, ["party", "mode", "game", "analysis"]),
    ({"op": "game_start", "names": ["Anna"], "hand": "PPEECCUT", "display": "PEUTD"}, "players", 200, []),
]


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False, lang="en") as running:
        yield running


@pytest.fixture
def client(session: Session) -> Iterator[TestClient]:
    with TestClient(create_app(session, token=TOKEN), base_url="http://table.test") as test_client:
        test_client.cookies.set(COOKIE, TOKEN)
        yield test_client


@pytest.mark.parametrize("lang", ["uk", "ja"])
def test_every_kind_of_refused_change_says_why_in_the_phones_language(lang: str) -> None:
    """Through the page's API: the phone's language (its header) is the refusal's, whatever the table's."""
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False, lang="en") as table, \
            TestClient(create_app(table, token=TOKEN), base_url="http://table.test") as phone:
        phone.cookies.set(COOKIE, TOKEN)
        for change, kind, status, spared in ANALYSIS:
            english = phone.post("/api/change", json=change).json()
            answer = phone.post("/api/change", json=change, headers={"x-elfenland-lang": lang})
            assert answer.status_code == status, (change, answer.text)
            if kind == "ok":
                assert answer.json()["ok"], answer.json()
                continue
            problems = answer.json()["problems"]
            assert [p["kind"] for p in problems][:1] == [kind], (change, problems)
            assert [(p["kind"], p["field"]) for p in problems] == [(p["kind"], p["field"])
                                                                   for p in english["problems"]]
            for problem, source in zip(problems, english["problems"], strict=True):
                assert problem["message"] != source["message"], problem
                left = english_left(problem["message"], [*spared, *map(str, change.values())])
                assert not left, (change, problem["message"], left)


def test_the_last_round_and_the_game_modes_refusals_in_ukrainian_and_japanese() -> None:
    """The refusals of a table's game (the state's and the game log's), through the state in each language."""
    start = {"op": "game_start", "names": ["Anna", "You", "Ben"], "me": 1, "display": "PEUTD",
             "hand": "PPEECCUT", "secret": "D"}
    changes: list[tuple[dict[str, Any], str, list[str]]] = [
        ({"op": "undo"}, "no-undo", []),  # the first deal holds the display: never undone
        ({"op": "game_act", "action": "P@PAR-WYL:p"}, "wrong-phase", ["'blind'", "'pass'"]),
        ({"op": "game_act", "action": "7", "took": "P"}, "bad-draw", []),
        ({"op": "game_deal", "hand": "PPEECCUT"}, "no-deal", []),
        ({"op": "tile", "road": "LAP-RIV:f", "counter": "E"}, "game-mode", []),
        ({**start, "me": 5}, "bad-seat", []),
    ]
    for lang in ("uk", "ja"):
        i18n.use(lang)  # for this test only: conftest sets English again before the next
        last = TableState(Position.from_str("- ELV - - 4"))  # the last round of a four-round game
        refused = last.apply({"op": "new_round"})
        assert [p.kind for p in refused.problems] == ["last-round"]
        assert not english_left(refused.problems[0].message, []), refused.problems[0].message
        state = TableState(Position.from_str("- ELV - - 1"))
        assert state.apply(start).ok
        assert state.apply({"op": "game_act", "action": "0", "took": "P", "turned": "C"}).ok
        assert [p.kind for p in state.apply(start).problems] == ["game-in-progress"]
        assert state.apply({"op": "undo"}).ok
        for change, kind, spared in changes:
            problems = state.apply(change).problems
            assert [p.kind for p in problems] == [kind], (change, problems)
            left = english_left(problems[0].message, [*spared, *map(str, change.values()), "Anna", "Ben"])
            assert not left, (lang, change, problems[0].message, left)


MARKERS = {"tt", "tt_mark", "say", "N_", "gettext"}
"""The calls that mark a message for translation (the table domain's and the planner's)."""
REFUSERS = {"refusal": 3, "problem": 3, "_problem": 3, "Problem": 3, "add": 3, "UnsupportedError": 0,
            "IllegalPositionError": 0}
"""The calls a refusal's message is given to, and the message's position among their arguments."""
REFUSING = ["planner/table/changes.py", "planner/table/rounds.py", "planner/table/game.py", "planner/table/state.py",
            "planner/elfenland/game/table.py"]


def _bare(node: ast.AST) -> list[str]:
    """The English texts in ``node`` not inside a marking call (a message nobody translates)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
        return []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Problem":
        return _bare(node.args[3]) if len(node.args) > 3 else []  # a problem's kind and field stay English
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(r"[a-z]{3,} [a-z]", node.value):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [ast.unparse(node)]
    return [text for child in ast.iter_child_nodes(node) for text in _bare(child)]


def test_no_refusal_message_is_left_unmarked_for_translation() -> None:
    bare, seen = [], 0
    for name in REFUSING:
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            messages = [k.value for k in node.keywords if k.arg == "required"]
            where = REFUSERS.get(str(callee))
            if where is not None and len(node.args) > where:
                messages.append(node.args[where])
            for message in messages:
                seen += 1
                bare += [f"{name}:{node.lineno}: {text}" for text in _bare(message)]
    assert seen >= 80, seen  # the scan finds the refusals (not vacuous)
    assert not bare, "\n".join(bare)


# -- the advice in each phone's language ------------------------------------------------------------------------
def _words(view: dict[str, Any]) -> list[str]:
    advice = view["advice"]
    steps = [text for step in advice["explain"]["steps"] for text in step["text"]]
    return [advice["verdict"], advice["status"], view["solution"]["plans"][0]["verdict"], *steps]


def test_two_phones_read_the_same_advice_each_in_its_own_language(monkeypatch: pytest.MonkeyPatch) -> None:
    worked: list[str] = []
    real = first_stage

    def counted(phase: str, *args: Any, **kwargs: Any) -> Any:
        worked.append(phase)
        return real(phase, *args, **kwargs)

    monkeypatch.setattr("planner.table.session.first_stage", counted)
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False, lang="en") as table, \
            TestClient(create_app(table, token=TOKEN), base_url="http://table.test") as phone:
        phone.cookies.set(COOKIE, TOKEN)
        heard: list[str] = []
        table.subscribe(heard.append, "ja")  # a Japanese phone's event stream
        table.wait_solved(1, timeout=30, complete=True)
        answer = phone.post("/api/change", json={"op": "card", "card": "D", "delta": 1},
                            headers={"x-elfenland-lang": "uk"}).json()  # the Ukrainian phone taps
        table.wait_solved(answer["version"], timeout=30, complete=True)
        uk = phone.get("/api/view", headers={"x-elfenland-lang": "uk"}).json()
        ja = phone.get("/api/view", headers={"accept-language": "ja-JP,ja;q=0.9"}).json()
        en = phone.get("/api/view").json()
        streamed = json.loads(heard[-1])
    assert worked == ["travel", "travel"]  # one solve a version, whichever languages read it
    assert uk["version"] == ja["version"] == en["version"] == streamed["version"] == answer["version"]
    assert uk["solution"]["plans"][0]["route"] == ja["solution"]["plans"][0]["route"] == \
        en["solution"]["plans"][0]["route"]
    assert streamed["advice"] == ja["advice"]
    words = {lang: _words(view) for lang, view in (("uk", uk), ("ja", ja), ("en", en))}
    assert words["en"][0] == en["advice"]["verdict"] and re.search(r"[a-z]{3,}", words["en"][0])
    for lang, script in (("uk", r"[\u0400-\u04ff]"), ("ja", r"[\u3040-\u30ff\u4e00-\u9fff]")):
        for said, source in zip(words[lang], words["en"], strict=True):
            assert said != source and re.search(script, said), (lang, said)
            assert not english_left(said, [uk["solution"]["plans"][0]["route"]]), (lang, said)


def test_a_games_sentences_are_said_to_each_phone_in_its_language(client: TestClient) -> None:
    start = {"op": "game_start", "names": ["Anna", "You", "Ben"], "me": 1, "display": "PEUTD",
             "hand": "PPEECCUT", "secret": "D"}
    said = client.post("/api/change", json=start, headers={"x-elfenland-lang": "uk"}).json()["said"]
    took = client.post("/api/change", json={"op": "game_act", "action": "0", "took": "P", "turned": "C"},
                       headers={"x-elfenland-lang": "uk"}).json()["said"]
    games = {lang: client.get("/api/view", headers={"x-elfenland-lang": lang}).json()["game"] for lang in
             ("uk", "ja", "en")}
    assert games["uk"]["said"] == took and games["uk"]["log"][-1] == took  # the tapping phone's words, as it read
    assert not english_left(said, ["Anna", "You", "Ben"]), said
    assert games["en"]["said"] == "Anna took the face-up giant pig (magic cloud turned up)"
    for lang in ("uk", "ja"):
        for sentence in (games[lang]["said"], *games[lang]["log"]):
            assert not english_left(sentence, ["Anna", "You", "Ben"]), (lang, sentence)
    assert games["ja"]["said"] != games["uk"]["said"] != games["en"]["said"]
    assert client.post("/api/change", json={"op": "mode", "mode": "analysis"}).json()["ok"]


@pytest.mark.parametrize("lang", ["uk", "ja"])
def test_a_move_out_of_turn_in_a_saved_game_is_refused_in_the_language_spoken(lang: str) -> None:
    from planner.elfenland.game.table import TableGame

    game = TableGame(["Anna", "You", "Ben"], 1)
    deal = {"deal": "PPEECCUT", "secret": "D", "display": "PEUTD"}
    dealt = game.play(game.start, [], deal)
    assert not isinstance(dealt, Problem)
    i18n.use(lang)  # for this test only: conftest sets English again before the next
    refused = game.play(dealt.state, [deal], {"player": "Ben", "phase": "draw", "action": "blind", "took": "P"})
    assert isinstance(refused, Problem) and refused.kind == "out-of-turn" and "Anna" in refused.message
    assert not english_left(refused.message, ["Anna"]), refused.message
