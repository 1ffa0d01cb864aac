"""Where my one obstacle of the game hurts most: sampled opponent hands, their best routes, the towns they lose.

An opponent's hand is secret, so it is sampled: hands of 8 cards from the cards I cannot see (seeded; the same
samples for every road). Each sample's best route is solved on the board as it is (their home town unknown, so no
home penalty); an obstacle on a road only costs them where that route travels it, so only those samples are solved
again with the obstacle there. Per road holding a counter and no obstacle: the expected towns they lose (and the
extra cards the samples that lose none pay), with standard errors, and what the obstacle there costs my own plan
(my joint plan, so a road my counters would open counts). The target is the leader, the opponent with the most
points; before the last round, when the best road takes less than ``HOLD_BELOW`` towns from them, the advice is to
hold the obstacle for later.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from planner.common.limits import Limit, StopLike
from planner.common.processes import ordered_map
from planner.common.values import frozen
from planner.elfenland.advice.placing import joint_plan
from planner.elfenland.advice.pools import sample_hands, unseen_cards
from planner.elfenland.plan import Plan
from planner.elfenland.position import Hand, Opponent, Position, Tile
from planner.elfenland.rules import HAND_SIZE
from planner.elfenland.solvers.search import best_value
from planner.errors import IllegalPositionError

__all__ = ["HOLD_BELOW", "ObstacleAdvice", "OpponentOutlook", "RoadEffect", "advise_obstacle"]

#: Expected towns below which an obstacle before the last round is better kept.
HOLD_BELOW = 0.5
#: The limit of each sampled route solve (8-card hands take milliseconds).
SAMPLE_LIMIT = Limit(time=5.0)


@frozen
class RoadEffect:
    """What my obstacle on one road does to one opponent (over the samples) and to me."""

    road: str
    towns: float
    """Expected towns the opponent loses."""
    towns_error: float
    """Standard error of ``towns``."""
    cards: float
    """Expected extra cards paid by the samples that lose no town."""
    cards_error: float
    hit: float
    """Share of the samples whose best route uses the road."""
    my_towns: int
    """Towns my own best joint plan loses with the obstacle there."""
    my_cards: int
    """Extra cards my own best joint plan pays with it."""

    @property
    def value(self) -> tuple[float, float]:
        """(towns they lose net of mine, extra cards): larger is better for me."""
        return (self.towns - self.my_towns, self.cards - self.my_cards)


@frozen
class OpponentOutlook:
    """One opponent's sampled best routes and every road's effect on them, the most harmful first."""

    opponent: Opponent
    samples: int
    towns: float
    """Expected towns of their best route, no obstacle."""
    effects: tuple[RoadEffect, ...]


@frozen
class ObstacleAdvice:
    """What ``elfenland obstacle`` answers."""

    position: Position
    outlooks: tuple[OpponentOutlook, ...]
    """Every opponent, the target first."""
    target: OpponentOutlook | None
    effect: RoadEffect | None
    """The road to block for the target (None when no road holds a counter to put it on)."""
    hold: bool
    """Whether to keep the obstacle for a later round."""
    why: str
    """Why (its sentence: :func:`planner.elfenland.sentences.obstacle_reason`): ``nowhere`` (no road to put it
    on), ``costs-me`` (it costs my plan as much), ``too-little`` (too little before the last round) or ``leader``
    (it goes on the leader's worst road)."""


def _blocked(position: Position, road: str) -> Position:
    """``position`` with my obstacle on ``road`` (no longer mine to place)."""
    tiles = position.tile_map()
    tiles[road] = Tile(road, tiles[road].transport, True)
    return position.replace(tiles=tuple(tiles.values()), obstacle=False)


def _sample(args: tuple[Position, tuple[str, ...]], stop: StopLike | None = None) -> list[tuple[int, int] | None]:
    """For one sampled opponent position: its best value, then its value with the obstacle on each road
    (None where its best route does not travel the road: the value stays)."""
    position, roads = args
    best, used = best_value(position, limit=SAMPLE_LIMIT)
    # An obstacle only makes a road dearer, so the free road's score bounds the blocked one's from the start.
    return [best, *(best_value(_blocked(position, r), limit=SAMPLE_LIMIT, ceiling=best[0])[0] if r in used else None
                    for r in roads)]


def _mean_error(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


def advise_obstacle(position: Position, *, samples: int = 200, seed: int = 0, jobs: int = 1,
                    stop: StopLike | None = None) -> ObstacleAdvice:
    """Where to put my obstacle, against whom, or whether to hold it (see the module docstring).

    ``jobs`` processes share the samples (the answer is the same for any number). Setting ``stop`` ends the
    sampling early: each opponent's advice then rests on the samples solved so far (at least one; its ``samples``
    says how many).

    Raises:
        IllegalPositionError: the position breaks the rules, I no longer hold my obstacle, or no opponent is given.
    """
    position.check()
    if not position.obstacle:
        raise IllegalPositionError(["obstacle = false: you have placed your obstacle of the game already"])
    if not position.opponents:
        raise IllegalPositionError(["no opponent given: add an [[opponent]] table (their town, visited towns and "
                                    "points) for each player to consider"])
    roads = tuple(t.road for t in position.tiles if t.transport is not None and not t.obstacle)
    mine = joint_plan(position, stop=stop).plan
    my_effect = {road: joint_plan(_blocked(position, road), stop=stop).plan for road in roads
                 if road in {s.connection for s in mine.steps}}
    pool = unseen_cards(position)
    outlooks = []
    for number, opponent in enumerate(position.opponents):
        hands = list(sample_hands(pool, HAND_SIZE, samples, seed=seed * 1000 + number))
        tasks = [(_opponent_position(position, opponent, hand), roads) for hand in hands]
        results = _run(tasks, jobs, stop)
        outlooks.append(_outlook(opponent, roads, results, mine, my_effect))
    target = max(outlooks, key=lambda o: (o.opponent.points, o.effects[0].value if o.effects else (0.0, 0.0)))
    effect = target.effects[0] if target.effects else None
    last = position.last_round
    if effect is None:
        hold, why = True, "nowhere"
    elif effect.value[0] <= 0 and effect.my_towns > 0:
        hold, why = True, "costs-me"
    elif not last and effect.towns < HOLD_BELOW:
        hold, why = True, "too-little"
    else:
        hold, why = False, "leader"
    ordered = (target, *(o for o in outlooks if o is not target))
    return ObstacleAdvice(position, ordered, target, effect, hold, why)


def _opponent_position(position: Position, opponent: Opponent, hand: Hand) -> Position:
    return Position(at=opponent.at, hand=hand, tiles=position.tiles, visited=opponent.visited, round=position.round,
                    rules=position.rules)


def _run(tasks: list[tuple[Position, tuple[str, ...]]], jobs: int,
         stop: StopLike | None = None) -> list[list[tuple[int, int] | None]]:
    """Every sample's values, in the order of the samples (so the answer is the same for any ``jobs``); the
    samples travel to the workers in chunks, one chunk per task, since each takes only milliseconds. Once ``stop``
    is set, the chunks still to come give only what they solved (the first chunk at least one sample)."""
    size = max(1, len(tasks) // (jobs * 4))
    chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
    results: list[list[tuple[int, int] | None]] = []
    for chunk in ordered_map(_chunk, chunks, jobs=jobs, stop=stop):
        results += chunk
    return results or [_sample(tasks[0])]


def _chunk(tasks: list[tuple[Position, tuple[str, ...]]], stop: StopLike | None) -> list[list[tuple[int, int] | None]]:
    found = []
    for task in tasks:
        if stop is not None and stop.is_set():
            break
        found.append(_sample(task))
    return found


def _outlook(opponent: Opponent, roads: tuple[str, ...], results: list[list[tuple[int, int] | None]], mine: Plan,
             my_effect: dict[str, Plan]) -> OpponentOutlook:
    effects = []
    for index, road in enumerate(roads, 1):
        lost_towns: list[float] = []
        extra_cards: list[float] = []
        hits = 0
        for result in results:
            base, blocked = result[0], result[index]
            assert base is not None
            if blocked is None:
                lost_towns.append(0.0)
                extra_cards.append(0.0)
                continue
            hits += 1
            lost_towns.append(float(base[0] - blocked[0]))
            if blocked[0] == base[0]:
                extra_cards.append(float(base[1] - blocked[1]))
        towns, towns_error = _mean_error(lost_towns)
        cards, cards_error = _mean_error(extra_cards)
        after = my_effect.get(road, mine)
        effects.append(RoadEffect(road, towns, towns_error, cards, cards_error, hits / len(results),
                                  mine.score - after.score, after.cards_spent - mine.cards_spent))
    effects.sort(key=lambda e: e.value, reverse=True)
    towns = sum(r[0][0] for r in results if r[0] is not None) / len(results)
    return OpponentOutlook(opponent, len(results), towns, tuple(effects))
