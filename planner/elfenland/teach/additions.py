"""One thing more: an extra card for the hand, or an extra counter on an empty road (what-if and "what it would
need"), and which of them can make any difference at all."""

from __future__ import annotations

from collections.abc import Collection

from planner.common.i18n import say
from planner.common.values import frozen
from planner.elfenland.board import load_board
from planner.elfenland.local_names import transport_word
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, DECK, TRANSPORTS, Transport, counter_cost
from planner.elfenland.teach.words import a_counter
from planner.elfenland.teach.words import town as road_name

__all__ = ["Addition", "card_additions", "counter_additions"]


@frozen
class Addition:
    """One extra card (``card``), or one extra counter (``counter``) on an empty road (``road``).

    ``alike`` lists the other counters that would do exactly the same on that road: counters the hand cannot pay
    are all travelled by the same caravan, so only one of them is tried.
    """

    card: Transport | None = None
    road: str | None = None
    counter: Transport | None = None
    alike: tuple[Transport, ...] = ()

    @property
    def kind(self) -> str:
        """``card`` or ``counter``."""
        return "card" if self.card is not None else "counter"

    def apply(self, position: Position) -> Position:
        """The position with this card in hand, or this counter on its road."""
        if self.card is not None:
            return position.replace(hand=position.hand + Hand.of([self.card]))
        assert self.road is not None and self.counter is not None
        return position.replace(tiles=(*position.tiles, Tile(self.road, self.counter)))

    def __str__(self) -> str:
        if self.card is not None:
            return say("one more {card} card", card=transport_word(self.card))
        assert self.counter is not None and self.road is not None
        road = load_board().connections[self.road]
        names = f"{road_name(road.a)}–{road_name(road.b)}"
        counters = a_counter(self.counter)
        for other in self.alike:
            counters = say("{counter} or {other}", counter=counters, other=transport_word(other))
        return say("{counter} counter on {road}", counter=counters, road=names)


def card_additions(position: Position) -> list[Addition]:
    """One extra card of each type the deck still has."""
    return [Addition(card=t) for t in TRANSPORTS if position.hand[t] < DECK[t]]


def counter_additions(position: Position, near: Collection[str]) -> list[Addition]:
    """One extra counter on each empty road with an end in ``near``, of each transport that can travel it and
    still lies in the supply; counters the hand cannot pay are one addition per caravan price.

    Only a road the boot can stand next to can change anything: pass the towns the hand can reach.
    """
    tiles = position.tile_map()
    used = {t: sum(tile.transport is t for tile in position.tiles) for t in COUNTER_TRANSPORTS}
    found = []
    for road in position.board.roads:
        if road.id in tiles or not (road.a in near or road.b in near):
            continue
        by_price: dict[int, list[Transport]] = {}
        for transport in COUNTER_TRANSPORTS:
            cost = counter_cost(transport, road.terrain)
            if cost is None or used[transport] >= COUNTERS[transport]:
                continue
            if position.hand[transport] >= cost:
                found.append(Addition(road=road.id, counter=transport))
            else:
                by_price.setdefault(position.rules.caravan_cost(cost, obstacle=False), []).append(transport)
        for same in by_price.values():
            found.append(Addition(road=road.id, counter=same[0], alike=tuple(same[1:])))
    return found
