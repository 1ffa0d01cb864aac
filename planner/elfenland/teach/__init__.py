"""Teaching good routing: why the best route is best, what would change it, and a graded puzzle trainer.

All plain data for any front end (the CLI renders with :mod:`.render`, ``--json`` with :mod:`.report`)::

    from planner.elfenland.teach import explain, generate, grade

- :func:`explain`: per-step reasons, the reachability table, what-if additions, the last round's end towns and
  the comparison of a player's route with the best;
- :func:`generate`: seeded puzzles with proven answers and lessons; :func:`grade` an answer to one;
- :class:`Trainer`: a session of puzzles with the score file.

The names load on first use, so that ``elfenland route``, which imports the command line, does not pay for them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from planner.elfenland.teach.themes import THEMES

if TYPE_CHECKING:
    from planner.elfenland.teach.explanation import Explanation, explain
    from planner.elfenland.teach.grade import Grade, Verdict, grade
    from planner.elfenland.teach.puzzles import Puzzle, generate
    from planner.elfenland.teach.trainer import Trainer

__all__ = ["THEMES", "Explanation", "Grade", "Puzzle", "Trainer", "Verdict", "explain", "generate", "grade"]

_HOMES = {"Explanation": "explanation", "explain": "explanation", "Grade": "grade", "Verdict": "grade",
          "grade": "grade", "Puzzle": "puzzles", "generate": "puzzles", "Trainer": "trainer"}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f"planner.elfenland.teach.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
