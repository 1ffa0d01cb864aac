"""planner.common.files: a file is written whole or not at all, through a temporary file of its own."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from planner.common.files import write_atomically


def test_writes_utf8_text_and_replaces_an_older_file(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text("old", encoding="utf-8")
    write_atomically(path, 'at = "Beatá"\n')
    assert path.read_bytes() == 'at = "Beatá"\n'.encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.toml"]  # no temporary file left behind


def test_each_write_has_its_own_temporary_file_beside_the_target(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # Two writers at once (two table servers, the trainer in two terminals) must not share one temporary name.
    used: list[str] = []
    replace = os.replace

    def recording(source: str, target: Path) -> None:
        used.append(source)
        replace(source, target)

    monkeypatch.setattr(os, "replace", recording)
    path = tmp_path / "scores.json"
    write_atomically(path, "1")
    write_atomically(path, "2")
    assert len(set(used)) == 2
    for name in used:
        assert Path(name).parent == tmp_path and Path(name).name.startswith(".scores.json.")
    assert path.read_text() == "2"


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "table.toml"
    path.write_text("old", encoding="utf-8")

    def full_disk(source: str, target: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(path, "new")
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.toml"]


def test_a_text_that_cannot_be_written_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    with pytest.raises(UnicodeEncodeError):
        write_atomically(path, "\udcff")  # a lone surrogate has no UTF-8 form
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_atomically(tmp_path / "gone" / "table.toml", "x")
    assert list(tmp_path.iterdir()) == []
