"""Expeditions' names in Russian, the language of its rule text: the 80 green locations and the game's terms.

Groups in ``data/names.json``: ``locations`` (by the green's key), ``terms`` (``start``, ``location``, ``spot``,
``green``, ``red``, ``blue``, ``arrow``, ``ticket``, ``expedition``, ``card``, ``key_location``, ``common_goal``,
``token``, ``loop``, ``points``).
"""

from __future__ import annotations

from pathlib import Path

from planner.common.i18n import language
from planner.common.names import NameBook

__all__ = ["BOOK", "location_word", "spot_aliases"]

BOOK = NameBook(Path(__file__).with_name("data") / "names.json")
"""The book of Expeditions' names (read on first use)."""


def spot_aliases(key: str) -> tuple[str, ...]:
    """A spot's names in every language of the book: a green's names, or the start's (``Роза ветров``)."""
    return BOOK.aliases("terms", "start") if key == "start" else BOOK.aliases("locations", key)


def location_word(key: str) -> str:
    """A green location's name in the language spoken now (``Ниагарский водопад`` in Russian), else its key."""
    lang = language()
    return key if lang == "en" else BOOK.name("locations", key, lang, key)
