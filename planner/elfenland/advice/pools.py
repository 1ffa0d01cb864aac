"""What a player cannot see, and seeded samples of it: the unseen counters, the unseen cards, sampled hands.

Every counter not on the board, in the display, seen elsewhere, with an opponent face up or in my supply is
unseen: in the stack, or face down with an opponent; a blind draw is distributed like any of them. Every card not in
my hand is unseen (opponents' hands are secret, discards are not tracked). Samples are seeded, so the same seed
gives the same advice on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, DECK, TRANSPORTS, Transport

__all__ = ["sample_hands", "unseen_cards", "unseen_counters"]


def unseen_counters(position: Position) -> Hand:
    """The counters of each type I cannot see (a multiset of counter transports; never negative)."""
    counts = {}
    for transport in COUNTER_TRANSPORTS:
        known = (sum(t.transport is transport for t in position.tiles) + position.supply[transport]
                 + position.display[transport] + position.seen[transport]
                 + sum(o.counters[transport] for o in position.opponents))
        counts[transport] = max(0, COUNTERS[transport] - known)
    return Hand.from_counts(counts)


def unseen_cards(position: Position) -> Hand:
    """The travel cards I cannot see: the deck less my hand."""
    return Hand.from_counts({t: DECK[t] - position.hand[t] for t in TRANSPORTS})


def sample_hands(pool: Hand, size: int, count: int, *, seed: int) -> Iterator[Hand]:
    """``count`` hands of ``size`` cards drawn without replacement from ``pool`` (each hand from the whole pool),
    from one seeded generator: the same seed gives the same hands."""
    rng = random.Random(seed)
    cards: list[Transport] = pool.cards()
    size = min(size, len(cards))
    for _ in range(count):
        yield Hand.of(rng.sample(cards, size))
