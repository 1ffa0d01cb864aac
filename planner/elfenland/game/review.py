"""A game reviewed for one player: each decision beside the advisor's choice and what it cost, the best route beside
the travelled one per round, every player's towns per round, and a one-line summary (pure data for the renderers).

The record is replayed through the engine (:func:`~planner.elfenland.game.record.walk`), and each of the player's
decisions is weighed on the view they had then:

- a **draw**: by the draw advice (:mod:`~planner.elfenland.advice.drawing`): the joint plan with each counter (the
  blind draw's expectation); the cost is the best option's (score, cards) less the chosen one's;
- a **placement** or a pass: by the joint plan after it (:func:`~planner.elfenland.advice.placing.joint_plan`),
  beside the move the placement advice makes now; the cost is the difference of the two joint plans (replies are
  not charged: a review weighs what the move itself gives up). An obstacle is shown, not weighed;
- a **route**: exactly: the proven best route of the position (:func:`~planner.elfenland.solvers.solve`) beside the
  travelled one, the cost in towns (and cards on equal towns).

Solves run the search under node limits (the same review on any machine); an unproven best is marked so.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

from planner.common.i18n import gettext, language, say, use
from planner.common.limits import Limit
from planner.common.values import frozen
from planner.elfenland.board import CAPITAL
from planner.elfenland.game.engine import position_of, view
from planner.elfenland.game.seats import ADVICE_NODES, ROUTE_NODES
from planner.elfenland.game.state import Action, Draw, GameState, Pass, Phase, Place, PlaceObstacle, Travel
from planner.elfenland.game.table import walk  # any record: self-played, or a game played at the table
from planner.elfenland.plan import Plan, place
from planner.elfenland.position import Position, Tile
from planner.errors import PlannerError

__all__ = ["Decision", "GameReview", "RecordError", "RoundReview", "review_dict", "review_game"]


class RecordError(PlannerError):
    """A record that cannot be reviewed: unreadable, or an illegal action in it."""


@frozen
class Decision:
    """One draw or planning decision of the player, beside the advisor's."""

    round: int
    phase: str
    played: str
    """The player's action, in the record's notation."""
    advised: str
    """The advisor's choice."""
    cost: tuple[float, float] | None
    """(towns, cards) the player's choice gave up against the advisor's, by the joint plan (None: not weighed)."""


@frozen
class RoundReview:
    """The player's route in one round beside the best one."""

    round: int
    position: Position
    travelled: Plan
    best: Plan
    proven: bool

    @property
    def cost(self) -> tuple[int, int]:
        """(towns, cards) the travelled route gave up against the best."""
        return (self.best.score - self.travelled.score, self.travelled.cards_spent - self.best.cards_spent)


@frozen
class GameReview:
    """The whole review of one player's game."""

    player: str
    decisions: tuple[Decision, ...]
    rounds: tuple[RoundReview, ...]
    towns: dict[str, list[int]]
    """Every player's towns at the end of each round."""
    points: dict[str, int]
    winners: tuple[str, ...]

    @property
    def summary(self) -> str:
        """One line: points and place, then what the routes, draws and placements cost."""
        ranked = sorted(self.points.values(), reverse=True)
        place_ = ranked.index(self.points[self.player]) + 1
        route = sum(r.cost[0] for r in self.rounds)
        draws = sum(d.cost[0] for d in self.decisions if d.cost and d.phase == "draw")
        plans = sum(d.cost[0] for d in self.decisions if d.cost and d.phase == "plan")
        won = gettext("won") if self.player in self.winners else say("place {place} of {n}", place=place_,
                                                                     n=len(self.points))
        return say("{player}: {points} points, {won}; routes gave up {route} towns, draws {draws:.2f}, placements "
                   "{plans:.2f} (by the joint plan)", player=self.player, points=self.points[self.player], won=won,
                   route=route, draws=draws, plans=plans)


def _record_player(record: dict[str, Any], player: str | None) -> str:
    names = [str(p["name"]) for p in record.get("players", [])]
    me = (record.get("table") or {}).get("me")  # a game played at the table: only my cards were seen
    if player is None:
        return str(me) if me else names[0]
    matches = [n for n in names if n.lower() == player.lower()]
    if not matches:
        raise RecordError(say("no player {player!r} in the game; the players are {names}", player=player,
                              names=", ".join(names)))
    if me and matches[0] != me:
        raise RecordError(say("{player}'s cards were not seen at the table: only {me}'s decisions can be reviewed",
                              player=matches[0], me=me))
    return matches[0]


