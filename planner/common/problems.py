"""Structured problems of an input, collected so that every problem is reported at once.

A :class:`Problem` says what is wrong for people (``message``, the text the CLI prints) and for programs (``kind``,
``field``, ``value``): a web page highlights the road or the card a problem names without parsing the message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import ParamSpec, TypeVar

from planner.errors import IllegalPositionError, NotationError, PlannerError

P = ParamSpec("P")
T = TypeVar("T")

__all__ = ["Problem", "Problems"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input.

    ``str()`` is the message, so code that printed plain problem strings prints the same text.
    """

    kind: str
    """What is wrong, for programs: ``unknown-town``, ``no-such-road``, ``terrain``, ``too-many-cards``, ..."""
    field: str
    """Where: the input field (``at``, ``hand``, ``tiles``, ``rules.caravan``, ``--tile``), or ``""``."""
    value: str | None
    """The offending input as typed, or the canonical id it resolved to (a road id for ``tiles``), if any."""
    message: str
    """The whole explanation for people, naming the input and, where one helps, a hint."""

    def __str__(self) -> str:
        return self.message

    def with_source(self, source: str) -> Problem:
        """The same problem, its message prefixed with where the input came from (``01-first-steps.toml: ...``)."""
        return replace(self, message=f"{source}: {self.message}")

    def as_dict(self) -> dict[str, str | None]:
        """The JSON shape: ``{"kind", "field", "value", "message"}``."""
        return {"kind": self.kind, "field": self.field, "value": self.value, "message": self.message}


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
