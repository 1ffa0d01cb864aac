"""A tiny exhaustive route search: the third opinion the solver tests compare against.

Obviously correct rather than fast: from every state (town, cards left, towns collected) it tries every step
and every way to pay it (the counter's matching cards, a caravan with *every* choice of cards, rafts), replaying
the rules straight from RULES.md. It shares no code with the solvers; it reads the board, the cost table and the
rule options, and the tests replay its routes with :func:`planner.elfenland.plan.verify`. Meant for hands of at
most about 7 cards (every step costs a card, so routes are short).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from planner.elfenland.board import Terrain
from planner.elfenland.plan import Pay, Step
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import RAFT_COSTS, TRANSPORTS, Crossing, Transport, counter_cost

Value = tuple[int, int]
"""(score, -cards spent): larger is better."""


def sub_hands(counts: tuple[int, ...], size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of exactly ``size`` cards taken from ``counts`` (the ways to pay a caravan)."""
    if not counts:
        if size == 0:
            yield ()
        return
    for take in range(min(counts[0], size) + 1):
        for rest in sub_hands(counts[1:], size - take):
            yield (take, *rest)


def payments(position: Position, town: str, hand: tuple[int, ...]) -> Iterator[Step]:
    """Every legal step out of ``town`` with the cards ``hand``, one per way to pay it."""
    board = position.board
    tiles = position.tile_map()
    rules = position.rules
    for connection in board.links(town):
        to = connection.other(town)
        if connection.is_road:
            tile = tiles.get(connection.id)
            if tile is None or tile.transport is None:
                continue
            cost = counter_cost(tile.transport, connection.terrain, obstacle=tile.obstacle)
            if cost is None:
                continue
            have = hand[TRANSPORTS.index(tile.transport)]
            if have >= cost:
                yield Step(town, to, connection.id, Pay.COUNTER, Hand.from_counts({tile.transport: cost}))
            if rules.caravan_when == "strict" and have >= cost:
                continue  # strict: a caravan only when the matching cards cannot be paid now
            for cards in sub_hands(hand, rules.caravan_cost(cost, obstacle=tile.obstacle)):
                yield Step(town, to, connection.id, Pay.CARAVAN, Hand(cards))
        else:
            if connection.terrain is Terrain.LAKE:
                rafts = RAFT_COSTS[Crossing.LAKE]
            elif connection.downstream_to == to:
                rafts = RAFT_COSTS[Crossing.DOWNSTREAM]
            else:
                rafts = RAFT_COSTS[Crossing.UPSTREAM]
            if hand[TRANSPORTS.index(Transport.RAFT)] >= rafts:
                yield Step(town, to, connection.id, Pay.RAFT, Hand.from_counts({Transport.RAFT: rafts}))


def brute_force(position: Position) -> tuple[Value, tuple[Step, ...]]:
    """The best (score, -cards spent) of ``position`` and one route achieving it, by exhaustive search."""
    board = position.board

    @functools.cache
    def best(town: str, hand: tuple[int, ...], collected: frozenset[str]) -> tuple[Value, tuple[Step, ...]]:
        # Stopping here is always allowed.
        value: Value = (-position.home_penalty(town), 0)
        route: tuple[Step, ...] = ()
        for step in payments(position, town, hand):
            left = tuple(a - b for a, b in zip(hand, step.cards.counts, strict=True))
            new = step.to not in collected and board.towns[step.to].has_marker
            (score, negative_spent), rest = best(step.to, left, collected | {step.to})
            candidate = (score + new, negative_spent - len(step.cards))
            if candidate > value:
                value, route = candidate, (step, *rest)
        return value, route

    return best(position.at, position.hand.counts, frozenset(position.visited))


def best_by_key(position: Position) -> dict[tuple[frozenset[str], str], Value]:
    """The best value of every (towns collected, end town) a route can reach, by enumerating every route.

    Exponential: only for hands of a few cards.
    """
    board = position.board
    found: dict[tuple[frozenset[str], str], Value] = {}

    def walk(town: str, hand: tuple[int, ...], new: frozenset[str], spent: int) -> None:
        key = (new, town)
        value = (len(new) - position.home_penalty(town), -spent)
        if value > found.get(key, (-99, -99)):
            found[key] = value
        for step in payments(position, town, hand):
            left = tuple(a - b for a, b in zip(hand, step.cards.counts, strict=True))
            gained = step.to not in position.visited and board.towns[step.to].has_marker
            walk(step.to, left, new | {step.to} if gained else new, spent + len(step.cards))

    walk(position.at, position.hand.counts, frozenset(), 0)
    return found


JointValue = tuple[int, int, int]
"""(score, -cards spent, -counters placed): larger is better."""


def brute_force_joint(position: Position) -> tuple[JointValue, tuple[Step, ...], tuple[tuple[str, Transport], ...]]:
    """The best joint plan of ``position`` (my supply's counters placed on empty roads as the walk first takes
    them, then the route), by exhaustive search: its value, its steps and its placements (road id, transport).

    Written straight from the rules, sharing no code with the solvers: every step out of every state, every way to
    pay it, and on an empty road every counter type the supply still holds and the terrain carries.
    """
    board = position.board
    base = position.tile_map()

    @functools.cache
    def best(town: str, hand: tuple[int, ...], supply: tuple[int, ...], placed: frozenset[tuple[str, Transport]],
             collected: frozenset[str]) -> tuple[JointValue, tuple[Step, ...], tuple[tuple[str, Transport], ...]]:
        value: JointValue = (-position.home_penalty(town), 0, 0)
        route: tuple[Step, ...] = ()
        placing: tuple[tuple[str, Transport], ...] = ()
        mine = dict(placed)
        for connection in board.links(town):
            to = connection.other(town)
            options: list[tuple[Position, tuple[int, ...], frozenset[tuple[str, Transport]], int]] = []
            if connection.is_road and connection.id not in base and connection.id not in mine:
                for i, transport in enumerate(TRANSPORTS):
                    if transport is Transport.RAFT or not supply[i]:
                        continue
                    if counter_cost(transport, connection.terrain) is None:
                        continue
                    tile = Tile(connection.id, transport)
                    there = position.replace(tiles=(*position.tiles, tile))
                    left = tuple(n - (j == i) for j, n in enumerate(supply))
                    options.append((there, left, placed | {(connection.id, transport)}, 1))
            else:
                tiles = (*position.tiles, *(Tile(r, t) for r, t in placed))
                options.append((position.replace(tiles=tiles), supply, placed, 0))
            for there, left_supply, now_placed, extra in options:
                for step in payments(there, town, hand):
                    if step.connection != connection.id:
                        continue
                    left = tuple(a - b for a, b in zip(hand, step.cards.counts, strict=True))
                    new = step.to not in collected and board.towns[step.to].has_marker
                    (score, neg_spent, neg_placed), rest, more = best(
                        to, left, left_supply, frozenset(now_placed), collected | {step.to})
                    candidate = (score + new, neg_spent - len(step.cards), neg_placed - extra)
                    if candidate > value:
                        value, route = candidate, (step, *rest)
                        placing = ((connection.id, next(t for r, t in now_placed if r == connection.id)), *more) \
                            if extra else more
        return value, route, placing

    return best(position.at, position.hand.counts, position.supply.counts, frozenset(), frozenset(position.visited))
