"""The bounds and shortcuts that make the advice fast change no answer: every value is checked against the brute
force of ``tests/helpers/brute.py`` (which shares no code with the solvers) or against the same computation
without the shortcut.
"""

from __future__ import annotations

from collections import Counter

import strategies
from brute import brute_force, brute_force_joint
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS
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

