"""Bad requests to the table: each a 4xx with the security headers and a structured problem, never a 500 and never
a traceback in the terminal; and a fuzz run (random JSON bodies, paths and query strings) that finds no 5xx."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from planner.elfenland.position import Position
from planner.table.app import COOKIE, HEADERS, MAX_BODY, MAX_DEPTH, create_app
from planner.table.changes import OPS
from planner.table.server import TableServer
from planner.table.session import Session
from planner.table.state import TableState

SIMPLE = "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"
TOKEN = "request-test-token"


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as running:
        yield running


@pytest.fixture(scope="module")
def client(session: Session) -> Iterator[TestClient]:
    with TestClient(create_app(session, token=TOKEN), base_url="http://table.test",
                    raise_server_exceptions=False) as test_client:
        test_client.cookies.set(COOKIE, TOKEN)
        yield test_client


def refused(response: Any, status: int, kind: str) -> None:
    """A 4xx answer: the status, every security header, and one structured problem of ``kind``."""
    assert response.status_code == status, response.text
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, name
    problems = response.json()["problems"]
    assert response.json()["ok"] is False
    assert [p["kind"] for p in problems] == [kind]
    assert set(problems[0]) == {"kind", "field", "value", "message"} and problems[0]["message"]


def post(client: TestClient, body: bytes) -> Any:
    return client.post("/api/change", content=body, headers={"content-type": "application/json"})


# -- the regressions --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("query", ["t=%C3%A9", "t=%E2%98%83&p=x", "t=%FF%FE", "t=" + "é" * 40])
def test_a_non_ascii_token_is_refused_not_a_crash(session: Session, query: str) -> None:
    with TestClient(create_app(session, token=TOKEN), raise_server_exceptions=False) as anonymous:
        refused(anonymous.get(f"/?{query}"), 403, "no-token")
        refused(anonymous.get("/api/view", headers={b"cookie": f"{COOKIE}=é".encode()}), 403, "no-token")


def test_the_token_still_opens_the_page_beside_other_parameters(session: Session) -> None:
    with TestClient(create_app(session, token=TOKEN), follow_redirects=False) as phone:
        response = phone.get(f"/?p=%C3%A9%20x&t={TOKEN}&q=1")
        assert response.status_code == 303 and response.headers["location"] == "/?p=%C3%A9+x&q=1"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 100_000 // 2])
def test_a_deeply_nested_change_is_refused(client: TestClient, depth: int) -> None:
    body = ("[" * depth + "]" * depth).encode()
    if len(body) > MAX_BODY:
        refused(post(client, body), 413, "too-big")
    else:
        refused(post(client, body), 400, "too-deep")
    nested = '{"op": "opponent", "index": 1, "visited": ' + "[" * depth + "]" * depth + "}"
    if len(nested) <= MAX_BODY:
        refused(post(client, nested.encode()), 400, "too-deep")


@pytest.mark.parametrize("body", ['"\\ud800"', '{"op": "notation", "text": "\\ud800"}',
                                  '{"op": "hand", "hand": "D\\udfffD"}', '{"\\ud800": 1, "op": "undo"}'])
def test_a_lone_surrogate_is_refused(client: TestClient, body: str) -> None:
    refused(post(client, body.encode()), 400, "bad-text")


NOT_JSON = ['{"op": "rule", "name": "rounds", "value": NaN}', '{"op": "card", "delta": -Infinity}',
            '{"op": "card", "card": "D", "delta": ' + "9" * 5000 + "}", "{", "\xff"]


@pytest.mark.parametrize("body", NOT_JSON)
def test_a_body_that_is_not_json_is_refused(client: TestClient, body: str) -> None:
    refused(post(client, body.encode("latin-1")), 400, "bad-json")


def test_unknown_paths_and_methods_are_structured_problems(client: TestClient) -> None:
    refused(client.get("/nothing-here"), 404, "not-found")
    refused(client.get("/api/change"), 405, "bad-method")
    refused(client.put("/api/view"), 405, "bad-method")


@pytest.mark.parametrize(("name", "value"), [("rounds", 3.0), ("rounds", 4.0), ("home_variant", 1), ("rounds", True)])
def test_a_rule_value_of_the_wrong_type_is_a_bad_request(client: TestClient, name: str, value: Any) -> None:
    response = client.post("/api/change", json={"op": "rule", "name": name, "value": value})
    answer = response.json()
    assert response.status_code == 422 and answer["ok"] is False
    assert [(p["kind"], p["field"]) for p in answer["problems"]] == [("bad-type", f"rules.{name}")]


@pytest.mark.parametrize("change", [{"op": "fly"}, {"op": "card", "card": "D", "delta": "1"},
                                    {"op": "card", "card": "D", "delta": 1, "colour": "red"}, {"op": "visit"}, [1]])
def test_a_malformed_change_is_answered_422_with_its_problems(client: TestClient, change: Any) -> None:
    response = client.post("/api/change", json=change)
    assert response.status_code == 422 and response.json()["ok"] is False and response.json()["problems"]


@pytest.mark.parametrize("change", [{"op": "rule", "name": "rounds", "value": 7}, {"op": "visit", "town": "XYZ"},
                                    {"op": "notation", "text": "nonsense"}, {"op": "card", "card": "D", "delta": -5}])
def test_a_well_formed_change_the_table_refuses_stays_200(client: TestClient, change: Any) -> None:
    response = client.post("/api/change", json=change)
    assert response.status_code == 200 and response.json()["ok"] is False


def test_a_rule_value_of_the_right_type_is_made(session: Session) -> None:
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as own, \
            TestClient(create_app(own, token=None)) as phone:
        answer = phone.post("/api/change", json={"op": "rule", "name": "rounds", "value": 3}).json()
        assert answer["ok"] and answer["view"]["position"]["rules"]["rounds"] == "3"


# -- a real server: a client that leaves mid-request -------------------------------------------------------------
class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


PASS = f"Cookie: {COOKIE}={TOKEN}\r\n".encode()


def _ask(port: int, head: bytes, body: bytes = b"") -> bytes:
    """One request on a connection of its own (closed after the answer); the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head + b"Connection: close\r\n\r\n" + body)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_a_client_leaving_mid_request_prints_no_traceback(capfd: pytest.CaptureFixture[str]) -> None:
    records = _Records()
    loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "planner.table.app")]
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as own:
        server = TableServer(own, token=TOKEN).start()
        for logger in loggers:
            logger.addHandler(records)
        try:
            half = (b"POST /api/change HTTP/1.1\r\nHost: x\r\n" + PASS + b"Content-Type: application/json\r\n"
                    b"Content-Length: 100\r\n\r\n{\"op\"")
            body = b'{"op": "hand", "hand": "DDCCUURRPPT"}'
            whole = (b"POST /api/change HTTP/1.1\r\nHost: x\r\n" + PASS + b"Content-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
            for request in (half, whole, b"GET /api/events HTTP/1.1\r\nHost: x\r\n" + PASS + b"\r\n"):
                with socket.create_connection(("127.0.0.1", server.port), timeout=5) as connection:
                    connection.sendall(request)
                    if request is half:
                        time.sleep(0.3)  # the app is reading the body when the client goes
            # Bad requests through uvicorn's own parsing: refused with a 4xx, and nothing logged.
            deep = b"[" * 1000 + b"]" * 1000
            assert _ask(server.port, b"GET /?t=%C3%A9 HTTP/1.1\r\nHost: x\r\n").startswith(b"HTTP/1.1 4")
            head = (b"POST /api/change HTTP/1.1\r\nHost: x\r\n" + PASS + b"Content-Type: application/json\r\n"
                    b"Content-Length: %d\r\n" % len(deep))
            assert _ask(server.port, head, deep).startswith(b"HTTP/1.1 400")
            # A last whole request answered proves the server is past the others (they are served in order).
            assert _ask(server.port, b"GET /api/board HTTP/1.1\r\nHost: x\r\n" + PASS).startswith(b"HTTP/1.1 200")
            own.wait_solved(own.state.version, timeout=30)
        finally:
            server.stop()
            for logger in loggers:
                logger.removeHandler(records)
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Exception" not in captured.err, captured.err
    assert [r.getMessage() for r in records.records if r.levelno >= logging.ERROR or r.exc_info] == []


# -- the fuzz run -----------------------------------------------------------------------------------------------
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                max_size=4),
                     max_leaves=12)