def review_game(record: dict[str, Any], player: str | None = None, *, nodes: int = ADVICE_NODES,
                route_nodes: int = ROUTE_NODES, decisions: bool = True) -> GameReview:
    """Review ``player``'s game (the first player by default; see the module docstring); without ``decisions``,
    only the routes (the draw and placement advice is most of a review's time: tens of solves a decision).

    Raises:
        RecordError: the record does not replay legally, or names no such player.
    """
    states, actions, verdict = walk(record)
    if not verdict.legal:
        raise RecordError(say("the record does not replay: {problem}", problem=verdict.problem))
    name = _record_player(record, player)
    seat = next(i for i, p in enumerate(states[0].players) if p.name == name)
    limit = Limit(nodes=nodes)
    weighed: list[Decision] = []
    rounds: list[RoundReview] = []
    towns: dict[str, list[int]] = {p.name: [] for p in states[0].players}
    for index, (before, action) in enumerate(zip(states, actions, strict=False)):
        after = states[index + 1]
        if after.round != before.round or after.over:
            for p in after.players:
                towns[p.name].append(len(p.visited - {CAPITAL}))
        if before.turn != seat:
            continue
        if decisions and before.phase is Phase.DRAW and isinstance(action, Draw):
            weighed.append(_draw_decision(before, seat, action, limit))
        elif decisions and before.phase is Phase.PLAN and len(set(_options(before, seat))) > 1:
            weighed.append(_plan_decision(before, seat, action, limit))
        elif isinstance(action, Travel):
            rounds.append(_round_review(before, seat, action, Limit(nodes=route_nodes)))
    points = {s["name"]: int(s["points"]) for s in record.get("scores", [])}
    return GameReview(name, tuple(weighed), tuple(rounds), towns, points, tuple(record.get("winners", [])))


def _options(state: GameState, seat: int) -> list[Action]:
    from planner.elfenland.game.engine import options

    return list(options(view(state, seat)))


def _draw_decision(state: GameState, seat: int, action: Draw, limit: Limit) -> Decision:
    from planner.elfenland.advice.drawing import advise_draw

    seen = view(state, seat)
    advice = advise_draw(position_of(seen, advice=True), solver="search", limit=limit)
    taken = None if action.index is None else seen.display[action.index]
    mine = next((o for o in advice.options if o.counter is taken), None)
    best = advice.best
    advised = "blind" if best.counter is None else f"{seen.display.index(best.counter)} ({best.counter.letter})"
    played = "blind" if taken is None else f"{action.index} ({taken.letter})"
    cost = None if mine is None else (best.score - mine.score, mine.cards - best.cards)
    return Decision(state.round, "draw", played, advised, cost)


def _plan_decision(state: GameState, seat: int, action: Action, limit: Limit) -> Decision:
    from planner.elfenland.advice.placing import joint_plan
    from planner.elfenland.game.seats import advised_placement

    seen = view(state, seat)
    position = position_of(seen, advice=True)

    def after(tile: Tile | None) -> tuple[int, int]:
        moved = place(position, [tile]) if tile is not None else position
        return joint_plan(moved, solver="search", limit=limit).plan.value

    if isinstance(action, PlaceObstacle):
        return Decision(state.round, "plan", str(action), "-", None)
    advised_tile = advised_placement(position)
    advised = "pass" if advised_tile is None else str(Place(advised_tile.transport, advised_tile.road)) \
        if advised_tile.transport is not None else "pass"
    mine_tile = Tile(action.road, action.counter) if isinstance(action, Place) else None
    best, mine = after(advised_tile), after(mine_tile)
    cost = (float(best[0] - mine[0]), float(mine[1] - best[1]))
    return Decision(state.round, "plan", "pass" if isinstance(action, Pass) else str(action), advised, cost)


def _round_review(state: GameState, seat: int, action: Travel, limit: Limit) -> RoundReview:
    from planner.elfenland.solvers import solve

    position = position_of(view(state, seat))
    solution = solve(position, solver="search", limit=limit)
    travelled = Plan.of(position, action.steps)
    best = solution.plan if solution.plan.value >= travelled.value else travelled
    return RoundReview(state.round, position, travelled, best, solution.proven)


def review_dict(review: GameReview) -> dict[str, Any]:
    """The JSON document of a review (``elfenland-review/1``)."""
    from planner.elfenland.report import plan_dict

    summary = contextvars.copy_context().run(_in_english, lambda: review.summary)  # JSON's values stay English
    text = {} if language() == "en" else {"text": review.summary}  # and may add the sentence in the language
    return {
        "schema": "elfenland-review/1", "player": review.player, "summary": summary, **text,
        "points": review.points, "winners": list(review.winners), "towns": review.towns,
        "decisions": [{"round": d.round, "phase": d.phase, "played": d.played, "advised": d.advised,
                       "cost": None if d.cost is None else {"towns": d.cost[0], "cards": d.cost[1]}}
                      for d in review.decisions],
        "rounds": [{"round": r.round, "position": str(r.position), "proven": r.proven,
                    "cost": {"towns": r.cost[0], "cards": r.cost[1]},
                    "travelled": plan_dict(r.travelled), "best": plan_dict(r.best)} for r in review.rounds],
    }


def _in_english(text: Callable[[], str]) -> str:
    """``text()`` said in English (run in a copied context, so the caller's language is untouched)."""
    use("en")
    return text()
