"""The keep rule: what each card is worth, which cards to keep, which pay a caravan."""

from __future__ import annotations

import pytest
import strategies
from hypothesis import given
from hypothesis import strategies as st

from planner.elfenland.keep import card_values, cards_by_value, cheapest_cards, keep_cards
from planner.elfenland.position import Hand
from planner.elfenland.rules import TRANSPORTS

P, E, C, U, T, D, R = TRANSPORTS


def test_card_values() -> None:
    # By hand from the board's 35 roads (plain 8, forest 12, desert 7, mountain 8) and the cost chart, e.g. the
    # dragon: 8/1 + 12/2 + 7/1 + 8/1 = 29; rafts: 7 rivers at (1/1 + 1/2) / 2 and 6 lakes at 1/2.
    values = card_values()
    assert values == pytest.approx({D: 29, E: 24, U: 23.5, T: 21.5, P: 20, C: 18, R: 8.25})
    assert sorted(TRANSPORTS, key=lambda t: -values[t]) == [D, E, U, T, P, C, R]


def test_cards_by_value_keep_and_cheapest() -> None:
    hand = Hand.from_str("PECUTDRR")
    assert cards_by_value(hand) == [D, E, U, T, P, C, R, R]
    assert keep_cards(hand) == Hand.from_str("EUTD")
    assert keep_cards(hand, 2) == Hand.from_str("ED")
    assert keep_cards(Hand.from_str("RR")) == Hand.from_str("RR")
    assert cheapest_cards(hand, 3) == Hand.from_str("CRR")
    assert cheapest_cards(hand, 0) == Hand()
    assert cheapest_cards(hand, 8) == hand
    with pytest.raises(ValueError):
        cheapest_cards(hand, 9)


@given(strategies.cards(max_size=12), st.integers(0, 12))
def test_keep_and_cheapest_split_the_hand(hand: Hand, n: int) -> None:
    kept = keep_cards(hand)
    assert len(kept) == min(4, len(hand)) and hand.contains(kept)
    values = card_values()
    if hand.without(kept).cards():
        assert min(values[t] for t in kept.cards()) >= max(values[t] for t in hand.without(kept).cards())
    if n <= len(hand):
        cheap = cheapest_cards(hand, n)
        assert len(cheap) == n and hand.contains(cheap)
        assert keep_cards(hand, len(hand) - n) + cheap == hand


