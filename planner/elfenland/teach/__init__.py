"""Teaching good routing: why the best route is best, what would change it, and a graded puzzle trainer.

All plain data for any front end (the CLI renders with :mod:`.render`, ``--json`` with :mod:`.report`)::

    from planner.elfenland.teach import explain, generate, grade

- :func:`explain`: per-step reasons, the reachability table, what-if additions, the last round's end towns and
  the comparison of a player's route with the best;
- :func:`generate`: seeded puzzles with proven answers and lessons; :func:`grade` an answer to one;
- :class:`Trainer`: a session of puzzles with the score file.
"""

from planner.elfenland.teach.explanation import Explanation, explain
from planner.elfenland.teach.grade import Grade, Verdict, grade
from planner.elfenland.teach.puzzles import THEMES, Puzzle, generate
from planner.elfenland.teach.trainer import Trainer

__all__ = ["THEMES", "Explanation", "Grade", "Puzzle", "Trainer", "Verdict", "explain", "generate", "grade"]
