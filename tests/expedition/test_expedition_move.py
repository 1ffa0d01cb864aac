"""The best move against a plain enumeration through the turn engine, every move replayed, hand-derived moves."""

from __future__ import annotations

import random

import pytest
from exbrute import best_value
from exhelp import table
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from planner.common.limits import Limit, Status
from planner.expedition.generate import random_position
from planner.expedition.position import Position
from planner.expedition.search import Move, best_moves
from planner.expedition.turn import verify


def _replays(position: Position, move: Move) -> None:
    outcome = verify(position, move.actions)
    assert (outcome.points, outcome.opponents_points, outcome.tickets_spent, outcome.arrows) == (
        move.points, move.opponents, move.tickets, move.arrows), str(move)


def _agrees(position: Position, tickets: int, states: int) -> None:
    try:
        plain = best_value(position, tickets=tickets, limit=states)
    except RuntimeError:
        assume(False)
        return
    found = best_moves(position, tickets=tickets, limit=Limit(nodes=2_000_000))
    assert found.status is Status.OPTIMAL
    assert found.best.value == plain, (str(position), str(found.best))
    _replays(position, found.best)
    for alternative in found.alternatives:
        _replays(position, alternative)
        assert alternative.value <= found.best.value


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 1))
def test_the_best_move_equals_a_plain_enumeration(seed: int, tickets: int) -> None:
    rng = random.Random(seed)
    _agrees(random_position(rng, turns=rng.randint(0, 30)), tickets, 1_500)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 2))
def test_the_best_move_equals_a_plain_enumeration_on_bigger_turns(seed: int, tickets: int) -> None:
    rng = random.Random(seed)
    _agrees(random_position(rng, turns=rng.randint(0, 40)), tickets, 30_000)


def test_hand_derived_best_moves() -> None:
    # Gizeh (my token: +4) is two arrows away: only a ticket's extra arrow gets there this turn.
    position = table(yellow=["start", "Athens"], hand=["Gizeh", "Sahara"], tokens=["Sahara"])
    assert best_moves(position, tickets=0).best.points == 2  # yellow Gizeh
    two = best_moves(position, tickets=1)
    assert (two.best.points, two.best.tickets) == (6, 1)  # yellow Gizeh (+2), ticket yellow Sahara (+4)
    assert [str(a) for a in two.best.actions] == ["yellow Athens>Gizeh", "ticket yellow Gizeh>Sahara"]


def test_a_blue_square_chain_is_found_without_tickets() -> None:
    # blue:Start-E's bonus pays the second arrow: start>blue:Start-E, then Caspian Sea (my card)
    position = table(hand=["Caspian Sea"])
    move = best_moves(position, tickets=0).best
    assert (move.points, move.arrows, move.tickets) == (2, 2, 0)


def test_a_node_limit_gives_a_reproducible_unproven_answer() -> None:
    position = random_position(random.Random(3), turns=20)
    first = best_moves(position, tickets=2, limit=Limit(nodes=3000))
    again = best_moves(position, tickets=2, limit=Limit(nodes=3000))
    assert first.status is not Status.OPTIMAL and str(first.best) == str(again.best)
    _replays(position, first.best)


def test_tickets_must_be_0_1_or_2() -> None:
    with pytest.raises(ValueError, match="0 to 2"):
        best_moves(table(), tickets=3)
