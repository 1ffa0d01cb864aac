"""A table's state: the position, its undo history and a version number, saved after every change.

The state holds only legal positions: a change that breaks the rules is refused with its problems and changes
nothing, so every phone always shows a position the planner can solve. Not thread-safe by itself: the session
(:mod:`planner.table.session`) applies changes under its lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from planner.common.files import write_atomically
from planner.common.problems import Problem
from planner.elfenland.board import CAPITAL
from planner.elfenland.inputs import read_position
from planner.elfenland.plan import Step
from planner.elfenland.position import Position
from planner.elfenland.position_file import Overrides, load_position, position_from_mapping, position_to_toml
from planner.errors import IllegalPositionError, UnsupportedError
from planner.table import PHASES
from planner.table.changes import HISTORY_OPS, VIEW_OPS, Change, apply_change, read_change, read_own_route

__all__ = ["HISTORY", "Applied", "TableState", "open_table", "save_position"]

HISTORY = 200
"""Positions kept for undo (a whole game at a table is far fewer changes)."""


@dataclass(frozen=True, slots=True)
class Applied:
    """What became of one change: the version it made, or the problems that refused it (version unchanged)."""

    version: int
    problems: tuple[Problem, ...] = ()
    change: Change | None = None

    @property
    def ok(self) -> bool:
        """Whether the change was made."""
        return not self.problems


class TableState:
    """The position of one table with its history; ``save`` names the file rewritten after every change."""

    def __init__(self, position: Position, *, save: Path | None = None, phase: str = "travel") -> None:
        position.check()
        if phase not in PHASES:
            raise ValueError(f"unknown phase {phase!r}; the phases are {', '.join(PHASES)}")
        self._history = [position.replace(expect=None)]
        self._index = 0
        self.version = 1
        self.alternatives = 1
        self.phase = phase
        """The phase of the round whose advice the table shows (draw, plan, travel): the whole table's, since
        everybody at it plays the same phase."""
        self.yours: tuple[Step, ...] | None = None
        """The player's own route for the explanation to compare (legal on the position; a new position drops it)."""
        self.yours_text: str | None = None
        self.save = save
        if save is not None:
            save_position(self.position, save)

    @property
    def position(self) -> Position:
        """The current position (always legal)."""
        return self._history[self._index]

    @property
    def can_undo(self) -> bool:
        """Whether an earlier position is kept."""
        return self._index > 0

    @property
    def can_redo(self) -> bool:
        """Whether an undone position can come back."""
        return self._index < len(self._history) - 1

    def apply(self, data: Any) -> Applied:
        """Read a page's change (a parsed JSON value) and make it, or say every reason it cannot be made.

        Raises:
            UnsupportedError: the save file cannot be written (the change is made; the caller says so).
        """
        try:
            change = read_change(data)
            if change.op in HISTORY_OPS:
                return self._move(change)
            if change.op in VIEW_OPS:
                return self._view_setting(change)
            position = apply_change(self.position, change)
            position.check()
        except IllegalPositionError as error:
            return Applied(self.version, tuple(error.problems))
        if position == self.position:
            return Applied(self.version, change=change)  # nothing to undo, nothing to solve again
        del self._history[self._index + 1:]
        self._history.append(position)
        del self._history[:-HISTORY]
        self._index = len(self._history) - 1
        if change.op == "new_round":
            self.phase = PHASES[0]  # a round begins with drawing counters
        return self._changed(change)

    def _view_setting(self, change: Change) -> Applied:
        if change.op == "yours":
            return self._own_route((change.text or "").strip())
        name, value = ("alternatives", change.count) if change.op == "alternatives" else ("phase", change.text)
        if getattr(self, name) != value:
            setattr(self, name, value)
            self.version += 1
        return Applied(self.version, change=change)

    def _own_route(self, text: str) -> Applied:
        """Set (or with an empty text, drop) the player's route; an illegal one changes nothing.

        Raises:
            IllegalPositionError: the route does not parse or is not legal on the position.
        """
        steps = read_own_route(self.position, text) if text else None
        if text != (self.yours_text or ""):
            self.yours, self.yours_text = steps, text or None
            self.version += 1
        return Applied(self.version, change=Change("yours", text=text))

    def _move(self, change: Change) -> Applied:
        step = -1 if change.op == "undo" else 1
        if not (self.can_undo if step < 0 else self.can_redo):
            return Applied(self.version, (Problem(f"no-{change.op}", change.op, None, f"nothing to {change.op}"),))
        self._index += step
        return self._changed(change)

    def _changed(self, change: Change) -> Applied:
        self.version += 1
        self.yours = self.yours_text = None  # a route of the old position: its steps may no longer be legal
        if self.save is not None:
            save_position(self.position, self.save)
        return Applied(self.version, change=change)


def save_position(position: Position, path: Path) -> None:
    """Write the position file atomically: a reader (or a crash) sees the old file or the new, never half of one.

    Raises:
        UnsupportedError: the folder is missing or not writable.
    """
    try:
        write_atomically(path, position_to_toml(position))
    except (OSError, UnicodeEncodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UnsupportedError(f"cannot save the table to {str(path)!r}: {reason}") from None


def open_table(source: str | None, overrides: Overrides | None = None, *, save: Path | None = None,
               phase: str = "travel") -> tuple[TableState, list[str]]:
    """The table to serve, and notes for the terminal.

    A save file that exists is the table of an earlier run and is resumed (the source is then ignored, and said
    so); otherwise the source (file, notation, flags) starts it, or a new game (the boot in Elvenhold) when there
    is none. The source file is never written to unless it is the save file.

    Raises:
        IllegalPositionError: the source or the save file cannot be read, or holds an illegal position.
        UnsupportedError: the save file's folder does not exist, or the save file is not a regular file.
    """
    notes = []
    flags = overrides or Overrides()
    if save is not None and not save.parent.is_dir():
        raise UnsupportedError(f"cannot save the table to {str(save)!r}: folder {str(save.parent)!r} does not exist")
    if save is not None and save.exists() and not save.is_file():  # a FIFO would hang the reader, a device...
        raise UnsupportedError(f"cannot save the table to {str(save)!r}: it is not a regular file")
    if save is not None and save.exists():
        position = load_position(str(save), overrides=flags)
        notes.append(f"resuming the table saved in {save}" + (f" ({source} is not read)" if source else ""))
    elif source is None and flags.at is None:
        position = position_from_mapping({"at": CAPITAL}, overrides=flags)
    else:
        position = read_position(source, flags)
    return TableState(position, save=save, phase=phase), notes
