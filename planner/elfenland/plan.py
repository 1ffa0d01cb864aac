"""Routes, their replay and their score: the executable spec every solver answer must pass.

:func:`verify` replays a route step by step on a position, independently of any solver, and either returns the
:class:`Outcome` (towns collected, cards spent, end town, score) or raises :class:`IllegalStepError` naming the
first illegal step and why. Route text is ``TO/CARDS`` per step, e.g. ``THR/E JAC/D`` (``TO:r/CARDS`` picks the
river where a road and a river join the same towns); the cards are always explicit, so a caravan is its cards.
"""

from __future__ import annotations

import enum

from planner.common.i18n import N_, say
from planner.common.values import frozen
from planner.elfenland.board import Crossing, load_board
from planner.elfenland.counts import count
from planner.elfenland.keep import keep_cards
from planner.elfenland.local_names import terrain_word, town_word, transport_word
from planner.elfenland.notation import parse_route_tokens
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import MOST_RAFTS, Transport, can_carry, counter_cost, raft_cost
from planner.errors import IllegalPlacementError, IllegalStepError, NotationError


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


@frozen
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


@frozen
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
            raise fail(say("starts in {start} but the boot is in {here}", start=step.frm, here=here))
        if step.to == here:
            raise fail(already_there(town_word(board, here)))
        if connection is None or not connection.touches(here) or connection.other(here) != step.to:
            raise fail(say("{road} does not join {here} and {to}", road=step.connection, here=here, to=step.to))
        cards = step.cards
        if connection.is_road:
            tile = tiles.get(connection.id)
            if tile is None or tile.transport is None:
                raise fail(say("no counter on road {road}: a road without a counter cannot be travelled",
                               road=connection.id))
            cost = counter_cost(tile.transport, connection.terrain, obstacle=tile.obstacle)
            if cost is None:  # only in a position that was never validated
                raise fail(say("a {counter} counter cannot travel {road}, a {terrain} road",
                               counter=transport_word(tile.transport), road=connection.id,
                               terrain=terrain_word(connection.terrain)))
            if step.pay is Pay.RAFT:
                raise fail(say("rafts travel only on water, {road} is a road", road=connection.id))
            wanted = Hand.from_counts({tile.transport: cost})
            price = rules.caravan_cost(cost, obstacle=tile.obstacle)
            if cards != wanted if step.pay is Pay.COUNTER else len(cards) != price:
                # Said only when it fails: a solver's every plan passes here, and the text costs more than the test.
                message = (N_("the {counter} + obstacle counter on {road} costs {wanted} (or any {price} cards as a "
                              "caravan), not {cards}") if tile.obstacle else
                           N_("the {counter} counter on {road} costs {wanted} (or any {price} cards as a caravan), "
                              "not {cards}"))
                raise fail(say(message, counter=transport_word(tile.transport), road=connection.id, wanted=wanted,
                               price=price, cards=cards))
            if step.pay is Pay.CARAVAN and rules.strict and hand[tile.transport] >= cost:
                raise fail(say("strict caravan rule: the hand can pay the {counter} counter on {road} ({cost}), so "
                               "no caravan", counter=transport_word(tile.transport), road=connection.id,
                               cost=count(cost, "card")))
        else:
            if step.pay is not Pay.RAFT:
                message = N_("{road} is a lake: water carries no counters and no caravans") if \
                    connection.kind == "lake" else N_("{road} is a river: water carries no counters and no caravans")
                raise fail(say(message, road=connection.id))
            price = raft_cost(connection, here)
            wanted = Hand.from_counts({Transport.RAFT: price})
            if cards != wanted:
                way = connection.way(here)
                message = (N_("lake crossing on {road} costs {wanted}, not {cards}") if way is Crossing.LAKE else
                           N_("upstream on {road} costs {wanted}, not {cards}") if way is Crossing.UPSTREAM else
                           N_("downstream on {road} costs {wanted}, not {cards}"))
                raise fail(say(message, road=connection.id, wanted=wanted, cards=cards))
        if not hand.contains(cards):
            raise fail(say("not enough cards: it pays {cards} but the hand holds {hand}", cards=cards, hand=hand))
        hand = hand.without(cards)
        here = step.to
        if here not in collected and board.towns[here].has_marker:
            collected.add(here)
            new_towns.append(here)
    return Outcome(tuple(new_towns), here, len(position.hand) - len(hand), position.home_penalty(here), hand)


