"""route_check, the one judge of a player's route: the verifier's reason for an illegal one, and "optimal" by value
against the brute force (a tie with another route of the same value is optimal)."""

from __future__ import annotations

from typing import Any

import pytest
from brute import brute_force
from teachbrute import small_positions

from planner.elfenland import checking
from planner.elfenland.checking import route_check
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.errors import NotationError

# Rivinia with E D R, an elfcycle counter to Throtmanni and a dragon counter on to Jaccaranda: by hand, the best
# takes both (2 towns for 2 cards); Throtmanni alone is 1 town; paying D to Throtmanni breaks the first step.
POSITION = Position.from_str("D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1")


def test_an_optimal_route_and_a_short_one() -> None:
    best = route_check(POSITION, "thr/E jac/D")
    assert best.legal and best.optimal and best.error is None and best.token is None
    assert best.best is not None and best.best.value == (2, -2)
    short = route_check(POSITION, "thr/E")
    assert short.legal and not short.optimal and short.yours is not None and short.yours.value == (1, -1)


def test_an_illegal_route_gives_the_verifiers_step_and_reason_and_the_token_as_typed() -> None:
    judged = route_check(POSITION, "thr/D,  jac/D")
    assert not judged.legal and not judged.optimal and judged.yours is None
    assert judged.error is not None and judged.error.index == 0 and "costs E" in judged.error.reason
    assert judged.token == "thr/D"
    assert judged.best is not None and judged.best.value == (2, -2)  # the best is still there to show


def test_a_given_best_is_not_solved_again_and_legality_alone_solves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_solving(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("solved")

    given = Plan.of(POSITION, route_check(POSITION, "thr/E jac/D", solve_best=False).steps)
    monkeypatch.setattr(checking, "solve", no_solving)
    assert route_check(POSITION, "thr/E jac/D", best=given).optimal
    legal_only = route_check(POSITION, "thr/E", solve_best=False)
    assert legal_only.legal and legal_only.best is None and not legal_only.optimal
    with pytest.raises(NotationError, match="unknown town 'jcc'"):
        route_check(POSITION, "thr/E jcc/D")  # a typo, before any solving


@pytest.mark.parametrize("position", small_positions(12, seed=19, cards=4), ids=str)
def test_optimal_means_as_good_as_the_brute_force_best(position: Position) -> None:
    value, steps = brute_force(position)
    judged = route_check(position, steps)
    assert judged.legal and judged.optimal  # the brute force's route, whichever of the ties it picked
    assert judged.best is not None and judged.best.value == value
