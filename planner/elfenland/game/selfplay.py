"""Self-play: seeded games between bots, each seed played in every rotation of the seats, and their summary.

A game is fixed by its seed, its rules and who sits where, so the same games give the same records in one process
or many (:func:`~planner.common.processes.ordered_map` keeps their order), or as Ray tasks on a cluster
(:class:`~planner.common.cluster.Cluster`, the optional ``cluster`` extra, in the same order). The summary gives,
per seat of the ``--seats`` list, the mean final score, the win rate (a shared win counts its share) and the paired
difference to the first seat that is not an advisor: per seed, the mean over the rotations of (this seat's points
- that seat's), then the mean over the seeds and a 95 % confidence interval (normal, 1.96 standard errors; seeds
are independent, the rotations of one seed are not).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from planner.common.limits import StopLike
from planner.common.processes import ordered_map
from planner.common.values import frozen
from planner.elfenland.game.engine import apply, new_game, view
from planner.elfenland.game.record import build_record
from planner.elfenland.game.seats import Seat, make_seat
from planner.elfenland.game.state import Action, GameRules, GameState
from planner.errors import PlannerError

if TYPE_CHECKING:
    from planner.common.cluster import Cluster

__all__ = ["BotError", "Game", "GameJob", "jobs_for", "label", "play", "play_game", "selfplay", "summary"]


class BotError(PlannerError):
    """A bot chose an illegal action (a bug in the bot)."""


@frozen
class GameJob:
    """One game to play: a seed, and the seat kinds in table order with their labels (their place in the
    ``--seats`` list)."""

    seed: int
    rotation: int
    seats: tuple[str, ...]
    """Every seat of the ``--seats`` list, in its order."""
    rules: GameRules

    @property
    def table(self) -> tuple[int, ...]:
        """The seat labels (indices into :attr:`seats`) in table order: rotation r seats label (i + r) % k at i."""
        k = len(self.seats)
        return tuple((i + self.rotation) % k for i in range(k))


@frozen
class Game:
    """A game played: its record, the labels in table order, and each seat's decision timings."""

    job: GameJob
    record: dict[str, Any]
    timings: tuple[dict[str, list[float]], ...]
    """Per table seat, seconds per decision kind."""


def label(seats: Sequence[str], index: int) -> str:
    """A seat's player name: its kind and its place in the list (``advisor#1``, ``greedy#2``)."""
    return f"{seats[index]}#{index + 1}"


def play(state: GameState, players: Sequence[Seat], *, stop: StopLike | None = None
         ) -> tuple[list[GameState], list[Action]]:
    """Play ``state`` to the end, each seat choosing from its view; every state and action in order.

    Raises:
        BotError: a seat chose an illegal action.
    """
    states, actions = [state], []
    while not state.over:
        if stop is not None and stop.is_set():
            break
        action = players[state.turn].choose(view(state, state.turn))
        after = apply(state, action)
        if not isinstance(after, GameState):
            raise BotError(f"the {players[state.turn].kind} seat chose an illegal action {action}: {after}")
        state = after
        states.append(state)
        actions.append(action)
    return states, actions


def play_game(job: GameJob, stop: StopLike | None = None) -> Game:
    """Play one game of self-play (a module-level function, so worker processes can run it)."""
    kinds = [job.seats[i] for i in job.table]
    names = [label(job.seats, i) for i in job.table]
    players = [make_seat(kind, f"{job.seed}/{name}") for kind, name in zip(kinds, names, strict=True)]
    states, actions = play(new_game(job.seed, names, job.rules), players, stop=stop)
    return Game(job, build_record(states, actions, kinds), tuple(p.timings for p in players))


def jobs_for(games: int, seats: Sequence[str], *, seed: int = 0, rules: GameRules | None = None) -> list[GameJob]:
    """``games`` seeds from ``seed`` on, each in every rotation of ``seats``."""
    rules = rules or GameRules()
    return [GameJob(seed + g, r, tuple(seats), rules) for g in range(games) for r in range(len(seats))]


def selfplay(jobs: Sequence[GameJob], *, processes: int = 1, cluster: Cluster | None = None,
             stop: StopLike | None = None) -> Iterator[Game]:
    """Every game of ``jobs`` in order, in up to ``processes`` processes, or as Ray tasks on ``cluster`` when one
    is given (the same games either way: a game depends only on its job)."""
    if cluster is not None:
        yield from cluster.map(play_game, jobs, stop=stop)
    else:
        yield from ordered_map(play_game, jobs, jobs=processes, stop=stop)


def _interval(values: Sequence[float]) -> dict[str, float | None]:
    if not values:
        return {"mean": None, "low": None, "high": None, "n": 0}
    mean = sum(values) / len(values)
    if len(values) < 2:
        return {"mean": mean, "low": None, "high": None, "n": len(values)}
    error = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))
    return {"mean": mean, "low": mean - 1.96 * error, "high": mean + 1.96 * error, "n": len(values)}


def summary(games: Sequence[Game], seats: Sequence[str],
            on_seat: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Per seat of ``seats``: mean points, win rate, and the paired difference to the first non-advisor seat
    (see the module docstring)."""
    k = len(seats)
    reference = next((i for i, kind in enumerate(seats) if kind != "advisor"), None)
    points: list[list[float]] = [[] for _ in range(k)]
    wins = [0.0] * k
    by_seed: dict[int, list[list[float]]] = {}
    finished = 0
    for game in games:
        record = game.record
        if "scores" not in record:
            continue
        finished += 1
        found = {s["name"]: s["points"] for s in record["scores"]}
        winners = record["winners"]
        diffs = by_seed.setdefault(game.job.seed, [[] for _ in range(k)])
        for i in range(k):
            mine = found[label(seats, i)]
            points[i].append(mine)
            if label(seats, i) in winners:
                wins[i] += 1 / len(winners)
            if reference is not None:
                diffs[i].append(mine - found[label(seats, reference)])
    rows = []
    for i, kind in enumerate(seats):
        paired = [sum(d[i]) / len(d[i]) for d in by_seed.values() if d[i]]
        rows.append({
            "seat": label(seats, i), "kind": kind,
            "mean_points": sum(points[i]) / len(points[i]) if points[i] else None,
            "win_rate": wins[i] / finished if finished else None,
            "difference": None if reference is None or i == reference else _interval(paired),
        })
    return {"schema": "elfenland-selfplay/1", "games": finished, "seeds": len(by_seed),
            "reference": None if reference is None else label(seats, reference), "seats": rows}


def new_seat_game(seed: int, seats: Sequence[str], rules: GameRules | None = None) -> GameState:
    """The first state of a game of ``seats`` in this order (their labels as names)."""
    return new_game(seed, [label(seats, i) for i in range(len(seats))], rules)
