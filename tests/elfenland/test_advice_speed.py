"""The bounds and shortcuts that make the advice fast change no answer: every value is checked against the brute
force of ``tests/helpers/brute.py`` (which shares no code with the solvers) or against the same computation
without the shortcut.
"""

from __future__ import annotations

from collections import Counter

import pytest
import strategies
from brute import brute_force, brute_force_joint
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.elfenland.advice import solving
from planner.elfenland.advice.placing import after_reply, joint_plan, place_now, replies_to
from planner.elfenland.advice.solving import clear_cache
from planner.elfenland.plan import place, verify
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS
from planner.elfenland.solvers import solve
from planner.elfenland.solvers.search import solve_search


@st.composite
def joint_positions(draw: st.DrawFn) -> Position:
    """Small legal positions (brute force stays quick) with up to 3 counters in the supply, the start town
    sometimes still to collect."""
    position = draw(strategies.positions(max_cards=5, round_keys=False))
    on_board = Counter(t.transport for t in position.tiles)
    stock = [t for t in COUNTER_TRANSPORTS for _ in range(COUNTERS[t] - on_board[t])]
    supply = draw(st.lists(st.sampled_from(stock), max_size=3)) if stock else []
    position = position.replace(supply=Hand.of(supply))
    if draw(st.booleans()):
        position = position.replace(visited=position.visited | {position.at})
    return position


@given(joint_positions())
@settings(max_examples=strategies.examples(120), deadline=None)
def test_the_card_bound_keeps_the_joint_search_exact(position: Position) -> None:
    joint = solve_search(position, joint=True)
    assert joint.proven
    assert joint.plan.objective == brute_force_joint(position)[0], str(position)
    route = solve_search(position)
    assert route.plan.value == brute_force(position)[0], str(position)



def _naive_worst(position: Position) -> tuple[int, int]:
    """My plan after the worst single reply to it, every reply solved afresh (no cache, no shortcut)."""
    plan = solve(position, solver="search", joint=True).plan
    values = [solve(after_reply(position, road, counter), solver="search", joint=True).plan.value
              for road, counter in replies_to(position, plan)]
    return min([plan.value, *values])


@given(joint_positions(), st.booleans())
@settings(max_examples=strategies.examples(40), deadline=None)
def test_place_now_with_its_shortcuts_is_the_maximin_of_fresh_solves(position: Position, warm: bool) -> None:
    clear_cache()
    if warm:  # the same advice from a cache the first run filled
        place_now(position, solver="search")
    advice = place_now(position, solver="search")
    # Passing also meets the end of planning (everybody else passes): the route on the board as it is.
    ended = solve(position, solver="search").plan.value
    assert advice.passing.worst == min(_naive_worst(position), ended), str(position)
    for candidate in advice.candidates[1:]:
        assert candidate.placement is not None
        if not candidate.refuted:
            assert candidate.worst == _naive_worst(place(position, [candidate.placement])), str(position)
    assert advice.now.worst == max(c.worst for c in advice.candidates if not c.refuted)
    for reply in (r for c in advice.candidates for r in c.replies):
        assert reply.plan.position.tiles  # walked on its own position: replays under the verifier
        verify(reply.plan.position, reply.plan.steps)


@given(joint_positions())
@settings(max_examples=strategies.examples(40), deadline=None)
def test_a_cached_joint_plan_is_walked_on_the_position_asked(position: Position) -> None:
    clear_cache()
    first = joint_plan(position)
    other = position.replace(title="another title", notes="asked again")
    again = joint_plan(other)
    assert again.plan.objective == first.plan.objective == solve(other, solver="search", joint=True).plan.objective
    assert again.plan.position == place(other, again.plan.placements)
    verify(again.plan.position, again.plan.steps)


@given(joint_positions())
@settings(max_examples=strategies.examples(40), deadline=None)
def test_a_joint_plan_the_first_search_cannot_prove_goes_to_the_race_and_is_the_same(position: Position) -> None:
    clear_cache()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solving, "SEARCH_FIRST_NODES", 1)  # every first search gives up (a node limit: no clock)
        raced = joint_plan(position)
    clear_cache()
    assert raced.proven
    expected = solve_search(position, joint=True).plan.objective
    assert raced.plan.objective == joint_plan(position).plan.objective == expected
