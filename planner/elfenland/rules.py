"""Transports, terrains, the cost table, the components and the rule options of the project's rules (docs/RULES.md).

This is the single source of travel costs and of each rule option's values: the validator, the verifier, both
solvers, the notation, the position files and the command-line flags read them from here.
"""

from __future__ import annotations

import enum
from typing import ClassVar

from planner.common.options import GameRules, RuleOption
from planner.common.problems import Problem
from planner.common.values import frozen
from planner.elfenland.board import Connection, Crossing, Terrain

__all__ = [
    "COSTS", "COUNTERS", "DECK", "FIRST_ROUND", "GAME_ROUNDS", "LAST_ROUND", "MOST_RAFTS", "RAFT_COSTS",
    "RULE_OPTIONS", "Caravan", "CaravanWhen", "Crossing", "HomeDistance", "RuleOption", "Rules", "Terrain",
    "Transport", "can_carry", "counter_cost", "raft_cost",
]


class Transport(enum.Enum):
    """A kind of travel card; all but the raft also exist as transport counters."""

    PIG = "P"
    ELFCYCLE = "E"
    CLOUD = "C"
    UNICORN = "U"
    TROLL = "T"
    DRAGON = "D"
    RAFT = "R"

    @property
    def letter(self) -> str:
        """The one-letter card code (``D`` for dragon)."""
        return self.value

    @property
    def title(self) -> str:
        """The printed name, e.g. ``giant pig``."""
        return TRANSPORT_TITLES[self]

    @property
    def is_counter(self) -> bool:
        """Whether counters of this transport exist (every transport but the raft)."""
        return self is not Transport.RAFT

    def __str__(self) -> str:
        return self.title


TRANSPORT_TITLES = {
    Transport.PIG: "giant pig",
    Transport.ELFCYCLE: "elfcycle",
    Transport.CLOUD: "magic cloud",
    Transport.UNICORN: "unicorn",
    Transport.TROLL: "troll wagon",
    Transport.DRAGON: "dragon",
    Transport.RAFT: "raft",
}

#: Canonical order of cards everywhere (hands, notation, JSON): the order of the transportation chart.
TRANSPORTS: tuple[Transport, ...] = tuple(Transport)
COUNTER_TRANSPORTS: tuple[Transport, ...] = tuple(t for t in Transport if t.is_counter)


#: Cards of the counter's transport needed per road, by terrain (RULES.md, "Travel costs"); absent = not allowed.
COSTS: dict[Transport, dict[Terrain, int]] = {
    Transport.PIG: {Terrain.PLAIN: 1, Terrain.FOREST: 1},
    Transport.ELFCYCLE: {Terrain.PLAIN: 1, Terrain.FOREST: 1, Terrain.MOUNTAIN: 2},
    Transport.CLOUD: {Terrain.PLAIN: 2, Terrain.FOREST: 2, Terrain.MOUNTAIN: 1},
    Transport.UNICORN: {Terrain.FOREST: 1, Terrain.DESERT: 2, Terrain.MOUNTAIN: 1},
    Transport.TROLL: {Terrain.PLAIN: 1, Terrain.FOREST: 2, Terrain.DESERT: 2, Terrain.MOUNTAIN: 2},
    Transport.DRAGON: {Terrain.PLAIN: 1, Terrain.FOREST: 2, Terrain.DESERT: 1, Terrain.MOUNTAIN: 1},
}
#: Raft cards per water crossing (RULES.md, "Travel costs"): the one table of raft prices.
RAFT_COSTS: dict[Crossing, int] = {Crossing.DOWNSTREAM: 1, Crossing.UPSTREAM: 2, Crossing.LAKE: 2}
MOST_RAFTS = max(RAFT_COSTS.values())
"""The most raft cards one crossing takes."""
OBSTACLE_EXTRA = 1
CARAVAN_BASE = 3

#: Cards in the deck, counters in the game (RULES.md, "Components").
DECK: dict[Transport, int] = {t: (12 if t is Transport.RAFT else 10) for t in Transport}
COUNTERS: dict[Transport, int] = {t: 8 for t in COUNTER_TRANSPORTS}
OBSTACLES = 6
HAND_SIZE = 8
KEEP_LIMIT = 4
SUPPLY_LIMIT = 5
"""Most unplaced counters a player holds (one may be kept from the last round)."""
DISPLAY_SIZE = 5
"""Counters lying face up to draw from."""
DRAWS_PER_ROUND = 3
"""Counters each player takes from the display or blind, after the face-down one."""
KEEP_COUNTERS = 1
"""Unplaced counters a player may keep at the end of a round."""
MIN_PLAYERS, MAX_PLAYERS = 2, 6

#: The rounds a game may have (3 in a later English edition); the first is the default.
GAME_ROUNDS: tuple[int, ...] = (4, 3)
FIRST_ROUND = 1
LAST_ROUND = max(GAME_ROUNDS)
"""The highest round number of any game: positions say round 1..4 (1..3 in a three-round game)."""


