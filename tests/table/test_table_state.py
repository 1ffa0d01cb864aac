"""The table's changes and state: every op read and applied, refusals with their problems, history, save file.

Expected values are worked out by hand from the board and RULES.md (the positions are small on purpose).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tables import refused

from planner.elfenland.position import Hand, Position
from planner.elfenland.position_file import load_position
from planner.elfenland.rules import Caravan, Transport
from planner.errors import IllegalPositionError, UnsupportedError
from planner.table.changes import OPS, read_change
from planner.table.state import HISTORY, TableState, open_table, save_position

# Boot in Rivinia with elfcycle, dragon and raft; an elfcycle counter on Rivinia-Throtmanni (forest) and a dragon
# on Jaccaranda-Throtmanni (mountain). Best by hand: THR/E JAC/D, 2 new towns for 2 cards, the raft kept.
SIMPLE = "E@RIV-THR:f,D@JAC-THR:m RIV EDR - 1"


def table(text: str = SIMPLE, **kwargs: Any) -> TableState:
    return TableState(Position.from_str(text), **kwargs)


def test_tile_sets_replaces_and_clears_a_counter() -> None:
    state = table()
    assert state.apply({"op": "tile", "road": "lap-riv", "counter": "U"}).ok
    assert str(state.position).startswith("D@JAC-THR:m,U@LAP-RIV:f,E@RIV-THR:f ")
    assert state.apply({"op": "tile", "road": "LAP-RIV:f", "counter": "E", "obstacle": True}).ok
    assert "E+X@LAP-RIV:f" in str(state.position)
    assert state.apply({"op": "tile", "road": "Lapphalya-Rivinia", "counter": None}).ok
    assert "LAP-RIV" not in str(state.position)
    assert state.version == 4


def test_a_counter_the_terrain_cannot_carry_is_refused_naming_the_road() -> None:
    # A unicorn travels forest, desert and mountain: never plains (RULES.md cost table).
    assert refused(table(), {"op": "tile", "road": "elv-lap", "counter": "U"}) == [("terrain", "tiles", "ELV-LAP:p")]


def test_an_obstacle_needs_a_counter_and_water_takes_none() -> None:
    assert refused(table(), {"op": "tile", "road": "elv-lap", "obstacle": True}) == \
        [("obstacle-alone", "tiles", "ELV-LAP:p")]
    assert refused(table(), {"op": "tile", "road": "ELV-RIV:r", "counter": "D"}) == [("water", "tiles", "ELV-RIV:r")]


def test_cards_count_up_and_down_within_the_deck() -> None:
    state = table()
    assert state.apply({"op": "card", "card": "dragon", "delta": 2}).ok
    assert state.position.hand == Hand.from_str("EDDDR")
    assert state.apply({"op": "card", "card": "R", "delta": -1}).ok
    assert state.position.hand == Hand.from_str("EDDD")
    assert refused(state, {"op": "card", "card": "R", "delta": -1}) == [("no-card", "hand", "R")]
    assert refused(state, {"op": "card", "card": "D", "delta": 8}) == [("too-many-cards", "hand", "D")]  # 10 in all


def test_the_whole_hand_is_set_or_emptied() -> None:
    state = table()
    assert state.apply({"op": "hand", "hand": "2 dragons, cloud"}).ok
    assert state.position.hand == Hand.from_str("CDD")
    assert state.apply({"op": "hand", "hand": "-"}).ok
    assert len(state.position.hand) == 0
    assert [p[0] for p in refused(state, {"op": "hand", "hand": "DQ"})] == ["unknown-card"]


def test_towns_are_collected_given_back_and_the_boot_moves() -> None:
    state = table()
    assert state.apply({"op": "visit", "town": "tichih"}).ok
    assert state.position.visited == {"RIV", "TIC"}
    assert state.apply({"op": "visit", "town": "TIC", "visited": False}).ok
    assert state.position.visited == {"RIV"}
    assert refused(state, {"op": "visit", "town": "RIV", "visited": False}) == [("boot-town", "visited", "RIV")]
    assert state.apply({"op": "at", "town": "THR"}).ok
    assert state.position.at == "THR" and state.position.visited == {"RIV", "THR"}
    assert state.apply({"op": "home", "town": "virst"}).ok
    assert state.position.home == "VIR"
    assert state.apply({"op": "home", "town": "-"}).ok
    assert state.position.home is None


def test_round_and_rules() -> None:
    state = table()
    assert state.apply({"op": "round", "round": 4}).ok
    assert refused(state, {"op": "rule", "name": "rounds", "value": 3}) == [("bad-round", "round", "4")]
    assert state.apply({"op": "rule", "name": "caravan", "value": "scaled"}).ok
    assert state.position.rules.caravan is Caravan.SCALED
    assert str(state.position).endswith(" caravan=scaled")
    kind, field, value = refused(state, {"op": "rule", "name": "caravan", "value": "cheap"})[0]
    assert kind.startswith("unknown-") and (field, value) == ("rules.caravan", "cheap")


def test_notation_replaces_the_position_and_keeps_the_title() -> None:
    state = TableState(Position.from_str(SIMPLE).replace(title="Tuesday"))
    assert state.apply({"op": "notation", "text": "- elv ddc lap 2"}).ok
    assert str(state.position) == "- ELV CDD LAP 2"
    assert state.position.title == "Tuesday"
    assert refused(state, {"op": "notation", "text": "- ELV DDC"})[0][:2] == ("bad-position", "notation")
    assert refused(state, {"op": "notation", "text": "- XYZ DDC - 1"})[0][1:] == ("notation", "XYZ")


def test_travel_walks_the_route_and_new_round_clears_the_board() -> None:
    state = table()
    assert state.apply({"op": "travel", "route": "thr/E jac/D"}).ok
    assert str(state.position) == "D@JAC-THR:m,E@RIV-THR:f JAC R RIV,THR 1"
    assert refused(state, {"op": "travel", "route": "tic/R"})[0][:2] == ("bad-route", "route")  # not neighbours
    assert state.apply({"op": "card", "card": "D", "delta": 5}).ok  # R + 5 D: the new round keeps 4 of them
    assert state.apply({"op": "new_round"}).ok
    # Counters leave the board; the hand keeps its 4 best cards (dragons are worth more than rafts: keep.py).
    assert str(state.position) == "- JAC DDDD RIV,THR 2"


def test_no_new_round_after_the_last() -> None:
    state = table("- ELV D - 3 - rounds=3")
    assert refused(state, {"op": "new_round"}) == [("last-round", "round", "3")]


def test_undo_and_redo_walk_the_history() -> None:
    state = table()
    first = state.position
    state.apply({"op": "card", "card": "P", "delta": 1})
    second = state.position
    state.apply({"op": "visit", "town": "TIC"})
    assert state.apply({"op": "undo"}).ok and state.position == second
    assert state.apply({"op": "undo"}).ok and state.position == first
    assert refused(state, {"op": "undo"}) == [("no-undo", "undo", None)]
    assert state.apply({"op": "redo"}).ok and state.position == second
    state.apply({"op": "round", "round": 2})  # a new change drops what could be redone
    assert not state.can_redo
    assert refused(state, {"op": "redo"}) == [("no-redo", "redo", None)]


def test_the_history_is_bounded_and_a_no_op_is_not_recorded() -> None:
    state = table()
    version = state.version
    assert state.apply({"op": "round", "round": 1}).ok
    assert state.version == version and not state.can_undo
    for _ in range(HISTORY + 20):
        state.apply({"op": "card", "card": "P", "delta": 1})
        state.apply({"op": "card", "card": "P", "delta": -1})
    undone = 0
    while state.apply({"op": "undo"}).ok:
        undone += 1
    assert undone == HISTORY - 1


def test_alternatives_are_a_view_setting_not_history() -> None:
    state = table()
    assert state.apply({"op": "alternatives", "count": 3}).ok
    assert state.alternatives == 3 and not state.can_undo
    assert refused(state, {"op": "alternatives", "count": 9}) == [("out-of-range", "count", "9")]


@pytest.mark.parametrize(("change", "expected"), [
    ("not an object", [("bad-change", "")]),
    ({"op": "fly"}, [("bad-op", "op")]),
    ({"op": "card", "card": "D", "delta": 1, "colour": "red"}, [("unknown-key", "colour")]),
    ({"op": "card", "card": "D", "delta": "1"}, [("bad-type", "delta")]),
    ({"op": "card", "card": "Q", "delta": 1}, [("unknown-transport", "card")]),
    ({"op": "tile", "road": "ELV-XYZ", "counter": "D"}, [("unknown-town", "road")]),
    ({"op": "tile", "road": "elv-lap", "counter": "R"}, [("raft-counter", "counter")]),
    ({"op": "visit"}, [("missing-key", "town")]),
    ({"op": "round", "round": True}, [("bad-type", "round")]),
    ({"op": "rule", "name": "colour", "value": "red"}, [("bad-rule", "rules")]),
    ({"op": "rule", "name": "home_variant", "value": 1}, [("bad-type", "rules.home_variant")]),  # 1 is no bool
])
def test_malformed_changes_name_the_key(change: Any, expected: list[tuple[str, str]]) -> None:
    with pytest.raises(IllegalPositionError) as error:
        read_change(change)
    assert [(p.kind, p.field) for p in error.value.problems] == expected


def test_every_problem_of_a_change_at_once() -> None:
    with pytest.raises(IllegalPositionError) as error:
        read_change({"op": "tile", "road": "ELV-XYZ", "counter": "Q", "obstacle": "yes"})
    assert [p.field for p in error.value.problems] == ["road", "counter", "obstacle"]


scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=8), inner, max_size=4), max_leaves=8)


@given(st.fixed_dictionaries({"op": st.sampled_from(sorted(OPS)) | st.text(max_size=5)},
                             optional={key: json_values | st.text(max_size=30)
                                       for key in {k for keys in OPS.values() for k in keys}}))
def test_fuzzed_changes_are_made_or_refused_never_crash(change: dict[str, Any]) -> None:
    state = table()
    applied = state.apply(json.loads(json.dumps(change)))
    assert applied.ok or applied.problems
    state.position.check()  # the table only ever holds legal positions


def test_the_save_file_follows_every_change_and_reads_back(tmp_path: Path) -> None:
    save = tmp_path / "table.toml"
    state = table(save=save)
    assert load_position(str(save)) == state.position
    state.apply({"op": "card", "card": "D", "delta": 1})
    assert load_position(str(save)).hand == Hand.from_str("EDDR")
    state.apply({"op": "undo"})
    assert load_position(str(save)).hand == Hand.from_str("EDR")
    assert [p.name for p in tmp_path.iterdir()] == ["table.toml"], "a temporary file was left behind"


def test_saving_into_a_missing_folder_says_so(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedError, match="cannot save the table"):
        save_position(Position.from_str(SIMPLE), tmp_path / "gone" / "table.toml")


def test_open_table_resumes_a_save_file_and_never_writes_the_source(tmp_path: Path) -> None:
    source = tmp_path / "start.toml"
    source.write_text('at = "Rivinia"\nhand = "EDR"\n')
    save = tmp_path / "table.toml"
    state, notes = open_table(str(source), save=save)
    assert notes == [] and str(state.position) == "- RIV EDR - 1"
    state.apply({"op": "card", "card": Transport.PIG.letter, "delta": 1})
    again, notes = open_table(str(source), save=save)
    assert str(again.position) == "- RIV PEDR - 1"
    assert notes == [f"resuming the table saved in {save} ({source} is not read)"]
    assert source.read_text() == 'at = "Rivinia"\nhand = "EDR"\n'


def test_a_save_file_keeps_its_mode(tmp_path: Path) -> None:
    save = tmp_path / "table.toml"
    state = table(save=save)
    save.chmod(0o644)
    state.apply({"op": "card", "card": "D", "delta": 1})
    assert stat.S_IMODE(save.stat().st_mode) == 0o644 and load_position(str(save)).hand == Hand.from_str("EDDR")


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_save_path_that_is_not_a_regular_file_is_refused_not_read_or_replaced(tmp_path: Path, kind: str) -> None:
    save = tmp_path / "table.toml"
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(save)  # reading it would block until a writer came
    else:
        save.mkdir()
    with pytest.raises(UnsupportedError, match="not a regular file"):
        open_table(None, save=save)
    with pytest.raises(UnsupportedError, match="cannot save the table"):
        save_position(Position.from_str(SIMPLE), save)
    assert (stat.S_ISFIFO if kind == "fifo" else stat.S_ISDIR)(os.lstat(save).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["table.toml"]


def test_open_table_without_a_source_starts_a_new_game() -> None:
    state, _ = open_table(None)
    assert str(state.position) == "- ELV - - 1"
