"""Transports, terrains, the cost table and the rule options of RULES.md.

This is the single source of travel costs: the validator, the verifier and both solvers read them from here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any

from planner.elfenland.board import Terrain
from planner.errors import NotationError

__all__ = ["Transport", "Terrain", "Rules", "COSTS", "counter_cost", "can_carry"]


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
RAFT_DOWNSTREAM = 1
RAFT_UPSTREAM = 2
RAFT_LAKE = 2
OBSTACLE_EXTRA = 1
CARAVAN_BASE = 3

#: Cards in the deck, counters in the game (RULES.md, "Components").
DECK: dict[Transport, int] = {t: (12 if t is Transport.RAFT else 10) for t in Transport}
COUNTERS: dict[Transport, int] = {t: 8 for t in COUNTER_TRANSPORTS}
OBSTACLES = 6
HAND_SIZE = 8
KEEP_LIMIT = 4


def counter_cost(transport: Transport, terrain: Terrain, *, obstacle: bool = False) -> int | None:
    """Matching cards needed to travel ``terrain`` on a ``transport`` counter, or None when it cannot."""
    base = COSTS.get(transport, {}).get(terrain)
    if base is None:
        return None
    return base + (OBSTACLE_EXTRA if obstacle else 0)


def can_carry(transport: Transport, terrain: Terrain) -> bool:
    """Whether a counter of ``transport`` may be placed on (and travel) a road of ``terrain``."""
    return terrain in COSTS.get(transport, {})


OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "caravan": ("flat", "scaled"),
    "caravan_when": ("always", "strict"),
    "home_distance": ("all", "roads"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options of RULES.md; the defaults are the original 1998 rules.

    Attributes:
        caravan: ``flat`` costs 3 cards (4 with obstacle); ``scaled`` costs 2 + the counter's cost (+1 obstacle).
        caravan_when: ``always`` allows a caravan even with matching cards in hand; ``strict`` only when the
            matching cards cannot be paid at that moment.
        rounds: 4, or 3 (a later English edition); the last round applies the home-town penalty.
        home_distance: ``all`` counts every link to home, ``roads`` only roads.
        home_variant: whether a given home town costs points at the end of the last round.
    """

    caravan: str = "flat"
    caravan_when: str = "always"
    rounds: int = 4
    home_distance: str = "all"
    home_variant: bool = True

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise NotationError("; ".join(problems))

    def problems(self) -> list[str]:
        """Every bad option value, as messages naming the option and the allowed values."""
        found = []
        for name, choices in OPTION_CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                found.append(f"rule option {name} = {value!r} is not one of {', '.join(choices)}")
        if self.rounds not in (3, 4):
            found.append(f"rule option rounds = {self.rounds!r} must be 3 or 4")
        if not isinstance(self.home_variant, bool):
            found.append(f"rule option home_variant = {self.home_variant!r} must be true or false")
        return found

    def caravan_cost(self, counter_cost: int, *, obstacle: bool) -> int:
        """Any-card cost of a caravan on a road whose counter would cost ``counter_cost`` (obstacle included)."""
        if self.caravan == "scaled":
            # 3 + the extra cost of the terrain over one card; counter_cost already holds the obstacle's +1.
            return CARAVAN_BASE - 1 + counter_cost
        return CARAVAN_BASE + (OBSTACLE_EXTRA if obstacle else 0)

    @classmethod
    def from_mapping(cls, data: dict[str, Any], *, where: str = "[rules]") -> Rules:
        """Rules from a ``[rules]`` table; unknown keys and bad values raise one error naming them all.

        Raises:
            NotationError: an unknown option or a bad value.
        """
        known = {f.name for f in fields(cls)}
        problems = [f"unknown rule option {k!r} in {where}; options are {', '.join(sorted(known))}"
                    for k in data if k not in known]
        try:
            rules = cls(**{k: v for k, v in data.items() if k in known})
        except NotationError as exc:
            problems.append(str(exc))
        if problems:
            raise NotationError("; ".join(problems))
        return rules

    def to_mapping(self) -> dict[str, Any]:
        """The options that differ from the defaults, as a ``[rules]`` table."""
        default = Rules()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed."""
        return replace(self, **options)


DEFAULT_RULES = Rules()
