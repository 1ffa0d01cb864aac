"""The trainer's score file: the streak and the puzzles solved per theme, kept in the user's data directory.

The file lives in ``platformdirs.user_data_dir("elfenland-planner")`` (e.g. ``~/.local/share/elfenland-planner``
on Linux), never in the working directory; the ``ELFENLAND_DATA_DIR`` environment variable or an explicit path
moves it (the tests point it at a temporary folder). It is small JSON, written whole to a temporary file and then
renamed, so an interrupted write never leaves half a file (and the file keeps its permissions).

A score file never costs the user a file of theirs. Reading writes nothing (``--stats`` only reads). What is
found at the path (:class:`FileState`):

- nothing, or an empty file: a fresh record, saved there;
- a readable score file: its record;
- a **damaged score file**: a file that cannot be read in full, and that is recognisably a score file: it holds
  the format's mark (``"format": "elfenland-scores/1"``, or the bare ``elfenland-scores/1`` in text that no longer
  parses), or it is the score file of the planner's own data folder (the default path, or the one
  ``ELFENLAND_DATA_DIR`` names: nothing else writes there). Scoring starts afresh with a warning, and the file is
  set aside (as ``<name>.bad``, or ``<name>.bad-2`` ... when that is taken) just before the first new score
  replaces it;
- anything else (another program's file, a newer planner's score file, one too big or unreadable): a warning,
  the file is left alone, and the session's scores are not recorded;
- not a regular file (a folder, a FIFO, a device): refused with :class:`~planner.errors.UnsupportedError` before
  it is opened (a FIFO would block the reader).
"""

from __future__ import annotations

import enum
import json
import os
import stat
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from planner.common.files import write_atomically
from planner.common.forms import MAX_INPUT_BYTES
from planner.common.values import frozen
from planner.errors import UnsupportedError

__all__ = ["DATA_DIR_ENV", "SCORE_FILE", "FileState", "Loaded", "Scores", "load_scores", "save_scores", "score_path"]

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


@frozen
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


class FileState(enum.Enum):
    """What the score file's path held when it was read, and so what saving may do to it."""

    FRESH = "fresh"
    """No file, or an empty one: saving creates (or fills) it."""
    READ = "read"
    """A score file, read: saving replaces it."""
    DAMAGED = "damaged"
    """A damaged score file: saving sets it aside first."""
    FOREIGN = "foreign"
    """Not (this planner's) score file, or unreadable: never written."""


@frozen
class Loaded:
    """The record read from the score file, how the file was found, and a warning to show when not all is well."""

    scores: Scores
    state: FileState
    warning: str | None = None

    @property
    def writable(self) -> bool:
        """Whether saving may replace what is at the path (a damaged score file once set aside)."""
        return self.state is not FileState.FOREIGN


_FAMILY = _FORMAT.split("/")[0] + "/"
"""What every version's format mark starts with."""


def _file_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse(path: Path, mode: int) -> UnsupportedError:
    return UnsupportedError(f"the score file {str(path)!r} is {_file_kind(mode)}, not a regular file: give "
                            "--scores the path of a file (it is created if missing)")


def _check_regular(path: Path) -> None:
    """Refuse a path that holds something other than a regular file (before anything opens it).

    Raises:
        UnsupportedError: a folder, FIFO, device or socket.
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError:
        return  # the open that follows says what is wrong
    if not stat.S_ISREG(mode):
        raise _refuse(path, mode)


def load_scores(path: Path, *, own_folder: bool = False) -> Loaded:
    """The scores in ``path`` and how the file was found (see the module docstring); nothing is written.
    ``own_folder`` says that ``path`` is the score file of the planner's data folder (:func:`score_path` with no
    path), so that a file there that does not read is taken for a damaged score file, mark or not.

    Raises:
        UnsupportedError: the path is a folder, a FIFO, a device or a socket.
    """
    _check_regular(path)
    name = repr(str(path))
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO swapped in: never block
    except FileNotFoundError:
        return Loaded(Scores(), FileState.FRESH)
    except OSError as error:
        return Loaded(Scores(), FileState.FOREIGN, f"cannot read the score file {name} ({error.strerror or error}): "
                      "it is left alone and this session's scores are not recorded")
    with os.fdopen(descriptor, "rb") as stream:
        mode = os.fstat(stream.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise _refuse(path, mode)
        raw = stream.read(MAX_INPUT_BYTES + 1)
    if not raw.strip():
        return Loaded(Scores(), FileState.FRESH)
    leave = "it is left alone and this session's scores are not recorded"
    if len(raw) > MAX_INPUT_BYTES:
        return Loaded(Scores(), FileState.FOREIGN, f"{name} is too big to be a score file: {leave}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        if own_folder or _FORMAT.encode() in raw:
            return _damaged(path, f"it is not JSON: {error}")
        return Loaded(Scores(), FileState.FOREIGN, f"{name} is not a score file (not JSON): {leave}")
    version = data.get("format") if isinstance(data, dict) else None
    if version != _FORMAT:
        if isinstance(version, str) and version.startswith(_FAMILY):
            return Loaded(Scores(), FileState.FOREIGN, f"{name} is a score file of another planner version "
                          f"({version!r}; this one reads {_FORMAT!r}): {leave}")
        if own_folder:
            return _damaged(path, f"no \"format\": {_FORMAT!r}")
        return Loaded(Scores(), FileState.FOREIGN, f"{name} is not a score file (no \"format\": {_FORMAT!r}): "
                      f"{leave}")
    try:
        scores = Scores(_whole(data["streak"]), _whole(data["best_streak"]), _counts(data["solved"]),
                        _counts(data["tried"]))
    except (ValueError, KeyError) as error:
        return _damaged(path, f"missing {error}" if isinstance(error, KeyError) else str(error))
    return Loaded(scores, FileState.READ)


def _damaged(path: Path, why: str) -> Loaded:
    return Loaded(Scores(), FileState.DAMAGED, f"the score file {str(path)!r} is damaged ({why}); scoring starts "
                  f"afresh, and the file is set aside as {str(_aside(path))!r} when the next puzzle is scored")


def _aside(path: Path) -> Path:
    """The first free name to set a damaged file aside as: ``<name>.bad``, then ``<name>.bad-2`` ..."""
    number = 1
    while True:
        aside = path.with_name(path.name + (".bad" if number == 1 else f".bad-{number}"))
        if not aside.exists() and not aside.is_symlink():
            return aside
        number += 1


def save_scores(scores: Scores, path: Path, *, set_aside: bool = False) -> Path | None:
    """Write the scores (creating the folder), whole or not at all; with ``set_aside``, first keep the file there
    (a damaged score file) under a free ``.bad`` name, which is returned.

    Raises:
        UnsupportedError: the folder or file cannot be written, or the path is not a regular file.
    """
    try:
        _check_regular(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        aside = None
        if set_aside and path.exists():
            aside = _aside(path)
            try:
                os.link(path, aside)  # unlike a rename, never replaces a file that took the name meanwhile
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links
                os.rename(path, aside)
        write_atomically(path, json.dumps(scores.as_dict(), indent=2) + "\n")
    except OSError as error:
        raise UnsupportedError(f"cannot write the score file {str(path)!r}: {error.strerror or error}") from None
    return aside
