"""The options base both games' Rules derive from: storing, reading, parsing and writing rule values."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import pytest

from planner.common.options import GameRules, RuleOption
from planner.elfenland import rules as elfenland
from planner.errors import IllegalPositionError, NotationError
from planner.expedition import rules as expedition


class Speed(enum.StrEnum):
    SLOW = "slow"
    FAST = "fast"


@dataclass(frozen=True, slots=True)
class Toy(GameRules):
    """A made-up game's rules: an enum, a number and a switch, as the real games have."""

    OPTIONS: ClassVar[dict[str, RuleOption]] = {option.name: option for option in (
        RuleOption("speed", tuple(Speed), "how fast", ("pace",)),
        RuleOption("laps", (3, 5), "laps in a race"),
        RuleOption("bonus", (True, False), "whether the last lap scores double"),
    )}
    EXAMPLE: ClassVar[str] = "'speed=fast'"

    speed: Speed = Speed.SLOW
    laps: int = 3
    bonus: bool = True


def toy(**options: Any) -> Toy:
    """A Toy from untyped values (text for the enum), as a reader of files or flags passes them."""
    return Toy(**options)


def test_text_is_stored_as_the_enum_member() -> None:
    assert toy(speed="fast").speed is Speed.FAST
    assert Toy() == toy(speed="slow", laps=3, bonus=True)


def test_every_bad_value_is_named_at_once() -> None:
    with pytest.raises(NotationError) as info:
        toy(speed="warp", laps=4, bonus="yes")
    assert info.value.kind == "bad-rule"
    message = str(info.value)
    assert "speed = 'warp' is not one of slow, fast" in message
    assert "laps = 4 must be 3 or 5" in message
    assert "bonus = 'yes' must be false or true" in message


def test_a_number_is_no_switch_and_a_switch_no_number() -> None:
    with pytest.raises(NotationError, match="laps = True"):
        toy(laps=True)
    with pytest.raises(NotationError, match="bonus = 1"):
        toy(bonus=1)


def test_the_mapping_holds_only_what_differs_from_the_defaults_as_plain_values() -> None:
    assert Toy().to_mapping() == {}
    changed = toy(speed="fast", bonus=False)
    mapping = changed.to_mapping()
    assert mapping == {"speed": "fast", "bonus": False}
    assert type(mapping["speed"]) is str
    assert Toy.from_mapping(mapping) == changed


def test_a_table_with_an_unknown_key_and_a_bad_value_reports_both() -> None:
    with pytest.raises(IllegalPositionError) as info:
        Toy.from_mapping({"sped": "fast", "laps": 4}, where="rules.")
    fields_named = sorted(p.field for p in info.value.problems)
    assert fields_named == ["rules.laps", "rules.sped"]


def test_the_notation_field_takes_prefixes_aliases_and_switch_words() -> None:
    assert Toy.from_str("pace=f,bonus=off") == toy(speed="fast", bonus=False)
    assert Toy.from_str("sp=fast,laps=5,bonus=no") == toy(speed="fast", laps=5, bonus=False)
    assert Toy.from_str("") == Toy()


def test_the_notation_field_is_written_back_as_it_is_read() -> None:
    rules = toy(speed="fast", laps=5, bonus=False)
    assert str(rules) == "speed=fast,laps=5,bonus=false"
    assert Toy.from_str(str(rules)) == rules
    assert str(Toy()) == ""


def test_a_malformed_item_shows_the_games_example() -> None:
    with pytest.raises(NotationError, match="item 'speed' must look like 'speed=fast'"):
        Toy.from_str("speed")


def test_with_options_checks_what_it_changes_and_leaves_the_original() -> None:
    rules = Toy()
    assert rules.with_options(speed="fast") == toy(speed="fast")
    assert rules == Toy()
    with pytest.raises(NotationError, match="laps = 4"):
        rules.with_options(laps=4)
    with pytest.raises(TypeError, match="no such rule option: lap"):
        rules.with_options(lap=5)


@pytest.mark.parametrize("game", [elfenland.Rules, expedition.Rules, Toy], ids=["elfenland", "expedition", "toy"])
def test_each_games_fields_are_its_options_in_order_with_the_options_defaults(game: type[GameRules]) -> None:
    made: Any = game
    defaults = made()
    assert list(game.OPTIONS) == [f.name for f in fields(defaults)]
    assert {name: getattr(defaults, name) for name in game.OPTIONS} == {
        name: option.default for name, option in game.OPTIONS.items()}
    assert str(defaults) == "" and game.from_str("") == defaults
