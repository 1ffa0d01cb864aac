"""A player's route beside the best: the first step where it falls behind, and what that step cost.

After each step of the player's route the best that can still be had is solved afresh: the position as it then
stands (the boot where the step left it, the cards left, the towns collected so far), plus what the steps so far
collected and spent. That value never rises along a route; the first step where it drops is where the route
falls behind, and the drop is what the step cost, in points and cards. A route can also stay on the best track
and stop too early: then the last value is higher than what the route got.
"""

from __future__ import annotations

from planner.common.limits import Limit, StopLike
from planner.common.values import frozen
from planner.elfenland.checking import RouteCheck, route_check
from planner.elfenland.plan import Outcome, Plan, Step, verify
from planner.elfenland.position import Position
from planner.elfenland.solvers import DEFAULT_LIMIT, solve
from planner.errors import IllegalStepError

__all__ = ["Comparison", "compare", "position_after"]


def position_after(position: Position, steps: tuple[Step, ...]) -> Position:
    """The position once ``steps`` (legal) are walked: the boot where they end, the cards left, the towns
    collected (the counters, round, home and rules as they were).

    Raises:
        IllegalStepError: the steps are not legal.
    """
    return _after(position, verify(position, steps))


def _after(position: Position, outcome: Outcome) -> Position:
    """The position once a route with ``outcome`` is walked (see :func:`position_after`)."""
    return Position(at=outcome.end, hand=outcome.cards_left, tiles=position.tiles,
                    visited=position.visited | set(outcome.new_towns), home=position.home, round=position.round,
                    rules=position.rules)


@frozen
class Comparison:
    """The player's route beside the best."""

    best: Plan
    yours: Plan | None
    """The player's route as a plan (None when it is illegal)."""
    error: IllegalStepError | None
    """Why the route is illegal (the verifier's reason and step), if it is."""
    potentials: tuple[tuple[int, int], ...]
    """For each k = 0..steps: the best (score, -cards) still to be had after the route's first k steps."""
    behind_at: int | None
    """The 1-based step where the route first falls behind (None: it never does)."""
    instead: Plan | None
    """From just before that step: the best way on (a plan of the position as it then stood)."""
    proven: bool
    """Whether every solve behind the potentials was proven optimal."""
    check: RouteCheck
    """The route judged beside the best (:func:`~planner.elfenland.checking.route_check`): legal? optimal?"""

    @property
    def optimal(self) -> bool:
        """Whether the route is as good as the best (points, then cards): the judgement of :attr:`check`."""
        return self.check.optimal

    @property
    def lost(self) -> tuple[int, int]:
        """What the whole route lost against the best: (points lost, extra cards spent, negative when fewer)."""
        if self.yours is None:
            return (0, 0)
        return (self.best.score - self.yours.score, self.yours.cards_spent - self.best.cards_spent)

    @property
    def step_cost(self) -> tuple[int, int]:
        """What the step that fell behind cost: (points lost, extra cards spent, negative when fewer); (0, 0)
        when none did."""
        if self.behind_at is None:
            return (0, 0)
        before, after = self.potentials[self.behind_at - 1], self.potentials[self.behind_at]
        return (before[0] - after[0], before[1] - after[1])

    @property
    def stopped_early(self) -> bool:
        """Whether the route stopped while more was still to be had where it stopped."""
        return self.yours is not None and self.potentials[-1] > self.yours.value


def compare(position: Position, steps: tuple[Step, ...], best: Plan, *, limit: Limit = DEFAULT_LIMIT,
            stop: StopLike | None = None) -> Comparison:
    """The player's ``steps`` beside ``best`` (the position's best route): legal? where does it fall behind?

    Raises:
        SolverError: a solver failed (a bug).
    """
    check = route_check(position, steps, best=best)
    legal = steps if check.error is None else steps[:check.error.index]
    potentials: list[tuple[int, int]] = []
    afters: list[Plan] = []
    proven = True
    for k in range(len(legal) + 1):
        if k == 0:
            solved, done_points, done_cards = best, 0, 0
        else:
            outcome = verify(position, legal[:k])
            solution = solve(_after(position, outcome), limit=limit, stop=stop)
            solved, proven = solution.plan, proven and solution.proven
            done_points, done_cards = len(outcome.new_towns), outcome.cards_spent
        afters.append(solved)
        potentials.append((done_points + solved.score, -(done_cards + solved.cards_spent)))
    behind = next((k for k in range(1, len(potentials)) if potentials[k] < potentials[k - 1]), None)
    instead = afters[behind - 1] if behind is not None else None
    return Comparison(best, check.yours, check.error, tuple(potentials), behind, instead, proven and best.proven,
                      check)
