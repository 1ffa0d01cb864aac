"""Which cards to keep when discarding down to 4, and which to pay a caravan with: one ranking decides both.

A card is worth how much of the board it pays for: the sum over every connection of 1 / the cards it needs
there (dragon 29, elfcycle 24, unicorn 23.5, troll wagon 21.5, giant pig 20, magic cloud 18, raft 8.25). It is a
heuristic for the next round, not part of the rules: the verifier never asks it.
"""

from __future__ import annotations

import functools

from planner.elfenland.board import load_board
from planner.elfenland.position import Hand
from planner.elfenland.rules import COSTS, KEEP_LIMIT, TRANSPORTS, Transport, raft_cost

__all__ = ["card_values", "cards_by_value", "cheapest_cards", "keep_cards"]


@functools.cache
def card_values() -> dict[Transport, float]:
    """How much of the board one card pays for: the sum over every connection of 1 / its cost with that card."""
    board = load_board()
    values = dict.fromkeys(TRANSPORTS, 0.0)
    for c in board.connections.values():
        if c.is_road:
            for transport, costs in COSTS.items():
                if c.terrain in costs:
                    values[transport] += 1 / costs[c.terrain]
        else:
            both_ways = (raft_cost(c, c.a), raft_cost(c, c.b))
            values[Transport.RAFT] += sum(1 / n for n in both_ways) / 2
    return values


def cards_by_value(hand: Hand) -> list[Transport]:
    """The hand's cards, most valuable first (ties in chart order)."""
    values = card_values()
    return sorted(hand.cards(), key=lambda t: (-values[t], TRANSPORTS.index(t)))


def keep_cards(hand: Hand, limit: int = KEEP_LIMIT) -> Hand:
    """The ``limit`` cards to keep when discarding at the end of the move (the most valuable ones)."""
    return Hand.of(cards_by_value(hand)[:limit])


def cheapest_cards(hand: Hand, count: int) -> Hand:
    """The ``count`` least valuable cards of ``hand`` (how solvers pay a caravan).

    Raises:
        ValueError: the hand holds fewer than ``count`` cards.
    """
    if count > len(hand):
        raise ValueError(f"hand {hand} holds fewer than {count} cards")
    return Hand.of(cards_by_value(hand)[len(hand) - count:]) if count else Hand()
