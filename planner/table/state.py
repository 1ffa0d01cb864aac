"""A table's state: the position, its undo history and a version number, saved after every change; in game mode
(:mod:`planner.table.game`) the game instead, whose record is the save file.

The state holds only legal positions: a change that breaks the rules is refused with its problems and changes
nothing, so every phone always shows a position the planner can solve. Not thread-safe by itself: the session
(:mod:`planner.table.session`) applies changes under its lock.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from planner.common.files import write_atomically
from planner.common.problems import Problem
from planner.common.values import frozen
from planner.elfenland.board import CAPITAL
from planner.elfenland.inputs import read_position
from planner.elfenland.plan import Step
from planner.elfenland.position import Position
from planner.elfenland.position_file import Overrides, load_position, position_from_mapping, position_to_toml
from planner.errors import IllegalPositionError, UnsupportedError
from planner.table import PHASES
from planner.table.change import refusal
from planner.table.changes import (
    GAME_ONLY,
    HISTORY_OPS,
    VIEW_OPS,
    Change,
    apply_change,
    read_change,
    read_own_route,
)
from planner.table.game import GameTable, start_game
from planner.table.texts import tt, tt_mark

__all__ = ["HISTORY", "Applied", "TableState", "open_table", "save_position"]

HISTORY = 200
"""Positions kept for undo (a whole game at a table is far fewer changes)."""
NOTHING_TO = {"undo": tt_mark("nothing to undo"), "redo": tt_mark("nothing to redo")}
"""What an undo or redo with nothing to take back or bring back says (the table domain, said on use)."""


@frozen
class Applied:
    """What became of one change: the version it made, or the problems that refused it (version unchanged)."""

    version: int
    problems: tuple[Problem, ...] = ()
    change: Change | None = None
    said: str | None = None
    """A game change in words, naming whose it was ("Anna took the face-up pig"; "undone: ...")."""

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
        self._phase = phase
        self.yours: tuple[Step, ...] | None = None
        """The player's own route for the explanation to compare (legal on the position; a new position drops it)."""
        self.yours_text: str | None = None
        self.save = save
        self.mode = "analysis"
        """``game`` (the table follows a game, :attr:`game`) or ``analysis`` (the freehand position)."""
        self.game: GameTable | None = None
        if save is not None:
            save_position(self.position, save)

    @property
    def playing(self) -> GameTable | None:
        """The game the table shows, in game mode."""
        return self.game if self.mode == "game" else None

    @property
    def phase(self) -> str:
        """The phase of the round whose advice the table shows (draw, plan, travel): the whole table's, since
        everybody at it plays the same phase (in game mode, the game's)."""
        return self.playing.phase if self.playing else self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        self._phase = value

    @property
    def position(self) -> Position:
        """The current position (always legal): in game mode, mine in the game."""
        return self.playing.position() if self.playing else self._history[self._index]

    @property
    def advisable(self) -> str | None:
        """None when the position is to be advised, else why not (in game mode: not my turn, my hand awaited)."""
        game = self.playing
        if self.mode == "game" and game is None:
            return "start"
        if game is None or game.my_turn:
            return None
        return "deal" if game.waiting_for_deal else "over" if game.state.over else "turn"

    @property
    def can_undo(self) -> bool:
        """Whether an earlier position (in game mode, an entry of the game) can be taken back."""
        return self.playing.can_undo if self.playing else self._index > 0

    @property
    def can_redo(self) -> bool:
        """Whether an undone position (or game entry) can come back."""
        return self.playing.can_redo if self.playing else self._index < len(self._history) - 1

    def apply(self, data: Any) -> Applied:
        """Read a page's change (a parsed JSON value) and make it, or say every reason it cannot be made.

        Raises:
            UnsupportedError: the save file cannot be written (the change is made; the caller says so).
        """
        try:
            change = read_change(data)
            if change.op == "mode" or change.op in GAME_ONLY or self.mode == "game":
                return self._game_change(change)
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

    def _game_change(self, change: Change) -> Applied:
        """A change in game mode, or one that starts or leaves it.

        Raises:
            IllegalPositionError: the game refuses it, or it edits the position freely (analysis mode does).
        """
        op, game = change.op, self.game
        if op == "mode":
            if change.text == self.mode:
                return Applied(self.version, change=change)
            if change.text == "analysis" and game is not None:  # the analysis board starts from the game
                self._history[self._index + 1:] = [game.position()]
                self._index = len(self._history) - 1
            self.mode = str(change.text)
            return self._changed(change, said=tt("game mode") if self.mode == "game" else tt("analysis mode"))
        if op in VIEW_OPS - {"phase"}:
            return self._view_setting(change)
        if op == "game_start":
            if game is not None and not game.replaceable:
                raise refusal("game-in-progress", "game", game.state.round, tt(
                    "a game is being played (round {round}): finish it, or undo back to its start, before a new one",
                    round=game.state.round))
            if game is not None and game.state.over and self.save is not None:  # its record is the save file's
                raise refusal("game-saved", "game", str(self.save), tt(
                    "the finished game is saved in {file}: start the table again with another {option} file for a "
                    "new game, so that its record is kept", file=repr(str(self.save)), option="--save"))
            self.game, self.mode = start_game(change, self.position.rules), "game"
            return self._changed(change, said=None if self.game.said is None else str(self.game.said()))
        if game is None:
            raise refusal("no-game", "game", None, tt("no game is being played: start one first"))
        self.mode = "game"
        if op in HISTORY_OPS:
            if not (game.can_undo if op == "undo" else game.can_redo):
                return Applied(self.version, (Problem(f"no-{op}", op, None, tt(NOTHING_TO[op])),))
            return self._changed(change, said=game.undo() if op == "undo" else game.redo())
        if op in ("game_deal", "game_act"):
            return self._changed(change, said=game.act(dict(change.entry or {})))
        if op == "travel":
            return self._changed(change, said=game.act({"action": change.text or "-"}))
        raise refusal("game-mode", change.op, None, tt("the table follows the game: switch to analysis mode to "
                                                       "edit the position freely"))

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
            return Applied(self.version, (Problem(f"no-{change.op}", change.op, None, tt(NOTHING_TO[change.op])),))
        self._index += step
        return self._changed(change)

    def _changed(self, change: Change, *, said: str | None = None) -> Applied:
        self.version += 1
        self.yours = self.yours_text = None  # a route of the old position: its steps may no longer be legal
        if self.save is not None and self.game is not None:  # the game stays saved in analysis mode too
            save_game(self.game, self.save)
        elif self.save is not None:
            save_position(self.position, self.save)
        return Applied(self.version, change=change, said=said)


