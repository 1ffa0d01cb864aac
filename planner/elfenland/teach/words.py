"""Small pieces shared by the teaching texts: counts, articles, card and town names, in the language spoken."""

from __future__ import annotations

from planner.common.i18n import format_list, language, say
from planner.elfenland.board import load_board
from planner.elfenland.explain import count
from planner.elfenland.local_names import town_word, transport_word
from planner.elfenland.position import Hand
from planner.elfenland.rules import Transport

__all__ = ["a", "a_counter", "cards", "count", "joined", "listing", "town"]


def cards(n: int, transport: Transport) -> str:
    """``1 dragon``, ``2 magic clouds``."""
    return count(n, transport.title)


def a(word: str) -> str:
    """``a dragon``, ``an elfcycle``."""
    vowel = word[:1].lower() in "aeiou" and not word.lower().startswith(("uni", "use"))  # "a unicorn"
    return f"{'an' if vowel else 'a'} {word}"


def a_counter(transport: Transport) -> str:
    """A transport as a sentence's ``{counter}`` names it: ``a dragon`` in English (the article is English's
    alone), the bare name in another language (``drak``)."""
    return a(transport.title) if language() == "en" else transport_word(transport)


def town(code: str) -> str:
    """A town's name in the language spoken."""
    return town_word(load_board(), code)


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (in the language spoken)."""
    return format_list(items)


def joined(hand: Hand) -> str:
    """A hand's cards by name, counted: ``2 dragons and 1 raft``."""
    return listing([cards(n, t) for t, n in hand.as_dict().items() if n]) or say("no cards")
