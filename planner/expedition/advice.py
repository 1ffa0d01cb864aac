"""Advice built on the engine and the searches, as plain data: token placement at setup, the reach of my cards
before and after a move, hopeless cards.

Nothing here prints; :mod:`planner.expedition.render` and :mod:`planner.expedition.report` turn it into tables and
JSON.
"""

from __future__ import annotations

from collections import deque

from planner.common.values import frozen
from planner.expedition.board import START, Board
from planner.expedition.generate import position_of
from planner.expedition.position import Position
from planner.expedition.reach import Distance, Reach, reach
from planner.expedition.rules import TOKENS
from planner.expedition.search import Move
from planner.expedition.turn import verify

__all__ = ["CardChange", "TokenChoice", "hopeless", "reach_change", "reach_targets", "setup_advice"]


def reach_targets(position: Position, *, every_green: bool = False) -> tuple[str, ...]:
    """The locations a reach table shows: my cards, the common objectives, the opponents' token locations (or
    every green), in map order, each once."""
    board = position.board
    if every_green:
        return board.greens
    wanted = set(position.hand) | set(position.common) | {t for s in position.opponents for t in s.tokens}
    return tuple(g for g in board.greens if g in wanted)


def hopeless(position: Position, table: Reach) -> tuple[str, ...]:
    """My cards that no expedition can reach any more (no unused way in, or too few arrows left): candidates for
    an exchange with a ticket."""
    return tuple(c for c in position.hand if c in table.locations and table.nearest(c).arrows is None)


@frozen
class CardChange:
    """How a move changes the nearest expedition's distance to one of my cards (None: scored by the move)."""

    card: str
    before: Distance
    after: Distance | None


def reach_change(position: Position, move: Move, *, before: Reach | None = None) -> tuple[CardChange, ...]:
    """The nearest distance to each of my cards before and after ``move`` (scored cards have ``after`` None).

    ``before`` is the reach table of my cards in ``position`` when the caller already has it.
    """
    outcome = verify(position, move.actions)
    later = position_of(outcome.state)
    cards = position.hand
    if before is None:
        before = reach(position, cards)
    left = set(later.hand)
    after = reach(later, [c for c in cards if c in left])
    return tuple(CardChange(c, before.nearest(c), after.nearest(c) if c in left else None) for c in cards)


@frozen
class TokenChoice:
    """A card of my hand as a key location: how many greens' shortest routes from the start pass through it."""

    card: str
    routes: float
    """Sum over the 80 greens of the share of their shortest routes from the start through this card."""
    distance: int
    """Links from the start."""


def _paths(board: Board, origin: str) -> tuple[dict[str, int], dict[str, int]]:
    """Distances and numbers of shortest paths from ``origin`` to every spot."""
    dist, count = {origin: 0}, {origin: 1}
    queue = deque([origin])
    while queue:
        spot = queue.popleft()
        for nxt in board.neighbours(spot):
            if nxt not in dist:
                dist[nxt], count[nxt] = dist[spot] + 1, 0
                queue.append(nxt)
            if dist[nxt] == dist[spot] + 1:
                count[nxt] += count[spot]
    return dist, count


def setup_advice(position: Position) -> tuple[tuple[TokenChoice, ...], int]:
    """My token-eligible cards ranked as key locations (most routes through first, then nearest), and how many
    tokens I still have to place.

    A token is worth +2 more when its card is reached, so it belongs where the expeditions will pass anyway: on a
    card that many shortest routes from the start to other greens go through (3+ links from the start, EXPEDITION.md
    "Key locations").
    """
    board = position.board
    start_dist, start_count = _paths(board, START)
    taken = {t for s in position.seats for t in s.tokens}
    eligible = [c for c in position.hand if c not in board.near_start and c not in taken]
    choices = []
    for card in eligible:
        dist, count = _paths(board, card)
        share = 0.0
        for green in board.greens:
            if start_dist[card] + dist[green] == start_dist[green]:
                share += start_count[card] * count[green] / start_count[green]
        choices.append(TokenChoice(card, share, start_dist[card]))
    choices.sort(key=lambda c: (-c.routes, c.distance, c.card))
    return tuple(choices), max(0, TOKENS - len(position.mine.tokens))
