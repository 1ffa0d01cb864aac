"""``explain``: the best route with the reasons behind it, as one plain-data record for any front end.

It gathers the per-step notes (:mod:`.steps`), the reachability table (:mod:`.reach`), the what-if additions
(:mod:`.whatif`), the last round's end towns (:mod:`.ends`) and, given the player's own route, the comparison
with the best (:mod:`.compare`). Nothing here prints: the CLI renders it with rich, ``--json`` with
:mod:`.report`, and a web page may show the same record.
"""

from __future__ import annotations

from collections.abc import Callable

from planner.common.i18n import gettext, say
from planner.common.limits import Limit, StopLike
from planner.common.values import frozen
from planner.elfenland.plan import Step
from planner.elfenland.position import Position
from planner.elfenland.solvers import DEFAULT_LIMIT, Solution, solve
from planner.elfenland.teach.compare import Comparison, compare
from planner.elfenland.teach.ends import EndTable, end_table
from planner.elfenland.teach.reach import Reach, reach_table
from planner.elfenland.teach.steps import StepNote, step_notes
from planner.elfenland.teach.whatif import WhatIf, what_if

__all__ = ["Explanation", "explain"]


@frozen
class Explanation:
    """Everything ``elfenland explain`` shows about one position."""

    position: Position
    solution: Solution
    """The best route and how sure it is."""
    notes: tuple[StepNote, ...]
    reach: tuple[Reach, ...]
    what_if: WhatIf | None
    """None when not asked for."""
    ends: EndTable | None
    """None unless the last round charges the distance home."""
    comparison: Comparison | None
    """None unless the player's route was given."""

    @property
    def proven(self) -> bool:
        """Whether every optimum behind the explanation was proven."""
        return (self.solution.proven and (self.what_if is None or self.what_if.proven)
                and (self.ends is None or self.ends.proven)
                and (self.comparison is None or self.comparison.proven))


def explain(position: Position, *, route: tuple[Step, ...] | None = None, with_what_if: bool = True,
            limit: Limit = DEFAULT_LIMIT, stop: StopLike | None = None,
            progress: Callable[[str], None] | None = None) -> Explanation:
    """Explain the best route of ``position``; with ``route``, compare the player's route with it.

    ``progress`` is told what is being worked on (``"what-if 12/40"``), for a front end to show.

    Raises:
        IllegalPositionError: the position breaks the rules.
        SolverError: a solver failed (a bug).
    """
    def tell(text: str) -> None:  # in the language spoken now: a front end shows it as it is
        if progress is not None:
            progress(text)

    position.check()
    tell(gettext("solving"))
    solution = solve(position, limit=limit, stop=stop)
    best = solution.plan
    tell(gettext("reachability"))
    reach = tuple(reach_table(position))
    found = None
    if with_what_if:
        found = what_if(position, best, limit=limit, stop=stop,
                        progress=lambda done, total: tell(say("what-if {done}/{total}", done=done, total=total)))
    tell(gettext("end towns"))
    ends = end_table(position, limit=limit, stop=stop)
    comparison = None
    if route is not None:
        tell(gettext("your route"))
        comparison = compare(position, route, best, limit=limit, stop=stop)
    return Explanation(position, solution, tuple(step_notes(best)), reach, found, ends, comparison)
