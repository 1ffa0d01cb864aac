"""The keep advice's shortcuts change no value: every option's mean is the mean of fresh solves over the same
sampled next rounds, and the best is the best of them.
"""

from __future__ import annotations

import random
import statistics

import pytest

from planner.elfenland.advice import keeping
from planner.elfenland.advice.keeping import advise_keep
from planner.elfenland.plan import Plan
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, HAND_SIZE
from planner.elfenland.solvers import solve

SAMPLES = 6


def _fresh_mean(position: Position, plan: Plan, option: keeping.KeepOption,
                worlds: list[keeping._World]) -> float:  # noqa: SLF001
    """The option's mean score after ``plan`` (the move ending there), each sampled next round solved afresh by
    the public solver (no shortcut)."""
    visited = frozenset(position.visited | set(plan.new_towns))
    scores = []
    for world in worlds:
        hand = option.cards + Hand.of(world.draws[:HAND_SIZE - len(option.cards)])
        supply = Hand.of([option.counter]) if option.counter is not None else Hand()
        nxt = Position(at=option.end, hand=hand, tiles=world.tiles, visited=visited, home=position.home,
                       round=position.round + 1, rules=position.rules, supply=supply)
        scores.append(solve(nxt, solver="search", joint=True).plan.score)
    return statistics.fmean(scores)


@pytest.mark.parametrize("seed", range(3))
def test_every_keep_option_is_worth_the_mean_of_fresh_solves(seed: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample([t for t in COUNTER_TRANSPORTS for _ in range(3)], 6)
    position = Position(at="ELV", hand=Hand.of(cards), supply=Hand.of(rng.sample(COUNTER_TRANSPORTS, 3)))
    solution = solve(position, solver="search", joint=True, alternatives=4)
    advice = advise_keep(position, solution.plans, samples=SAMPLES, seed=seed)
    assert advice is not None
    worlds = keeping._worlds(position, solution.plans[0], SAMPLES, seed)  # noqa: SLF001
    moves: dict[tuple[str, Hand], Plan] = {}  # the move each (end, cards) follows: the first as good as the best
    for plan in solution.plans:
        if plan.value == solution.plan.value:
            for kept in keeping._card_choices(plan.outcome.cards_left):  # noqa: SLF001
                moves.setdefault((plan.end, kept), plan)
    for option in (*advice.ends, *advice.counters):
        fresh = _fresh_mean(position, moves[(option.end, option.cards)], option, worlds)
        assert option.score == pytest.approx(fresh, abs=1e-12), str(position)
    chosen = moves[(advice.best.end, advice.best.cards)]
    left = position.supply.without(Hand.of([t.transport for t in chosen.placements if t.transport is not None]))
    assert [o.counter for o in advice.counters].count(None) == 1
    assert {o.counter for o in advice.counters} == {None, *(t for t in COUNTER_TRANSPORTS if left[t])}
    assert advice.best == max(advice.counters, key=lambda o: o.value)
    assert advice.best.value >= max(o.value for o in advice.ends)
