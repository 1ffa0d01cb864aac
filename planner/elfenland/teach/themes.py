"""The puzzle themes and difficulties: names only, so that the command line can offer them without loading the
generator."""

from __future__ import annotations

__all__ = ["DIFFICULTIES", "THEMES"]

THEMES: tuple[str, ...] = ("caravan", "upstream", "ferry", "backtrack", "home", "obstacle", "any")
"""What a puzzle teaches: a lesson every best route needs (``any``: whatever it needs)."""
DIFFICULTIES = range(1, 6)
