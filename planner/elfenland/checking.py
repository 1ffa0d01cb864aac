"""A player's route judged beside the best: legal (or the verifier's reason), and whether it is optimal, by value.

One judge for every front end that takes a player's own route: ``elfenland check``, the table page's route of
your own (:func:`planner.table.changes.read_own_route`) and the explanation's comparison
(:func:`planner.elfenland.teach.compare.compare`). Each used to decide legality and optimality in its own words;
here a route is optimal when its value (towns, then fewest cards; :attr:`Plan.value`) is at least the best's, so
a tie with another route of the same value is optimal too.
"""

from __future__ import annotations

from collections.abc import Sequence

from planner.common.limits import Limit, Status, StopLike
from planner.common.values import frozen
from planner.elfenland.notation import parse_route_tokens
from planner.elfenland.plan import Plan, Step, parse_route
from planner.elfenland.position import Position
from planner.elfenland.solvers import DEFAULT_LIMIT, solve
from planner.errors import IllegalStepError

__all__ = ["RouteCheck", "route_check"]


@frozen
class RouteCheck:
    """A player's route, verified, beside the position's best plan (pure data, no wording)."""

    steps: tuple[Step, ...]
    """The route as read."""
    yours: Plan | None
    """The route as a verified plan; None when it is illegal."""
    error: IllegalStepError | None
    """Why the route is illegal: the verifier's step index and reason (None when it is legal)."""
    token: str | None
    """The step that breaks, as the player typed it (None when the route is legal)."""
    best: Plan | None
    """The position's best plan (None when the check was asked for legality only)."""
    status: Status | None
    """How the solve of the best ended (None when it was given or not solved); not OPTIMAL: not proven."""

    @property
    def legal(self) -> bool:
        """Whether the verifier accepts the route."""
        return self.yours is not None

    @property
    def optimal(self) -> bool:
        """Whether the route is legal and as good as the best, by value (towns, then cards): ties count."""
        return self.yours is not None and self.best is not None and self.yours.value >= self.best.value


def route_check(position: Position, route: str | Sequence[Step], *, best: Plan | None = None,
                solve_best: bool = True, solver: str = "auto", limit: Limit = DEFAULT_LIMIT,
                stop: StopLike | None = None, seed: int = 0) -> RouteCheck:
    """Verify the player's ``route`` (text like ``"thr/E jac/D"`` or steps) on ``position`` and set it beside the
    best plan: ``best`` when the caller has it, else solved here (unless ``solve_best`` is false: legality only).

    The text is parsed before anything is solved, so a typo is reported at once.

    Raises:
        NotationError: the route text does not parse (an unknown town, towns that are not neighbours).
        IllegalPositionError: the position breaks the rules (when the best is solved).
        SolverError: a solver failed (a bug).
    """
    steps = parse_route(position, route) if isinstance(route, str) else tuple(route)
    yours: Plan | None = None
    error: IllegalStepError | None = None
    token: str | None = None
    try:
        yours = Plan.of(position, steps)
    except IllegalStepError as illegal:
        error = illegal
        token = _token(route, steps, illegal.index)
    status: Status | None = None
    if best is None and solve_best:
        solution = solve(position, solver=solver, limit=limit, stop=stop, seed=seed)
        best, status = solution.plan, solution.status
    return RouteCheck(steps, yours, error, token, best, status)


def _token(route: str | Sequence[Step], steps: tuple[Step, ...], index: int) -> str:
    """Step ``index`` as the player wrote it (the whole text when the index lies past its end)."""
    if isinstance(route, str):
        tokens = parse_route_tokens(route)
        return tokens[index].text if index < len(tokens) else route
    return str(steps[index]) if index < len(steps) else " ".join(str(s) for s in steps)
