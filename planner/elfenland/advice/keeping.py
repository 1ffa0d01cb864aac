"""The end of the round: which unplaced counter to keep, which ≤ 4 cards, and, among equally good routes, where to
end, for the best next round.

The next round is sampled (seeded; the same samples for every option): the board holds a counter on each road
with the chance a board has when the boots move (the current board with my plan's counters, but at least
``COUNTERS_PER_PLAYER`` per player: a board still filling up says little of the next one), of a type the terrain
carries, drawn from the counters of the game; my hand
is the cards kept topped up to 8 from the cards I cannot see, and the towns are those collected by the end of this
move. Each option's value is the mean, over the samples, of the best route from its end town with its cards
(then, for the counter to keep, of the best joint plan with that counter as my supply). End town and cards are
chosen first (from the routes as good as the best), then the counter for them. In the last round there is no next
round: nothing is advised.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable

from planner.common.limits import StopLike
from planner.common.values import frozen
from planner.elfenland.advice.pools import unseen_cards
from planner.elfenland.board import load_board
from planner.elfenland.keep import card_values, keep_cards
from planner.elfenland.plan import Plan
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, HAND_SIZE, KEEP_LIMIT, Transport, can_carry
from planner.elfenland.solvers.search import best_value

__all__ = ["KeepAdvice", "KeepOption", "advise_keep"]

#: How many 4-card keeps (the highest by the keep rule) are tried when more than four cards are left.
CARD_CHOICES = 6
#: Counters a player puts on the board in a round, about: one face down and three drawn, less the one kept.
COUNTERS_PER_PLAYER = 4
#: Players assumed when the position does not say.
DEFAULT_PLAYERS = 4


@frozen
class KeepOption:
    """One way to end the round and what the next round is worth after it (over the samples)."""

    end: str
    """The town the boot stops in."""
    cards: Hand
    """The cards kept (at most 4)."""
    counter: Transport | None
    """The unplaced counter kept (None: none)."""
    score: float
    """Mean score of the next round's best plan."""
    cards_spent: float
    error: float
    """Standard error of ``score``."""

    @property
    def value(self) -> tuple[float, float]:
        """(mean score, -mean cards spent): larger is better."""
        return (self.score, -self.cards_spent)


@frozen
class KeepAdvice:
    """What to keep for the next round."""

    best: KeepOption
    ends: tuple[KeepOption, ...]
    """Every (end town, cards) tried, best first (no counter kept)."""
    counters: tuple[KeepOption, ...]
    """Every counter tried for the best end and cards, best first."""
    samples: int


def advise_keep(position: Position, plans: tuple[Plan, ...], *, samples: int = 30, seed: int = 0,
                stop: StopLike | None = None) -> KeepAdvice | None:
    """What to keep after this move (see the module docstring); None in the last round.

    ``plans`` are the move's plans, best first: the routes as good as the best one are the choices of end town.
    Setting ``stop`` ends the weighing early: the advice then compares the choices weighed so far (at least one
    end and one counter choice), each over every sample.
    """
    if position.last_round or not plans:
        return None
    best = plans[0]
    choices: dict[tuple[str, Hand], Plan] = {}
    for plan in plans:
        if plan.value != best.value:
            continue
        for cards in _card_choices(plan.outcome.cards_left):
            choices.setdefault((plan.end, cards), plan)
    worlds = _worlds(position, best, samples, seed)

    def weighed(options: Iterable[tuple[Plan, str, Hand, Transport | None]],
                found: list[KeepOption] | None = None) -> list[KeepOption]:
        found = found or []
        for plan, end, cards, counter in options:
            if found and stop is not None and stop.is_set():
                break
            found.append(_evaluate(position, plan, end, cards, counter, worlds))
        return sorted(found, key=lambda o: o.value, reverse=True)

    ends = weighed((plan, end, cards, None) for (end, cards), plan in choices.items())
    top = ends[0]
    chosen = choices[(top.end, top.cards)]
    left = position.supply.without(Hand.of([t.transport for t in chosen.placements if t.transport is not None]))
    # Keeping no counter is ``top`` itself, weighed already (the same samples give the same mean).
    counters = weighed(((chosen, top.end, top.cards, c) for c in COUNTER_TRANSPORTS if left[c]), [top])
    return KeepAdvice(counters[0], tuple(ends), tuple(counters), samples)


def _card_choices(left: Hand) -> list[Hand]:
    """The keeps worth trying: all the cards when 4 or fewer are left, else the best 4-card sets by the keep rule."""
    if len(left) <= KEEP_LIMIT:
        return [left]
    values = card_values()
    sets = {Hand.of(combo) for combo in itertools.combinations(left.cards(), KEEP_LIMIT)}
    ranked = sorted(sets, key=lambda h: (-sum(values[t] for t in h.cards()), str(h)))
    heuristic = keep_cards(left)
    return [heuristic, *(h for h in ranked if h != heuristic)][:CARD_CHOICES]


@frozen
class _World:
    """One sampled next round: the board, the order in which new cards come, and the counters drawn."""

    tiles: tuple[Tile, ...]
    draws: tuple[Transport, ...]
    """New cards in the order they are dealt (the hand takes as many as it lacks)."""


def _worlds(position: Position, plan: Plan, samples: int, seed: int) -> list[_World]:
    rng = random.Random(seed)
    board = load_board()
    roads = list(board.roads)
    players = position.players or (len(position.opponents) + 1 if position.opponents else DEFAULT_PLAYERS)
    density = min(1.0, max(len(position.tiles) + len(plan.placements), COUNTERS_PER_PLAYER * players) / len(roads))
    pool = unseen_cards(position).cards()
    carriers = [[t for t in COUNTER_TRANSPORTS if can_carry(t, road.terrain)] for road in roads]
    worlds = []
    for _ in range(samples):
        stock = dict(COUNTERS)
        tiles = []
        for road, carry in zip(roads, carriers, strict=True):
            fits = [t for t in carry if stock[t]]
            if fits and rng.random() < density:
                transport = rng.choice(fits)
                stock[transport] -= 1
                tiles.append(Tile(road.id, transport))
        worlds.append(_World(tuple(tiles), tuple(rng.sample(pool, min(HAND_SIZE, len(pool))))))
    return worlds


def _evaluate(position: Position, plan: Plan, end: str, cards: Hand, counter: Transport | None,
              worlds: list[_World]) -> KeepOption:
    """The mean next-round value of ending in ``end`` with ``cards`` and ``counter`` kept."""
    visited = position.visited | set(plan.new_towns)
    scores, spent = [], []
    for world in worlds:
        hand = cards + Hand.of(world.draws[:HAND_SIZE - len(cards)])
        supply = Hand.of([counter]) if counter is not None else Hand()
        nxt = Position(at=end, hand=hand, tiles=world.tiles, visited=frozenset(visited), home=position.home,
                       round=position.round + 1, rules=position.rules, supply=supply)
        value, _ = best_value(nxt, joint=counter is not None)
        scores.append(value[0])
        spent.append(-value[1])
    mean = sum(scores) / len(scores)
    error = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(1, len(scores) - 1) / len(scores))
    return KeepOption(end, cards, counter, mean, sum(spent) / len(spent), error)
