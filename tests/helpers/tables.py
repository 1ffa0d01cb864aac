"""What the table page's tests share: a served table with a phone's client, and a refused change's problems."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from planner.elfenland.inputs import read_position
from planner.elfenland.position import Position
from planner.table.app import COOKIE, create_app
from planner.table.session import Session
from planner.table.state import TableState

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
TOKEN = "phase-test-token"


def position_of(source: str) -> Position:
    return read_position(str(SCENARIOS / source)) if source.endswith(".toml") else Position.from_str(source)


class Table:
    """A served table and a phone's client."""

    def __init__(self, session: Session, client: TestClient) -> None:
        self.session = session
        self.client = client

    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post("/api/change", json=body)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def change(self, body: dict[str, Any]) -> dict[str, Any]:
        """The view after a change, with every part of its advice (the later one too)."""
        answer = self.post(body)
        assert answer["ok"], answer["problems"]
        return self.complete(answer["version"])

    def complete(self, version: int) -> dict[str, Any]:
        view = self.session.wait_solved(version, timeout=30, complete=True)
        assert view["version"] == version and view["error"] is None and view["pending"] == []
        return view

    def problems(self, body: dict[str, Any]) -> list[tuple[str, str, str | None]]:
        answer = self.post(body)
        assert not answer["ok"]
        return [(p["kind"], p["field"], p["value"]) for p in answer["problems"]]


@contextmanager
def served(source: str, phase: str) -> Iterator[Table]:
    with Session(TableState(position_of(source), phase=phase), warm_up=False) as session, \
            TestClient(create_app(session, token=TOKEN), base_url="http://table.test") as client:
        client.cookies.set(COOKIE, TOKEN)
        yield Table(session, client)


def refused(state: TableState, change: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    version = state.version
    before = state.position
    applied = state.apply(change)
    assert not applied.ok
    assert state.version == version and state.position == before, "a refused change changed the table"
    return [(p.kind, p.field, p.value) for p in applied.problems]
