"""Structured problems of an input, collected so that every problem is reported at once.

A :class:`Problem` (defined beside the error that carries it, :class:`~planner.errors.IllegalPositionError`, and
offered here) says what is wrong for people and for programs; :class:`Problems` gathers them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ParamSpec, TypeVar

from planner.errors import IllegalPositionError, NotationError, PlannerError, Problem

P = ParamSpec("P")
T = TypeVar("T")

__all__ = ["Problem", "Problems"]


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
