"""Colours, components and the rule options of Expeditions as the planner implements them (EXPEDITION.md).

The single source of the game's numbers (45 arrows a colour, 3 tickets, 2 a turn, 4 tokens, hands of 12 or 9) and
of each rule option's values: the position files, the notation, the turn engine and the solvers read them here.
"""

from __future__ import annotations

import enum
from typing import ClassVar

from planner.common.names import Names
from planner.common.options import GameRules, RuleOption
from planner.common.values import frozen

__all__ = ["ARROWS", "CARDS", "COLOURS", "COMMONS", "RULE_OPTIONS", "TICKETS", "TICKETS_PER_TURN", "TOKENS",
           "ArrowsOut", "BlueBonus", "Colour", "LoopRestart", "OrphanToken", "RuleOption", "Rules", "TicketTiming",
           "dealt", "parse_colour"]

ARROWS = 45
"""Arrows of each colour."""
CARDS = 80
"""Expedition cards: one per green location."""
COMMONS = 6
"""Open common objectives (fewer only once the deck is empty)."""
TICKETS = 3
"""Tickets each player starts with."""
TICKETS_PER_TURN = 2
"""Most tickets one turn may spend."""
TOKENS = 4
"""Small tokens each player puts on key locations at setup."""
PLAYERS = (2, 6)
"""Fewest and most players."""


def dealt(players: int) -> int:
    """Cards dealt to each player: 12 with 2–3 players, 9 with 4–6."""
    return 12 if players <= 3 else 9


class Colour(enum.Enum):
    """One of the three shared expeditions (and its arrows)."""

    YELLOW = "yellow"
    BLUE = "blue"
    RED = "red"

    @property
    def letter(self) -> str:
        """``Y``, ``B`` or ``R``."""
        return self.value[0].upper()

    def __str__(self) -> str:
        return self.value


COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_NAMES: Names[Colour] = Names("colour", {c: (c.value,) for c in Colour}, {c: c.value for c in Colour})


def parse_colour(text: str, *, where: str = "") -> Colour:
    """The colour ``text`` names (``yellow``, ``Blue``, a unique prefix such as ``y``).

    Raises:
        NotationError: not a colour (with a hint).
    """
    return _COLOUR_NAMES.find(text, where=where)


# -- rule options -------------------------------------------------------------------------------------------------
class BlueBonus(enum.StrEnum):
    """Whether the arrow a blue square earns must be placed."""

    OPTIONAL = "optional"
    """The player may decline it (the seed's "may", Game Park)."""
    MANDATORY = "mandatory"
    """It must be placed when a legal arrow exists (BGA)."""


class LoopRestart(enum.StrEnum):
    """Whether the restart arrow after a loop must be placed."""

    MANDATORY = "mandatory"
    """At once, when possible (the seed, BGA)."""
    OPTIONAL = "optional"
    """The player may decline it, which ends the turn (Game Park)."""


class TicketTiming(enum.StrEnum):
    """When a ticket may be spent."""

    BETWEEN_CHAINS = "between_chains"
    """Before the turn's arrow, or after it once no bonus arrow is pending (pending blue arrows are declined)."""
    ANYTIME = "anytime"
    """Also while blue arrows are pending, which stay pending; never while a restart is pending (Game Park)."""


class OrphanToken(enum.StrEnum):
    """What becomes of a token whose card left the hand through an exchange."""

    STAYS = "stays"
    """It stays on the map for good and costs 1 at the end."""
    RECOVER = "recover"
    """An arrival still recovers it (the seed's arrival rule names no card)."""


class ArrowsOut(enum.StrEnum):
    """What happens once all 135 arrows are on the board."""

    FINISH_ROUND = "finish_round"
    """The round is finished, so that everyone has had as many turns."""
    AT_ONCE = "at_once"
    """The game ends at once (BGA)."""


RULE_OPTIONS: dict[str, RuleOption] = {
    option.name: option for option in (
        RuleOption("blue_bonus", tuple(BlueBonus), "the blue-square arrow: optional, or mandatory"),
        RuleOption("loop_restart", tuple(LoopRestart), "the restart after a loop: mandatory, or optional "
                                                       "(declining ends the turn)"),
        RuleOption("ticket_timing", tuple(TicketTiming), "tickets between chains, or anytime (not during a "
                                                         "restart)"),
        RuleOption("orphan_token", tuple(OrphanToken), "a token whose card was exchanged away: stays (-1), or "
                                                       "recover (an arrival still recovers it)"),
        RuleOption("arrows_out", tuple(ArrowsOut), "all arrows placed: finish_round, or at_once"),
    )
}


@frozen
class Rules(GameRules):
    """The rule options; the defaults are the project's decisions (EXPEDITION.md, "Decisions on ambiguities").

    Strings are accepted (``Rules(blue_bonus="mandatory")``) and stored as the enum members; reading, parsing and
    writing them is :class:`~planner.common.options.GameRules`'.

    Raises:
        NotationError: a value that is not one of the option's values.
    """

    OPTIONS: ClassVar[dict[str, RuleOption]] = RULE_OPTIONS
    EXAMPLE: ClassVar[str] = "'blue_bonus=mandatory'"

    blue_bonus: BlueBonus = BlueBonus.OPTIONAL
    loop_restart: LoopRestart = LoopRestart.MANDATORY
    ticket_timing: TicketTiming = TicketTiming.BETWEEN_CHAINS
    orphan_token: OrphanToken = OrphanToken.STAYS
    arrows_out: ArrowsOut = ArrowsOut.FINISH_ROUND

    @property
    def blue_mandatory(self) -> bool:
        """Whether a blue square's arrow must be placed."""
        return self.blue_bonus is BlueBonus.MANDATORY

    @property
    def restart_optional(self) -> bool:
        """Whether a restart may be declined (ending the turn)."""
        return self.loop_restart is LoopRestart.OPTIONAL

    @property
    def tickets_anytime(self) -> bool:
        """Whether tickets may be spent while blue arrows are pending."""
        return self.ticket_timing is TicketTiming.ANYTIME

    @property
    def orphans_recover(self) -> bool:
        """Whether an arrival recovers a token whose card is no longer in hand."""
        return self.orphan_token is OrphanToken.RECOVER
