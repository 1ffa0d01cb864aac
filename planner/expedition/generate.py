"""Random legal games from the start: seeded positions for the benchmark, the tests and the examples.

The simulation knows every hand and the deck's order, deals and sets up as EXPEDITION.md says (a hand with fewer
than 4 cards 3+ links from the start is re-dealt; near common objectives go under the deck), places the tokens in
turn order, then plays random legal turns through the turn engine (:mod:`planner.expedition.turn`) until the chosen
number of turns, and returns the position at the start of the next player's turn, as that player sees it.
"""

from __future__ import annotations

import random
from dataclasses import replace

from planner.expedition.board import load_board
from planner.expedition.notation import ActionKind
from planner.expedition.position import Expedition, Player, Position
from planner.expedition.rules import COLOURS, COMMONS, TICKETS, TOKENS, Rules, dealt
from planner.expedition.turn import Seat, TurnState, end_problem, legal_actions, play

__all__ = ["NAMES", "random_position", "setup_state"]

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn")


def setup_state(rng: random.Random, *, players: int = 3, rules: Rules | None = None) -> TurnState:
    """A dealt and set-up table (hands, common objectives, tokens), the first player to move."""
    board = load_board()
    near = board.near_start
    deck = list(board.greens)
    rng.shuffle(deck)
    size = dealt(players)
    hands = []
    for _ in range(players):
        while True:
            hand, deck = deck[:size], deck[size:]
            if sum(card not in near for card in hand) >= TOKENS:
                break
            deck += hand  # re-deal this hand (Game Park)
            rng.shuffle(deck)
        hands.append(hand)
    common: list[str] = []
    while len(common) < COMMONS:
        card = deck.pop(0)
        if card in near:
            deck.append(card)
        else:
            common.append(card)
    tokens: list[set[str]] = [set() for _ in range(players)]
    for _ in range(TOKENS):
        for p in range(players):
            choices = sorted(c for c in hands[p] if c not in near and c not in tokens[p])
            tokens[p].add(rng.choice(choices))
    seats = tuple(Seat(NAMES[p], frozenset(hands[p]), 0, frozenset(), frozenset(tokens[p]), TICKETS)
                  for p in range(players))
    return TurnState(tuple(Expedition(c) for c in COLOURS), seats, 0, frozenset(common), tuple(deck), len(deck),
                     rules or Rules())


def _random_turn(rng: random.Random, state: TurnState, *, ticket_rate: float) -> TurnState:
    """One turn of random legal actions: the mandatory arrow, most bonuses, now and then a ticket."""
    while True:
        actions = legal_actions(state, exchanges=True)
        can_end = end_problem(state) is None
        plain = [a for a in actions if not a.ticket]
        tickets = [a for a in actions if a.ticket and (a.kind is not ActionKind.EXCHANGE or rng.random() < 0.2)]
        if plain and (not can_end or rng.random() < 0.85):
            action = rng.choice(plain)
        elif tickets and rng.random() < ticket_rate:
            action = rng.choice(tickets)
            if action.kind is ActionKind.EXCHANGE and state.deck:
                action = replace(action, keep=rng.choice((action.card, *state.deck[:2])))
        elif can_end:
            return state
        elif actions:
            action = rng.choice(actions)
        else:  # nothing legal and the turn cannot end: only a broken engine gets here
            raise AssertionError(f"no legal action and the turn cannot end: {end_problem(state)}")
        state = play(state, action)


def _over(state: TurnState) -> bool:
    return any(not (s.hand or s.hidden) for s in state.seats) or all(e.arrows_left == 0 for e in state.expeditions)


def random_position(rng: random.Random, *, players: int = 3, turns: int | None = None, rules: Rules | None = None,
                    ticket_rate: float = 0.25) -> Position:
    """The position at the start of a turn after ``turns`` random legal turns (default: 0–40 at random), seen by
    the player whose turn it is. Stops early, at the last turn before the game would end."""
    state = setup_state(rng, players=players, rules=rules)
    wanted = rng.randint(0, 40) if turns is None else turns
    for _ in range(wanted):
        after = _random_turn(rng, state, ticket_rate=ticket_rate)
        if _over(after):
            break
        state = replace(after, active=(after.active + 1) % players, mandatory=False, restart=None, blue=0, spent=0,
                        actions=(), events=())
    return position_of(state)


def position_of(state: TurnState) -> Position:
    """The position the active player sees at the start of their turn (the others' hands become sizes)."""
    seats = []
    for i, seat in enumerate(state.seats):
        hand = tuple(seat.hand) if i == state.active else None
        seats.append(Player(seat.name, hand, len(seat.hand) + seat.hidden, tuple(seat.tokens), tuple(seat.scored),
                            seat.tickets))
    names = tuple(s.name for s in state.seats)
    return Position(names, names[state.active], tuple(state.common), state.expeditions, tuple(seats), state.rules)
