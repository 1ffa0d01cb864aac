"""The packed cards and the one step generator the search and the teaching walks share."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.elfenland.board import Crossing, load_board
from planner.elfenland.cards import (
    Way,
    board_ways,
    budget_of,
    capped,
    count_of,
    counts_of,
    covers,
    packed,
    pay,
    start_cards,
)
from planner.elfenland.plan import Pay
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import RAFT_COSTS, TRANSPORTS, Rules, Transport

P, E, C, U, T, D, R = range(len(TRANSPORTS))
counts = st.tuples(*[st.integers(0, 12)] * len(TRANSPORTS))


@given(counts, counts)
def test_covers_is_at_least_as_many_of_everything(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    left, right = packed(a, sum(a)), packed(b, sum(b))
    assert covers(left, right) == (all(x >= y for x, y in zip(a, b, strict=True)) and sum(a) >= sum(b))
    assert counts_of(left) == a and budget_of(left) == sum(a)


def test_capped_lowers_every_count_to_the_budget_and_keeps_the_rest() -> None:
    cards = packed((5, 0, 2, 0, 0, 0, 4), 3, supply=(1, 2))
    assert counts_of(capped(cards)) == (3, 0, 2, 0, 0, 0, 3)
    assert budget_of(capped(cards)) == 3 and capped(cards) >> (8 * 8) == cards >> (8 * 8)  # the supply stays


def _ways(text: str, rules: Rules | None = None) -> dict[str, tuple[Way, ...]]:
    position = Position.from_str(text)
    return board_ways(position.tiles, rules or position.rules)


def test_rafts_cost_what_the_raft_table_says_each_way() -> None:
    board = load_board()
    for town, ways in _ways("- ELV - - 1").items():
        for way in ways:
            assert way.pay is Pay.RAFT and way.card == R  # no counters: water only
            connection = board.connections[way.connection]
            assert way.crossing is not None and way.crossing is connection.way(town)
            assert way.count == RAFT_COSTS[way.crossing]
    jxa = {w.to: w for w in _ways("- JXA - - 1")["JXA"] if w.connection.endswith(":r")}
    assert jxa["MAH"].crossing is Crossing.DOWNSTREAM and jxa["MAH"].count == 1


def test_a_counter_gives_its_matching_cards_and_a_caravan_both_ways() -> None:
    # A dragon on the forest road Elvenhold-Erg'Eren: 2 dragons, or a caravan of 3 (4 with the obstacle).
    for text, matching, caravan in (("D@ELV-ERG:f ELV - - 1", 2, 3), ("D+X@ELV-ERG:f ELV - - 1", 3, 4)):
        for frm in ("ELV", "ERG"):
            road = [w for w in _ways(text)[frm] if w.connection == "ELV-ERG:f"]
            assert [(w.pay, w.card, w.count) for w in road] == [(Pay.COUNTER, D, matching),
                                                                 (Pay.CARAVAN, None, caravan)]


def test_paying_takes_the_cards_off_and_refuses_what_the_hand_cannot_pay() -> None:
    position = Position.from_str("D@ELV-ERG:f ELV DDPP - 1")
    counter, caravan = (w for w in board_ways(position.tiles, position.rules)["ELV"] if w.connection == "ELV-ERG:f")
    cards = start_cards(position)
    ((left, paid),) = pay(counter, cards, strict=False)
    assert paid == Hand.of([Transport.DRAGON] * 2) and count_of(left, D) == 0 and budget_of(left) == 2
    ((left, paid),) = pay(caravan, cards, strict=False)
    assert paid is None and budget_of(left) == 1 and counts_of(left) == (1, 0, 0, 0, 0, 1, 0)  # capped to 1 left
    assert list(pay(counter, left, strict=False)) == []  # two dragons are no longer there to pay


@pytest.mark.parametrize(("hand", "allowed"), [("DPPP", True), ("DDPP", False)])
def test_a_strict_caravan_pays_exact_cards_least_valuable_first_only_without_the_matching_cards(
        hand: str, allowed: bool) -> None:
    position = Position.from_str(f"D@ELV-ERG:f ELV {hand} - 1")
    caravan = next(w for w in board_ways(position.tiles, position.rules)["ELV"] if w.pay is Pay.CARAVAN)
    paid = [cards for _, cards in pay(caravan, start_cards(position), strict=True)]
    if not allowed:
        assert paid == []
        return
    # 3 of D, P, P, P: the three pigs (least valuable), then the ones giving up the dragon.
    assert paid[0] == Hand.of([Transport.PIG] * 3)
    assert sorted(str(h) for h in paid) == sorted(["PPP", "PPD"])
