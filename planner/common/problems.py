"""Structured problems of an input, collected so that every problem is reported at once.

A :class:`Problem` (defined beside the error that carries it, :class:`~planner.errors.IllegalPositionError`, and
offered here) says what is wrong for people and for programs; :class:`Problems` gathers them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ParamSpec, TypeVar

from planner.common.i18n import ngettext, say
from planner.errors import (
    IllegalPlacementError,
    IllegalPositionError,
    IllegalStepError,
    NotationError,
    PlannerError,
    Problem,
)

P = ParamSpec("P")
T = TypeVar("T")

__all__ = ["Problem", "Problems", "error_text"]


def error_text(error: BaseException) -> str:
    """The error's message in the language spoken now: every problem of a position under a counted heading, a
    numbered step or placement with its number. (The library's messages are translated where they are made;
    :mod:`planner.errors` builds these frames in English, importing nothing of the planner.)"""
    if isinstance(error, IllegalPositionError) and len(error.problems) > 1:
        n = len(error.problems)
        head = ngettext("{n} problem in position:", "{n} problems in position:", n).format(n=n)
        return head + "\n" + "\n".join(f"- {p}" for p in error.problems)
    if type(error) is IllegalStepError:  # an Expeditions action error says "action N:" itself
        return say("step {n}: {reason}", n=error.index + 1, reason=error.reason)
    if isinstance(error, IllegalPlacementError):
        return say("placement {n}: {reason}", n=error.index + 1, reason=error.reason)
    return str(error)


class Problems:
    """Collects the problems of one input: syntax and rule problems of every field together."""

    def __init__(self) -> None:
        self.found: list[Problem] = []

    def __bool__(self) -> bool:
        return bool(self.found)

    def __len__(self) -> int:
        return len(self.found)

    def add(self, kind: str, field: str, value: object, message: str) -> None:
        """Note one problem; ``value`` is quoted as text (None stays None)."""
        self.found.append(Problem(kind, field, None if value is None else str(value), message))

    def extend(self, problems: Iterable[Problem]) -> None:
        """Note problems found elsewhere."""
        self.found.extend(problems)

    def attempt(self, field: str, parse: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T | None:
        """``parse(*args, **kwargs)``, or None after noting the :class:`PlannerError` it raised under ``field``."""
        try:
            return parse(*args, **kwargs)
        except IllegalPositionError as error:
            self.found.extend(error.problems)
        except NotationError as error:
            value = error.value if error.value is not None else (str(args[0]) if args else None)
            self.found.append(Problem(error.kind, field, value, str(error)))
        except PlannerError as error:
            self.found.append(Problem("input", field, str(args[0]) if args else None, str(error)))
        return None

    def check(self) -> None:
        """Raise what was found, if anything.

        Raises:
            IllegalPositionError: every problem noted.
        """
        if self.found:
            raise IllegalPositionError(self.found)
