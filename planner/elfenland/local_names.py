"""Elfenland's names in the players' languages: towns, transports, terrains and components (``data/names.json``).

The rule texts we build for name things in Ukrainian, Polish, Czech and Japanese; a player types those names and
reads them back. Groups: ``towns`` (by code), ``transports`` (card letter), ``terrains`` (terrain letter),
``components`` (``card``, ``counter``, ``obstacle``, ``caravan``, ``marker``, ``boot``, ``town``, ``ferry``).
The ``*_word`` helpers name a thing in the language spoken now (:func:`planner.common.i18n.language`); JSON keeps
the English board names, so they serve the text output only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from planner.common.i18n import language
from planner.common.names import NameBook

if TYPE_CHECKING:
    from planner.elfenland.board import Board, Terrain
    from planner.elfenland.rules import Transport

__all__ = ["BOOK", "cards_words", "terrain_word", "town_word", "transport_word"]

BOOK = NameBook(Path(__file__).with_name("data") / "names.json")
"""The book of Elfenland's names (read on first use)."""


class _Cards(Protocol):
    def cards(self) -> list[Transport]: ...


def town_word(board: Board, code: str) -> str:
    """The town's name in the language spoken now (``Ельфенголд``), the board's name where it has none."""
    name = board.towns[code].name
    lang = language()
    return name if lang == "en" else BOOK.name("towns", code, lang, name)


def transport_word(transport: Transport | None) -> str:
    """The transport's name in the language spoken now (``drak``); ``None`` is the obstacle."""
    lang = language()
    if transport is None:
        return "obstacle" if lang == "en" else BOOK.name("components", "obstacle", lang, "obstacle")
    return transport.title if lang == "en" else BOOK.name("transports", transport.letter, lang, transport.title)


def terrain_word(terrain: Terrain) -> str:
    """The terrain's name in the language spoken now (``les``)."""
    lang = language()
    return str(terrain) if lang == "en" else BOOK.name("terrains", terrain.letter, lang, str(terrain))


def cards_words(hand: _Cards) -> str:
    """A hand's cards one by one in the language spoken now: ``dragon dragon raft``."""
    return " ".join(transport_word(t) for t in hand.cards())
