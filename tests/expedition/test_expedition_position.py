"""The map facts, the spot-name grammar, positions, the expedition/1 file format and its validation."""

from __future__ import annotations

import contextlib
import tomllib
from pathlib import Path
from typing import Any

import pytest
from exhelp import table
from hypothesis import given
from hypothesis import strategies as st

from planner.errors import IllegalPositionError, NotationError
from planner.expedition.board import SpotKind, load_board
from planner.expedition.notation import parse_location, parse_spot, short_spot
from planner.expedition.position import Position
from planner.expedition.position_file import load_position, position_from_mapping, position_from_toml, position_to_toml
from planner.expedition.reach import reach

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "expedition"


# -- the map ---------------------------------------------------------------------------------------------------------
def test_the_map_has_122_spots_and_206_links() -> None:
    board = load_board()
    kinds = [s.kind for s in board.order]
    assert (len(board.order), len(board.links)) == (122, 206)
    assert [kinds.count(k) for k in (SpotKind.START, SpotKind.GREEN, SpotKind.RED, SpotKind.BLUE)] == [1, 80, 21, 20]


def test_the_start_and_its_near_greens() -> None:
    board = load_board()
    assert set(board.neighbours("start")) == {"Svalbard", "Thingvellir", "Stonehenge", "Rome", "Athens",
                                              "blue:Start-E"}
    assert board.near_start == {"Svalbard", "Thingvellir", "Stonehenge", "Rome", "Athens", "Greenland",
                                "Newfoundland", "Timgad", "Gizeh", "Petra", "Caspian Sea", "Zagorsk"}
    assert max(board.greens, key=lambda g: board.from_start[g]) == "Fiordland National Park"
    assert board.from_start["Fiordland National Park"] == 11


def test_the_three_wrap_stars() -> None:
    board = load_board()
    assert {s.key for s in board.order if s.wraps} == {"red:CraterLake-NW", "red:Teotihuacan-SW", "red:RapaNui-S"}


def test_every_short_name_of_a_red_or_blue_neighbour_names_it_back() -> None:
    board = load_board()
    for spot in board.order:
        for neighbour in board.neighbours(spot.key):
            short = short_spot(neighbour, after=spot.key)
            assert parse_spot(short, after=spot.key) == neighbour, (spot.key, short)


def test_forgiving_green_names_and_a_hint() -> None:
    assert parse_location("giza") == "Gizeh"
    assert parse_location("XIAN") == parse_location("Xi'an") == "Xi’an"
    assert parse_location("iguazu falls") == "Iguazú Falls"
    with pytest.raises(NotationError, match="Gizeh"):
        parse_location("Gizex")
    with pytest.raises(NotationError, match="not a green"):
        parse_location("red:Svalbard-E")


def test_relative_names_resolve_or_list_the_candidates() -> None:
    assert parse_spot("red SE", after="Aksum") == "red:Sanaa-S"
    assert parse_spot("blue", after="Rome") == "blue:Rome-W"
    with pytest.raises(NotationError, match="ambiguous.*blue:Sanaa-S-SE.*blue:Sanaa-S-SW"):
        parse_spot("blue", after="red:Sanaa-S")
    with pytest.raises(NotationError, match="needs a previous spot"):
        parse_spot("red SE")


# -- positions and files ---------------------------------------------------------------------------------------------
def test_the_notation_and_the_file_round_trip() -> None:
    position = load_position(SCENARIOS / "01-spec-example.toml")
    assert Position.from_str(str(position)) == position
    assert position_from_toml(position_to_toml(position)) == position


def test_the_spec_example_derives_modes_arrows_and_the_deck() -> None:
    position = load_position(SCENARIOS / "01-spec-example.toml")
    yellow, blue, red = position.expeditions
    assert yellow.head == "Sigiriya" and blue.head == "Novosibirsk" and red.head is None
    assert blue.arrows_left == 38 and len(blue.legs) == 2
    assert position.mine.score == 2 + 0 - 10 - 4


