"""The joint plan and the placement to make now: my counters and my route together, against opponents' replies.

The **joint plan** places my supply's counters on empty roads together with my route (the most points, then the
fewest cards, then the fewest counters placed): :func:`joint_plan`.

**Place now** (:func:`place_now`) picks the one placement to make this turn, one per turn as the rules have it.
The candidates are the joint plan's own placements and passing. After a candidate, an opponent replies in the way
that hurts my plan most, and I plan again (one-reply maximin): the candidate whose worst reply leaves me the best
joint plan wins. A reply that touches no road of my plan cannot hurt it (my plan stays legal; a counter elsewhere
only adds options), so the replies tried are: a counter of every type the opponents may hold on each empty road my
plan places on, and an obstacle (if an opponent still holds one) on each road of my route that holds a counter.
With ``replies=N`` the adversary makes N replies, each the worst for my plan of the moment (greedy).

Passing has one reply more: everybody else passes too, and planning ends (it ends when all pass in a row), so the
counters my plan still needs never reach the board. A pass is worth at most my best plan with nothing more placed
(the route on the board as it is); a placement has no such reply, since I get another turn after it.

Values compared are (score, -cards spent) of my best joint plan. Of placements that tie, the one whose road would
hurt most to lose (an opponent's worst counter on it while I pass) goes first. Passing is reported free when it
is as good as the best placement against the replies: a counter still in hand keeps its options open.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from planner.common.limits import Limit, StopLike
from planner.common.values import frozen
from planner.elfenland.advice.pools import unseen_counters
from planner.elfenland.advice.solving import cached_joint
from planner.elfenland.plan import Plan, place
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, OBSTACLES, Transport, counter_cost
from planner.elfenland.solvers import Solution
from planner.errors import IllegalPlacementError, IllegalStepError

__all__ = ["Candidate", "PlaceAdvice", "Reply", "RoadRisk", "after_reply", "joint_plan", "place_now", "replies_to",
           "risks"]

#: The limit of each joint solve inside the advice (a few milliseconds each in a real game).
ADVICE_LIMIT = Limit(time=10.0)


def joint_plan(position: Position, *, solver: str = "auto", limit: Limit = ADVICE_LIMIT,
               stop: StopLike | None = None, seed: int = 0, alternatives: int = 1) -> Solution:
    """The best joint plan of ``position``: my supply's counters placed with my route (see the module docstring).

    Raises:
        IllegalPositionError: the position breaks the rules.
        SolverError: a solver failed (a bug).
    """
    position.check()
    return cached_joint(position, solver=solver, limit=limit, stop=stop, seed=seed, alternatives=alternatives)


@frozen
class Reply:
    """One opponent move against my plan: a counter on a road I meant to open, or an obstacle on my route."""

    road: str
    counter: Transport | None
    """The counter they place on an empty road; None for an obstacle."""
    plan: Plan
    """My best joint plan afterwards."""

    @property
    def obstacle(self) -> bool:
        """Whether the reply is an obstacle (else a counter on an empty road)."""
        return self.counter is None

    @property
    def value(self) -> tuple[int, int]:
        """(score, -cards spent) of my plan afterwards."""
        return self.plan.value


@frozen
class Candidate:
    """One move of mine this turn (a placement, or passing) and the worst the replies make of it."""

    placement: Tile | None
    """The counter I place now; None for passing."""
    plan: Plan
    """My best joint plan right after the move, before any reply."""
    replies: tuple[Reply, ...]
    """The first replies tried against :attr:`plan` (all of them for the chosen move and for passing; for others,
    until one refuted them)."""
    worst: tuple[int, int]
    """(score, -cards) of my plan after the worst reply (or after the N greedy replies)."""
    refuted: bool = False
    """Whether trying replies stopped early: one already left it worse than a better candidate or than passing."""
    ended: Plan | None = None
    """For passing while the joint plan still places counters: my best plan if planning ends now (everybody else
    passes too), nothing more placed; ``worst`` counts it as a reply. None otherwise."""


@frozen
class PlaceAdvice:
    """What ``elfenland place`` answers."""

    position: Position
    joint: Solution
    """The best joint plan, replies not considered."""
    now: Candidate
    """The move to make this turn."""
    passing: Candidate
    candidates: tuple[Candidate, ...]
    """Every candidate, passing first."""
    replies: int
    """How many replies the adversary made."""

    @property
    def passing_is_free(self) -> bool:
        """Whether passing now is as good as the move advised against the replies (then it is advised itself when
        it is better than every placement)."""
        return self.passing.worst >= self.now.worst


def reply_types(position: Position) -> tuple[Transport, ...]:
    """The counter types an opponent may place: what they hold face up, and, while they hold face-down counters
    or nothing is known of them, any type still unseen."""
    unseen = unseen_counters(position)
    if not position.opponents or any(o.secret for o in position.opponents):
        types = {t for t in COUNTER_TRANSPORTS if unseen[t]}
    else:
        types = set()
    for opponent in position.opponents:
        types |= {t for t in COUNTER_TRANSPORTS if opponent.counters[t]}
    return tuple(t for t in COUNTER_TRANSPORTS if t in types)


def obstacle_reply_possible(position: Position) -> bool:
    """Whether some opponent may still place an obstacle: fewer than the game's six are on the board, and one of the
    opponents given holds one, or, when none is given, those on the board and mine leave one for the other
    players."""
    placed = sum(t.obstacle for t in position.tiles)
    if placed >= OBSTACLES:
        return False
    if position.opponents:
        return any(o.obstacle for o in position.opponents)
    return placed + int(position.obstacle) < (position.players or OBSTACLES)


def replies_to(position: Position, plan: Plan) -> list[tuple[str, Transport | None]]:
    """The replies that can hurt ``plan`` (a joint plan of ``position``): (road, counter) for a counter on an empty
    road it places on, (road, None) for an obstacle on a road of its route holding a counter."""
    board = position.board
    types = reply_types(position)
    found: list[tuple[str, Transport | None]] = []
    for tile in plan.placements:
        terrain = board.connections[tile.road].terrain
        # Counters my hand cannot pay with matching cards are all alike to me when their caravans cost the same:
        # one of them stands for the rest.
        alike: set[int] = set()
        for t in types:
            cost = counter_cost(t, terrain)
            if cost is None:
                continue
            if position.hand[t] < cost:
                price = position.rules.caravan_cost(cost, obstacle=False)
                if price in alike:
                    continue
                alike.add(price)
            found.append((tile.road, t))
    if obstacle_reply_possible(position):
        tiles = position.tile_map()
        used = dict.fromkeys(step.connection for step in plan.steps)
        found += [(road, None) for road in used if road in tiles and not tiles[road].obstacle]
    return found


def after_reply(position: Position, road: str, counter: Transport | None) -> Position:
    """``position`` after an opponent's reply, taken from the first opponent given who can make it: their obstacle,
    or their counter (a face-up one of that type, else a face-down one), so that every counter and obstacle is
    still counted once."""
    tiles = position.tile_map()
    opponents = list(position.opponents)
    if counter is None:
        tiles[road] = Tile(road, tiles[road].transport, True)
        holder = next((i for i, o in enumerate(opponents) if o.obstacle), None)
        if holder is not None:
            opponents[holder] = dataclasses.replace(opponents[holder], obstacle=False)
    else:
        tiles[road] = Tile(road, counter)
        one = Hand.of([counter])
        holder = next((i for i, o in enumerate(opponents) if o.counters.contains(one)), None)
        if holder is not None:
            opponents[holder] = dataclasses.replace(opponents[holder], counters=opponents[holder].counters.without(one))
        else:
            holder = next((i for i, o in enumerate(opponents) if o.secret), None)
            if holder is not None:
                opponents[holder] = dataclasses.replace(opponents[holder], secret=opponents[holder].secret - 1)
    return position.replace(tiles=tuple(tiles.values()), opponents=tuple(opponents))


def place_now(position: Position, *, replies: int = 1, solver: str = "auto", limit: Limit = ADVICE_LIMIT,
              stop: StopLike | None = None, seed: int = 0) -> PlaceAdvice:
    """The placement to make this turn, by one-reply maximin (``replies`` greedy replies; see the module
    docstring), with every reply tried against passing and against the chosen move, and against passing the end
    of planning too.

    Raises:
        IllegalPositionError: the position breaks the rules.
        ValueError: ``replies`` is below 1.
    """
    if replies < 1:
        raise ValueError(f"replies must be at least 1, got {replies!r}")
    position.check()

    def plan(of: Position) -> Plan:
        return joint_plan(of, solver=solver, limit=limit, stop=stop, seed=seed).plan

    joint = joint_plan(position, solver=solver, limit=limit, stop=stop, seed=seed)
    passing = _against_replies(position, joint.plan, None, replies, plan, None, ())
    if joint.plan.placements:
        # The others may all pass after me, which ends planning: the counters still in hand stay there.
        ended = plan(position.replace(supply=Hand()))
        passing = dataclasses.replace(passing, worst=min(passing.worst, ended.value), ended=ended)
    moves = list(dict.fromkeys(joint.plan.placements))
    found: dict[Tile, Candidate] = {}
    best: Candidate | None = None

    def contested(candidate: Candidate) -> tuple[tuple[int, int], tuple[int, int], int]:
        """Its worst value, then how much losing its road would hurt (the worse, the sooner to place), then the
        plan's order (the earlier first)."""
        assert candidate.placement is not None
        losses = [r.value for r in passing.replies if r.road == candidate.placement.road and not r.obstacle]
        loss = min(losses, default=joint.plan.value)
        return candidate.worst, (-loss[0], -loss[1]), -moves.index(candidate.placement)

    def after(move: Tile) -> tuple[Position, Plan]:
        start = place(position, [move])
        # The joint plan, this counter placed, is the plan after it: placing one of its counters early takes
        # nothing away, and nothing better is possible (any plan after it is one of the position before).
        return start, _walked(start, joint.plan, move) or plan(start)

    starts = {move: after(move) for move in moves}  # each once: the ordering below and the maximin both need it
    order = moves
    if replies == 1 and len(moves) > 1:
        # Best first: each move's first reply (which trying it starts with anyway; the cache keeps its solve) bounds
        # its worst from above, and the move with the best bound, tried first, refutes the others soonest. The
        # advice is the same in any order: a move whose worst is the best one is never refuted.
        bounds = {move: _against_replies(*starts[move], move, 1, plan, _NEVER, passing.replies).worst
                  for move in moves}
        order = sorted(moves, key=lambda m: bounds[m], reverse=True)
    for move in order:
        # A placement worse than passing is never advised (passing wins then): passing's worst is a floor too.
        floor = passing.worst if best is None else max(best.worst, passing.worst)
        candidate = _against_replies(*starts[move], move, replies, plan, floor, passing.replies)
        found[move] = candidate
        if not candidate.refuted and (best is None or contested(candidate) > contested(best)):
            best = candidate
    now = passing if best is None or passing.worst > best.worst else best
    return PlaceAdvice(position, joint, now, passing, (passing, *(found[m] for m in moves)), replies)


