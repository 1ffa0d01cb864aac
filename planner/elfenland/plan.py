"""Routes, their replay and their score: the executable spec every solver answer must pass.

:func:`verify` replays a route step by step on a position, independently of any solver, and either returns the
:class:`Outcome` (towns collected, cards spent, end town, score) or raises :class:`IllegalStepError` naming the
first illegal step and why. Route text is ``TO/CARDS`` per step, e.g. ``THR/E JAC/D`` (``TO:r/CARDS`` picks the
river where a road and a river join the same towns); the cards are always explicit, so a caravan is its cards.
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass

from planner.elfenland.board import Connection, Terrain, load_board
from planner.elfenland.notation import parse_cards, parse_town
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import (
    COSTS,
    KEEP_LIMIT,
    RAFT_DOWNSTREAM,
    RAFT_LAKE,
    RAFT_UPSTREAM,
    TRANSPORTS,
    Transport,
    counter_cost,
)
from planner.errors import IllegalStepError, NotationError


class Pay(enum.Enum):
    """How a step is paid."""

    COUNTER = "counter"
    """Matching cards for the counter on the road."""
    CARAVAN = "caravan"
    """Any cards, 3 (4 with an obstacle), on a road holding a counter."""
    RAFT = "raft"
    """Raft cards on a river or lake."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the boot along one connection, with the exact cards paid."""

    frm: str
    to: str
    connection: str
    """Connection id, e.g. ``JXA-VIR:r``."""
    pay: Pay
    cards: Hand

    def __str__(self) -> str:
        board = load_board()
        suffix = f":{self.connection[-1]}" if len(board.between(self.frm, self.to)) > 1 else ""
        return f"{self.to}{suffix}/{self.cards}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a legal route achieves."""

    new_towns: tuple[str, ...]
    """Towns whose marker the route collects, in order."""
    end: str
    cards_spent: int
    home_penalty: int
    cards_left: Hand

    @property
    def score(self) -> int:
        """New towns minus the home-town penalty."""
        return len(self.new_towns) - self.home_penalty


def raft_cost(connection: Connection, frm: str) -> int:
    """Raft cards to cross water from ``frm``: downstream 1, upstream 2, lake 2."""
    if connection.terrain is Terrain.LAKE:
        return RAFT_LAKE
    return RAFT_DOWNSTREAM if connection.downstream_to != frm else RAFT_UPSTREAM


def verify(position: Position, steps: tuple[Step, ...] | list[Step]) -> Outcome:
    """Replay ``steps`` on ``position`` and return what they achieve.

    Raises:
        IllegalStepError: at the first illegal step, saying why.
    """
    board = position.board
    tiles = position.tile_map()
    rules = position.rules
    hand = position.hand
    here = position.at
    collected = set(position.visited)
    new_towns: list[str] = []
    for index, step in enumerate(steps):
        def fail(reason: str, index: int = index) -> IllegalStepError:
            return IllegalStepError(index, reason)

        connection = board.connections.get(step.connection)
        if step.frm != here:
            raise fail(f"starts in {step.frm} but the boot is in {here}")
        if connection is None or not connection.touches(here) or connection.other(here) != step.to:
            raise fail(f"{step.connection} does not join {here} and {step.to}")
        cards = step.cards
        if connection.is_road:
            tile = tiles.get(connection.id)
            if tile is None or tile.transport is None:
                raise fail(f"no counter on road {connection.id}: a road without a counter cannot be travelled")
            cost = counter_cost(tile.transport, connection.terrain, obstacle=tile.obstacle)
            if cost is None:  # only in a position that was never validated
                raise fail(f"a {tile.transport.title} counter cannot travel {connection.id}, "
                           f"a {connection.terrain} road")
            wanted = Hand.from_counts({tile.transport: cost})
            price = rules.caravan_cost(cost, obstacle=tile.obstacle)
            price_text = (f"the {tile.transport.title}{' + obstacle' if tile.obstacle else ''} counter on "
                          f"{connection.id} costs {wanted} (or any {price} cards as a caravan), not {cards}")
            if step.pay is Pay.COUNTER:
                if cards != wanted:
                    raise fail(price_text)
            elif step.pay is Pay.CARAVAN:
                if len(cards) != price:
                    raise fail(price_text)
                if rules.caravan_when == "strict" and hand[tile.transport] >= cost:
                    raise fail(
                        f"strict caravan rule: the hand can pay the {tile.transport.title} counter on "
                        f"{connection.id} ({cost} card{'s' if cost > 1 else ''}), so no caravan"
                    )
            else:
                raise fail(f"rafts travel only on water, {connection.id} is a road")
        else:
            if step.pay is not Pay.RAFT:
                raise fail(f"{connection.id} is a {connection.kind}: water carries no counters and no caravans")
            price = raft_cost(connection, here)
            wanted = Hand.from_counts({Transport.RAFT: price})
            if cards != wanted:
                way = "lake crossing" if connection.terrain is Terrain.LAKE else (
                    "downstream" if price == RAFT_DOWNSTREAM else "upstream")
                raise fail(f"{way} on {connection.id} costs {wanted}, not {cards}")
        if not hand.contains(cards):
            raise fail(f"not enough cards: it pays {cards} but the hand holds {hand}")
        hand = hand.without(cards)
        here = step.to
        if here not in collected and board.towns[here].has_marker:
            collected.add(here)
            new_towns.append(here)
    return Outcome(tuple(new_towns), here, len(position.hand) - len(hand), position.home_penalty(here), hand)


