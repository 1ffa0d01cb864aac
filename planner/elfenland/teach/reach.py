"""How far the hand reaches: the fewest cards to each town, and for a town out of reach what would bring it in.

:func:`cheapest` is a Dijkstra search over (town, cards left), cards counted as
:mod:`planner.elfenland.teach.ways` counts them (so the hand's limits hold: two dragon roads need two dragons,
and a caravan takes any three cards). A label is dropped only when another at the same town holds at least as
many of every card and was reached for no more cards, so the first label to reach a town is its cheapest route.

The tests hold the numbers against a plain shortest path over card costs in networkx (with a hand big enough
that its limits never bind) and against a brute force over exact hands (with small hands, where they do).
"""

from __future__ import annotations

import heapq
import itertools

from planner.common.values import frozen
from planner.elfenland.cards import Cards, budget_of, covers, pay, start_cards
from planner.elfenland.plan import Plan
from planner.elfenland.position import Position
from planner.elfenland.solvers.common import Move, assemble
from planner.elfenland.teach.additions import Addition, card_additions, counter_additions
from planner.elfenland.teach.ways import moves_of, ways_out

__all__ = ["Need", "Reach", "cheapest", "reach_table"]


def cheapest(position: Position) -> dict[str, tuple[int, tuple[Move, ...]]]:
    """The fewest cards to reach each town the hand can reach, with one route that does (the start: 0, no
    moves)."""
    ways = ways_out(position)
    strict = position.rules.strict
    size = len(position.hand)
    order = itertools.count()
    queue: list[tuple[int, int, str, Cards, tuple[Move, object] | None]] = [
        (0, next(order), position.at, start_cards(position), None)]
    fronts: dict[str, list[Cards]] = {position.at: [start_cards(position)]}
    found: dict[str, tuple[int, tuple[Move, ...]]] = {}
    while queue:
        spent, _, town, cards, trail = heapq.heappop(queue)
        if town not in found:
            found[town] = (spent, moves_of(trail))
        for way in ways[town]:
            front = fronts.setdefault(way.to, [])
            for left, paid in pay(way, cards, strict=strict):
                if left in front if strict else any(covers(other, left) for other in front):
                    continue
                front.append(left)
                move = Move(town, way.to, way.connection, way.pay, paid, way.count)
                heapq.heappush(queue, (size - budget_of(left), next(order), way.to, left, (move, trail)))
    return found


@frozen
class Need:
    """One extra card or counter that brings a town within reach, and the fewest cards it then takes."""

    addition: Addition
    cards: int
    route: Plan
    """A cheapest route to the town with the addition (a plan of the position with the addition)."""


@frozen
class Reach:
    """How the hand reaches one uncollected town."""

    town: str
    cards: int | None
    """The fewest cards to reach it, or None when the hand cannot."""
    route: Plan | None
    """A cheapest route ending there (None when out of reach)."""
    card: Need | None = None
    """Out of reach: the extra card that brings it in for the fewest cards, if one does."""
    counter: Need | None = None
    """Out of reach: the extra counter on an empty road that brings it in for the fewest cards, if one does."""


def reach_table(position: Position) -> list[Reach]:
    """For every uncollected town: the fewest cards to reach it with this hand and board, or, out of reach, the
    single extra card and the single extra counter (on an empty road) that would bring it in, each with the
    fewest cards it would then take. Reachable towns come first, cheapest first; then the others by name."""
    position.check()
    here = cheapest(position)
    board = position.board
    rows = []
    missing = sorted(position.collectable() - set(here), key=lambda c: board.towns[c].name)
    needs: dict[str, dict[str, Need]] = {town: {} for town in missing}
    if missing:
        for addition in card_additions(position) + counter_additions(position, set(here)):
            bigger = addition.apply(position)
            there = cheapest(bigger)
            for town in missing:
                if town in there:
                    cards, moves = there[town]
                    old = needs[town].get(addition.kind)
                    if old is None or cards < old.cards:
                        route = assemble(bigger, moves, proven=False, solver="reach")
                        needs[town][addition.kind] = Need(addition, cards, route)
    for town, (cards, moves) in sorted(here.items(), key=lambda item: (item[1][0], board.towns[item[0]].name)):
        if town in position.collectable():
            rows.append(Reach(town, cards, assemble(position, moves, proven=False, solver="reach")))
    rows += [Reach(town, None, None, needs[town].get("card"), needs[town].get("counter")) for town in missing]
    return rows
