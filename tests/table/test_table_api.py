"""The table's HTTP API through Starlette's test client (and one real server on the loopback for the events).

Every operation, the refusals (bad JSON, too big, wrong type, foreign origin, missing token), concurrent changes
from several phones, and the routes shown: legal under the verifier and as good as the brute-force reference.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from brute import brute_force
from starlette.testclient import TestClient

from planner.elfenland.plan import parse_route, verify
from planner.elfenland.position import Position
from planner.table.app import COOKIE, CSP, MAX_BODY, create_app
from planner.table.server import TableServer
from planner.table.session import Session
from planner.table.state import TableState

SIMPLE = "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"  # best by hand: THR/E JAC/D, 2 new towns, 2 cards
TOKEN = "test-token-0123456789"


@pytest.fixture
def session() -> Iterator[Session]:
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as running:
        yield running


@pytest.fixture
def client(session: Session) -> Iterator[TestClient]:
    with TestClient(create_app(session, token=TOKEN), base_url="http://table.test") as test_client:
        test_client.cookies.set(COOKIE, TOKEN)
        yield test_client


def change(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/change", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def solved(client: TestClient, session: Session, body: dict[str, Any]) -> dict[str, Any]:
    """The view after a change, once its advice is in (the answer waits for quick solves; this waits for all)."""
    answer = change(client, body)
    assert answer["ok"], answer["problems"]
    view = session.wait_solved(answer["version"], timeout=30)
    assert view["version"] == answer["version"] and view["advice"] is not None and view["error"] is None
    return view


# -- access and headers ------------------------------------------------------------------------------------------
def test_without_the_token_everything_is_refused(session: Session) -> None:
    with TestClient(create_app(session, token=TOKEN)) as anonymous:
        for path in ("/", "/app.js", "/api/board", "/api/view", "/api/events"):
            assert anonymous.get(path).status_code == 403, path
        assert anonymous.post("/api/change", json={"op": "undo"}).status_code == 403
        assert anonymous.get("/?t=wrong-token").status_code == 403
        anonymous.cookies.set(COOKIE, "wrong-token")
        assert anonymous.get("/api/view").status_code == 403


def test_the_token_url_sets_the_cookie_and_keeps_the_shared_position(session: Session) -> None:
    with TestClient(create_app(session, token=TOKEN), follow_redirects=False) as phone:
        response = phone.get(f"/?p=-%20ELV%20D%20-%201&t={TOKEN}")
        assert response.status_code == 303
        assert response.headers["location"] == "/?p=-+ELV+D+-+1"
        cookie = response.headers["set-cookie"]
        assert f"{COOKIE}={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert phone.get("/api/view").status_code == 200  # the cookie now opens the table


def test_no_token_opens_the_table(session: Session) -> None:
    with TestClient(create_app(session, token=None)) as anyone:
        assert anyone.get("/api/view").status_code == 200


def test_every_answer_carries_the_strict_policy(client: TestClient) -> None:
    for path in ("/", "/app.js", "/round.js", "/app.css", "/icon.svg", "/api/board", "/api/view", "/no-such-page"):
        response = client.get(path)
        assert response.headers["content-security-policy"] == CSP, path
        assert response.headers["x-content-type-options"] == "nosniff"
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP and "default-src 'none'" in CSP


def test_the_page_loads_only_its_own_files(client: TestClient) -> None:
    page = client.get("/").text
    scripts = ('<script src="/round.js" defer></script>\n<script src="/game.js" defer></script>\n'
               '<script src="/explain.js" defer></script>\n<script src="/app.js" defer></script>')
    assert scripts in page and "http" not in page.replace("http-equiv", "")
    assert "<script>" not in page and "style=" not in page  # nothing inline: the policy would block it
    for script in ("/app.js", "/round.js", "/game.js", "/explain.js"):
        assert client.get(script).headers["content-type"].startswith("application/javascript")
    assert client.get("/app.css").headers["content-type"].startswith("text/css")
    assert client.get("/static/../../pyproject.toml").status_code == 404  # no route reads a path


# -- documents ---------------------------------------------------------------------------------------------------
def test_the_board_document_says_which_counters_each_road_carries(client: TestClient) -> None:
    board = client.get("/api/board").json()
    roads = {r["id"]: r for r in board["roads"]}
    assert len(roads) == 35 and len(board["towns"]) == 21
    assert roads["ELV-LAP:p"]["counters"] == ["P", "E", "C", "T", "D"]  # no unicorn on plains
    assert roads["JAC-THR:m"]["counters"] == ["E", "C", "U", "T", "D"]  # no pig on mountains
    assert roads["ALB-DAG:d"]["counters"] == ["U", "T", "D"]
    first, last = roads["ELV-LAP:p"]["points"][0], roads["ELV-LAP:p"]["points"][-1]
    towns = {t["code"]: t for t in board["towns"]}
    assert first == [towns["ELV"]["x"], towns["ELV"]["y"]] and last == [towns["LAP"]["x"], towns["LAP"]["y"]]


def test_the_first_view_has_the_route_the_map_and_the_position(client: TestClient, session: Session) -> None:
    view = session.wait_solved(1, timeout=30, complete=True)  # the keep advice too, which comes after the route
    assert client.get("/api/view").json() == json.loads(json.dumps(view))
    best = view["solution"]["plans"][0]
    assert best["verdict"] == "2 new towns, 2 cards, ends in Jaccaranda, keep raft"
    assert best["route"] == "THR/E JAC/D"
    assert view["solution"]["optimal"] is True
    assert view["position"]["notation"] == "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"
    assert view["svg"].startswith("<?xml") and 'class="plan best"' in view["svg"]
    assert 'id="legend"' not in view["svg"]  # the board-only picture


# -- every operation ---------------------------------------------------------------------------------------------
def test_a_counter_on_a_road_changes_the_route(client: TestClient, session: Session) -> None:
    # A dragon from Rivinia to Lapphalya (forest costs a dragon 2 cards, the hand has 1) does nothing; a raft
    # counter does not exist; an elfcycle there would compete with Throtmanni for the one E.
    view = solved(client, session, {"op": "tile", "road": "lap-riv", "counter": "E"})
    assert {"road": "LAP-RIV:f", "counter": "E", "obstacle": False} in view["position"]["tiles"]
    assert view["solution"]["plans"][0]["score"] == 2
    assert 'data-road="LAP-RIV:f"' in view["svg"]


def test_every_op_answers_a_view(client: TestClient, session: Session) -> None:
    ops: list[dict[str, Any]] = [
        {"op": "card", "card": "D", "delta": 1}, {"op": "hand", "hand": "EDDRR"}, {"op": "visit", "town": "TIC"},
        {"op": "home", "town": "VIR"}, {"op": "round", "round": 2},
        {"op": "rule", "name": "caravan", "value": "scaled"},
        {"op": "undo"}, {"op": "redo"}, {"op": "alternatives", "count": 3}, {"op": "travel", "route": "thr/E"},
        {"op": "at", "town": "RIV"}, {"op": "new_round"}, {"op": "notation", "text": SIMPLE},
        {"op": "phase", "phase": "travel"}]
    version = 1
    for body in ops:
        view = solved(client, session, body)
        assert view["version"] == version + 1, body
        version = view["version"]
    assert view["position"]["notation"] == SIMPLE and view["alternatives"] == 3


def test_an_illegal_change_answers_its_problems_and_changes_nothing(client: TestClient) -> None:
    before = client.get("/api/view").json()["version"]
    answer = change(client, {"op": "tile", "road": "elv-lap", "counter": "U"})
    assert answer == {"ok": False, "version": before, "problems": [
        {"kind": "terrain", "field": "tiles", "value": "ELV-LAP:p",
         "message": "unicorn counter on ELV-LAP:p, a plain road it cannot travel"}]}
    assert client.get("/api/view").json()["version"] == before


# -- malformed requests ------------------------------------------------------------------------------------------
def test_bad_json_too_big_wrong_type_and_foreign_origin_are_refused(client: TestClient) -> None:
    post = client.post
    headers = {"content-type": "application/json"}
    assert post("/api/change", content=b"{not json", headers=headers).status_code == 400
    assert post("/api/change", content=b"\xff\xfe", headers=headers).status_code == 400
    big = json.dumps({"op": "notation", "text": "x" * MAX_BODY}).encode()
    assert post("/api/change", content=big, headers=headers).status_code == 413
    assert post("/api/change", content=b'{"op": "undo"}', headers={"content-type": "text/plain"}).status_code == 415
    assert post("/api/change", json={"op": "undo"}, headers={"origin": "http://evil.test"}).status_code == 403
    assert post("/api/change", json={"op": "undo"}, headers={"origin": "http://table.test"}).status_code == 200
    answer = post("/api/change", json=[1, 2]).json()
    assert answer["ok"] is False and answer["problems"][0]["kind"] == "bad-change"
    assert client.get("/api/view").status_code == 200  # the server keeps serving


def test_a_body_without_length_is_cut_at_the_limit(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"op": "notation", "text": "'
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024
        yield b'"}'

    response = client.post("/api/change", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413


# -- several phones ----------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_concurrent_changes_all_count(client: TestClient, session: Session) -> None:
    """Four phones add cards at once: every change is applied exactly once, whatever the interleaving."""
    change(client, {"op": "hand", "hand": "-"})
    errors: list[BaseException] = []

    def phone(card: str) -> None:
        try:
            for _ in range(5):
                assert change(client, {"op": "card", "card": card, "delta": 1})["ok"]
        except BaseException as error:  # noqa: BLE001 (reported by the main thread)
            errors.append(error)

    threads = [threading.Thread(target=phone, args=(card,)) for card in "PECU"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    view = session.wait_solved(session.state.version, timeout=30)
    assert view["position"]["hand"] == {"P": 5, "E": 5, "C": 5, "U": 5, "T": 0, "D": 0, "R": 0}
    assert session.state.version == 2 + 20


def test_routes_shown_replay_legally_and_match_brute_force(client: TestClient, session: Session) -> None:
    for body in ({"op": "notation", "text": "C@ELV-LAP:p,E@LAP-VIR:p,D@JXA-VIR:p ELV CCED - 1"},
                 {"op": "tile", "road": "LAP-VIR", "counter": "T"},
                 {"op": "card", "card": "R", "delta": 2}):
        view = solved(client, session, body)
        position = Position.from_str(view["position"]["notation"])
        best = view["solution"]["plans"][0]
        outcome = verify(position, parse_route(position, best["route"]))
        assert (outcome.score, -outcome.cards_spent) == (best["score"], -best["cards_spent"])
        assert brute_force(position)[0] == (best["score"], -best["cards_spent"])


# -- server-sent events on a real server -------------------------------------------------------------------------
def test_a_second_page_hears_every_change() -> None:
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as session:
        server = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        try:
            cookies = {COOKIE: TOKEN}
            with httpx2.Client(base_url=f"http://127.0.0.1:{server.port}", cookies=cookies, timeout=10) as phone, \
                    phone.stream("GET", "/api/events") as events:
                assert events.headers["content-type"].startswith("text/event-stream")
                lines = events.iter_lines()
                first = _next_view(lines)
                assert first["position"]["notation"] == SIMPLE
                answer = phone.post("/api/change", json={"op": "visit", "town": "TIC"}).json()
                view = _next_view(lines)
                while view["version"] < answer["version"] or view["solving"]:
                    view = _next_view(lines)
                assert "TIC" in view["position"]["visited"] and view["solution"]["plans"][0]["score"] == 2
        finally:
            server.stop()


def _next_view(lines: Iterator[str]) -> dict[str, Any]:
    for line in lines:
        if line.startswith("data: "):
            view: dict[str, Any] = json.loads(line[len("data: "):])
            return view
    raise AssertionError("the event stream ended")
