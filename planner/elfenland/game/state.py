"""The whole game as immutable values: the rules of a game, the actions of every phase, each player's state, the
table's state, and what one player may see of it (:class:`View`).

Every value is a frozen dataclass, so a state is hashable and two states compare equal exactly when every card and
counter lies in the same place. :mod:`planner.elfenland.game.engine` moves from one state to the next.
"""

from __future__ import annotations

import enum
from dataclasses import field

from planner.common.values import frozen
from planner.elfenland.board import CAPITAL
from planner.elfenland.plan import Step
from planner.elfenland.position import Hand, Tile
from planner.elfenland.rules import Rules, Transport

__all__ = [
    "Action", "Discard", "Draw", "GameRules", "GameState", "Keep", "Pass", "Phase", "Place", "PlaceObstacle",
    "Player", "PublicPlayer", "Travel", "View",
]


class Phase(enum.Enum):
    """The phases a player acts in (dealing and the face-down counter happen by themselves)."""

    DRAW = "draw"
    """Each player takes three counters, one at a time in turn order."""
    PLAN = "plan"
    """Placing counters and obstacles until everybody passes in a row."""
    TRAVEL = "travel"
    """Each player moves its boot, in turn order."""
    DISCARD = "discard"
    """The player who just moved discards down to four cards."""
    KEEP = "keep"
    """Each player keeps at most one unplaced counter."""
    OVER = "over"
    """The game has ended."""

    def __str__(self) -> str:
        return self.value


@frozen
class GameRules:
    """The options of a whole game: the planner's rule options, plus the home-town variant and the display.

    Attributes:
        rules: the route rules (caravan, rounds, home distance, home variant).
        home_towns: whether each player is dealt a secret home-town card (the home-town variant).
        display_carries: whether the five face-up counters stay between rounds (the rulebook) or five new ones
            are turned up (a translation's reading).
    """

    rules: Rules = field(default_factory=Rules)
    home_towns: bool = False
    display_carries: bool = True

    @property
    def rounds(self) -> int:
        """Rounds in the game (4, or 3 as a rule option)."""
        return self.rules.rounds


# -- actions ------------------------------------------------------------------------------------------------------
@frozen
class Draw:
    """Take a counter: face-up ``index`` (0..4, replaced at once from the stack), or blind (None)."""

    index: int | None = None

    def __str__(self) -> str:
        return "blind" if self.index is None else str(self.index)


@frozen
class Place:
    """Put one of my counters on an empty road its transport can travel (a face-up one first, so the
    face-down ones stay secret)."""

    counter: Transport
    road: str

    def __str__(self) -> str:
        return f"{self.counter.letter}@{self.road}"


@frozen
class PlaceObstacle:
    """Put my obstacle (once per game) on a road holding a counter and no obstacle."""

    road: str

    def __str__(self) -> str:
        return f"X@{self.road}"


@frozen
class Pass:
    """Place nothing this turn (planning goes on until everybody passes in a row); also the only action of a player
    who cannot draw."""

    def __str__(self) -> str:
        return "pass"


@frozen
class Travel:
    """Walk the boot along these steps (perhaps none), each paid as the verifier allows."""

    steps: tuple[Step, ...] = ()

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.steps) or "-"


@frozen
class Discard:
    """Discard these cards after my move, leaving exactly four."""

    cards: Hand

    def __str__(self) -> str:
        return str(self.cards)


@frozen
class Keep:
    """Keep this unplaced counter for the next round (None: none); the others return to the stack."""

    counter: Transport | None = None

    def __str__(self) -> str:
        return "-" if self.counter is None else self.counter.letter


Action = Draw | Place | PlaceObstacle | Pass | Travel | Discard | Keep


# -- players and the table ----------------------------------------------------------------------------------------
@frozen
class Player:
    """One player's whole state (the engine's; the player itself sees it through :class:`View`)."""

    name: str
    town: str = CAPITAL
    hand: Hand = field(default_factory=Hand)
    secret: Hand = field(default_factory=Hand)
    """Face-down counters (the one drawn first each round, or one kept face down)."""
    open: Hand = field(default_factory=Hand)
    """Face-up unplaced counters (drawn from the display or blind)."""
    obstacle: bool = True
    """Whether the obstacle of the game is still in hand."""
    visited: frozenset[str] = frozenset({CAPITAL})
    """Towns entered, the capital included (it holds no marker)."""
    home: str | None = None

    @property
    def counters(self) -> Hand:
        """Every unplaced counter, face down or up."""
        return self.secret + self.open


@frozen
class GameState:
    """The table between two actions: every card and counter somewhere, and whose turn it is.

    ``deck`` and ``stack`` are in draw order (the next card or counter first); ``display`` keeps its slots, so a
    face-up index names the same counter until it is taken.
    """

    seed: int
    rules: GameRules
    players: tuple[Player, ...]
    round: int = 1
    phase: Phase = Phase.DRAW
    turn: int = 0
    """The seat to act."""
    deck: tuple[Transport, ...] = ()
    discards: Hand = field(default_factory=Hand)
    shuffles: int = 0
    """How often the discards were shuffled into a new deck (names the next shuffle's seed)."""
    stack: tuple[Transport, ...] = ()
    display: tuple[Transport, ...] = ()
    tiles: tuple[Tile, ...] = ()
    obstacles_out: int = 0
    """Obstacles used in past rounds: out of the game."""
    steps_taken: int = 0
    """Turns taken in this phase (draws, planning turns since the phase began, moves, keeps)."""
    passes: int = 0
    """Passes in a row during planning."""

    @property
    def start(self) -> int:
        """The seat that starts this round (the start player moves on each round)."""
        return (self.round - 1) % len(self.players)

    @property
    def order(self) -> tuple[int, ...]:
        """Seats in turn order this round."""
        n = len(self.players)
        return tuple((self.start + k) % n for k in range(n))

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER


@frozen
class PublicPlayer:
    """What every player sees of one player."""

    name: str
    town: str
    visited: frozenset[str]
    open: Hand
    secret: int
    """How many face-down counters they hold."""
    obstacle: bool
    cards: int
    """How many travel cards they hold (their types are secret)."""


@frozen
class View:
    """What one player may know: the public table and its own hand, face-down counters and home town."""

    me: int
    rules: GameRules
    round: int
    phase: Phase
    turn: int
    start: int
    players: tuple[PublicPlayer, ...]
    display: tuple[Transport, ...]
    tiles: tuple[Tile, ...]
    stack: int
    """Counters left face down in the stack."""
    deck: int
    """Cards left in the deck."""
    discards: int
    hand: Hand
    secret: Hand
    home: str | None
    passes: int

    @property
    def own(self) -> PublicPlayer:
        """My public side."""
        return self.players[self.me]

    @property
    def counters(self) -> Hand:
        """My unplaced counters, face down and up."""
        return self.secret + self.own.open
