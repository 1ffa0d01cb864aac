"""Sharing a table and restarting it: the join link and its QR code, the token a saved table keeps.

A friend's phone joins through the link another phone shows (no scan of the terminal); a table served with
``--save`` keeps its token beside the save file, so a restarted server lets every phone with the link back in.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from planner.elfenland.position import Position
from planner.errors import UnsupportedError
from planner.table.app import create_app
from planner.table.server import table_token, token_file
from planner.table.session import Session
from planner.table.state import TableState

SIMPLE = "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"
TOKEN = "sharing-test-token-0123"


def test_the_join_link_carries_the_token_as_this_phone_reached_the_table() -> None:
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as session, \
            TestClient(create_app(session, token=TOKEN), base_url="http://192.168.1.20:8750",
                       follow_redirects=False) as phone:
        assert phone.get(f"/?t={TOKEN}").status_code == 303
        url = phone.get("/api/join").json()["url"]
        assert url == f"http://192.168.1.20:8750/?t={TOKEN}"
        code = phone.get("/api/join.svg")
        assert code.status_code == 200 and code.headers["content-type"].startswith("image/svg+xml")
        assert "<svg" in code.text and 'xmlns="http://www.w3.org/2000/svg"' in code.text
        with TestClient(create_app(session, token=TOKEN), base_url="http://192.168.1.20:8750") as friend:
            assert friend.get("/api/join").status_code == 403  # the link is told only to a phone that has it
            assert friend.get(url).status_code == 200 and friend.get("/api/view").status_code == 200


def test_a_saved_table_keeps_its_token(tmp_path: Path) -> None:
    save = tmp_path / "table.toml"
    first = table_token(save)
    assert token_file(save).read_text(encoding="utf-8").strip() == first
    assert stat.S_IMODE(os.stat(token_file(save)).st_mode) == 0o600  # the token is the user's alone
    assert table_token(save) == first  # a restart: the same token, so every phone's cookie still opens the table
    assert table_token(None) != table_token(None)  # without a save file, every server has a new one


def test_a_broken_token_file_is_replaced_but_a_folder_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "table.toml"
    token_file(save).write_text("not a token!\n", encoding="utf-8")
    made = table_token(save)
    assert made != "not a token!" and table_token(save) == made
    other = tmp_path / "other.toml"
    token_file(other).mkdir()
    with pytest.raises(UnsupportedError, match="not a regular file"):
        table_token(other)
