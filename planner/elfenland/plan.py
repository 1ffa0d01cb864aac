"""Routes, their replay and their score: the executable spec every solver answer must pass.

:func:`verify` replays a route step by step on a position, independently of any solver, and either returns the
:class:`Outcome` (towns collected, cards spent, end town, score) or raises :class:`IllegalStepError` naming the
first illegal step and why. Route text is ``TO/CARDS`` per step, e.g. ``THR/E JAC/D`` (``TO:r/CARDS`` picks the
river where a road and a river join the same towns); the cards are always explicit, so a caravan is its cards.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from planner.elfenland.board import load_board
from planner.elfenland.keep import keep_cards
from planner.elfenland.notation import parse_route_tokens
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import RAFT_UPSTREAM, Transport, counter_cost, raft_cost
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
                if rules.strict and hand[tile.transport] >= cost:
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
                way = "lake crossing" if connection.way(here) == "lake" else connection.way(here)
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
        """The at most 4 cards to keep after the move (see :mod:`planner.elfenland.keep`)."""
        return keep_cards(self.outcome.cards_left)

    @property
    def value(self) -> tuple[int, int]:
        """The objective, larger is better: (score, -cards spent)."""
        return (self.score, -self.cards_spent)

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.steps) or "-"


# -- route text ------------------------------------------------------------------------------------------------
def parse_route(position: Position, text: str) -> tuple[Step, ...]:
    """Steps from route text like ``THR/E JAC/D`` or ``Jxara:r/R mah/CC`` (grammar: :func:`parse_route_tokens`);
    which connection each step takes and how it is paid follow from its cards.

    Raises:
        NotationError: a malformed step, an unknown town, or towns that are not neighbours.
    """
    board = position.board
    tiles = position.tile_map()
    steps = []
    here = position.at
    for token in parse_route_tokens(text):
        to = token.to
        cards = Hand.from_counts(token.cards)
        links = board.between(here, to)
        if token.terrain is not None:
            links = tuple(c for c in links if c.terrain is token.terrain)
        if not links:
            raise NotationError(f"route step {token.number} {token.text!r}: {board.towns[here].name} and "
                                f"{board.towns[to].name} are not joined{' that way' if token.terrain else ''}",
                                kind="not-neighbours", value=token.text)
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
