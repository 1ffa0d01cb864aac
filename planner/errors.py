"""Exception hierarchy shared by the planner's games.

Every error the library raises on purpose derives from :class:`PlannerError`, so a caller (the CLI, the table
server) can turn them into a clear message and an exit code without catching anything broader. Which errors are
the user's (bad input, exit code 2) and which are bugs (exit code 1) is decided here, once: see :func:`is_input_error`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from planner.common.values import frozen


@frozen
class Problem:
    """One thing wrong with an input: what is wrong for people (``message``, the text the CLI prints) and for
    programs (``kind``, ``field``, ``value``), so that a web page highlights the road or the card a problem names
    without parsing the message.

    It lives beside the error that carries it (:class:`IllegalPositionError`), so that this module imports none of
    the planner; :mod:`planner.common.problems`, which collects problems, offers it too. ``str()`` is the message.
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


class PlannerError(Exception):
    """Base class of every error the planner raises on purpose."""


class NotationError(PlannerError, ValueError):
    """Text that does not parse: an unknown town, card, road or a malformed token.

    ``kind`` names the problem for programs (``unknown-town``, ``bad-count``, ...) and ``value`` quotes the input
    that caused it, so that a collector can turn the error into a structured problem.
    """

    def __init__(self, message: str, *, kind: str = "syntax", value: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.value = value

    def __reduce__(self) -> tuple[object, ...]:  # keeps kind and value across processes
        return (_rebuild_notation_error, (type(self), str(self), self.kind, self.value))


class AmbiguousNameError(NotationError):
    """A name or abbreviation that fits more than one town or transport."""


class IllegalPositionError(PlannerError):
    """A position (or any input form) that breaks the rules; ``problems`` lists every problem, not just the first.

    Each problem is a :class:`Problem` (``kind``, ``field``, ``value``, ``message``);
    plain strings are accepted and become problems of kind ``input``.
    """

    def __init__(self, problems: Iterable[Problem | str]) -> None:
        self.problems: list[Problem] = [p if isinstance(p, Problem) else Problem("input", "", None, p)
                                        for p in problems]
        if len(self.problems) == 1:
            message = self.problems[0].message
        else:
            message = f"{len(self.problems)} problems in position:\n" + "\n".join(f"- {p}" for p in self.problems)
        super().__init__(message)

    def __reduce__(self) -> tuple[object, ...]:  # keeps the structured problems across processes
        return (type(self), (self.problems,))


class _NumberedError(PlannerError):
    """An error about the ``index``-th item of a list (0-based), shown as ``<what> <index + 1>: <reason>``."""

    what = "item"

    def __init__(self, index: int, message: str) -> None:
        self.index = index
        self.reason = message
        super().__init__(f"{self.what} {index + 1}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.index, self.reason))


class IllegalStepError(_NumberedError):
    """A route step that cannot be played; ``index`` is the 0-based step number."""

    what = "step"


class IllegalPlacementError(_NumberedError):
    """A counter that cannot be placed where a plan puts it; ``index`` is the 0-based placement number."""

    what = "placement"


class UnsupportedError(PlannerError):
    """A request the planner cannot honour as asked: a rule option a solver does not model, a picture format whose
    optional converter is not installed, an output path that cannot be written. The user's to change (exit 2)."""


class NoPlanError(PlannerError):
    """No plan exists (never raised for Elfenland: the empty route is always legal)."""


class SolverError(PlannerError):
    """A solver failed: an invalid model, a bug, or a plan that did not pass the verifier. Always a bug."""


def _rebuild_notation_error(cls: type[NotationError], message: str, kind: str, value: str | None) -> NotationError:
    return cls(message, kind=kind, value=value)


def is_input_error(error: PlannerError) -> bool:
    """Whether ``error`` is the user's to fix (bad input, exit code 2) rather than a bug (exit code 1)."""
    return isinstance(error, NotationError | IllegalPositionError | IllegalStepError | IllegalPlacementError
                      | UnsupportedError)
