"""Hand-built Expeditions positions for the tests: two players (Ann, then me: Ben), far filler cards.

Only what a test names matters; the rest is filled so that the position is legal (12 cards dealt to each of two
players, 6 common objectives) and far from the action (every filler is 8+ links from the start).
"""

from __future__ import annotations

from collections.abc import Sequence

from planner.expedition.position import Expedition, Player, Position
from planner.expedition.rules import COLOURS, Rules

FILLER = ("Fiordland National Park", "Tasmania", "Machu Picchu", "Altiplano", "Rapa Nui", "Tierra del Fuego",
          "Graham Land", "Great Barrier Reef", "Uluru", "Perth", "Amazon Rainforest", "Aripuanã")
COMMON = ("Atacama", "Pacific Ocean", "Indian Ocean", "Papua", "Arnhem Land", "Bungle Bungle Range")

Path = Sequence[str] | Sequence[Sequence[str]]


def _legs(path: Path) -> tuple[tuple[str, ...], ...]:
    if not path:
        return ()
    if isinstance(path[0], str):
        return (tuple(str(s) for s in path),)
    return tuple(tuple(leg) for leg in path)


def table(*, yellow: Path = (), blue: Path = (), red: Path = (), hand: Sequence[str] = (),
          tokens: Sequence[str] = (), common: Sequence[str] = (), tickets: int = 3, theirs: Sequence[str] = (),
          scored: Sequence[str] = (), rules: Rules | None = None) -> Position:
    """A checked position: my ``hand`` (topped up with far filler to 12 cards), my ``tokens``, Ann's tokens
    ``theirs``, the ``common`` objectives (topped up to 6)."""
    cards = list(hand) + [c for c in FILLER if c not in hand][:max(0, 12 - len(hand) - len(scored))]
    commons = list(common) + [c for c in COMMON if c not in common][:6 - len(common)]
    paths = {COLOURS[0]: yellow, COLOURS[1]: blue, COLOURS[2]: red}
    expeditions = tuple(Expedition(c, _legs(p)) for c, p in paths.items())
    seats = (Player("Ann", None, 12, tuple(theirs), (), 3), Player("Ben", tuple(cards), len(cards), tuple(tokens),
                                                                  tuple(scored), tickets))
    return Position(("Ann", "Ben"), "Ben", tuple(commons), expeditions, seats, rules or Rules()).check()