#: A floor no reply reaches: trying a move against it stops at its first reply.
_NEVER = (1 << 30, 0)


def _walked(position: Position, plan: Plan, move: Tile | None) -> Plan | None:
    """``plan`` (of the position before ``move``, or before a reply) walked on ``position``: its placements less
    ``move``; None when it is not legal there."""
    placements = tuple(t for t in plan.placements if t != move)
    try:
        return Plan.of(position, plan.steps, proven=plan.proven, solver=plan.solver, placements=placements)
    except (IllegalPlacementError, IllegalStepError):
        return None


def _unpaid_caravan(position: Position, road: str, counter: Transport | None) -> tuple[int, bool] | None:
    """For a counter reply under caravans that are always allowed: the caravan's price on ``road`` with that
    counter, and whether my cards can pay the counter itself; None for an obstacle or under the strict rule."""
    if counter is None or position.rules.strict:
        return None
    cost = counter_cost(counter, position.board.connections[road].terrain)
    assert cost is not None
    return position.rules.caravan_cost(cost, obstacle=False), position.hand[counter] >= cost


def _harmful_first(position: Position, found: list[tuple[str, Transport | None]]) -> list[tuple[str, Transport | None]]:
    """The obstacles first, then the counters road by road, on each road those my cards cannot pay first (they
    hurt most, so a candidate is refuted soonest)."""
    board = position.board
    roads = list(dict.fromkeys(road for road, _ in found))

    def payable(reply: tuple[str, Transport | None]) -> bool:
        road, counter = reply
        if counter is None:
            return False
        cost = counter_cost(counter, board.connections[road].terrain)
        return cost is not None and position.hand[counter] >= cost

    return sorted(found, key=lambda r: (r[1] is not None, roads.index(r[0]), payable(r)))


