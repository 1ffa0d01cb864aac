"""Elfenland's names in the players' languages: towns, transports, terrains and components (``data/names.json``).

The rule texts we build for name things in Ukrainian, Polish, Czech and Japanese; a player types those names and
reads them back. Groups: ``towns`` (by code), ``transports`` (card letter), ``terrains`` (terrain letter),
``components`` (``card``, ``counter``, ``obstacle``, ``caravan``, ``marker``, ``boot``, ``town``, ``ferry``).
"""

from __future__ import annotations

from planner.common.names import NameBook

__all__ = ["BOOK"]

BOOK = NameBook("planner.elfenland")
"""The book of Elfenland's names (read on first use)."""
