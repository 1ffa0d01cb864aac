"""Small pieces of English shared by the teaching texts: counts, articles, card and town names."""

from __future__ import annotations

from planner.elfenland.board import load_board
from planner.elfenland.explain import count
from planner.elfenland.position import Hand
from planner.elfenland.rules import Transport

__all__ = ["a", "cards", "count", "joined", "listing", "town"]


def cards(n: int, transport: Transport) -> str:
    """``1 dragon``, ``2 magic clouds``."""
    return count(n, transport.title)


def a(word: str) -> str:
    """``a dragon``, ``an elfcycle``."""
    vowel = word[:1].lower() in "aeiou" and not word.lower().startswith(("uni", "use"))  # "a unicorn"
    return f"{'an' if vowel else 'a'} {word}"


def town(code: str) -> str:
    """A town's printed name."""
    return load_board().towns[code].name


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def joined(hand: Hand) -> str:
    """A hand's cards by name, counted: ``2 dragons and 1 raft``."""
    return listing([cards(n, t) for t, n in hand.as_dict().items() if n]) or "no cards"
