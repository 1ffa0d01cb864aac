"""The cost table, obstacle and caravan costs, raft costs, components, and the rule options."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
import strategies
from hypothesis import given

from planner.elfenland.rules import (
    CARAVAN_BASE,
    COSTS,
    COUNTER_TRANSPORTS,
    COUNTERS,
    DECK,
    HAND_SIZE,
    KEEP_LIMIT,
    MOST_RAFTS,
    OBSTACLE_EXTRA,
    OBSTACLES,
    RAFT_COSTS,
    RULE_OPTIONS,
    TRANSPORTS,
    Caravan,
    CaravanWhen,
    Crossing,
    HomeDistance,
    Rules,
    Terrain,
    Transport,
    can_carry,
    counter_cost,
)
from planner.errors import IllegalPositionError, NotationError

P, E, C, U, T, D, R = TRANSPORTS
ROAD_TERRAINS = (Terrain.PLAIN, Terrain.FOREST, Terrain.DESERT, Terrain.MOUNTAIN)

# RULES.md "Travel costs", copied cell by cell; None = the counter cannot travel (or be placed on) that terrain.
CHART: dict[Transport, tuple[int | None, ...]] = {
    #              plain forest desert mountain
    Transport.PIG: (1, 1, None, None),
    Transport.ELFCYCLE: (1, 1, None, 2),
    Transport.CLOUD: (2, 2, None, 1),
    Transport.UNICORN: (None, 1, 2, 1),
    Transport.TROLL: (1, 2, 2, 2),
    Transport.DRAGON: (1, 2, 1, 1),
}
CELLS = [(t, terrain, CHART[t][i]) for t in CHART for i, terrain in enumerate(ROAD_TERRAINS)]


@pytest.mark.parametrize(("transport", "terrain", "cost"), CELLS, ids=[f"{t.name}-{x.name}" for t, x, _ in CELLS])
def test_cost_table_cell(transport: Transport, terrain: Terrain, cost: int | None) -> None:
    assert counter_cost(transport, terrain) == cost
    assert can_carry(transport, terrain) == (cost is not None)
    assert COSTS[transport].get(terrain) == cost


@pytest.mark.parametrize(("transport", "terrain", "cost"), CELLS, ids=[f"{t.name}-{x.name}" for t, x, _ in CELLS])
def test_obstacle_adds_one_matching_card(transport: Transport, terrain: Terrain, cost: int | None) -> None:
    assert counter_cost(transport, terrain, obstacle=True) == (None if cost is None else cost + 1)


def test_cost_table_has_exactly_the_chart_cells() -> None:
    assert set(COSTS) == set(CHART) == set(COUNTER_TRANSPORTS)
    assert sum(len(row) for row in COSTS.values()) == sum(c is not None for *_, c in CELLS) == 19


@pytest.mark.parametrize("terrain", list(Terrain))
def test_rafts_are_no_counter(terrain: Terrain) -> None:
    assert counter_cost(Transport.RAFT, terrain) is None
    assert not can_carry(Transport.RAFT, terrain)


@pytest.mark.parametrize("transport", COUNTER_TRANSPORTS)
@pytest.mark.parametrize("terrain", [Terrain.RIVER, Terrain.LAKE])
def test_no_counter_travels_water(transport: Transport, terrain: Terrain) -> None:
    assert counter_cost(transport, terrain) is None
    assert not can_carry(transport, terrain)


def test_raft_costs() -> None:
    assert RAFT_COSTS == {Crossing.DOWNSTREAM: 1, Crossing.UPSTREAM: 2, Crossing.LAKE: 2}
    assert MOST_RAFTS == 2
    assert OBSTACLE_EXTRA == 1
    assert CARAVAN_BASE == 3


# -- components ----------------------------------------------------------------------------------------------
def test_transports_letters_titles_and_order() -> None:
    assert "".join(t.letter for t in TRANSPORTS) == "PECUTDR"
    assert [t.title for t in TRANSPORTS] == [
        "giant pig",
        "elfcycle",
        "magic cloud",
        "unicorn",
        "troll wagon",
        "dragon",
        "raft",
    ]
    assert [str(t) for t in TRANSPORTS] == [t.title for t in TRANSPORTS]
    assert [t.is_counter for t in TRANSPORTS] == [True] * 6 + [False]
    assert TRANSPORTS[:6] == COUNTER_TRANSPORTS


def test_deck_counters_obstacles_hand_sizes() -> None:
    assert DECK == {P: 10, E: 10, C: 10, U: 10, T: 10, D: 10, R: 12}
    assert sum(DECK.values()) == 72
    assert dict.fromkeys(COUNTER_TRANSPORTS, 8) == COUNTERS
    assert sum(COUNTERS.values()) == 48
    assert OBSTACLES == 6
    assert (HAND_SIZE, KEEP_LIMIT) == (8, 4)


# -- caravans --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("counter", [1, 2, 3])
def test_flat_caravan_costs_three_or_four(counter: int, rules: Rules) -> None:
    assert rules.caravan is Caravan.FLAT
    assert rules.caravan_cost(counter, obstacle=False) == 3
    assert rules.caravan_cost(counter + 1, obstacle=True) == 4


@pytest.mark.parametrize(
    ("counter", "obstacle", "price"),
    [(1, False, 3), (2, False, 4), (2, True, 4), (3, True, 5)],
    ids=["1-card road", "2-card road", "1-card road+obstacle", "2-card road+obstacle"],
)
def test_scaled_caravan_costs(counter: int, obstacle: bool, price: int) -> None:
    # RULES.md: 3 + the extra terrain cost, e.g. 4 on a 2-card road, 5 with an obstacle.
    # ``counter`` is the counter's cost with the obstacle's +1 already included.
    assert Rules(caravan="scaled").caravan_cost(counter, obstacle=obstacle) == price


# -- options -------------------------------------------------------------------------------------------------
def test_default_options(rules: Rules) -> None:
    assert rules == Rules(caravan="flat", caravan_when="always", rounds=4, home_distance="all", home_variant=True)
    assert rules.to_mapping() == {}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"caravan": "cheap"}, "rule option caravan = 'cheap' is not one of flat, scaled"),
        ({"caravan_when": "never"}, "rule option caravan_when = 'never' is not one of always, strict"),
        ({"home_distance": "air"}, "rule option home_distance = 'air' is not one of all, roads"),
        ({"rounds": 5}, "rule option rounds = 5 must be 3 or 4"),
        ({"rounds": "4"}, "rule option rounds = '4' must be 3 or 4"),
        ({"home_variant": "yes"}, "rule option home_variant = 'yes' must be false or true"),
    ],
)
def test_bad_option_values_raise_naming_option_and_value(options: dict[str, Any], message: str) -> None:
    with pytest.raises(NotationError) as info:
        Rules(**options)
    assert str(info.value) == message


def test_all_bad_option_values_are_reported_at_once() -> None:
    with pytest.raises(NotationError) as info:
        Rules(caravan="cheap", rounds=7, home_distance="air")
    text = str(info.value)
    assert "'cheap'" in text and "rounds = 7" in text and "'air'" in text


def test_from_mapping_rejects_unknown_options() -> None:
    with pytest.raises(IllegalPositionError, match=r"unknown rule option 'rouns' in \[rules\]; did you mean 'rounds'"):
        Rules.from_mapping({"rouns": 3})
    with pytest.raises(IllegalPositionError, match=r"unknown rule option 'speed' in \[rules\]; rule options are "
                                                   r"caravan, caravan_when, rounds, home_distance, home_variant"):
        Rules.from_mapping({"speed": 3})


def test_from_mapping_and_to_mapping() -> None:
    rules = Rules.from_mapping({"caravan": "scaled", "rounds": 3})
    assert rules == Rules(caravan="scaled", rounds=3)
    assert rules.to_mapping() == {"caravan": "scaled", "rounds": 3}
    assert rules.with_options(rounds=4) == Rules(caravan="scaled")


def test_from_mapping_reports_unknown_keys_and_bad_values_together() -> None:
    with pytest.raises(IllegalPositionError) as info:
        Rules.from_mapping({"rouns": 3, "caravan": "cheap"})
    assert [p.kind for p in info.value.problems] == ["unknown-key", "bad-rule"]
    assert [p.field for p in info.value.problems] == ["rules.rouns", "rules.caravan"]
    assert "'rouns'" in str(info.value) and "'cheap'" in str(info.value)


@pytest.mark.parametrize(("data", "message"), [
    ({"rounds": 3.0}, "rule option rounds = 3.0 must be 3 or 4"),
    ({"rounds": True}, "rule option rounds = True must be 3 or 4"),
    ({"home_variant": 1}, "rule option home_variant = 1 must be false or true"),
    ({"caravan": "FLAT"}, "rule option caravan = 'FLAT' is not one of flat, scaled"),
])
def test_from_mapping_takes_only_the_options_own_types(data: dict[str, object], message: str) -> None:
    # A position file says rounds = 3, not 3.0; a float or a bool that happens to compare equal is refused.
    with pytest.raises(IllegalPositionError) as info:
        Rules.from_mapping(data)
    assert str(info.value) == message


def test_the_option_table_covers_every_rule_field_with_its_default_first() -> None:
    assert list(RULE_OPTIONS) == [f.name for f in fields(Rules)]
    assert {name: option.default for name, option in RULE_OPTIONS.items()} == {
        f.name: getattr(Rules(), f.name) for f in fields(Rules)}


def test_options_are_enums_that_still_compare_to_their_text() -> None:
    rules = Rules(caravan="scaled", caravan_when="strict", home_distance="roads")
    assert (rules.caravan, rules.caravan_when, rules.home_distance) == (
        Caravan.SCALED, CaravanWhen.STRICT, HomeDistance.ROADS)
    assert rules.caravan == "scaled" and rules.strict


@pytest.mark.parametrize(("text", "rules"), [
    ("", Rules()),
    ("caravan=scaled", Rules(caravan="scaled")),
    ("caravan=sc,round=3", Rules(caravan="scaled", rounds=3)),
    ("when=strict,distance=roads,home=off", Rules(caravan_when="strict", home_distance="roads", home_variant=False)),
    ("caravan_when=strict,home_variant=off", Rules(caravan_when="strict", home_variant=False)),
    ("home_distance=roads,home_variant=no", Rules(home_distance="roads", home_variant=False)),
])
def test_the_notation_rule_field_parses_forgivingly(text: str, rules: Rules) -> None:
    assert Rules.from_str(text) == rules


@pytest.mark.parametrize(("text", "message"), [
    ("caravan", "item 'caravan' must look like 'caravan=scaled'"),
    ("speed=3", "unknown rule option 'speed' in rules"),
    ("car=scaled", "ambiguous rule option 'car' in rules: could be caravan, caravan_when"),
    ("rounds=5", "unknown value of rule option rounds '5'"),
    ("rounds=3.0", "unknown value of rule option rounds '3.0'"),
])
def test_the_notation_rule_field_refuses_what_it_cannot_read(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Rules.from_str(text)


@given(strategies.any_rules())
def test_generated_rules_round_trip_through_mapping_and_notation(rules: Rules) -> None:
    assert Rules.from_mapping(rules.to_mapping()) == rules
    assert Rules.from_str(str(rules)) == rules
