"""The score file: where it lives (never the working directory), what it records, and that damage never stops
the trainer; and the trainer session driven line by line."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import platformdirs
import pytest

from planner.elfenland.teach.scores import (
    DATA_DIR_ENV,
    SCORE_FILE,
    FileState,
    Loaded,
    Scores,
    load_scores,
    save_scores,
    score_path,
)
from planner.elfenland.teach.trainer import Command, Trainer
from planner.errors import UnsupportedError


def test_the_score_file_is_in_the_users_data_directory_not_the_working_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    path = score_path()
    assert path == Path(platformdirs.user_data_dir("elfenland-planner", appauthor=False)) / SCORE_FILE
    assert path.is_absolute() and not path.is_relative_to(tmp_path)


def test_the_environment_or_a_path_moves_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    assert score_path() == tmp_path / "data" / SCORE_FILE
    assert score_path(tmp_path / "mine.json") == tmp_path / "mine.json"


def test_the_streak_counts_puzzles_solved_in_a_row_and_themes_count_apart() -> None:
    scores = Scores()
    for theme, solved in [("caravan", True), ("caravan", True), ("home", False), ("home", True)]:
        scores = scores.record(theme, solved)
    assert (scores.streak, scores.best_streak) == (1, 2)
    assert scores.solved == {"caravan": 2, "home": 1} and scores.tried == {"caravan": 2, "home": 2}


def test_scores_survive_a_round_trip_and_a_missing_file_is_a_fresh_start(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / SCORE_FILE
    assert load_scores(path) == Loaded(Scores(), FileState.FRESH)
    scores = Scores().record("ferry", True)
    save_scores(scores, path)
    assert load_scores(path) == Loaded(scores, FileState.READ)
    assert not list(path.parent.glob("*.tmp"))  # written whole, then renamed


DAMAGED = [b'{"format": "elfenland-scores/1"}',
           b'{"format": "elfenland-scores/1", "streak": -1, "best_streak": 0, "solved": {}, "tried": {}}',
           b'{"format": "elfenland-scores/1", "streak": 2, "best_streak": 2, "solved": {"a": "x"}, "tried": {}}',
           b'{"format": "elfenland-scores/1", "streak": 2,, oops']
FOREIGN = [b"{not json", b"\xff\xfe", b"[]", b"[" * 100_000, b'{"format": "elfenland-scores/2", "streak": 1}',
           b"my thesis\n", b'{"name": "another program"}', b"x" * (1 << 20) + b"elfenland-scores/1"]


@pytest.mark.parametrize("damage", DAMAGED)
def test_a_damaged_score_file_is_set_aside_only_when_a_score_replaces_it(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / SCORE_FILE
    path.write_bytes(damage)
    loaded = load_scores(path)
    assert loaded.scores == Scores() and loaded.state is FileState.DAMAGED and loaded.writable
    assert loaded.warning is not None and "damaged" in loaded.warning and SCORE_FILE + ".bad" in loaded.warning
    assert path.read_bytes() == damage and sorted(tmp_path.iterdir()) == [path]  # reading writes nothing
    (tmp_path / (SCORE_FILE + ".bad")).write_bytes(b"an older damaged file")  # the name is taken: the next one
    aside = save_scores(Scores().record("ferry", True), path, set_aside=True)
    assert aside == tmp_path / (SCORE_FILE + ".bad-2") and aside.read_bytes() == damage
    assert (tmp_path / (SCORE_FILE + ".bad")).read_bytes() == b"an older damaged file"
    assert load_scores(path).scores.solved == {"ferry": 1}


@pytest.mark.parametrize("content", FOREIGN)
def test_a_file_that_is_not_a_score_file_is_left_alone_and_never_written(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / SCORE_FILE
    path.write_bytes(content)
    loaded = load_scores(path)
    assert loaded.state is FileState.FOREIGN and not loaded.writable and loaded.scores == Scores()
    assert loaded.warning is not None and "left alone" in loaded.warning
    trainer = Trainer(seed=3, themes=("caravan",), difficulties=(1,), scores=path)
    assert not trainer.record and trainer.warning == loaded.warning
    assert trainer.hear(str(trainer.puzzle.best)).finished
    assert path.read_bytes() == content and sorted(tmp_path.iterdir()) == [path]


def test_an_empty_file_is_a_fresh_record(tmp_path: Path) -> None:
    path = tmp_path / SCORE_FILE
    path.write_bytes(b"")
    assert load_scores(path) == Loaded(Scores(), FileState.FRESH)


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_path_that_is_not_a_regular_file_is_refused_before_it_is_opened(tmp_path: Path, kind: str) -> None:
    path = tmp_path / SCORE_FILE
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)  # opened for reading, it would block until a writer came
    else:
        path.mkdir()
    with pytest.raises(UnsupportedError, match="not a regular file"):
        load_scores(path)
    with pytest.raises(UnsupportedError, match="not a regular file"):
        Trainer(seed=3, scores=path)
    with pytest.raises(UnsupportedError, match="not a regular file"):
        save_scores(Scores(), path)
    assert (stat.S_ISFIFO if kind == "fifo" else stat.S_ISDIR)(os.lstat(path).st_mode)
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_rewrite_keeps_the_files_mode_and_its_link(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    save_scores(Scores(), real)
    real.chmod(0o644)
    save_scores(Scores().record("ferry", True), real)
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    link = tmp_path / SCORE_FILE
    link.symlink_to(real)
    save_scores(load_scores(link).scores.record("home", False), link)
    assert link.is_symlink() and load_scores(real).scores.tried == {"ferry": 1, "home": 1}
    assert stat.S_IMODE(real.stat().st_mode) == 0o644


def test_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UnsupportedError, match="cannot write the score file"):
        save_scores(Scores(), blocker / SCORE_FILE)


def test_a_session_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / SCORE_FILE
    trainer = Trainer(seed=3, themes=("caravan",), difficulties=(1,), scores=path)
    puzzle = trainer.puzzle
    assert trainer.hear("").command is Command.NOTHING
    hint = trainer.hear("hint")
    assert f"{puzzle.score} point" in hint.message and "caravan" in hint.message and not hint.finished
    assert not trainer.hear("zzz/Q").finished  # unreadable: try again, not counted
    assert not path.exists()
    solved = trainer.hear(str(puzzle.best))
    assert solved.finished and solved.grade is not None and solved.grade.solved
    assert json.loads(path.read_text())["solved"] == {"caravan": 1}
    second = trainer.next()
    assert second.seed == 4 and second.theme == "caravan"
    assert trainer.hear("skip").finished
    assert trainer.scores.streak == 0 and trainer.scores.tried == {"caravan": 2}
    assert "streak 0 (best 1)" in trainer.hear("stats").message
    assert trainer.hear("quit").command is Command.QUIT


def test_a_session_that_keeps_no_scores_writes_nothing(tmp_path: Path) -> None:
    trainer = Trainer(seed=3, themes=("caravan",), difficulties=(1,), scores=tmp_path / SCORE_FILE, record=False)
    trainer.hear(str(trainer.puzzle.best))
    assert not (tmp_path / SCORE_FILE).exists()
