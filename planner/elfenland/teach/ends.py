"""The last round's trade-off: one more town against the distance home, as a small table of end towns.

In the last round a home-town card costs a point per link from the end town to home, so a town more may not be
worth the walk. The rows are the best route into each end town among the position's best answers (the solver's
alternatives: the best routes that differ in the towns they collect or the town where they end), plus the route
that collects the most towns whatever the distance. A row is the best route into its end town: had another
route into that town scored more, it would rank above this one and be listed instead.
"""

from __future__ import annotations

from planner.common.limits import Limit, StopLike
from planner.common.values import frozen
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers import DEFAULT_LIMIT, solve

__all__ = ["END_ROWS", "EndRow", "EndTable", "end_table"]

END_ROWS = 6
"""Answers asked of the solver for the table (it lists one row per end town among them)."""


@frozen
class EndRow:
    """The best route found ending in one town."""

    end: str
    plan: Plan
    towns: int
    """New towns collected."""
    home_distance: int
    """Links from the end town to home: the points it costs."""
    best: bool
    """Whether this row's route is a best route of all (several rows may tie)."""
    most_towns: bool
    """Whether this row collects as many towns as any route can."""

    @property
    def score(self) -> int:
        """Towns minus the home distance."""
        return self.towns - self.home_distance


@frozen
class EndTable:
    """End towns, best first, and what the most towns would cost."""

    home: str
    rows: tuple[EndRow, ...]
    most_towns: int
    """The most new towns any route can collect, ignoring home."""
    proven: bool


def end_table(position: Position, *, rows: int = END_ROWS, limit: Limit = DEFAULT_LIMIT,
              stop: StopLike | None = None) -> EndTable | None:
    """The end-town table of a last-round position with a home-town card, or None when home does not score.

    Raises:
        SolverError: a solver failed (a bug).
    """
    if not position.scores_home or position.home is None:
        return None
    ranked = solve(position, alternatives=rows, limit=limit, stop=stop)
    farthest = solve(position.replace(home=None), limit=limit, stop=stop)  # most towns, whatever the distance
    most = len(farthest.plan.new_towns)
    found: dict[str, Plan] = {}
    for plan in ranked.plans:
        found.setdefault(plan.end, plan)
    if farthest.plan.end not in found:
        # Re-scored in the last round: the same steps, now charged the distance home.
        found[farthest.plan.end] = Plan.of(position, farthest.plan.steps, proven=farthest.proven)
    best = ranked.plan
    table = []
    for end, plan in sorted(found.items(), key=lambda item: (-item[1].score, item[1].cards_spent, item[0])):
        table.append(EndRow(end, plan, len(plan.new_towns), plan.outcome.home_penalty, plan.value == best.value,
                            len(plan.new_towns) == most))
    return EndTable(position.home, tuple(table), most, ranked.proven and farthest.proven)
