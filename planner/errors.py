"""Exception hierarchy shared by the planner's games.

Every error the library raises on purpose derives from :class:`PlannerError`, so a caller (the CLI) can turn
them into a clear message and an exit code without catching anything broader.
"""

from __future__ import annotations


class PlannerError(Exception):
    """Base class of every error the planner raises on purpose."""


class NotationError(PlannerError, ValueError):
    """Text that does not parse: an unknown town, card, road or a malformed token."""


class AmbiguousNameError(NotationError):
    """A name or abbreviation that fits more than one town or transport."""


class IllegalPositionError(PlannerError):
    """A position that breaks the rules; ``problems`` lists every problem found, not just the first."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        if len(self.problems) == 1:
            message = self.problems[0]
        else:
            message = f"{len(self.problems)} problems in position:\n" + "\n".join(f"- {p}" for p in self.problems)
        super().__init__(message)


class IllegalStepError(PlannerError):
    """A route step that cannot be played; ``index`` is the 0-based step number."""

    def __init__(self, index: int, message: str) -> None:
        self.index = index
        self.reason = message
        super().__init__(f"step {index + 1}: {message}")


class NoPlanError(PlannerError):
    """No plan exists (never raised for Elfenland: the empty route is always legal)."""


class SolverError(PlannerError):
    """A solver failed: an invalid model, a bug, or a plan that did not pass the verifier."""


class SolverTimeoutError(SolverError):
    """A solver found no route at all within its time limit (not a bug: raise the limit)."""
