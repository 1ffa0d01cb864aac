"""The table's changes of the drawing and planning phases: counters taken, placed and kept, my obstacle, the
opponents, a new round, and the phase switch; every refusal with its problems.

Expected values are worked out by hand from RULES.md and the board (8 counters of each land transport, a supply
of at most 5, a display of 5, at most 4 cards and one counter kept); the positions are small on purpose.
"""

from __future__ import annotations

from typing import Any

import pytest
from tables import refused  # the same check: refused, and nothing changed

from planner.elfenland.keep import keep_cards
from planner.elfenland.position import Hand, Position
from planner.errors import IllegalPositionError
from planner.table.changes import read_change
from planner.table.state import TableState

# Round 2 in Kihromah (its one road, to Dag'Amura, is forest), a unicorn and two rafts; the pig drawn face down;
# the display shows an elfcycle, a cloud, a unicorn, a troll and a dragon (scenarios/20-opening-draft.toml).
DRAFT = "- KIH URR ELV 2 supply=P,display=ECUTD"
# Two dragons on the board, two in my supply, two face up and two with Anna: all 8 dragon counters are seen.
DRAGONS = "D@ELV-LAP:p,D@JXA-VIR:p KIH URR ELV 2 supply=DD,display=DDE,opponent=Anna:VIR:-:DD:1"


def table(text: str = DRAFT, **kwargs: Any) -> TableState:
    return TableState(Position.from_str(text), **kwargs)


def made(state: TableState, change: dict[str, Any]) -> str:
    applied = state.apply(change)
    assert applied.ok, applied.problems
    return str(state.position)


# -- drawing ---------------------------------------------------------------------------------------------------
def test_taking_a_face_up_counter_moves_it_to_the_supply() -> None:
    state = table()
    assert made(state, {"op": "take", "counter": "unicorn"}) == "- KIH URR ELV 2 supply=PU,display=ECTD"
    assert refused(state, {"op": "take", "counter": "U"}) == [("not-in-display", "display", "U")]
    # A blind draw: the supply gains the counter, the display keeps its four.
    assert made(state, {"op": "take", "counter": "D", "source": "blind"}) == \
        "- KIH URR ELV 2 supply=PUD,display=ECTD"


def test_the_supply_takes_at_most_five() -> None:
    state = table("- KIH URR ELV 2 supply=PPUUD,display=ECUTD")
    assert refused(state, {"op": "take", "counter": "U"}) == [("too-many-counters", "supply", "PPUUUD")]


def test_a_ninth_dragon_counter_across_board_supply_display_and_opponents_is_refused() -> None:
    state = table(DRAGONS)
    message = ("9 dragon counters on the board, in the supply, the display, seen and with opponents, but the game "
               "has only 8")
    for change in ({"op": "take", "counter": "D", "source": "blind"},
                   {"op": "counter", "pile": "display", "counter": "D", "delta": 1},
                   {"op": "counter", "pile": "seen", "counter": "D", "delta": 1},
                   {"op": "opponent", "index": 1, "counters": "DDD"}):
        applied = state.apply(change)
        assert [(p.kind, p.field, p.value, p.message) for p in applied.problems] == \
            [("too-many-counters", "supply", "D", message)], change
    # Taking a face-up dragon moves one: still eight.
    assert made(state, {"op": "take", "counter": "D"}).endswith("supply=DDD,display=ED,opponent=Anna:VIR:-:DD:1")


def test_piles_count_up_and_down_and_are_set_whole() -> None:
    state = table()
    assert made(state, {"op": "counter", "pile": "supply", "counter": "E", "delta": 2}).endswith("supply=PEE,"
                                                                                               "display=ECUTD")
    assert refused(state, {"op": "counter", "pile": "seen", "counter": "E", "delta": -1}) == \
        [("no-counter", "seen", "E")]
    assert made(state, {"op": "pile", "pile": "display", "counters": "2 trolls, dragon"}).endswith("display=TTD")
    assert made(state, {"op": "pile", "pile": "display", "counters": "-"}) == "- KIH URR ELV 2 supply=PEE"
    assert refused(state, {"op": "pile", "pile": "display", "counters": "PPEECC"}) == \
        [("too-many-counters", "display", "PPEECC")]
    assert refused(state, {"op": "counter", "pile": "supply", "counter": "R", "delta": 1}) == \
        [("raft-counter", "supply", "R")]