def score(position: Position, steps: tuple[Step, ...] | list[Step]) -> int:
    """The score of a route (new towns minus the home penalty).

    Raises:
        IllegalStepError: the route is not legal.
    """
    return verify(position, steps).score


# -- which cards to keep ---------------------------------------------------------------------------------------
@functools.cache
def card_values() -> dict[Transport, float]:
    """How much of the board one card pays for: the sum over every connection of 1 / its cost with that card.

    dragon 29, elfcycle 24, unicorn 23.5, troll wagon 21.5, giant pig 20, magic cloud 18, raft 8.25. This is
    the keep rule: discard down to 4 keeping the highest-valued cards, and pay caravans with the lowest.
    """
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
    """The ``count`` least valuable cards of ``hand`` (how solvers pay a caravan)."""
    if count > len(hand):
        raise ValueError(f"hand {hand} holds fewer than {count} cards")
    return Hand.of(cards_by_value(hand)[len(hand) - count:]) if count else Hand()


@dataclass(frozen=True, slots=True)
class Plan:
    """A verified route and what it achieves."""

    position: Position
    steps: tuple[Step, ...]
    outcome: Outcome
    proven: bool = False
    """Whether the solver proved no route scores better (or spends fewer cards for the same score)."""
    solver: str = ""

    @classmethod
    def of(cls, position: Position, steps: tuple[Step, ...] | list[Step], *, proven: bool = False,
           solver: str = "") -> Plan:
        """Verify ``steps`` and wrap them as a plan.

        Raises:
            IllegalStepError: the route is not legal.
        """
        steps = tuple(steps)
        return cls(position, steps, verify(position, steps), proven, solver)

    @property
    def score(self) -> int:
        """New towns minus the home penalty."""
        return self.outcome.score

    @property
    def new_towns(self) -> tuple[str, ...]:
        """Towns collected, in order."""
        return self.outcome.new_towns

    @property
    def end(self) -> str:
        """The town where the boot stops."""
        return self.outcome.end

    @property
    def cards_spent(self) -> int:
        """Cards paid along the route."""
        return self.outcome.cards_spent

    @property
    def keep(self) -> Hand:
        """The at most 4 cards to keep after the move (see :func:`card_values`)."""
        return keep_cards(self.outcome.cards_left)

    @property
    def value(self) -> tuple[int, int]:
        """The objective, larger is better: (score, -cards spent)."""
        return (self.score, -self.cards_spent)

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.steps) or "-"


# -- route text ------------------------------------------------------------------------------------------------
_STEP = re.compile(r"^(?P<to>[^/:]+)(?::(?P<terrain>[a-zA-Z]))?/(?P<cards>.+)$")


def parse_route(position: Position, text: str) -> tuple[Step, ...]:
    """Steps from route text like ``THR/E JAC/D`` or ``Jxara:r/R mah/CC``; how each is paid follows from its cards.

    Raises:
        NotationError: a malformed step, an unknown town, or towns that are not neighbours.
    """
    board = position.board
    tiles = position.tile_map()
    steps = []
    here = position.at
    tokens = text.split()
    if tokens == ["-"]:
        return ()
    for number, token in enumerate(tokens, 1):
        match = _STEP.match(token)
        if not match:
            raise NotationError(f"route step {number} {token!r} must look like 'TOWN/CARDS', e.g. 'thr/E' or 'jxa:r/R'")
        to = parse_town(match["to"], where=f"route step {number}")
        cards = Hand.from_counts(parse_cards(match["cards"], where=f"route step {number}"))
        links = board.between(here, to)
        if match["terrain"]:
            links = tuple(c for c in links if c.terrain.letter == match["terrain"].lower())
        if not links:
            raise NotationError(f"route step {number} {token!r}: {board.towns[here].name} and "
                                f"{board.towns[to].name} are not joined{' that way' if match['terrain'] else ''}")
        only_rafts = len(cards) == cards[Transport.RAFT] and len(cards) <= RAFT_UPSTREAM
        connection = next((c for c in links if c.is_road != only_rafts), links[0])
        if connection.is_road:
            tile = tiles.get(connection.id)
            pay = Pay.CARAVAN
            if tile is not None and tile.transport is not None and cards[tile.transport] == len(cards):
                cost = counter_cost(tile.transport, connection.terrain, obstacle=tile.obstacle)
                pay = Pay.COUNTER if cost == len(cards) else Pay.CARAVAN
        else:
            pay = Pay.RAFT
        steps.append(Step(here, to, connection.id, pay, cards))
        here = to
    return tuple(steps)
