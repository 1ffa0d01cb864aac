"""Which counter to draw: each face-up counter, and the blind draw, by the joint plan it makes possible.

For each counter type lying face up, the joint plan with that counter added to my supply; for the blind draw, the
expectation of the same over the unseen counters (48 less the board, the display, the counters seen, the
opponents' face-up ones and my own), each type weighted by how many of it are unseen. The board is taken as it
is now: counters drawn before planning are placed later, by everybody, so the plan is a measure of what the counter
adds to my hand of counters, not a forecast of the round.
"""

from __future__ import annotations

from planner.common.limits import Limit, StopLike
from planner.common.values import frozen
from planner.elfenland.advice.placing import ADVICE_LIMIT, joint_plan
from planner.elfenland.advice.pools import unseen_counters
from planner.elfenland.advice.solving import cached_joints
from planner.elfenland.plan import Plan
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import COSTS, COUNTER_TRANSPORTS, SUPPLY_LIMIT, Terrain, Transport
from planner.errors import IllegalPositionError

__all__ = ["DrawAdvice", "DrawOption", "advise_draw"]


@frozen
class DrawOption:
    """One counter I could take, and what my joint plan is worth with it."""

    counter: Transport | None
    """The face-up counter taken; None for the blind draw."""
    score: float
    """The joint plan's score with it (expected over the unseen counters for the blind draw)."""
    cards: float
    """The cards the joint plan spends (expected, for the blind draw)."""
    plan: Plan | None
    """The joint plan with it (None for the blind draw, which averages several)."""
    chances: dict[Transport, float] | None = None
    """For the blind draw: the chance of each type."""

    @property
    def value(self) -> tuple[float, float]:
        """(score, -cards): larger is better."""
        return (self.score, -self.cards)


@frozen
class DrawAdvice:
    """What ``elfenland draw`` answers: every option, the best first."""

    position: Position
    now: Plan
    """My joint plan with the supply as it is."""
    options: tuple[DrawOption, ...]
    """Best first (face-up before blind when equal: a sure counter beats an expected one)."""

    @property
    def best(self) -> DrawOption:
        """The counter to take."""
        return self.options[0]


def advise_draw(position: Position, *, solver: str = "auto", limit: Limit = ADVICE_LIMIT,
                stop: StopLike | None = None, seed: int = 0) -> DrawAdvice:
    """Each face-up counter and the blind draw, by my joint plan with it (see the module docstring).

    Raises:
        IllegalPositionError: the position breaks the rules, or my supply is full (5 counters): no draw is left.
    """
    position.check()
    if len(position.supply) >= SUPPLY_LIMIT:
        raise IllegalPositionError([f"the supply holds {len(position.supply)} counters: a player holds at most "
                                    f"{SUPPLY_LIMIT}, so there is nothing left to draw"])
    unseen = unseen_counters(position)

    def with_counter(transport: Transport) -> Position:
        """The position with ``transport`` drawn (from the display when it lies there, else blind: the joint plan
        does not depend on the display, so one plan serves both)."""
        one = Hand.of([transport])
        display = position.display.without(one) if position.display[transport] else position.display
        return position.replace(supply=position.supply + one, display=display)

    solved = joint_plan(position, solver=solver, limit=limit, stop=stop, seed=seed)
    now = solved.plan
    drawn = [t for t in COUNTER_TRANSPORTS if position.display[t] or unseen[t]]
    above = _dominating(position, drawn)
    first = [t for t in drawn if not above[t]]
    # With a counter more, a joint solve takes about as long again as without (up to three times): the estimate
    # that decides whether worker processes pay.
    solutions = cached_joints([with_counter(t) for t in first], solver=solver, limit=limit, stop=stop, seed=seed,
                              each=2 * solved.elapsed, spare=[with_counter(t) for t in drawn if above[t]])
    plans = {t: solution.plan for t, solution in zip(first, solutions, strict=True)}
    for t in sorted((t for t in drawn if above[t]), key=lambda t: -len(COSTS[t])):
        # Between my plan now and the plan with a counter that can do all it does: equal to both when those are.
        if any(plans[u].objective == now.objective for u in above[t] if u in plans):
            plans[t] = Plan.of(with_counter(t), now.steps, proven=now.proven, solver=now.solver,
                               placements=now.placements)
        else:
            plans[t] = joint_plan(with_counter(t), solver=solver, limit=limit, stop=stop, seed=seed).plan
    options = []
    for t in COUNTER_TRANSPORTS:
        if position.display[t]:
            plan = plans[t]
            options.append(DrawOption(t, plan.score, plan.cards_spent, plan))
    if len(unseen):
        chances = {t: unseen[t] / len(unseen) for t in COUNTER_TRANSPORTS if unseen[t]}
        blind = {t: plans[t] for t in chances}
        # Whole-number sums divided once: a blind draw as good as a face-up counter in every case ties it exactly.
        score = sum(unseen[t] * blind[t].score for t in blind) / len(unseen)
        cards = sum(unseen[t] * blind[t].cards_spent for t in blind) / len(unseen)
        options.append(DrawOption(None, score, cards, None, chances))
    options.sort(key=lambda o: (o.value, o.counter is not None), reverse=True)
    return DrawAdvice(position, now, tuple(options))


def _dominating(position: Position, drawn: list[Transport]) -> dict[Transport, list[Transport]]:
    """Per counter type drawn, the other types drawn whose counter does all it does for me, so that my best joint
    plan with it is no better than with them: it only ever goes by caravan (my cards cannot pay it on any terrain),
    and they go on every terrain it goes on, their caravans no dearer. Caravans of the strict rule depend on the
    cards held, so there none is dominated."""
    found: dict[Transport, list[Transport]] = {t: [] for t in drawn}
    if position.rules.strict:
        return found
    rules = position.rules

    def price(u: Transport, terrain: Terrain) -> int:
        return rules.caravan_cost(COSTS[u][terrain], obstacle=False)

    def does_all(u: Transport, t: Transport) -> bool:
        return all(terrain in COSTS[u] and price(u, terrain) <= price(t, terrain) for terrain in COSTS[t])

    for t in drawn:
        if position.hand[t] < min(COSTS[t].values()):  # my cards pay it nowhere
            found[t] = [u for u in drawn if u is not t and does_all(u, t)]
    return found
