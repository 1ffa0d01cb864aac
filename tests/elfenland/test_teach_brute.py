"""The teaching references of :mod:`teachbrute` checked against the brute force of the solver tests."""

from __future__ import annotations

import pytest
from brute import best_by_key, brute_force
from teachbrute import FEATURES, best_value, fewest_cards, most_towns_best, small_positions

from planner.elfenland.position import Position


@pytest.mark.parametrize("position", small_positions(6, 11), ids=str)
def test_best_value_without_restrictions_is_the_brute_force(position: Position) -> None:
    assert best_value(position) == brute_force(position)[0]


def test_forbidding_a_feature_never_helps_and_forbidding_everything_leaves_fewer_routes() -> None:
    for position in small_positions(4, 12):
        full = best_value(position)
        for feature in FEATURES:
            assert best_value(position, [feature]) <= full
        assert best_value(position, FEATURES) <= min(best_value(position, [f]) for f in FEATURES)


@pytest.mark.parametrize("position", small_positions(4, 14, cards=4), ids=str)
def test_most_towns_best_is_the_best_of_the_keys_with_the_most_towns(position: Position) -> None:
    keys = best_by_key(position)
    most = max(len(towns) for towns, _ in keys)
    assert most_towns_best(position) == (most, max(v for (towns, _), v in keys.items() if len(towns) == most))


@pytest.mark.parametrize("position", small_positions(8, 13, cards=4), ids=str)
def test_fewest_cards_is_the_cheapest_route_the_brute_force_lists(position: Position) -> None:
    cheapest: dict[str, int] = {}
    for (_, end), (_, neg) in best_by_key(position.replace(home=None)).items():
        cheapest[end] = min(cheapest.get(end, -neg), -neg)
    # best_by_key keeps the cheapest route per (towns, end); a cheapest route to a town ends there.
    assert fewest_cards(position) == cheapest
