"""The token grammar: town names and codes, card letters, hands, road ids, counters and route steps.

Parsing is forgiving (case, accents, apostrophes, aliases, unique prefixes, ``x2`` counts); output is always
canonical. Every parser raises :class:`~planner.errors.NotationError` with the offending text and a hint.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping

from planner.elfenland.board import Board, Connection, Terrain, load_board
from planner.elfenland.rules import TRANSPORTS, Transport
from planner.errors import AmbiguousNameError, NotationError


def normalize(text: str) -> str:
    """Lower case without accents, apostrophes, spaces, hyphens or underscores (``Erg'Erén`` -> ``ergeren``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[\s'’`_\-.]", "", plain).lower()


class _Names:
    """A forgiving lookup from names, aliases, codes and unique prefixes to keys."""

    def __init__(self, kind: str, entries: Mapping[str, Iterable[str]], display: Mapping[str, str]) -> None:
        self.kind = kind
        self.display = display
        self.exact: dict[str, set[str]] = {}
        for key, names in entries.items():
            for name in names:
                self.exact.setdefault(normalize(name), set()).add(key)

    def find(self, text: str, *, where: str = "") -> str:
        norm = normalize(text)
        where_part = f" in {where}" if where else ""
        if not norm:
            raise NotationError(f"empty {self.kind} name{where_part}")
        keys = self.exact.get(norm)
        if keys is None:
            keys = {k for name, ks in self.exact.items() if name.startswith(norm) for k in ks}
        if len(keys) == 1:
            return next(iter(keys))
        if keys:
            options = ", ".join(sorted(self.display[k] for k in keys))
            raise AmbiguousNameError(f"ambiguous {self.kind} {text!r}{where_part}: could be {options}")
        close = difflib.get_close_matches(norm, list(self.exact), n=3, cutoff=0.6)
        suggestions = sorted({self.display[k] for name in close for k in self.exact[name]})
        hint = f"; did you mean {' or '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        raise NotationError(f"unknown {self.kind} {text!r}{where_part}{hint}")


@functools.cache
def _town_names() -> _Names:
    board = load_board()
    entries = {t.code: (t.code, t.name, *t.aliases) for t in board.towns.values()}
    return _Names("town", entries, {t.code: t.name for t in board.towns.values()})


TRANSPORT_ALIASES: dict[Transport, tuple[str, ...]] = {
    Transport.PIG: ("giant pig", "pig", "giant_pig"),
    Transport.ELFCYCLE: ("elfcycle", "cycle", "bike", "elf cycle"),
    Transport.CLOUD: ("magic cloud", "cloud", "magic_cloud"),
    Transport.UNICORN: ("unicorn",),
    Transport.TROLL: ("troll wagon", "troll", "wagon", "troll_wagon"),
    Transport.DRAGON: ("dragon",),
    Transport.RAFT: ("raft", "boat"),
}


@functools.cache
def _transport_names() -> _Names:
    entries = {t.letter: (t.letter, *TRANSPORT_ALIASES[t]) for t in Transport}
    return _Names("transport", entries, {t.letter: t.title for t in Transport})


def parse_town(text: str, *, where: str = "") -> str:
    """The code of the town named by ``text`` (name, alias, code or unique prefix, any case or accents).

    Raises:
        NotationError: unknown name (with close matches) or an ambiguous prefix (with the candidates).
    """
    return _town_names().find(text, where=where)


def parse_transport(text: str, *, where: str = "") -> Transport:
    """The transport named by ``text``: ``D``, ``dragon``, ``magic cloud``, ``cloud``, ``troll`` ...

    Raises:
        NotationError: unknown or ambiguous name.
    """
    return Transport(_transport_names().find(text, where=where))


_CARD_LETTERS = set("PECUTDR")
_COUNT = re.compile(r"^(?:x|\*)(\d+)$", re.IGNORECASE)
_COUNTED = re.compile(r"^(?:(\d+)\s*(?:x|\*)?\s*(.+?)|(.+?)\s*(?:x|\*)\s*(\d+))$", re.IGNORECASE)


_TWO_WORD_NAMES = ("magiccloud", "giantpig", "trollwagon", "elfcycle")


def parse_cards(text: str, *, where: str = "hand") -> dict[Transport, int]:
    """Card counts from compact or spelled-out text.

    Accepted forms, freely mixed: letters ``DDCURRPT`` or ``D D C``; names ``dragon dragon magic-cloud``;
    counts ``Dx2``, ``dragon x2``, ``2D``, ``2 dragons``, ``2 magic clouds``. ``-`` or an empty string is an
    empty hand.

    Raises:
        NotationError: a token that names no card (every bad token is named).
    """
    counts, problems = parse_cards_partial(text, where=where)
    if problems:
        raise NotationError("; ".join(problems))
    return counts


def parse_cards_partial(text: str, *, where: str = "hand") -> tuple[dict[Transport, int], list[str]]:
    """Like :func:`parse_cards`, but returns the cards that did parse together with a problem per bad token."""
    counts = {t: 0 for t in TRANSPORTS}
    text = text.strip()
    if text in ("", "-"):
        return counts, []
    tokens = [tok for tok in re.split(r"[\s,;]+", text) if tok]
    # "magic cloud", "giant pig", "troll wagon" are two words (also as "magic clouds", "magic cloudx2"):
    # glue them before reading tokens.
    merged: list[str] = []
    for tok in tokens:
        joined = re.sub(r"(?:x|\*)\d+$", "", normalize(merged[-1] + tok)) if merged and " " not in merged[-1] else ""
        if joined in _TWO_WORD_NAMES or joined.removesuffix("s") in _TWO_WORD_NAMES:
            merged[-1] += " " + tok
        else:
            merged.append(tok)
    problems = []
    last: Transport | None = None
    pending = 1  # a bare number ("2 dragons") counts the next card
    for tok in merged:
        if tok.isdigit():
            pending = int(tok)
            continue
        repeat = _COUNT.match(tok)
        if repeat:
            if last is None:
                problems.append(f"count {tok!r} in {where} follows no card")
            else:
                counts[last] += int(repeat.group(1)) - 1
            continue
        if len(tok) > 1 and set(tok.upper()) <= _CARD_LETTERS and tok.isupper():
            for letter in tok.upper():
                last = Transport(letter)
                counts[last] += 1
            pending = 1
            continue
        if len(tok) > 1 and tok.isalpha() and tok.isupper():
            bad = "".join(sorted(set(tok) - _CARD_LETTERS))
            problems.append(f"unknown card letter {bad!r} in {tok!r} in {where}; card letters are P E C U T D R")
            continue
        number, name, pending = pending, tok, 1
        counted = _COUNTED.match(tok)
        if counted and (counted.group(1) or counted.group(4)):
            number = int(counted.group(1) or counted.group(4))
            name = counted.group(2) or counted.group(3)
        name = re.sub(r"(?<=[a-z])s$", "", name) if len(name) > 2 else name  # "dragons", "rafts"
        try:
            last = parse_transport(name, where=where)
        except NotationError as exc:
            problems.append(str(exc))
            continue
        counts[last] += number
    if pending != 1:
        problems.append(f"count {pending} at the end of {where} counts no card")
    return counts, problems


def format_cards(counts: dict[Transport, int]) -> str:
    """Canonical hand text: card letters in chart order, ``-`` for no cards (``DDCRR``)."""
    text = "".join(t.letter * counts.get(t, 0) for t in TRANSPORTS)
    return text or "-"


def parse_connection(text: str, board: Board | None = None, *, where: str = "", water: bool = False) -> Connection:
    """The connection named ``lap-riv``, ``Lapphalya-Rivinia``, ``LAP-RIV:f`` or ``VIR-JXA:r``.

    Without a terrain letter the road is meant (or, with ``water=True`` and no road, the only water link).

    Raises:
        NotationError: unknown towns, no such connection (naming what does join them), or a bad terrain letter.
    """
    board = board or load_board()
    where_part = f" in {where}" if where else ""
    body, _, letter = text.strip().partition(":")
    ends = [part for part in re.split(r"\s*[-/]\s*|\s+", body.strip()) if part]
    if len(ends) != 2:
        raise NotationError(f"connection {text!r}{where_part} must name two towns, like 'lap-riv' or 'LAP-RIV:f'")
    a, b = (parse_town(end, where=where) for end in ends)
    links = board.between(a, b)
    if letter:
        try:
            terrain = Terrain(letter.strip().lower())
        except ValueError:
            raise NotationError(
                f"bad terrain letter {letter!r} in connection {text!r}{where_part}; use p f d m r l"
            ) from None
        links = tuple(c for c in links if c.terrain is terrain)
    elif not water:
        links = tuple(c for c in links if c.is_road) or links
    if len(links) == 1:
        return links[0]
    names = f"{board.towns[a].name} and {board.towns[b].name}"
    if not links:
        existing = ", ".join(c.id for c in board.between(a, b))
        hint = f"; they are joined by {existing}" if existing else "; they are not neighbours"
        raise NotationError(f"no such connection {text!r}{where_part} between {names}{hint}")
    options = ", ".join(c.id for c in links)
    raise AmbiguousNameError(f"connection {text!r}{where_part} is ambiguous: {options}; add ':r' or ':l'")


def parse_counter(text: str, *, where: str = "") -> tuple[Transport | None, bool]:
    """A counter value: ``dragon``, ``D``, ``unicorn+obstacle``, ``U+X``; returns (transport, obstacle).

    A lone ``obstacle``/``X`` returns ``(None, True)`` so that validation can say the obstacle lacks a counter.

    Raises:
        NotationError: an unknown transport or an unknown part after ``+``.
    """
    parts = [p.strip() for p in text.split("+")]
    transport: Transport | None = None
    obstacle = False
    for part in parts:
        if normalize(part) in ("x", "obstacle", "obst", "o"):
            obstacle = True
        elif transport is None:
            found = parse_transport(part, where=where)
            if found is Transport.RAFT:
                raise NotationError(f"there are no raft counters ({text!r}{' in ' + where if where else ''})")
            transport = found
        else:
            raise NotationError(f"one road holds one counter: {text!r}{' in ' + where if where else ''}")
    return transport, obstacle


def format_counter(transport: Transport | None, obstacle: bool) -> str:
    """Canonical counter text: ``U`` or ``U+X``."""
    if transport is None:
        return "X" if obstacle else ""
    return transport.letter + ("+X" if obstacle else "")
