"""Random legal positions, for benchmarks, property tests and puzzle ideas (seeded, reproducible)."""

from __future__ import annotations

import random

from planner.elfenland.board import load_board
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, DECK, OBSTACLES, TRANSPORTS, Rules, can_carry


def random_position(
    rng: random.Random,
    *,
    cards: int = 8,
    counters: int | None = None,
    obstacles: int | None = None,
    rules: Rules | None = None,
) -> Position:
    """A random legal position with ``cards`` cards in hand and ``counters`` counters on the roads.

    Unset counts are drawn at random (0..35 counters, 0..3 obstacles); the town, visited towns, round and
    home town are random too. Counters respect the game's 8 per transport and the terrain each can travel.
    """
    board = load_board()
    roads = list(board.roads)
    rng.shuffle(roads)
    counters = rng.randint(0, len(roads)) if counters is None else min(counters, len(roads))
    stock = dict(COUNTERS)
    tiles: list[Tile] = []
    for road in roads:
        if len(tiles) >= counters:
            break
        fits = [t for t in COUNTER_TRANSPORTS if stock[t] and can_carry(t, road.terrain)]
        if fits:
            transport = rng.choice(fits)
            stock[transport] -= 1
            tiles.append(Tile(road.id, transport))
    obstacles = rng.randint(0, min(3, len(tiles))) if obstacles is None else min(obstacles, len(tiles), OBSTACLES)
    for i in rng.sample(range(len(tiles)), obstacles):
        tiles[i] = Tile(tiles[i].road, tiles[i].transport, True)
    deck = [t for t in TRANSPORTS for _ in range(DECK[t])]
    hand = Hand.of(rng.sample(deck, cards))
    codes = list(board.towns)
    at = rng.choice(codes)
    visited = frozenset(rng.sample(codes, rng.randint(0, 8)))
    rules = rules or Rules()
    home_towns = [t.code for t in board.towns.values() if t.home_card]
    home = rng.choice(home_towns) if rng.random() < 0.5 else None
    return Position(at=at, hand=hand, tiles=tuple(tiles), visited=visited, home=home,
                    round=rng.randint(1, rules.rounds), rules=rules).check()
