"""Forgiving name lookup with one "did you mean": case, accents, apostrophes, aliases and unique prefixes.

Both games name things players type by hand (towns, cards, locations, option keys); one lookup serves them all, so
every name in the planner forgives the same slips and every unknown name gets the same kind of hint.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Generic, TypeVar

from planner.errors import AmbiguousNameError, NotationError

K = TypeVar("K")

__all__ = ["Names", "did_you_mean", "key_values", "normalize"]

_IGNORED = re.compile(r"[\s'’‘`´_\-.]")


@functools.lru_cache(maxsize=4096)  # a batch of positions names the same towns and cards again and again
def normalize(text: str) -> str:
    """Lower case without accents, apostrophes, spaces, hyphens, dots or underscores (``Erg'Erén`` -> ``ergeren``)."""
    if text.isascii():  # nothing to decompose
        return _IGNORED.sub("", text).casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _IGNORED.sub("", plain).casefold()


def did_you_mean(text: str, choices: Iterable[str], *, n: int = 3, cutoff: float = 0.6) -> str:
    """``"; did you mean 'x' or 'y'?"`` for the choices close to ``text`` (compared normalised), else ``""``."""
    by_norm: dict[str, list[str]] = {}
    for choice in choices:
        by_norm.setdefault(normalize(choice), []).append(choice)
    close = difflib.get_close_matches(normalize(text), list(by_norm), n=n, cutoff=cutoff)
    found = sorted({c for norm in close for c in by_norm[norm]})
    return f"; did you mean {' or '.join(repr(c) for c in found)}?" if found else ""


class Names(Generic[K]):
    """A forgiving lookup from names, aliases, codes and unique prefixes to keys.

    ``kind`` is the word used in messages (``town``, ``card``); ``display`` the name shown for each key in hints.
    Errors carry ``kind`` ``unknown-<kind>`` or ``ambiguous-<kind>`` and the typed text as ``value``.
    """

    def __init__(self, kind: str, entries: Mapping[K, Iterable[str]], display: Mapping[K, str], *,
                 prefixes: bool = True) -> None:
        self.kind = kind
        self.display = dict(display)
        self.prefixes = prefixes
        self.exact: dict[str, set[K]] = {}
        for key, names in entries.items():
            for name in names:
                self.exact.setdefault(normalize(name), set()).add(key)

    def candidates(self, text: str) -> set[K]:
        """Every key ``text`` may mean: the exact matches, else (with prefixes) the keys it is a prefix of."""
        norm = normalize(text)
        if not norm:
            return set()
        keys = self.exact.get(norm)
        if keys is None and self.prefixes:
            keys = {k for name, ks in self.exact.items() if name.startswith(norm) for k in ks}
        return set(keys or ())

    def find(self, text: str, *, where: str = "") -> K:
        """The one key ``text`` names.

        Raises:
            AmbiguousNameError: ``text`` fits several keys (the message lists them).
            NotationError: ``text`` is empty or names nothing (with close matches as a hint).
        """
        where_part = f" in {where}" if where else ""
        if not normalize(text):
            raise NotationError(f"empty {self.kind} name{where_part}", kind=f"empty-{self.kind}", value=text)
        keys = self.candidates(text)
        if len(keys) == 1:
            return next(iter(keys))
        if keys:
            options = ", ".join(sorted(self.display[k] for k in keys))
            raise AmbiguousNameError(f"ambiguous {self.kind} {text!r}{where_part}: could be {options}",
                                     kind=f"ambiguous-{self.kind}", value=text)
        close = difflib.get_close_matches(normalize(text)[:60], list(self.exact), n=3, cutoff=0.6)
        suggestions = sorted({self.display[k] for name in close for k in self.exact[name]})
        hint = f"; did you mean {' or '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        shown = repr(text if len(text) <= 40 else text[:37] + "...")
        raise NotationError(f"unknown {self.kind} {shown}{where_part}{hint}", kind=f"unknown-{self.kind}",
                            value=text)


def key_values(text: str, *, example: str, kind: str = "bad-item") -> list[tuple[str, str, str]]:
    """The items of a comma-separated ``key=value`` field (``caravan=scaled,rounds=3``), as (key, value, item).

    Raises:
        NotationError: an item without ``=`` (the message shows ``example``).
    """
    found = []
    for item in (part for part in text.split(",") if part):
        key, equals, value = item.partition("=")
        if not equals:
            raise NotationError(f"item {item!r} must look like {example}", kind=kind, value=item)
        found.append((key, value, item))
    return found