# -- planning --------------------------------------------------------------------------------------------------
def test_my_placement_comes_out_of_my_supply_onto_an_empty_road() -> None:
    state = table("- KIH URR ELV 2 supply=PU")
    assert made(state, {"op": "place", "road": "kih-dag", "counter": "U"}) == "U@DAG-KIH:f KIH URR ELV 2 supply=P"
    assert refused(state, {"op": "place", "road": "DAG-KIH:f", "counter": "P"}) == \
        [("road-taken", "road", "DAG-KIH:f")]
    assert refused(state, {"op": "place", "road": "DAG-JXA", "counter": "D"}) == [("no-counter", "supply", "D")]
    made(state, {"op": "counter", "pile": "supply", "counter": "U", "delta": 1})
    assert refused(state, {"op": "place", "road": "ELV-LAP", "counter": "U"}) == [("terrain", "tiles", "ELV-LAP:p")]
    assert refused(state, {"op": "place", "road": "ELV-RIV:r", "counter": "U"}) == [("water", "tiles", "ELV-RIV:r")]


def test_an_opponents_placement_comes_out_of_their_face_up_counters_then_their_face_down_ones() -> None:
    state = table("- KIH URR ELV 2 opponent=Anna:VIR:-:C:1")
    assert made(state, {"op": "place", "road": "JXA-LAP", "counter": "C", "by": 1}).endswith("opponent=Anna:VIR:-:-:1")
    assert made(state, {"op": "place", "road": "DAG-JXA", "counter": "D", "by": 1}).endswith("opponent=Anna:VIR")
    assert refused(state, {"op": "place", "road": "DAG-KIH", "counter": "U", "by": 1}) == \
        [("no-counter", "opponent[1].counters", "U")]
    assert refused(state, {"op": "place", "road": "DAG-KIH", "counter": "U", "by": 2}) == [("no-opponent", "by", "2")]


def test_an_obstacle_goes_on_a_road_holding_a_counter_once_a_game() -> None:
    state = table("U@DAG-KIH:f,C@JXA-LAP:f KIH URR ELV 2 opponent=Anna:VIR")
    assert made(state, {"op": "place", "road": "DAG-KIH", "obstacle": True}) == \
        "U+X@DAG-KIH:f,C@JXA-LAP:f KIH URR ELV 2 obstacle=false,opponent=Anna:VIR"
    assert refused(state, {"op": "place", "road": "JXA-LAP", "obstacle": True}) == \
        [("no-obstacle", "obstacle", "JXA-LAP:f")]
    assert refused(state, {"op": "place", "road": "DAG-JXA", "obstacle": True, "by": 1}) == \
        [("obstacle-road", "road", "DAG-JXA:f")]
    assert made(state, {"op": "place", "road": "JXA-LAP", "counter": "obstacle", "by": 1}).endswith(
        "obstacle=false,opponent=Anna:VIR:-:-:0:false")
    assert made(state, {"op": "my_obstacle", "held": True}) == \
        "U+X@DAG-KIH:f,C+X@JXA-LAP:f KIH URR ELV 2 opponent=Anna:VIR:-:-:0:false"


def test_opponents_are_added_edited_and_removed_with_the_position_files_problems() -> None:
    state = table()
    assert made(state, {"op": "opponent", "name": "Anna", "at": "virst", "visited": "jxara lap", "points": 9,
                        "counters": "CC"}).endswith("opponent=Anna:VIR:JXA+LAP:CC:0:true:9")
    # Moving her boot keeps the town it left among her towns.
    assert made(state, {"op": "opponent", "index": 1, "at": "Mah'Davikia"}).endswith(
        "opponent=Anna:MAH:JXA+LAP+VIR:CC:0:true:9")
    assert refused(state, {"op": "opponent", "index": 1, "visited": ["Jxara", "Atlantis"], "secret": "one"}) == [
        ("unknown-town", "opponent[1].visited", "Atlantis"), ("bad-type", "opponent[1].secret", "'one'")]
    assert refused(state, {"op": "opponent", "index": 1, "counters": "CCCCDD"})[0][:2] == \
        ("too-many-counters", "opponent[1].counters")
    assert refused(state, {"op": "opponent", "name": "Anna"}) == [("duplicate-opponent", "opponent[1].name", "Anna")]
    assert refused(state, {"op": "opponent", "index": 3, "points": 1}) == [("no-opponent", "index", "3")]
    assert made(state, {"op": "opponent", "name": "Ben"}).endswith("opponent=Ben")
    # Two opponents at a table of two, and three obstacles held (mine, Anna's, Ben's): both said at once.
    assert refused(state, {"op": "players", "players": 2}) == [("too-many-opponents", "opponent", "2"),
                                                                 ("too-many-obstacles", "obstacle", "3")]
    assert made(state, {"op": "players", "players": 3}).endswith("players=3,opponent=Anna:MAH:JXA+LAP+VIR:CC:0:true:9,"
                                                                 "opponent=Ben")
    assert made(state, {"op": "opponent", "index": 1, "remove": True}).endswith("players=3,opponent=Ben")
    assert made(state, {"op": "players", "players": None}).endswith("display=ECUTD,opponent=Ben")


