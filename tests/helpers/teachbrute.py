"""Reference answers for the teaching tests, written straight from RULES.md and sharing no code with the library.

Every one walks exact hands with :func:`brute.payments` (which tries every way to pay every step, caravans with
every choice of cards) and memoises on the full state, so it is obviously right and only fast enough for the
small hands of puzzles and real games:

- :func:`best_value`: the best (score, -cards) of the routes that avoid some features (caravans, upstream rafts,
  ferries, obstacle roads, coming back to a town the route stood in);
- :func:`fewest_cards`: the fewest cards to reach each town (a Dijkstra over exact hands);
- :func:`best_per_end`: the best value of the routes ending in each town.

``tests/elfenland/test_teach_brute.py`` checks the references themselves against the brute force of the solver tests.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import random
from collections.abc import Collection

from brute import best_by_key, payments

from planner.elfenland.board import Terrain
from planner.elfenland.generate import random_position
from planner.elfenland.plan import Pay, Step
from planner.elfenland.position import Position

Value = tuple[int, int]
FEATURES = ("caravan", "upstream", "ferry", "obstacle", "backtrack")


def step_has(position: Position, step: Step, feature: str, stood: Collection[str]) -> bool:
    """Whether ``step`` has ``feature``; ``stood`` are the towns the route has stood in before it."""
    connection = position.board.connections[step.connection]
    if feature == "caravan":
        return step.pay is Pay.CARAVAN
    if feature == "upstream":
        return connection.terrain is Terrain.RIVER and connection.downstream_to == step.frm
    if feature == "ferry":
        return connection.terrain is Terrain.LAKE
    if feature == "obstacle":
        tile = position.tile_map().get(step.connection)
        return tile is not None and tile.obstacle
    assert feature == "backtrack"
    return step.to in stood


def best_value(position: Position, forbid: Collection[str] = ()) -> Value:
    """The best (score, -cards) of the routes with no step of a ``forbid`` feature."""
    board = position.board
    track = "backtrack" in forbid

    @functools.cache
    def best(town: str, hand: tuple[int, ...], collected: frozenset[str], stood: frozenset[str]) -> Value:
        value: Value = (-position.home_penalty(town), 0)
        for step in payments(position, town, hand):
            if any(step_has(position, step, f, stood) for f in forbid):
                continue
            left = tuple(a - b for a, b in zip(hand, step.cards.counts, strict=True))
            new = step.to not in collected and board.towns[step.to].has_marker
            score, neg = best(step.to, left, collected | {step.to}, stood | {step.to} if track else stood)
            value = max(value, (score + new, neg - len(step.cards)))
        return value

    return best(position.at, position.hand.counts, frozenset(position.visited), frozenset({position.at}))


def most_towns_best(position: Position) -> tuple[int, Value]:
    """The most new towns any route collects, and the best (score, -cards) of the routes that collect that many
    (a lexicographic maximum of (towns, score, -cards), which a memoised walk computes step by step)."""
    board = position.board

    @functools.cache
    def best(town: str, hand: tuple[int, ...], collected: frozenset[str]) -> tuple[int, int, int]:
        value = (0, -position.home_penalty(town), 0)
        for step in payments(position, town, hand):
            left = tuple(a - b for a, b in zip(hand, step.cards.counts, strict=True))
            new = step.to not in collected and board.towns[step.to].has_marker
            towns, score, neg = best(step.to, left, collected | {step.to})
            value = max(value, (towns + new, score + new, neg - len(step.cards)))
        return value

    towns, score, neg = best(position.at, position.hand.counts, frozenset(position.visited))
    return towns, (score, neg)


def fewest_cards(position: Position) -> dict[str, int]:
    """The fewest cards to reach each town the hand can reach (the start: 0)."""
    size = len(position.hand)
    seen: set[tuple[str, tuple[int, ...]]] = set()
    found: dict[str, int] = {}
    order = itertools.count()
    queue = [(0, next(order), position.at, position.hand.counts)]
    while queue:
        spent, _, town, hand = heapq.heappop(queue)
        if (town, hand) in seen:
            continue
        seen.add((town, hand))
        found.setdefault(town, spent)
        for step in payments(position, town, hand):
            left = tuple(a - b for a, b in zip(hand, step.cards.counts, strict=True))
            heapq.heappush(queue, (size - sum(left), next(order), step.to, left))
    return found


def best_per_end(position: Position) -> dict[str, Value]:
    """The best value of the routes that end in each town."""
    found: dict[str, Value] = {}
    for (_, end), value in best_by_key(position).items():
        found[end] = max(found.get(end, value), value)
    return found


def small_positions(count: int, seed: int, *, cards: int = 5) -> list[Position]:
    rng = random.Random(seed)
    return [random_position(rng, cards=cards, counters=35 if i % 2 else 20) for i in range(count)]
