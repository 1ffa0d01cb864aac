"""Plain enumerations through the turn engine: the third opinion the solvers are checked against.

Nothing here is clever: every legal action sequence of the turn (exchanges left out), every arrow sequence of one
expedition. Only small positions finish quickly.
"""

from __future__ import annotations

from planner.expedition.notation import ActionKind
from planner.expedition.position import Expedition, Position
from planner.expedition.turn import TurnState, begin, end_problem, legal_actions, outcome, play

Value = tuple[int, int, int, int]


def best_value(position: Position, *, tickets: int, limit: int = 200_000) -> Value:
    """(my points, -opponents' points, -tickets spent, -arrows) of the best sequence using at most ``tickets``.

    Raises:
        RuntimeError: more than ``limit`` states (the position is too big for a plain enumeration).
    """
    start = begin(position)
    seen = [0]
    best: list[Value | None] = [None]

    def walk(state: TurnState) -> None:
        seen[0] += 1
        if seen[0] > limit:
            raise RuntimeError("too many states for a plain enumeration")
        if end_problem(state) is None:
            o = outcome(start, state)
            value = (o.points, -o.opponents_points, -o.tickets_spent, -o.arrows)
            if best[0] is None or value > best[0]:
                best[0] = value
        for action in legal_actions(state):
            if action.ticket and state.spent >= tickets:
                continue
            walk(play(state, action))

    walk(start)
    assert best[0] is not None
    return best[0]


def arrow_sequences(expedition: Expedition, depth: int) -> dict[str, int]:
    """The fewest arrows until one enters each spot, over every arrow sequence of this expedition alone up to
    ``depth`` arrows (the engine's rules: no reused link, restarts after loops)."""
    from planner.expedition.rules import COLOURS, Rules

    colour = expedition.colour
    others = tuple(Expedition(c) for c in COLOURS if c is not colour)
    found: dict[str, int] = {}

    def walk(state: TurnState, placed: int) -> None:
        if placed >= depth:
            return
        for action in legal_actions(state):
            if action.kind is not ActionKind.ARROW or action.colour is not colour or action.ticket:
                continue
            assert action.to is not None
            if found.get(action.to, depth + 1) > placed + 1:
                found[action.to] = placed + 1
            after = play(state, action)
            # keep the expedition going: the next arrow is always allowed (the turn's role does not matter here)
            walk(_fresh(after), placed + 1)

    from planner.expedition.turn import Seat

    seat = Seat("me", frozenset(), 0, frozenset(), frozenset(), 0)
    expeditions = tuple(expedition if c is colour else next(o for o in others if o.colour is c) for c in COLOURS)
    walk(TurnState(expeditions, (seat,), 0, frozenset(), None, 0, Rules()), 0)
    return found


def _fresh(state: TurnState) -> TurnState:
    """The same expeditions with the turn's roles reset, so that one more arrow may follow (a pending restart
    stays pending: it must come first)."""
    from dataclasses import replace

    return replace(state, mandatory=False, blue=0, spent=0, actions=(), events=())


def turn_sequences(expedition: Expedition, *, horizon: int, limit: int = 60_000) -> dict[str, int]:
    """The first turn (1 = this one) in which an arrow of this expedition alone can enter each green, over every
    way to play ``horizon`` turns of its arrows without tickets: each turn one arrow, one more per blue square
    reached, a restart after each loop (placed at once; the turn may end only with no restart pending; arrows a blue
    square earned and not placed are lost at the turn's end).

    Raises:
        RuntimeError: more than ``limit`` states.
    """
    from planner.expedition.board import SpotKind, load_board

    board = load_board()
    found: dict[str, int] = {}
    seen: set[tuple[object, ...]] = set()

    def options(x: Expedition) -> list[tuple[str, str]]:
        if x.arrows_left <= 0:
            return []
        return [(frm, to) for frm in sorted(x.origins()) for to in board.neighbours(frm)
                if frozenset((frm, to)) not in x.used]

    def walk(x: Expedition, turn: int, credits: int, restart: bool) -> None:
        key = (x.used, x.visited, x.mode, x.head, turn, credits, restart)
        if key in seen:
            return
        seen.add(key)
        if len(seen) > limit:
            raise RuntimeError("too many states for a plain enumeration")
        if not restart and turn < horizon:
            walk(x, turn + 1, 1, False)  # end the turn here
        if not restart and credits == 0:
            return
        for frm, to in options(x):
            loop = to in x.visited
            after = x.with_arrow(frm, to, restart=restart)
            if board.kind(to) is SpotKind.GREEN and found.get(to, horizon + 1) > turn:
                found[to] = turn
            gained = credits - (0 if restart else 1) + (1 if board.kind(to) is SpotKind.BLUE else 0)
            walk(after, turn, gained, loop and bool(options(after)))

    walk(expedition, 1, 1, False)
    return found