def save_position(position: Position, path: Path) -> None:
    """Write the position file atomically: a reader (or a crash) sees the old file or the new, never half of one.

    Raises:
        UnsupportedError: the folder is missing or not writable.
    """
    try:
        write_atomically(path, position_to_toml(position))
    except (OSError, UnicodeEncodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UnsupportedError(tt("cannot save the table to {file}: {reason}", file=repr(str(path)),
                                  reason=reason)) from None


def save_game(game: GameTable, path: Path) -> None:
    """Write the game's record (one JSON line, ``elfenland-game/1``) atomically.

    Raises:
        UnsupportedError: the folder is missing or not writable.
    """
    try:
        write_atomically(path, json.dumps(game.record(), ensure_ascii=False) + "\n")
    except OSError as error:
        raise UnsupportedError(tt("cannot save the game to {file}: {reason}", file=repr(str(path)),
                                  reason=error.strerror or error)) from None


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
        raise UnsupportedError(tt("cannot save the table to {file}: folder {folder} does not exist",
                                  file=repr(str(save)), folder=repr(str(save.parent))))
    if save is not None and save.exists() and not save.is_file():  # a FIFO would hang the reader, a device...
        raise UnsupportedError(tt("cannot save the table to {file}: it is not a regular file", file=repr(str(save))))
    if save is not None and save.exists() and save.read_bytes()[:1] == b"{":  # a game's record, not a position
        try:
            record = json.loads(save.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise IllegalPositionError([tt("{file} holds no readable game: {error}", file=save, error=error)]) from None
        game = GameTable.from_record(record)
        notes.append(tt("resuming the game saved in {file} ({source} is not read)", file=save, source=source)
                     if source else tt("resuming the game saved in {file}", file=save))
        table = TableState(game.position(), phase=phase)
        table.game, table.mode, table.save = game, "game", save
        return table, notes
    if save is not None and save.exists():
        position = load_position(str(save), overrides=flags)
        notes.append(tt("resuming the table saved in {file} ({source} is not read)", file=save, source=source)
                     if source else tt("resuming the table saved in {file}", file=save))
    elif source is None and flags.at is None:
        position = position_from_mapping({"at": CAPITAL}, overrides=flags)
    else:
        position = read_position(source, flags)
    return TableState(position, save=save, phase=phase), notes
