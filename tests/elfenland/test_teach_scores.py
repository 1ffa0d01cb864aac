"""The score file: where it lives (never the working directory), what it records, and that damage never stops
the trainer; and the trainer session driven line by line."""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs
import pytest

from planner.elfenland.teach.scores import DATA_DIR_ENV, SCORE_FILE, Scores, load_scores, save_scores, score_path
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
    assert load_scores(path) == (Scores(), None)
    scores = Scores().record("ferry", True)
    save_scores(scores, path)
    assert load_scores(path) == (scores, None)
    assert not list(path.parent.glob("*.tmp"))  # written whole, then renamed


@pytest.mark.parametrize("damage", [b"{not json", b"\xff\xfe", b"[]", b'{"format": "elfenland-scores/1"}',
                                    b'{"format": "elfenland-scores/1", "streak": -1, "best_streak": 0, '
                                    b'"solved": {}, "tried": {}}', b"[" * 100_000])
def test_a_damaged_file_is_set_aside_with_a_warning(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / SCORE_FILE
    path.write_bytes(damage)
    scores, warning = load_scores(path)
    assert scores == Scores() and warning is not None and "damaged" in warning
    assert (tmp_path / (SCORE_FILE + ".bad")).read_bytes() == damage and not path.exists()


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
