"""The atlas (every answer's best route) against the brute force, with and without each feature."""

from __future__ import annotations

import random

import pytest
import strategies
from brute import best_by_key, brute_force
from hypothesis import given, settings
from teachbrute import FEATURES, best_value, small_positions, step_has

from planner.elfenland.generate import random_position
from planner.elfenland.plan import verify
from planner.elfenland.position import Position
from planner.elfenland.solvers import solve
from planner.elfenland.teach.atlas import explore, route_features
from planner.elfenland.teach.ways import Feature
from planner.errors import UnsupportedError

WORDS = {f.word: f for f in Feature}


def _check_entries(position: Position) -> None:
    atlas = explore(position)
    expected = best_by_key(position)
    assert {key: e.value for key, e in atlas.entries.items()} == expected, str(position)
    for entry in atlas.entries.values():
        outcome = verify(position, atlas.plan(entry).steps)
        assert (frozenset(outcome.new_towns), outcome.end) == (entry.towns, entry.end)
        assert (outcome.score, -outcome.cards_spent) == entry.value


@pytest.mark.parametrize("position", small_positions(10, 21, cards=4) + small_positions(6, 22, cards=5), ids=str)
def test_every_answers_best_route_is_the_brute_forces(position: Position) -> None:
    _check_entries(position)


@settings(max_examples=strategies.examples(25))
@given(strategies.positions(max_cards=4, min_tiles=10))
def test_every_answer_under_any_rules(position: Position) -> None:
    """Any rule options, the strict caravan rule (exact hands) and the home penalty included."""
    _check_entries(position)


@pytest.mark.parametrize("feature", FEATURES)
def test_the_best_route_without_a_feature_is_the_brute_forces(feature: str) -> None:
    for position in small_positions(6, 23, cards=6):
        atlas = explore(position, forbid=WORDS[feature])
        assert atlas.best == best_value(position, [feature]), str(position)
        for entry in atlas.ranked()[:5]:
            plan = atlas.plan(entry)
            assert not route_features(plan) & WORDS[feature]
            stood = {position.at}
            for step in plan.steps:
                assert not step_has(position, step, feature, stood)
                stood.add(step.to)


def test_the_best_agrees_with_the_search_on_real_game_hands() -> None:
    rng = random.Random(24)
    for i in range(12):
        position = random_position(rng, cards=8, counters=35 if i % 2 else None)
        assert explore(position).best == solve(position, solver="search").plan.value, str(position)


def test_route_features_name_what_each_step_does() -> None:
    position = Position.from_str("U@DAG-KIH:f,U+X@DAG-JXA:f DAG UUUUUPRR - 1")
    atlas = explore(position)
    features = {route_features(atlas.plan(e)) for e in atlas.entries.values()}
    assert any(f & Feature.BACKTRACK for f in features)  # to Kihromah and back
    assert any(f & Feature.OBSTACLE for f in features)
    assert any(f & Feature.UPSTREAM for f in features)  # Jxara up to Virst
    assert any(f & Feature.CARAVAN for f in features)


def test_an_atlas_too_big_to_list_says_so_instead_of_answering_partly() -> None:
    position = random_position(random.Random(25), cards=12, counters=35)
    with pytest.raises(UnsupportedError, match="too many routes"):
        explore(position, max_labels=50)


@settings(max_examples=15)
@given(strategies.strict_caravan_traps())
def test_the_strict_rule_keeps_a_smaller_hand_that_a_bigger_one_would_hide(position: Position) -> None:
    """Under the strict caravan rule one more matching card can forbid a caravan: the atlas must not let a
    bigger hand rule out a smaller one (the trap positions of the solver tests)."""
    assert explore(position).best == brute_force(position)[0]
