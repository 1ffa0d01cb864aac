"""Positions: validation (every problem, named, all at once), position files, compact notation, round trips."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import strategies
from hypothesis import given
from hypothesis import strategies as st

from planner.elfenland.board import Board
from planner.elfenland.position import Expect, Hand, Position, Tile
from planner.elfenland.position_file import (
    Overrides,
    load_position,
    position_from_mapping,
    position_from_toml,
    position_to_toml,
)
from planner.elfenland.rules import TRANSPORTS, Rules
from planner.errors import IllegalPositionError, NotationError, PlannerError

P, E, C, U, T, D, R = TRANSPORTS

EXAMPLE_TOML = """\
title = "Round 4: home or one more town?"
round = 4
at = "Elvenhold"
hand = ["dragon", "dragon", "cloud", "raft", "raft"]
visited = ["Rivinia", "Tichih"]
home = "Virst"

[tiles]
"Lapphalya-Rivinia" = "dragon"
"Elvenhold-Erg'Eren" = "unicorn+obstacle"

[rules]
caravan = "flat"

[expect]
score = 3
cards_spent = 4
"""


def problems(data: dict[str, Any], overrides: Overrides | None = None) -> list[str]:
    """The messages of the problems position_from_mapping reports (fails the test if it accepts the position)."""
    with pytest.raises(IllegalPositionError) as info:
        position_from_mapping(data, overrides=overrides)
    assert info.value.problems, "an IllegalPositionError must list its problems"
    return [str(p) for p in info.value.problems]


def only_problem(data: dict[str, Any]) -> str:
    (problem,) = problems(data)
    return problem


def dragon_roads(board: Board, n: int) -> list[str]:
    return [c.id for c in board.roads][:n]


# -- a legal position file ---------------------------------------------------------------------------------------
def test_example_file_parses() -> None:
    p = position_from_toml(EXAMPLE_TOML)
    assert p.title == "Round 4: home or one more town?"
    assert p.round == 4
    assert p.at == "ELV"
    assert p.hand == Hand.from_str("CDDRR")
    assert p.visited == {"ELV", "RIV", "TIC"}
    assert p.home == "VIR"
    assert p.tiles == (Tile("ELV-ERG:f", U, True), Tile("LAP-RIV:f", D, False))
    assert p.rules == Rules()
    assert p.expect == Expect(score=3, cards_spent=4)
    assert p.problems() == [] and p.warnings() == []
    assert p.check() is p
    assert str(p) == "U+X@ELV-ERG:f,D@LAP-RIV:f ELV CDDRR RIV,TIC 4 VIR"


def test_minimal_file_defaults(start_position: Position) -> None:
    p = position_from_toml('at = "elv"\n')
    assert p == start_position
    assert (p.round, p.hand, p.tiles, p.visited, p.home) == (1, Hand(), (), frozenset({"ELV"}), None)


@pytest.mark.parametrize("hand", ["DDCRR", "D x2 C R R", "dragon dragon cloud 2 rafts", ["D", "D", "C", "R", "R"]])
def test_hand_forms_in_files(hand: Any) -> None:
    assert position_from_mapping({"at": "ELV", "hand": hand}).hand == Hand.from_str("CDDRR")


def test_visited_as_a_string() -> None:
    assert position_from_mapping({"at": "ELV", "visited": "Rivinia, Tichih"}).visited == {"ELV", "RIV", "TIC"}


def test_split_obstacle_keys_are_different_roads_only() -> None:
    p = position_from_mapping({"at": "ELV", "tiles": {"lap-riv": "D+X", "JXA-VIR": "troll"}})
    assert p.tiles == (Tile("JXA-VIR:p", T), Tile("LAP-RIV:f", D, True))


# -- every validation problem, naming the bad input --------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"at": "Elvenholt"}, "unknown town 'Elvenholt' in at; did you mean 'Elvenhold'?"),
        ({"at": "ELV", "visited": ["Virts"]}, "unknown town 'Virts' in visited; did you mean 'Virst'?"),
        ({"at": "ELV", "home": "Virts"}, "unknown town 'Virts' in home; did you mean 'Virst'?"),
        (
            {"at": "ELV", "hand": "dragoon"},
            "unknown transport 'dragoon' in hand; did you mean 'dragon' or 'troll wagon'?",
        ),
        (
            {"at": "ELV", "tiles": {"lap-riv": "dragoon"}},
            "unknown transport 'dragoon' in [tiles] key 'lap-riv'; did you mean 'dragon' or 'troll wagon'?",
        ),
        (
            {"at": "ELV", "tiles": {"Elvenhold-Tichih": "dragon"}},
            "no such connection 'Elvenhold-Tichih' in [tiles] between Elvenhold and Tichih; they are not neighbours",
        ),
        ({"at": "ELV", "tiles": {"Alb-Dag": "pig"}}, "giant pig counter on ALB-DAG:d, a desert road it cannot travel"),
        (
            {"at": "ELV", "tiles": {"vir-jxa:r": "dragon"}},
            "counter on JXA-VIR:r, a river: water never carries counters or obstacles",
        ),
        (
            {"at": "ELV", "tiles": {"Strykhaven-Elvenhold": "dragon"}},
            "counter on ELV-STR:l, a lake: water never carries counters or obstacles",
        ),
        (
            {"at": "ELV", "tiles": {"lap-riv": "obstacle"}},
            "obstacle on LAP-RIV:f without a counter: an obstacle goes only on a road holding one",
        ),
        (
            {"at": "ELV", "tiles": {"lap-riv": "dragon", "riv-lap": "unicorn"}},
            "[tiles] key 'riv-lap' names road LAP-RIV:f again; a road holds one counter (and perhaps an obstacle)",
        ),
        ({"at": "ELV", "tiles": {"lap-riv": "raft"}}, "there are no raft counters ('raft' in [tiles] key 'lap-riv')"),
        (
            {"at": "ELV", "tiles": {"lap-riv": 3}},
            "[tiles] key 'lap-riv': counter must be a string like 'dragon' or 'unicorn+obstacle', got 3",
        ),
        ({"at": "ELV", "tiles": "lap-riv"}, "[tiles] must be a table of road = counter, got 'lap-riv'"),
        ({"at": "ELV", "tiles": {"lap-riv": "D", "riv-lap": "D"}},
         "[tiles] key 'riv-lap' names road LAP-RIV:f again; a road holds one counter (and perhaps an obstacle)"),
        ({"at": "ELV", "hand": "D" * 11}, "hand holds 11 dragon cards but the game has only 10"),
        ({"at": "ELV", "hand": "R" * 13}, "hand holds 13 raft cards but the game has only 12"),
        ({"at": "ELV", "hand": 5}, "hand must be a list of card names or a string like 'DDCRR', got 5"),
        ({"at": "ELV", "round": 0}, "round 0 is not between 1 and 4"),
        ({"at": "ELV", "round": 5}, "round 5 is not between 1 and 4"),
        ({"at": "ELV", "round": 3.0}, "round must be a whole number 1..4, got 3.0"),
        ({"at": "ELV", "home": ""}, "home is empty; leave the key out instead"),
        ({"at": "ELV", "title": 3}, "title must be a string, got 3"),
        ({"at": "ELV", "round": 4, "rules": {"rounds": 3}}, "round 4 is not between 1 and 3"),
        ({"at": "ELV", "round": "two"}, "round must be a whole number 1..4, got 'two'"),
        ({"at": "ELV", "round": True}, "round must be a whole number 1..4, got True"),
        ({"at": "ELV", "visted": []}, "unknown key 'visted'; did you mean 'visited'?"),
        ({"at": "ELV", "hnad": "D"}, "unknown key 'hnad'; did you mean 'hand'?"),
        (
            {"at": "ELV", "colour": "D"},
            "unknown key 'colour'; keys are title, notes, round, at, hand, visited, home, tiles, rules, expect, "
            "supply, obstacle, display, seen, players, opponent",
        ),
        ({}, "missing key 'at' (where the boot stands, e.g. at = \"Elvenhold\", or --at)"),
        ({"at": 3}, "at must be a string, got 3"),
        ({"at": "ELV", "visited": [1]}, "visited must be a list of names, got [1]"),
        ({"at": "ELV", "rules": {"caravan": "cheap"}}, "rule option caravan = 'cheap' is not one of flat, scaled"),
        ({"at": "ELV", "rules": {"rouns": 3}}, "unknown rule option 'rouns' in [rules]; did you mean 'rounds'?"),
        ({"at": "ELV", "rules": "flat"}, "[rules] must be a table, got 'flat'"),
        ({"at": "ELV", "expect": {"score": "3"}}, "expect.score must be a whole number -99..999, got '3'"),
        ({"at": "ELV", "expect": {"towns": 3}}, "unknown [expect] key 'towns' in [expect]; [expect] keys are score, "
                                               "cards_spent, placed, now, draw, obstacle, target"),
    ],
)
def test_each_problem_is_reported_naming_the_input(data: dict[str, Any], message: str) -> None:
    assert only_problem(data) == message


def test_a_bad_card_does_not_miscount_the_others() -> None:
    assert problems({"at": "ELV", "hand": ["magic cloud"] * 6 + ["dragoon"]}) == [
        "unknown transport 'dragoon' in hand; did you mean 'dragon' or 'troll wagon'?"
    ]


def test_nine_dragon_counters(board: Board) -> None:
    tiles = dict.fromkeys(dragon_roads(board, 9), "dragon")
    data = {"at": "ELV", "tiles": tiles}
    assert only_problem(data) == "9 dragon counters on the board but the game has only 8"
    tiles.popitem()
    assert position_from_mapping(data).problems() == []


def test_seven_obstacles(board: Board) -> None:
    tiles = dict.fromkeys(dragon_roads(board, 7), "dragon+obstacle")
    data = {"at": "ELV", "tiles": tiles}
    assert only_problem(data) == "7 obstacles on the board but the game has only 6"
    tiles.popitem()
    assert position_from_mapping(data).problems() == []


def test_all_problems_are_reported_at_once(board: Board) -> None:
    data = {
        "at": "Elvenholt",
        "hand": "D" * 11 + " dragoon",
        "visited": ["Virts"],
        "home": "Rivinia",
        "round": 9,
        "hnad": "x",
        "tiles": {
            "lap-riv": "dragon",
            "riv-lap": "unicorn",
            "Alb-Dag": "pig",
            "vir-jxa:r": "troll",
            "Feodor-Throtmanni": "obstacle",
            "Elvenhold-Tichih": "dragon",
        },
    }
    with pytest.raises(IllegalPositionError) as info:
        position_from_mapping(data)
    found = info.value.problems
    expected_parts = [
        "'Elvenholt'",
        "'dragoon'",
        "'Virts'",
        "round 9",
        "'hnad'",
        "LAP-RIV:f",
        "ALB-DAG:d",
        "JXA-VIR:r",
        "FEO-THR:d",
        "'Elvenhold-Tichih'",
        "11 dragon cards",
    ]
    for part in expected_parts:
        assert any(part in str(p) for p in found), (part, found)
    assert len(found) >= len(expected_parts)
    assert str(info.value).startswith(f"{len(found)} problems in position:\n- ")
    assert all(f"\n- {p}" in str(info.value) for p in found)


def test_problems_are_structured_for_programs() -> None:
    with pytest.raises(IllegalPositionError) as info:
        position_from_mapping({"at": "Virts", "hand": "DD dragoon", "tiles": {"Alb-Dag": "pig", "lap-riv": "D"}})
    found = {(p.kind, p.field, p.value) for p in info.value.problems}
    assert found == {("unknown-town", "at", "Virts"), ("unknown-transport", "hand", "dragoon"),
                     ("terrain", "tiles", "ALB-DAG:d")}
    assert all(p.as_dict()["message"] == str(p) for p in info.value.problems)


def test_flags_fill_in_and_replace_file_keys_in_one_pass() -> None:
    # A file without `at` is fine when --at gives it; the flags' problems and the file's come together.
    assert position_from_mapping({"hand": "DD"}, overrides=Overrides(at="riv")).at == "RIV"
    assert position_from_mapping({"at": "ELV", "hand": "DD"}, overrides=Overrides(hand="C")).hand == Hand.from_str("C")
    assert problems({"at": "Elvenholt", "hand": "dragoon"}, Overrides(at="virts")) == [
        "unknown transport 'dragoon' in hand; did you mean 'dragon' or 'troll wagon'?",
        "unknown town 'virts' in --at; did you mean 'Virst'?",
    ]
    changed = position_from_mapping({"at": "ELV", "tiles": {"lap-riv": "D"}, "rules": {"rounds": 3}},
                                    overrides=Overrides(tiles=("lap-riv -, elv-lap P",), rules={"caravan": "scaled"}))
    assert changed.tiles == (Tile("ELV-LAP:p", P),)
    assert changed.rules == Rules(caravan="scaled", rounds=3)


def test_problems_of_a_constructed_position() -> None:
    p = Position(at="XYZ", tiles=(Tile("ELV-TIC:p", D),), visited=frozenset({"QQQ"}), home="ABC", round=7)
    found = [str(problem) for problem in p.problems()]
    assert "unknown town code 'XYZ'" in found
    assert "unknown town code 'QQQ'" in found
    assert "unknown town code 'ABC'" in found
    assert "unknown road 'ELV-TIC:p'" in found
    assert "round 7 is not between 1 and 4" in found
    with pytest.raises(IllegalPositionError) as info:
        p.check()
    assert [str(problem) for problem in info.value.problems] == found


def test_raft_tile_constructed_directly_is_a_problem() -> None:
    p = Position(at="ELV", tiles=(Tile("LAP-RIV:f", R),))
    assert [str(problem) for problem in p.problems()] == ["raft counter on LAP-RIV:f, a forest road it cannot travel"]


def test_big_hand_warns_but_is_legal() -> None:
    p = position_from_mapping({"at": "ELV", "hand": "DDDDDDDDD"})
    assert p.problems() == []
    assert [str(w) for w in p.warnings()] == [
        "hand holds 9 cards; a real game never has more than 8 (fine for a puzzle)"]
    assert position_from_mapping({"at": "ELV", "hand": "DDDDDDDD"}).warnings() == []


def test_a_home_town_without_a_home_town_card_is_a_warning_not_an_error() -> None:
    # The card list is inferred from card images; a puzzle may want any target.
    p = position_from_mapping({"at": "ELV", "home": "Rivinia", "round": 4})
    assert p.problems() == [] and p.home_penalty("ELV") == 1
    (warning,) = p.warnings()
    assert (warning.kind, warning.field, warning.value) == ("home-without-card", "home", "RIV")
    assert str(warning).startswith("home 'Rivinia' has no home-town card in the game (the cards are Beata, ")


def test_illegal_position_error_is_a_planner_error() -> None:
    error = IllegalPositionError(["just one"])
    assert isinstance(error, PlannerError) and str(error) == "just one"
    assert [str(p) for p in error.problems] == ["just one"]


# -- files -------------------------------------------------------------------------------------------------------
def test_load_position_reads_and_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "example.toml"
    path.write_text(EXAMPLE_TOML, encoding="utf-8")
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    p = load_position(str(path))
    assert p == position_from_toml(EXAMPLE_TOML)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert [f.name for f in tmp_path.iterdir()] == ["example.toml"]


def test_bad_file_is_reported_with_its_name_and_not_modified(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    text = 'at = "Elvenholt"\nhnad = "D"\n'
    path.write_text(text, encoding="utf-8")
    mtime = path.stat().st_mtime_ns
    with pytest.raises(IllegalPositionError) as info:
        load_position(str(path))
    assert sorted(str(p) for p in info.value.problems) == [
        "bad.toml: unknown key 'hnad'; did you mean 'hand'?",
        "bad.toml: unknown town 'Elvenholt' in at; did you mean 'Elvenhold'?",
    ]
    assert path.read_text(encoding="utf-8") == text and path.stat().st_mtime_ns == mtime
    assert [f.name for f in tmp_path.iterdir()] == ["bad.toml"]


def test_missing_file_is_an_illegal_position_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(IllegalPositionError, match="no such position file .*nope.toml"):
        load_position(str(missing))
    assert not missing.exists()


@pytest.mark.parametrize(("text", "message"), [
    ("a = " + "[" * 5000 + "]" * 5000, r"^x\.toml nests arrays or tables too deeply"),
    ("a = " + "[" * 40 + "]" * 40, r"^x\.toml nests arrays or tables deeper than 32 levels"),
    ("at = 1" + "0" * 5000, r"^x\.toml, line 1: 'at' is a number of 5001 digits; a position's numbers are small"),
    ("at = ", r"^x\.toml is not valid TOML: "),
])
def test_toml_that_once_crashed_the_reader_is_a_clear_problem(text: str, message: str) -> None:
    with pytest.raises(IllegalPositionError, match=message):
        position_from_toml(text, source="x.toml")


def test_a_device_or_a_huge_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    with pytest.raises(IllegalPositionError, match=r"^position file '/dev/zero' is larger than 1024 KiB"):
        load_position("/dev/zero")
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (2 << 20))
    with pytest.raises(IllegalPositionError, match="is larger than 1024 KiB"):
        load_position(str(big))
    latin = tmp_path / "latin.toml"
    latin.write_bytes('at = "Beat\xe1"\n'.encode("latin-1"))
    with pytest.raises(IllegalPositionError, match=r"is not UTF-8 text \(invalid continuation byte at byte 10\)"):
        load_position(str(latin))


def test_invalid_toml() -> None:
    with pytest.raises(IllegalPositionError, match=r"^game\.toml is not valid TOML: "):
        position_from_toml("at = ", source="game.toml")


def test_toml_problems_name_the_source() -> None:
    with pytest.raises(IllegalPositionError) as info:
        position_from_toml('at = "Virts"\n', source="x.toml")
    assert [str(p) for p in info.value.problems] == ["x.toml: unknown town 'Virts' in at; did you mean 'Virst'?"]


# -- compact notation --------------------------------------------------------------------------------------------
def test_from_str_lenient_to_canonical() -> None:
    p = Position.from_str("u@bea-elv,x@elv-bea,dragon@riv-lap elvenhold DDC bea,tichih 2 virst")
    assert str(p) == "U+X@BEA-ELV:p,D@LAP-RIV:f ELV CDD BEA,TIC 2 VIR"
    assert Position.from_str(str(p)) == p
    assert repr(p).startswith("Position(at='ELV', hand=Hand.from_str('CDD'), tiles=(Tile(road='BEA-ELV:p'")


def test_from_str_defaults() -> None:
    p = Position.from_str("- ELV - -")
    assert p == Position(at="ELV")
    assert str(p) == "- ELV - - 1"


def test_the_notation_carries_the_rule_options() -> None:
    rules = Rules(caravan="scaled", rounds=3, home_variant=False)
    p = Position(at="ELV", home="VIR", round=3, rules=rules)
    assert str(p) == "- ELV - - 3 VIR caravan=scaled,rounds=3,home_variant=false"
    assert Position.from_str(str(p)) == p
    no_home = Position(at="ELV", rules=Rules(caravan_when="strict"))
    assert str(no_home) == "- ELV - - 1 caravan_when=strict"
    assert Position.from_str("- ELV - - 1 when=strict") == no_home


def test_from_str_two_counters_on_one_road_are_kept_for_validation() -> None:
    p = Position.from_str("D@lap-riv,U@riv-lap ELV - -")
    assert len(p.tiles) == 2
    assert [str(problem) for problem in p.problems()] == [
        "two counters on road LAP-RIV:f; a road holds one counter (and perhaps an obstacle)"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ELV DD", r"^position 'ELV DD' needs 4 to 6 fields"),
        ("D-LAP-RIV ELV - -", r"^placement 'D-LAP-RIV' must look like 'D@LAP-RIV:f'$"),
        ("- ELV - - two", r"^round 'two' is not a round number like 1 or 4$"),
        ("- ELV - - ²", r"^round '²' is not a round number like 1 or 4$"),
        ("- ELV - - 1 VIR rounds=5", r"^unknown value of rule option rounds '5'"),
        ("- Virts - -", r"^unknown town 'Virts' in position; did you mean 'Virst'\?$"),
        ("- ELV - Virts", r"^unknown town 'Virts' in visited; did you mean 'Virst'\?$"),
        ("- ELV dragoon -", r"^unknown transport 'dragoon' in hand"),
    ],
)
def test_from_str_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Position.from_str(text)


# -- derived views -----------------------------------------------------------------------------------------------
def test_visited_always_holds_the_current_town_and_tiles_are_sorted() -> None:
    p = Position(at="RIV", tiles=(Tile("LAP-RIV:f", D), Tile("ELV-ERG:f", U)), visited=frozenset({"TIC"}))
    assert p.visited == {"RIV", "TIC"}
    assert [t.road for t in p.tiles] == ["ELV-ERG:f", "LAP-RIV:f"]
    assert p.tile_map()["LAP-RIV:f"] == Tile("LAP-RIV:f", D)
    assert "RIV" not in p.collectable() and "TIC" not in p.collectable() and "ELV" not in p.collectable()
    assert len(p.collectable()) == 18
    assert p.replace(at="ELV").visited == {"ELV", "RIV", "TIC"}


@pytest.mark.parametrize(
    ("round_", "rules", "home", "scores", "end", "penalty"),
    [
        (4, Rules(), "VIR", True, "ELV", 1),  # across Mare Magnum
        (4, Rules(home_distance="roads"), "VIR", True, "ELV", 2),  # via Lapphalya
        (3, Rules(), "VIR", False, "ELV", 0),  # not the last round
        (3, Rules(rounds=3), "VIR", True, "ELV", 1),
        (4, Rules(home_variant=False), "VIR", False, "ELV", 0),
        (4, Rules(), None, False, "ELV", 0),
        (4, Rules(), "VIR", True, "VIR", 0),
    ],
)
def test_home_penalty(round_: int, rules: Rules, home: str | None, scores: bool, end: str, penalty: int) -> None:
    p = Position(at="ELV", home=home, round=round_, rules=rules)
    assert p.problems() == []
    assert p.last_round == (round_ == rules.rounds)
    assert p.scores_home == scores
    assert p.home_penalty(end) == penalty


# -- properties --------------------------------------------------------------------------------------------------
@given(strategies.positions())
def test_generated_positions_are_legal(p: Position) -> None:
    assert p.problems() == []
    assert p.check() is p
    assert len(p.hand) <= strategies.MAX_HAND
    assert sum(t.obstacle for t in p.tiles) <= 6


@given(strategies.positions())
def test_toml_round_trip(p: Position) -> None:
    assert position_from_toml(position_to_toml(p)) == p


@given(strategies.positions())
def test_notation_round_trip_over_every_rule_option(p: Position) -> None:
    text = str(p)
    assert Position.from_str(text) == p  # parse(str(x)) == x
    assert str(Position.from_str(text)) == text  # str(parse(s)) == s for canonical s


# DEL (U+007F) is left out here: see test_title_with_delete_character_round_trips.
TITLES = st.text(st.characters(exclude_characters="\x7f"), max_size=20)


@given(strategies.positions(), TITLES, TITLES)
def test_toml_round_trip_with_title_and_notes(p: Position, title: str, notes: str) -> None:
    p = p.replace(title=title, notes=notes, expect=Expect(score=2, cards_spent=5))
    assert position_from_toml(position_to_toml(p)) == p


def test_title_with_delete_character_round_trips() -> None:
    p = Position(at="ELV", title="bad\x7fchar")
    assert position_from_toml(position_to_toml(p)) == p


# -- the keys of the drawing and planning phases -------------------------------------------------------------------
ROUND_FILE = """\
at = "Elvenhold"
hand = "DDCURRPT"
supply = ["dragon", "pig"]
obstacle = true
display = "UTTPD"
seen = ["cloud"]
players = 4