_changes = st.sampled_from(sorted(OPS)).flatmap(
    lambda op: st.fixed_dictionaries({"op": st.just(op)}, optional={key: _json for key in OPS[op]}))
_raw = st.one_of(st.binary(max_size=64), st.text(max_size=64).map(lambda t: t.encode("utf-8", "surrogatepass")),
                 _json.map(lambda v: json.dumps(v).encode()))
_paths = st.sampled_from(["/", "/api/view", "/api/board", "/api/change", "/app.js", "/icon.svg", "/api", "/x"])
_query: st.SearchStrategy[list[tuple[str, str | int | float | bool | None]]] = st.lists(
    st.tuples(st.sampled_from(["t", "p", "x", "é"]), st.text(max_size=10)), max_size=3)


def _no_5xx(response: Any) -> None:
    assert response.status_code < 500, response.text
    assert response.headers.get("content-security-policy") == HEADERS["content-security-policy"]
    if response.status_code >= 400:
        problems = response.json()["problems"]
        assert problems and all(set(p) == {"kind", "field", "value", "message"} for p in problems)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(_changes.map(lambda c: json.dumps(c).encode()), _raw))
def test_fuzz_change_bodies_never_a_5xx(client: TestClient, body: bytes) -> None:
    _no_5xx(post(client, body))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=_paths, query=_query, method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD"]),
       cookie=st.booleans())
def test_fuzz_paths_and_queries_never_a_5xx(session: Session, path: str,
                                            query: list[tuple[str, str | int | float | bool | None]], method: str,
                                            cookie: bool) -> None:
    if path == "/api/events" and method == "GET":
        return  # a stream that never ends
    with TestClient(create_app(session, token=TOKEN), raise_server_exceptions=False,
                    follow_redirects=False) as phone:
        if cookie:
            phone.cookies.set(COOKIE, TOKEN)
        response = phone.request(method, path, params=query, content=b"{}" if method == "POST" else None,
                                 headers={"content-type": "application/json"})
        assert response.status_code < 500, response.text
        if method != "HEAD":
            _no_5xx(response)
