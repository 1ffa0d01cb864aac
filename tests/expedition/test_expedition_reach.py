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
from planner.expedition.reach import fewest_arrows, fewest_turns, reach
from planner.expedition.rules import Colour


def _check_arrows(expedition: Expedition, depth: int) -> None:
    greens = load_board().greens
    fast = fewest_arrows(expedition, greens)
    plain = arrow_sequences(expedition, depth)
    for green in greens:
        value = fast[green]
        if green in plain:
            assert value == plain[green], (green, expedition)
        else:
            assert value is None or value > depth, (green, expedition)


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
    # start>Athens>Gizeh>Sahara: 3 arrows, 3 turns; start>blue:Start-E>Caspian Sea: 2 arrows in 1 turn (blue bonus)
    position = table()
    table_ = reach(position, ["Sahara", "Caspian Sea", "Athens"])
    assert table_.of(Colour.YELLOW, "Sahara") == table_.of(Colour.RED, "Sahara")
    assert (table_.of(Colour.YELLOW, "Sahara").arrows, table_.of(Colour.YELLOW, "Sahara").turns) == (3, 3)
    assert (table_.of(Colour.BLUE, "Caspian Sea").arrows, table_.of(Colour.BLUE, "Caspian Sea").turns) == (2, 1)
    assert (table_.of(Colour.BLUE, "Athens").arrows, table_.of(Colour.BLUE, "Athens").turns) == (1, 1)


def test_hand_derived_reach_through_a_loop() -> None:
    # yellow's head is Timgad; Athens is visited. Re-entering Athens: Timgad>Athens (1 arrow, a loop).
    # Rome: the loop Timgad>Athens, then the restart start>Rome, free: 2 arrows in 1 turn.
    position = table(yellow=["start", "Athens", "Gizeh", "Timgad"])
    table_ = reach(position, ["Athens", "Rome"])
    assert (table_.of(Colour.YELLOW, "Athens").arrows, table_.of(Colour.YELLOW, "Athens").turns) == (1, 1)
    assert (table_.of(Colour.YELLOW, "Rome").arrows, table_.of(Colour.YELLOW, "Rome").turns) == (2, 1)


@pytest.mark.parametrize("seed", range(6))
def test_arrows_agree_with_a_plain_enumeration(seed: int) -> None:
    position = random_position(random.Random(seed), turns=random.Random(seed).randint(0, 8))
    for expedition in position.expeditions:
        _check_arrows(expedition, 3)


@pytest.mark.parametrize("seed", range(4))
def test_turns_agree_with_a_plain_enumeration(seed: int) -> None:
    position = random_position(random.Random(100 + seed), turns=random.Random(seed).randint(0, 6))
    for expedition in position.expeditions:
        _check_turns(expedition, 2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_arrows_and_turns_agree_deeper(seed: int) -> None:
    position = random_position(random.Random(1000 + seed))
    for expedition in position.expeditions:
        _check_arrows(expedition, 4)
        _check_turns(expedition, 2)
