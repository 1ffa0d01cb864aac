"""The record every change of the table page is read into, and the problem its readers refuse a change with.

Its own module, below both readers (:mod:`planner.table.changes` for the board and the hand,
:mod:`planner.table.rounds` for the drawing and planning phases), so that neither imports the other's privates.
"""

from __future__ import annotations

from typing import Any

from planner.common.problems import Problem
from planner.common.values import frozen
from planner.elfenland.position import Hand
from planner.elfenland.rules import Transport
from planner.errors import IllegalPositionError

__all__ = ["Change", "problem", "refusal"]


@frozen
class Change:
    """One change, checked and canonical: road ids, town codes, transports and typed rule values.

    Only the fields of its ``op`` are set; the rest stay None.
    """

    op: str
    road: str | None = None
    counter: Transport | None = None
    obstacle: bool = False
    card: Transport | None = None
    delta: int = 0
    hand: Hand | None = None
    town: str | None = None
    visited: bool = True
    round: int | None = None
    rule: str | None = None
    value: Any = None
    text: str | None = None
    count: int | None = None
    pile: str | None = None
    index: int | None = None
    """The opponent an ``opponent`` change edits, or who places (``place``: 0 for me)."""
    remove: bool = False
    opponent: dict[str, Any] | None = None
    """An ``opponent`` change's keys as sent, read later by the position file's reader."""
    keep: bool = False
    """Whether a ``new_round`` says which counter to keep (``counter``; None: none)."""
    entry: dict[str, Any] | None = None
    """A game op's log entry (:mod:`planner.table.game`)."""


def problem(kind: str, field: str, value: Any, message: str) -> Problem:
    """A problem of a change, its value quoted as text and cut to 60 characters (a page may send anything)."""
    return Problem(kind, field, None if value is None else str(value)[:60], message)


def refusal(kind: str, field: str, value: Any, message: str) -> IllegalPositionError:
    """The error refusing a change for that one :func:`problem`."""
    return IllegalPositionError([problem(kind, field, value, message)])