def counter_cost(transport: Transport, terrain: Terrain, *, obstacle: bool = False) -> int | None:
    """Matching cards needed to travel ``terrain`` on a ``transport`` counter, or None when it cannot."""
    base = COSTS.get(transport, {}).get(terrain)
    if base is None:
        return None
    return base + (OBSTACLE_EXTRA if obstacle else 0)


def can_carry(transport: Transport, terrain: Terrain) -> bool:
    """Whether a counter of ``transport`` may be placed on (and travel) a road of ``terrain``."""
    return terrain in COSTS.get(transport, {})


def raft_cost(connection: Connection, frm: str) -> int:
    """Raft cards to cross water from ``frm`` (see :data:`RAFT_COSTS`).

    Raises:
        ValueError: ``connection`` is a road.
    """
    way = connection.way(frm)
    if way is None:
        raise ValueError(f"{connection.id} is a road: rafts cross only water")
    return RAFT_COSTS[way]


# -- rule options -------------------------------------------------------------------------------------------------
class Caravan(enum.StrEnum):
    """What a caravan costs."""

    FLAT = "flat"
    """3 cards, 4 with an obstacle, whatever the terrain (the 1998 rules)."""
    SCALED = "scaled"
    """2 + the counter's cost (obstacle included): one seed's reading, no official source."""


class CaravanWhen(enum.StrEnum):
    """When a caravan may be paid."""

    ALWAYS = "always"
    """Even with the matching cards in hand (the 1998 rules)."""
    STRICT = "strict"
    """Only while the hand cannot pay the counter's matching cards (a literal reading of one sentence)."""


class HomeDistance(enum.StrEnum):
    """Which links count towards the home-town penalty."""

    ALL = "all"
    """Every link, water included (the 1998 rules)."""
    ROADS = "roads"
    """Roads only."""


#: Every rule option, in the order of :class:`Rules`' fields (one place for each option's values).
RULE_OPTIONS: dict[str, RuleOption] = {
    option.name: option for option in (
        RuleOption("caravan", tuple(Caravan), "caravan cost: flat 3 (4 with obstacle), or scaled 2 + counter cost"),
        RuleOption("caravan_when", tuple(CaravanWhen), "caravans always allowed, or strict: only without the "
                                                       "matching cards", ("when",)),
        RuleOption("rounds", GAME_ROUNDS, "rounds in the game; the last applies the home-town penalty"),
        RuleOption("home_distance", tuple(HomeDistance), "links counted to home: all, or roads only", ("distance",)),
        RuleOption("home_variant", (True, False), "whether a home-town card costs points in the last round",
                   ("home",)),
    )
}


@frozen(init=False)
class Rules(GameRules):
    """The rule options of the project's rules; the defaults are the original 1998 rules.

    The enum options take their text too (``Rules(caravan="scaled")``), stored as the enum members; reading,
    parsing and writing them is :class:`~planner.common.options.GameRules`'.

    Attributes:
        caravan: :class:`Caravan`: flat 3 cards (4 with obstacle), or scaled 2 + the counter's cost.
        caravan_when: :class:`CaravanWhen`: always, or strict (only when the matching cards cannot be paid).
        rounds: 4, or 3 (a later English edition); the last round applies the home-town penalty.
        home_distance: :class:`HomeDistance`: every link to home counts, or roads only.
        home_variant: whether a given home town costs points at the end of the last round.

    Raises:
        NotationError: a value that is not one of the option's values (every bad option named).
    """

    OPTIONS: ClassVar[dict[str, RuleOption]] = RULE_OPTIONS
    EXAMPLE: ClassVar[str] = "'caravan=scaled'"

    caravan: Caravan
    caravan_when: CaravanWhen
    rounds: int
    home_distance: HomeDistance
    home_variant: bool

    def __init__(self, caravan: Caravan | str = Caravan.FLAT, caravan_when: CaravanWhen | str = CaravanWhen.ALWAYS,
                 rounds: int = 4, home_distance: HomeDistance | str = HomeDistance.ALL,
                 home_variant: bool = True) -> None:
        self._store({"caravan": caravan, "caravan_when": caravan_when, "rounds": rounds,
                     "home_distance": home_distance, "home_variant": home_variant})

    @property
    def strict(self) -> bool:
        """Whether caravans are allowed only when the matching cards cannot be paid."""
        return self.caravan_when is CaravanWhen.STRICT

    def caravan_cost(self, counter_cost: int, *, obstacle: bool) -> int:
        """Any-card cost of a caravan on a road whose counter would cost ``counter_cost`` (obstacle included)."""
        if self.caravan is Caravan.SCALED:
            # 3 + the extra cost of the terrain over one card; counter_cost already holds the obstacle's +1.
            return CARAVAN_BASE - 1 + counter_cost
        return CARAVAN_BASE + (OBSTACLE_EXTRA if obstacle else 0)

    def round_problem(self, round_: int) -> Problem | None:
        """The problem with ``round_`` in a game of these rules, if any."""
        if not FIRST_ROUND <= round_ <= self.rounds:
            return Problem("bad-round", "round", str(round_),
                           f"round {round_} is not between {FIRST_ROUND} and {self.rounds}")
        return None
