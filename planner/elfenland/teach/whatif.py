"""What-if: the single extra card, and the single extra counter on an empty road, that would help the most.

Every candidate is solved again with the addition in place (the same :func:`~planner.elfenland.solvers.solve`
every answer comes from), so a gain is never estimated: it is the difference between two optima. Only counters
on roads with an end the hand can reach are tried, since the boot can never stand beside any other road; among
counters the hand cannot pay, one per caravan price is tried (the same caravan travels them all).
"""

from __future__ import annotations

from collections.abc import Callable

from planner.common.limits import Limit, StopLike
from planner.common.values import frozen
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers import DEFAULT_LIMIT, solve
from planner.elfenland.teach.additions import Addition, card_additions, counter_additions
from planner.elfenland.teach.reach import cheapest

__all__ = ["Gain", "WhatIf", "what_if"]

Progress = Callable[[int, int], None]
"""Called with (done, total) as candidates are solved."""


@frozen
class Gain:
    """What one addition does to the best route."""

    addition: Addition
    plan: Plan
    """The best route with the addition (a plan of the position with it)."""
    towns: int
    """Points gained (new towns, or home distance saved)."""
    cards: int
    """Cards saved (negative: spent more, for more points)."""
    proven: bool
    """Whether that best route is proven optimal."""

    @property
    def value(self) -> tuple[int, int]:
        """(points gained, cards saved): larger is better."""
        return (self.towns, self.cards)


@frozen
class WhatIf:
    """The best extra card and the best extra counter (None: no candidate at all), and every candidate as good."""

    base: Plan
    card: Gain | None
    counter: Gain | None
    card_ties: tuple[Addition, ...]
    """Other cards that gain exactly as much."""
    counter_ties: tuple[Addition, ...]
    """Other counters that gain exactly as much."""
    tried: int
    """Positions solved again."""
    proven: bool
    """Whether every one of those solves was proven optimal (else a better addition may have been missed)."""


def what_if(position: Position, base: Plan, *, limit: Limit = DEFAULT_LIMIT, stop: StopLike | None = None,
            progress: Progress | None = None) -> WhatIf:
    """The extra card, and the extra counter on an empty road, that would add the most points (then save the
    most cards) over ``base``, the position's best route; each found by solving again with it.

    Raises:
        SolverError: a solver failed (a bug).
    """
    cards = card_additions(position)
    counters = counter_additions(position, set(cheapest(position)))
    total = len(cards) + len(counters)
    done = 0
    proven = True

    def best_of(candidates: list[Addition]) -> tuple[Gain | None, tuple[Addition, ...]]:
        nonlocal done, proven
        gains: list[Gain] = []
        for addition in candidates:
            solution = solve(addition.apply(position), limit=limit, stop=stop)
            plan = solution.plan
            proven = proven and solution.proven
            gains.append(Gain(addition, plan, plan.score - base.score, base.cards_spent - plan.cards_spent,
                              solution.proven))
            done += 1
            if progress is not None:
                progress(done, total)
        if not gains:
            return None, ()
        top = max(gains, key=lambda g: g.value)  # the first of the best, in the candidates' fixed order
        return top, tuple(g.addition for g in gains if g.value == top.value and g is not top)

    card, card_ties = best_of(cards)
    counter, counter_ties = best_of(counters)
    return WhatIf(base, card, counter, card_ties, counter_ties, total, proven)
