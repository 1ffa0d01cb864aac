"""Counted nouns in every language: ``1 town``, ``3 towns``, ``5 měst``, ``町3`` (one plural message per noun).

A leaf module (it imports no game module), so the position's problems and the explanations count alike.
"""

from __future__ import annotations

from collections.abc import Callable

from planner.common.i18n import format_number, ngettext, npgettext

__all__ = ["count", "count_as", "count_part"]

_NOUNS: dict[str, Callable[[int], str]] = {  # each counted noun as one plural message, so each language declines it
    "town": lambda n: ngettext("{n} town", "{n} towns", n),
    "new town": lambda n: ngettext("{n} new town", "{n} new towns", n),
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    # the cards a route pays, as "for ..." says them: Slavic languages put them in the accusative (za 1 kartu)
    "card paid": lambda n: npgettext("paid", "{n} card", "{n} cards", n),
    "more card": lambda n: ngettext("{n} more card", "{n} more cards", n),
    "counter": lambda n: ngettext("{n} counter", "{n} counters", n),
    "point": lambda n: ngettext("{n} point", "{n} points", n),
    "sample": lambda n: ngettext("{n} sample", "{n} samples", n),
    "sampled hand": lambda n: ngettext("{n} sampled hand", "{n} sampled hands", n),
    "step": lambda n: ngettext("{n} step", "{n} steps", n),
    "link": lambda n: ngettext("{n} link", "{n} links", n),
    "raft": lambda n: ngettext("{n} raft", "{n} rafts", n),
    "giant pig": lambda n: ngettext("{n} giant pig", "{n} giant pigs", n),
    "elfcycle": lambda n: ngettext("{n} elfcycle", "{n} elfcycles", n),
    "magic cloud": lambda n: ngettext("{n} magic cloud", "{n} magic clouds", n),
    "unicorn": lambda n: ngettext("{n} unicorn", "{n} unicorns", n),
    "troll wagon": lambda n: ngettext("{n} troll wagon", "{n} troll wagons", n),
    "dragon": lambda n: ngettext("{n} dragon", "{n} dragons", n),
}


def count(n: int, word: str) -> str:
    """``1 card``, ``3 cards`` (``5 karet`` in Czech): the verdict's counts, and the teaching texts'
    (:mod:`planner.elfenland.teach`). A noun without a plural message of its own is counted in English."""
    form = _NOUNS.get(word)
    return form(n).format(n=n) if form else f"{n} {word}{'' if n == 1 else 's'}"


def count_part(value: float, word: str) -> str:
    """A fraction counted: ``0.85 towns`` (``0,85 města`` in Czech)."""
    return count_as(format_number(value, ".2f"), word)


def count_as(number: str, word: str) -> str:
    """A number already written (``0.85``, ``0.85 ± 0.10``) with its noun in the plural a fraction takes. Slavic
    languages decline a fraction as they do 2 (genitive singular), English and Japanese as any plural, so the
    plural message's form for 2 serves them all."""
    form = _NOUNS.get(word)
    return form(2).format(n=number) if form else f"{number} {word}s"