[tiles]
"elv-lap" = "pig"

[[opponent]]
name = "Anna Lee"
at = "Virst"
visited = ["Jxara", "Lapphalya"]
counters = ["cloud", "cloud"]
secret = 1
obstacle = true
points = 9

[[opponent]]
name = "Ben"
"""


def test_the_planning_keys_read_write_and_print() -> None:
    p = position_from_toml(ROUND_FILE)
    assert (str(p.supply), str(p.display), str(p.seen), p.players, p.obstacle) == ("PD", "PUTTD", "C", 4, True)
    anna, ben = p.opponents
    assert (anna.name, anna.at, anna.visited, str(anna.counters), anna.secret, anna.points) == (
        "Anna Lee", "VIR", frozenset({"VIR", "JXA", "LAP"}), "CC", 1, 9)
    assert (ben.at, ben.obstacle, ben.points) == ("ELV", True, 0)
    assert str(p).endswith(" supply=PD,display=PUTTD,seen=C,players=4,opponent=Anna%20Lee:VIR:JXA+LAP:CC:1:true:9,"
                           "opponent=Ben")
    assert Position.from_str(str(p)) == p.replace(title=None)
    assert position_from_toml(position_to_toml(p)) == p


@pytest.mark.parametrize(("text", "message"), [
    ('at = "elv"\nsupply = "DDPPUU"\n', "supply holds 6 counters; a player holds at most 5"),
    ('at = "elv"\ndisplay = "DDPPUU"\n', "display holds 6 counters; 5 lie face up"),
    ('at = "elv"\nsupply = "DD X"\n', "supply lists an obstacle; it is no transport counter: `obstacle = true` says "
                                     "that you still hold yours"),
    ('at = "elv"\nsupply = "R"\n', "supply holds raft counters, but there are none"),
    ('at = "elv"\nsupply = "DDDDD"\ndisplay = "DDD"\nseen = "D"\n',
     "9 dragon counters on the board, in the supply, the display, seen and with opponents, but the game has only 8"),
    ('at = "elv"\nplayers = 7\n', "players 7 is not between 2 and 6"),
    ('at = "elv"\nplayers = 2\n[[opponent]]\nname = "a"\n[[opponent]]\nname = "b"\n',
     "2 opponents at a table of 2 players"),
    ('at = "elv"\n[[opponent]]\nname = "a"\nhat = "x"\n', "unknown key 'hat' in [opponent[1]]; did you mean 'at'?"),
    ('at = "elv"\n[[opponent]]\nname = "a"\nat = "Virts"\n', "unknown town 'Virts' in opponent[1].at; did you "
                                                             "mean 'Virst'?"),
    ('at = "elv"\n[[opponent]]\nname = "a"\ncounters = "DDD"\nsecret = 3\n',
     "a holds 3 face-up and 3 face-down counters; a player holds at most 5"),
    ('at = "elv"\n[[opponent]]\nat = "vir"\n', "missing key 'opponent[1].name'"),
    ('at = "elv"\nopponent = "Anna"\n', "opponent must be an array of tables ([[opponent]]), got 'Anna'"),
    ('at = "elv"\nplayers = 2\n[tiles]\n"elv-lap" = "P+X"\n[[opponent]]\nname = "a"\n',
     "1 obstacles on the board and 2 still held, but each of the 2 players has one for the game"),
])
def test_the_planning_keys_are_checked_all_at_once(text: str, message: str) -> None:
    with pytest.raises(IllegalPositionError) as info:
        position_from_toml(text, source="x.toml")
    assert any(message in str(p) for p in info.value.problems), [str(p) for p in info.value.problems]
