"""The reach table against plain enumerations of an expedition's arrows (small depths), and hand-derived cases."""

from __future__ import annotations

import random

import pytest
from exbrute import arrow_sequences, turn_sequences
from exhelp import table

from planner.common.limits import Limit
from planner.expedition.board import load_board
from planner.expedition.generate import random_position
from planner.expedition.position import Expedition
from planner.expedition.reach import clear_cache, fewest_arrows, fewest_turns, reach
from planner.expedition.rules import Colour


def _check_arrows(expedition: Expedition, depth: int) -> None:
    """Every spot, not only the greens: the head itself (re-entered by a closed trail) is a target too."""
    spots = [s.key for s in load_board().order]
    fast = fewest_arrows(expedition, spots)
    plain = arrow_sequences(expedition, depth)
    for spot in spots:
        value = fast[spot]
        if spot in plain:
            assert value == plain[spot], (spot, expedition)
        else:
            assert value is None or value > depth, (spot, expedition)


def _check_turns(expedition: Expedition, horizon: int) -> None:
    greens = load_board().greens
    fast, proven, _ = fewest_turns(expedition, greens, horizon=horizon, limit=Limit(nodes=1_000_000))
    assert proven == horizon
    try:
        plain = turn_sequences(expedition, horizon=horizon)
    except RuntimeError:  # too big for the plain enumeration: nothing to compare with
        return
    assert {g: v for g, v in fast.items() if v is not None} == plain, expedition


def test_hand_derived_reach_from_the_start() -> None:
    # start>Athens>Gizeh>Sahara: 3 arrows, 3 turns (beyond the 2-turn horizon: None);
    # start>blue:Start-E>Caspian Sea: 2 arrows in 1 turn (blue bonus)
    position = table()
    table_ = reach(position, ["Sahara", "Caspian Sea", "Athens"])
    assert table_.of(Colour.YELLOW, "Sahara") == table_.of(Colour.RED, "Sahara")
    assert (table_.of(Colour.YELLOW, "Sahara").arrows, table_.of(Colour.YELLOW, "Sahara").turns) == (3, None)
    assert table_.proven[Colour.YELLOW] == 2
    assert (table_.of(Colour.BLUE, "Caspian Sea").arrows, table_.of(Colour.BLUE, "Caspian Sea").turns) == (2, 1)
    assert (table_.of(Colour.BLUE, "Athens").arrows, table_.of(Colour.BLUE, "Athens").turns) == (1, 1)


def test_hand_derived_reach_through_a_loop() -> None:
    # yellow's head is Timgad; Athens is visited. Re-entering Athens: Timgad>Athens (1 arrow, a loop).
    # Rome: the loop Timgad>Athens, then the restart start>Rome, free: 2 arrows in 1 turn.
    position = table(yellow=["start", "Athens", "Gizeh", "Timgad"])
    table_ = reach(position, ["Athens", "Rome"])
    assert (table_.of(Colour.YELLOW, "Athens").arrows, table_.of(Colour.YELLOW, "Athens").turns) == (1, 1)
    assert (table_.of(Colour.YELLOW, "Rome").arrows, table_.of(Colour.YELLOW, "Rome").turns) == (2, 1)


def test_a_head_whose_only_way_back_closes_on_its_own_blue_square() -> None:
    # The head blue:Madagascar-S-S came from red:Madagascar-S (that link is used); its other neighbours are the red
    # stars S-S-S and S-S-SE (linked to each other) and red:Sigiriya-S-S-S. The shortest lasso: blue > red S-S-S >
    # red S-S-SE > back onto the blue square by another link, 3 arrows; the restart start > Rome is the 4th.
    # Without the lasso, Rome is 11 arrows away (around the Indian Ocean and back through Africa).
    path = ["start", "Athens", "Gizeh", "Aksum", "Virunga", "Victoria Falls", "Madagascar", "red:Madagascar-S",
            "blue:Madagascar-S-S"]
    position = table(yellow=path)
    assert position.expedition(Colour.YELLOW).head == "blue:Madagascar-S-S"
    arrows = fewest_arrows(position.expedition(Colour.YELLOW), ["Rome", "Petra", "Athens", "blue:Madagascar-S-S"])
    assert arrows["Rome"] == 4  # 3 + start>Rome
    assert arrows["Petra"] == 4  # 3 + Athens>Petra
    # re-entering Athens: start-Athens and Athens-Gizeh carry the path, so 3 + Gizeh>Timgad>Athens
    assert arrows["Athens"] == 5
    assert arrows["blue:Madagascar-S-S"] == 3  # the lasso itself re-enters the head
    _check_arrows(position.expedition(Colour.YELLOW), 4)


@pytest.mark.parametrize("seed", range(10))
def test_arrows_agree_with_a_plain_enumeration(seed: int) -> None:
    position = random_position(random.Random(seed), turns=random.Random(seed).randint(0, 40))
    for expedition in position.expeditions:
        _check_arrows(expedition, 3)


@pytest.mark.parametrize("seed", range(4))
def test_turns_agree_with_a_plain_enumeration(seed: int) -> None:
    position = random_position(random.Random(100 + seed), turns=random.Random(seed).randint(0, 6))
    for expedition in position.expeditions:
        _check_turns(expedition, 2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_arrows_agree_deeper(seed: int) -> None:
    position = random_position(random.Random(2000 + seed), turns=random.Random(seed).randint(0, 40))
    for expedition in position.expeditions:
        _check_arrows(expedition, 4)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_arrows_and_turns_agree_deeper(seed: int) -> None:
    position = random_position(random.Random(1000 + seed))
    for expedition in position.expeditions:
        _check_arrows(expedition, 4)
        _check_turns(expedition, 2)


def test_each_row_is_cached_by_the_expedition_s_arrows() -> None:
    clear_cache()
    position = table(yellow=["start", "Athens", "Gizeh"], blue=["start", "Athens", "Gizeh"])
    first = reach(position, ["Sahara", "Petra"])
    assert first.nodes > 0
    again = reach(position, ["Sahara", "Petra"])
    assert again.nodes == 0 and again.distances == first.distances
    assert first.of(Colour.YELLOW, "Sahara") == first.of(Colour.BLUE, "Sahara")