def test_every_problem_of_a_file_is_reported_at_once() -> None:
    text = """format = "expedition/1"
players = ["Ann", "Ben"]
me = "Ben"
common = ["Uluru"]
colour = "x"
[expedition.yellow]
path = ["start", "Gizeh"]
[player.Ben]
hand = ["Gizex", "Perth"]
tokens = ["Rome"]
[player.Ann]
hand_size = 12
"""
    with pytest.raises(IllegalPositionError) as raised:
        position_from_toml(text)
    message = str(raised.value)
    for part in ("colour", "Gizex", "Rome", "Gizeh"):
        assert part in message, part


def test_a_toml_syntax_error_is_reported_alone() -> None:
    with pytest.raises(IllegalPositionError, match="(?i)toml|line"):
        position_from_toml("format = \n")


def test_a_leg_must_not_go_on_after_a_loop() -> None:
    with pytest.raises(IllegalPositionError, match="closes a loop"):
        table(yellow=["start", "Athens", "Gizeh", "Timgad", "Athens", "Petra"])


@given(st.text(max_size=60))
def test_fuzz_the_spot_grammar_never_crashes(text: str) -> None:
    for after in (None, "Aksum"):
        with contextlib.suppress(NotationError):
            parse_spot(text, after=after)


@given(st.text(max_size=300))
def test_fuzz_the_position_file_never_crashes(text: str) -> None:
    with contextlib.suppress(IllegalPositionError, NotationError):
        position_from_toml('format = "expedition/1"\n' + text)


@given(st.lists(st.sampled_from(["format", "players", "me", "common", "expedition", "player", "rules", "=", "\"",
                                 "[", "]", ",", "\n", "Ann", "Ben", "Gizeh", "start", "path", "hand", "12", "-1",
                                 ".", "yellow", "{", "}", "tokens", "hand_size", " "]), max_size=40))
def test_fuzz_the_position_file_with_its_own_words(words: list[str]) -> None:
    with contextlib.suppress(IllegalPositionError, NotationError):
        position_from_toml("".join(words))


# -- mutated bundled scenarios (issue 26) ----------------------------------------------------------------------------
def test_an_empty_leg_is_a_problem_naming_the_expedition_and_the_leg() -> None:
    text = (SCENARIOS / "02-ticket-pays.toml").read_text("utf-8")
    data = tomllib.loads(text)
    data["expedition"]["blue"]["path"] = [[]]
    with pytest.raises(IllegalPositionError, match=r"blue: the path is empty"):
        position_from_mapping(data)
    data["expedition"]["blue"]["path"] = [["start", "Athens", "start"], []]
    with pytest.raises(IllegalPositionError, match=r"blue: leg 2 is empty"):
        position_from_mapping(data)


_ODD_VALUES = st.one_of(st.just([]), st.just([[]]), st.just([[], []]), st.just(""), st.just("start"),
                        st.integers(-3, 3), st.just(10 ** 30), st.booleans(), st.just({}), st.just([["start"]]),
                        st.lists(st.sampled_from(["start", "Athens", "Gizeh", "red", "blue E", "", "Rome"]),
                                 max_size=5),
                        st.lists(st.lists(st.sampled_from(["start", "Athens", "Gizeh", "Petra", ""]), max_size=4),
                                 max_size=3))


def _leaves(value: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in a parsed file: table keys and list indices, the containers included."""
    found = [at]
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _leaves(sub, (*at, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            found += _leaves(sub, (*at, index))
    return found


def _replaced(data: object, at: tuple[object, ...], value: object) -> object:
    if not at:
        return value
    head, *rest = at
    copy: Any = dict(data) if isinstance(data, dict) else list(data)  # type: ignore[call-overload]
    copy[head] = _replaced(copy[head], tuple(rest), value)
    return copy


@given(st.sampled_from(sorted(p.name for p in SCENARIOS.glob("*.toml"))), st.data())
def test_fuzz_mutated_bundled_scenarios_never_crash(name: str, data: st.DataObject) -> None:
    parsed: Any = tomllib.loads((SCENARIOS / name).read_text("utf-8"))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.sampled_from(_leaves(parsed)[1:]))  # a file is always a table: keep the root
        parsed = _replaced(parsed, at, data.draw(_ODD_VALUES))
    try:
        position = position_from_mapping(parsed)
    except (IllegalPositionError, NotationError):
        return
    reach(position, position.hand)