def _against_replies(start: Position, first: Plan, move: Tile | None, replies: int,
                     plan: Callable[[Position], Plan], floor: tuple[int, int] | None,
                     passed: tuple[Reply, ...]) -> Candidate:
    """``move``'s candidate: the worst of the replies against ``first`` (the plan after it), then, with more
    replies, the worst reply against the plan that leaves, and so on. With one reply, trying stops as soon as one
    leaves it below ``floor`` (it cannot beat or tie the best candidate so far).

    Three shortcuts, all exact for the worst reply: once a reply on a road leaves a plan that does not travel it,
    no other counter there can leave less (that plan is legal after each of them), so they are not tried; unless
    caravans are strict, a counter my cards can pay leaves no less than one they cannot pay whose caravan costs as
    much or more (every plan after the latter is one after the former, its caravans no dearer), so it is not tried
    after such a one; and a first reply that ``passed`` (the replies to passing) answered with a plan still legal
    after ``move`` is answered by that plan (nothing better is possible: any plan after ``move`` is one of the
    position without).
    """
    tried: tuple[Reply, ...] = ()
    current, here, worst = first, start, first.value
    refuted = False
    known = {(r.road, r.counter): r.plan for r in passed} if move is not None else {}
    for turn in range(replies):
        answers: list[Reply] = []
        settled: set[str] = set()
        caravans: dict[str, int] = {}  # per road, the dearest caravan of a counter tried there my cards cannot pay
        for road, counter in _harmful_first(here, replies_to(here, current)):
            price = _unpaid_caravan(here, road, counter)
            if road in settled or (price is not None and price[1] and price[0] <= caravans.get(road, -1)):
                continue
            after = after_reply(here, road, counter)
            before = known.get((road, counter)) if turn == 0 else None
            answer = Reply(road, counter, (before is not None and _walked(after, before, move)) or plan(after))
            answers.append(answer)
            if all(step.connection != road for step in answer.plan.steps):
                settled.add(road)
            if price is not None and not price[1]:
                caravans[road] = max(caravans.get(road, -1), price[0])
            if turn == 0 and replies == 1 and floor is not None and answer.value < floor:
                refuted = True
                break
        if turn == 0:
            tried = tuple(answers)
        if not answers:
            break
        harm = min(answers, key=lambda r: r.value)
        if harm.value >= current.value:
            break  # no reply hurts: the adversary has nothing better than to leave my plan alone
        here, current = after_reply(here, harm.road, harm.counter), harm.plan
        worst = min(worst, current.value)
        if refuted:
            break
    return Candidate(move, first, tried, worst, refuted)