def already_there(town: str) -> str:
    """Why a step to the town the boot stands in is refused (by the verifier and the route parser alike)."""
    return say("you are already in {town}: a step goes to a neighbouring town", town=town)


def place(position: Position, placements: tuple[Tile, ...] | list[Tile]) -> Position:
    """The position once my counters are placed: each on an empty road its transport can travel, from my supply,
    one per road. The counters join the board's tiles and leave the supply.

    Raises:
        IllegalPlacementError: at the first counter that cannot be placed there, saying why.
    """
    board = position.board
    tiles = position.tile_map()
    supply = position.supply
    for index, tile in enumerate(placements):
        def fail(reason: str, index: int = index) -> IllegalPlacementError:
            return IllegalPlacementError(index, reason)

        connection = board.connections.get(tile.road)
        if connection is None or not connection.is_road:
            raise fail(say("{road} is no road: counters go on roads only", road=tile.road))
        if tile.transport is None or tile.obstacle:
            raise fail(say("only transport counters are placed with a plan, not an obstacle ({tile})", tile=tile))
        if tile.road in tiles:
            raise fail(say("road {road} already holds a counter ({tile})", road=tile.road, tile=tiles[tile.road]))
        if not can_carry(tile.transport, connection.terrain):
            raise fail(say("a {counter} counter cannot go on {road}, a {terrain} road",
                           counter=transport_word(tile.transport), road=tile.road,
                           terrain=terrain_word(connection.terrain)))
        single = Hand.of([tile.transport])
        if not supply.contains(single):
            raise fail(say("no {counter} counter left in the supply ({supply})", counter=transport_word(tile.transport),
                           supply=supply))
        supply = supply.without(single)
        tiles[tile.road] = tile
    return position.replace(tiles=tuple(tiles.values()), supply=supply)


@frozen
class Plan:
    """A verified route and what it achieves."""

    position: Position
    """The position the route is walked on: with :attr:`placements` on the board when there are any."""
    steps: tuple[Step, ...]
    outcome: Outcome
    proven: bool = False
    """Whether the solver proved no route scores better (or spends fewer cards for the same score)."""
    solver: str = ""
    placements: tuple[Tile, ...] = ()
    """My counters this plan places before walking (a joint plan of ``elfenland place``); empty for a route."""

    @classmethod
    def of(cls, position: Position, steps: tuple[Step, ...] | list[Step], *, proven: bool = False,
           solver: str = "", placements: tuple[Tile, ...] | list[Tile] = ()) -> Plan:
        """Verify ``placements`` (see :func:`place`) and ``steps`` on the position they make, and wrap them.

        Raises:
            IllegalPlacementError: a counter cannot be placed where the plan puts it.
            IllegalStepError: the route is not legal.
        """
        steps, placements = tuple(steps), tuple(placements)
        board = place(position, placements) if placements else position
        return cls(board, steps, verify(board, steps), proven, solver, placements)

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
        """The objective of a route, larger is better: (score, -cards spent)."""
        return (self.score, -self.cards_spent)

    @property
    def objective(self) -> tuple[int, int, int]:
        """The objective of a joint plan, larger is better: (score, -cards spent, -counters placed)."""
        return (self.score, -self.cards_spent, -len(self.placements))

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
        if to == here:
            raise NotationError(say("route step {number} {token!r}: {reason}", number=token.number, token=token.text,
                                    reason=already_there(town_word(board, here))), kind="same-town", value=token.text)
        links = board.between(here, to)
        if token.terrain is not None:
            links = tuple(c for c in links if c.terrain is token.terrain)
        if not links:
            message = (N_("route step {number} {token!r}: {a} and {b} are not joined that way") if token.terrain
                       else N_("route step {number} {token!r}: {a} and {b} are not joined"))
            raise NotationError(say(message, number=token.number, token=token.text, a=town_word(board, here),
                                    b=town_word(board, to)), kind="not-neighbours", value=token.text)
        only_rafts = len(cards) == cards[Transport.RAFT] and len(cards) <= MOST_RAFTS
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
