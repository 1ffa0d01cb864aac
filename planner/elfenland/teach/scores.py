"""The trainer's score file: the streak and the puzzles solved per theme, kept in the user's data directory.

The file lives in ``platformdirs.user_data_dir("elfenland-planner")`` (e.g. ``~/.local/share/elfenland-planner``
on Linux), never in the working directory; the ``ELFENLAND_DATA_DIR`` environment variable or an explicit path
moves it (the tests point it at a temporary folder). It is small JSON, written whole to a temporary file and then
renamed, so an interrupted write never leaves half a file. A file that cannot be read is set aside as
``<name>.bad`` with a warning, and scoring starts afresh: a damaged score file never stops the trainer.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from planner.common.files import write_atomically
from planner.common.forms import MAX_INPUT_BYTES
from planner.errors import UnsupportedError

__all__ = ["DATA_DIR_ENV", "SCORE_FILE", "Scores", "load_scores", "save_scores", "score_path"]

DATA_DIR_ENV = "ELFENLAND_DATA_DIR"
SCORE_FILE = "puzzle-scores.json"
_FORMAT = "elfenland-scores/1"


def score_path(path: str | Path | None = None) -> Path:
    """Where the score file is: ``path`` if given, else in ``$ELFENLAND_DATA_DIR``, else in the user's data
    directory."""
    if path is not None:
        return Path(path)
    folder = os.environ.get(DATA_DIR_ENV)
    if not folder:
        import platformdirs  # only the trainer needs it

        folder = platformdirs.user_data_dir("elfenland-planner", appauthor=False)
    return Path(folder) / SCORE_FILE


@dataclass(frozen=True, slots=True)
class Scores:
    """The trainer's record."""

    streak: int = 0
    """Puzzles solved in a row, up to the last one graded."""
    best_streak: int = 0
    solved: dict[str, int] = field(default_factory=dict)
    """Puzzles solved, per theme."""
    tried: dict[str, int] = field(default_factory=dict)
    """Puzzles graded, per theme."""

    def record(self, theme: str, solved: bool) -> Scores:
        """The record after one more graded puzzle of ``theme``."""
        streak = self.streak + 1 if solved else 0
        return replace(self, streak=streak, best_streak=max(self.best_streak, streak),
                       solved={**self.solved, theme: self.solved.get(theme, 0) + solved},
                       tried={**self.tried, theme: self.tried.get(theme, 0) + 1})

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape (also the file's)."""
        return {"format": _FORMAT, "streak": self.streak, "best_streak": self.best_streak,
                "solved": dict(sorted(self.solved.items())), "tried": dict(sorted(self.tried.items()))}


def _counts(value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and type(v) is int and v >= 0
                                              for k, v in value.items()):
        raise ValueError("counts per theme must map names to whole numbers")
    return dict(value)


def _whole(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{value!r} is not a whole number")
    return value


def load_scores(path: Path) -> tuple[Scores, str | None]:
    """The scores in ``path`` (none yet: a fresh record), and a warning when the file was unreadable and set
    aside."""
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        return Scores(), None
    except OSError as error:
        return Scores(), f"cannot read the score file {str(path)!r} ({error.strerror or error}); starting afresh"
    try:
        if len(raw) > MAX_INPUT_BYTES:
            raise ValueError("it is too big")
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise ValueError(f"it is not an {_FORMAT} file")
        scores = Scores(_whole(data["streak"]), _whole(data["best_streak"]), _counts(data["solved"]),
                        _counts(data["tried"]))
    except (ValueError, KeyError, UnicodeDecodeError, RecursionError) as error:
        aside = path.with_name(path.name + ".bad")
        try:
            os.replace(path, aside)
            where = f"; set aside as {str(aside)!r}"
        except OSError:
            where = ""
        return Scores(), f"the score file {str(path)!r} is damaged ({error}){where}; starting afresh"
    return scores, None


def save_scores(scores: Scores, path: Path) -> None:
    """Write the scores (creating the folder), whole or not at all.

    Raises:
        UnsupportedError: the folder or file cannot be written.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(scores.as_dict(), indent=2) + "\n")
    except OSError as error:
        raise UnsupportedError(f"cannot write the score file {str(path)!r}: {error.strerror or error}") from None