@frozen
class RoadRisk:
    """What one road of my plan costs me if an opponent gets to it first (values are my plan's afterwards)."""

    road: str
    mine: Transport | None
    """My counter planned for it (None for a road already holding a counter that my route travels)."""
    filled: Reply | None
    """Their worst counter on it before I place mine (None for a road already holding a counter)."""
    blocked: Plan | None
    """My plan after an obstacle on the counter there (None when no opponent holds an obstacle)."""


def risks(advice: PlaceAdvice, *, solver: str = "auto", limit: Limit = ADVICE_LIMIT,
          stop: StopLike | None = None) -> list[RoadRisk]:
    """Per road of the joint plan: the loss if an opponent fills it first with their worst counter, or puts an
    obstacle on the counter there (mine once placed, or the one already on the board)."""
    position, plan = advice.position, advice.joint.plan
    obstacles = obstacle_reply_possible(position)
    tiles = position.tile_map()
    found = []

    def blocked(start: Position, road: str) -> Plan | None:
        if not obstacles:
            return None
        return joint_plan(after_reply(start, road, None), solver=solver, limit=limit, stop=stop).plan

    for tile in dict.fromkeys(plan.placements):
        fills = [r for r in advice.passing.replies if r.road == tile.road and not r.obstacle]
        worst = min(fills, key=lambda r: r.value) if fills else None
        found.append(RoadRisk(tile.road, tile.transport, worst, blocked(place(position, [tile]), tile.road)))
    for road in dict.fromkeys(step.connection for step in plan.steps):
        if road in tiles and not tiles[road].obstacle:
            found.append(RoadRisk(road, None, None, blocked(position, road)))
    return found