# -- the round's end -------------------------------------------------------------------------------------------
def test_a_new_round_keeps_one_counter_four_cards_and_the_display_if_asked() -> None:
    start = "U@DAG-KIH:f KIH PECUDDRR ELV 2 supply=PE,display=ECUTD,seen=T,opponent=Anna:VIR:-:CC:1"
    state = table(start)
    assert refused(state, {"op": "new_round"}) == [("choose-counter", "keep", "PE")]
    assert refused(state, {"op": "new_round", "keep": "D"}) == [("no-counter", "keep", "D")]
    assert refused(state, {"op": "new_round", "keep": "P", "cards": "DDDD"}) == [("no-card", "cards", "DDDD")]
    assert refused(state, {"op": "new_round", "keep": "P", "cards": "PECUD"}) == [("too-many-cards", "cards", "PECUD")]
    # The board, the counters seen and Anna's unknown choice go; she holds one counter I cannot see.
    assert made(state, {"op": "new_round", "keep": "e", "cards": "DDRR"}) == \
        "- KIH DDRR ELV 3 supply=E,display=ECUTD,opponent=Anna:VIR:-:-:1"
    assert state.phase == "draw"
    again = table(start)
    best = keep_cards(Hand.from_str("PECUDDRR"))  # unnamed, the cards kept are the planner's best 4
    assert made(again, {"op": "new_round", "keep": "-", "display": "new"}) == \
        f"- KIH {best} ELV 3 opponent=Anna:VIR:-:-:1" and len(best) == 4


def test_the_phase_is_the_tables_not_the_positions() -> None:
    state = table(phase="plan")
    version = state.version
    assert state.apply({"op": "phase", "phase": "plan"}).ok and state.version == version  # no change, no re-solve
    assert state.apply({"op": "phase", "phase": "draw"}).ok and state.version == version + 1
    assert state.phase == "draw" and not state.can_undo
    assert refused(state, {"op": "phase", "phase": "move"}) == [("bad-phase", "phase", "move")]
    with pytest.raises(ValueError, match="unknown phase"):
        table(phase="move")


@pytest.mark.parametrize(("change", "expected"), [
    ({"op": "take"}, [("missing-key", "counter")]),
    ({"op": "take", "counter": "U", "source": "stack"}, [("bad-source", "source")]),
    ({"op": "counter", "pile": "hand", "counter": "D", "delta": 1}, [("bad-pile", "pile")]),
    ({"op": "place", "road": "DAG-KIH"}, [("missing-key", "counter")]),
    ({"op": "place", "road": "DAG-KIH", "counter": "U", "obstacle": True}, [("counter-and-obstacle", "counter")]),
    ({"op": "place", "road": "DAG-KIH", "counter": "U", "by": "Anna"}, [("bad-by", "by")]),
    ({"op": "my_obstacle"}, [("missing-key", "held")]),
    ({"op": "opponent", "points": 3}, [("missing-key", "name")]),
    ({"op": "opponent", "index": 0, "name": "Anna"}, [("out-of-range", "index")]),
    ({"op": "players"}, [("missing-key", "players")]),
    ({"op": "new_round", "display": "shuffle"}, [("bad-display", "display")]),
    ({"op": "new_round", "keep": "raft-ish"}, [("unknown-transport", "keep")]),
])
def test_malformed_round_changes_name_the_key(change: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    with pytest.raises(IllegalPositionError) as error:
        read_change(change)
    assert [(p.kind, p.field) for p in error.value.problems] == expected


def test_the_supply_and_the_display_reach_the_page() -> None:
    state = table(DRAGONS)
    assert state.position.supply == Hand.from_str("DD") and state.position.display == Hand.from_str("EDD")
