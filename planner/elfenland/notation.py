"""The token grammar: town names and codes, card letters and hands, road ids, counters, route steps, rule items.

Parsing is forgiving (case, accents, apostrophes, aliases, unique prefixes, counts like ``x2``, ``D2`` or
``2 dragons``); output is always canonical. Every parser raises :class:`~planner.errors.NotationError` naming
the offending text, with a hint. Hands and routes come from people typing at a table, so the card grammar takes
whatever a player is likely to type, and says exactly which token it could not read.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping

from planner.common.i18n import N_, say
from planner.common.names import Names, normalize, where_part
from planner.common.values import frozen
from planner.elfenland.board import Board, Connection, Terrain, load_board
from planner.elfenland.local_names import BOOK, town_word, transport_word
from planner.elfenland.rules import TRANSPORTS, Transport
from planner.errors import AmbiguousNameError, NotationError

__all__ = [
    "MAX_COUNT", "StepToken", "format_cards", "format_counter", "normalize", "parse_cards", "parse_cards_partial",
    "parse_connection", "parse_counter", "parse_route_tokens", "parse_town", "parse_transport",
]

MAX_COUNT = 99
"""The largest count a hand may give one card (``Dx2``); the deck holds at most 12 of a type."""


@functools.cache
def _town_names() -> Names[str]:
    board = load_board()
    entries = {t.code: (t.code, t.name, *t.aliases, *BOOK.aliases("towns", t.code)) for t in board.towns.values()}
    return Names("town", entries, {t.code: t.name for t in board.towns.values()})


TRANSPORT_ALIASES: dict[Transport, tuple[str, ...]] = {
    Transport.PIG: ("giant pig", "pig", "giant_pig"),
    Transport.ELFCYCLE: ("elfcycle", "cycle", "bike", "elf cycle"),
    Transport.CLOUD: ("magic cloud", "cloud", "magic_cloud"),
    Transport.UNICORN: ("unicorn",),
    Transport.TROLL: ("troll wagon", "troll", "wagon", "troll_wagon"),
    Transport.DRAGON: ("dragon",),
    Transport.RAFT: ("raft", "boat"),
}


class _CardWords(Mapping[Transport, str]):
    """Each card as a hint names it: in the language spoken now where that name is in Latin letters (``drak``),
    else the English one, so a hint to a name typed in Latin letters stays in them (docs/languages.md)."""

    def __getitem__(self, transport: Transport) -> str:
        word = transport_word(transport)
        return word if all(ord(ch) < 0x250 for ch in word) else transport.title

    def __iter__(self) -> Iterator[Transport]:
        return iter(Transport)

    def __len__(self) -> int:
        return len(Transport)


@functools.cache
def _transport_names() -> Names[Transport]:
    entries = {t: (t.letter, t.name, *TRANSPORT_ALIASES[t], *BOOK.aliases("transports", t.letter)) for t in Transport}
    return Names("transport", entries, _CardWords())


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
    return _transport_names().find(text, where=where)


# -- cards -----------------------------------------------------------------------------------------------------
_CARD_LETTERS = frozenset("PECUTDR")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = r"[0-9]{1,6}"  # ASCII digits only ('²'.isdigit() is true); six digits are plenty to say "too many"
_ASCII_DIGITS = "0123456789"
_SEPARATORS = str.maketrans(",;+", "   ")
"""What else parts a hand's tokens besides white space."""


@functools.cache
def _counts() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The patterns of a token with a count: "x2" after a card, "D2" or "Dx2", "2 dragons" or "dragon x2", a bare
    number. Compiled on first need: each needs a digit at an end of the token, and most hands have none."""
    return (re.compile(rf"^[x*]({_DIGITS})$", re.IGNORECASE),
            re.compile(rf"^([PECUTDR])[x*]?({_DIGITS})$", re.IGNORECASE),
            re.compile(rf"^(?:({_DIGITS})\s*[x*]?\s*(.+?)|(.+?)\s*[x*]\s*({_DIGITS}))$", re.IGNORECASE),
            re.compile(rf"^{_DIGITS}$"))


@functools.cache
def _two_word_names() -> frozenset[str]:
    """The card names of two words, run together: ``magiccloud``, and every language's (``kouzelnýmrak``)."""
    english = ("magiccloud", "giantpig", "trollwagon", "elfcycle")
    local = (normalize(name) for t in Transport for name in BOOK.aliases("transports", t.letter) if " " in name)
    return frozenset((*english, *local))


def _shown(token: str, limit: int = 24) -> str:
    """``repr(token)``, cut short: a pasted token may be thousands of characters long."""
    return repr(token if len(token) <= limit else token[: limit - 3] + "...")


def _count(text: str, token: str, where: str) -> int:
    number = int(text)
    if not 1 <= number <= MAX_COUNT:
        raise NotationError(say("count {number} in {token} in {where} must be between 1 and {most}", number=number,
                                token=_shown(token), where=where, most=MAX_COUNT), kind="bad-count", value=token)
    return number


def parse_cards(text: str, *, where: str = "hand") -> dict[Transport, int]:
    """Card counts from compact or spelled-out text.

    Accepted forms, freely mixed: letters ``DDCURRPT``, ``ddc`` or ``D D C``; names ``dragon dragon magic-cloud``;
    counts ``Dx2``, ``D2``, ``dragon x2``, ``2D``, ``2 dragons``, ``2 magic clouds``. ``-`` or an empty string is
    an empty hand. A word made only of card letters is read as letters (``tr`` is a troll and a raft).

    Raises:
        NotationError: a token that names no card (every bad token is named).
    """
    counts, problems = parse_cards_partial(text, where=where)
    if problems:
        raise NotationError("; ".join(str(p) for p in problems), kind=problems[0].kind,
                            value=problems[0].value)
    return counts


def parse_cards_partial(text: str, *, where: str = "hand") -> tuple[dict[Transport, int], list[NotationError]]:
    """Like :func:`parse_cards`, but returns the cards that did parse together with an error per bad token."""
    counts = dict.fromkeys(TRANSPORTS, 0)
    text = text.strip()
    if text in ("", "-"):
        return counts, []
    problems: list[NotationError] = []
    last: Transport | None = None
    pending: tuple[int, str] | None = None  # a bare number ("2 dragons") counts the next card
    for tok in _glue_two_word_names(text.translate(_SEPARATORS).split()):
        # Every count pattern ends in a digit but the "2 dragons" one, which may begin with one instead (tokens
        # hold no line break for "$" to stop before): a token with a digit at neither end is matched by none.
        patterns = _counts() if tok[-1] in _ASCII_DIGITS or tok[0] in _ASCII_DIGITS else None
        try:
            if patterns and patterns[3].match(tok):
                if pending is not None:
                    raise NotationError(say("count {count!r} in {where} counts no card", count=pending[1],
                                            where=where), kind="bad-count", value=pending[1])
                pending = (_count(tok, tok, where), tok)
                continue
            number, pending = (pending[0] if pending else 1), None
            repeat = patterns[0].match(tok) if patterns else None
            if repeat:
                if last is None:
                    raise NotationError(say("count {token} in {where} follows no card", token=_shown(tok),
                                            where=where), kind="bad-count", value=tok)
                counts[last] += _count(repeat.group(1), tok, where) - 1
                continue
            letter_count = patterns[1].match(tok) if patterns else None
            if letter_count:
                last = Transport(letter_count.group(1).upper())
                counts[last] += number * _count(letter_count.group(2), tok, where)
                continue
            if len(tok) > 1 and set(tok.upper()) <= _CARD_LETTERS:
                for letter in tok.upper():
                    last = Transport(letter)
                    counts[last] += number
                continue
            name = tok
            counted = patterns[2].match(tok) if patterns else None
            if counted and (counted.group(1) or counted.group(4)):
                number *= _count(counted.group(1) or counted.group(4), tok, where)
                name = counted.group(2) or counted.group(3)
            name = _singular(name)
            try:
                last = parse_transport(name, where=where)
            except NotationError:
                if len(tok) > 1 and tok.isalpha() and tok.isupper():  # letters, one of them wrong: "DDX"
                    bad = "".join(sorted(set(tok) - _CARD_LETTERS))
                    message = (N_("unknown card letter {bad!r} in {token} in {where}; X is an obstacle, a counter, "
                                  "never a card") if bad == "X" else
                               N_("unknown card letter {bad!r} in {token} in {where}; card letters are P E C U T D R"))
                    raise NotationError(say(message, bad=bad, token=_shown(tok), where=where),
                                        kind="unknown-card", value=tok) from None
                raise
            counts[last] += number
        except NotationError as error:
            problems.append(error)
    if pending is not None:
        problems.append(NotationError(say("count {count} at the end of {where} counts no card", count=pending[1],
                                          where=where), kind="bad-count", value=pending[1]))
    return counts, problems


def _glue_two_word_names(tokens: list[str]) -> list[str]:
    """"magic cloud", "giant pig", "troll wagon", "kouzelný mrak" are two words (also "magic clouds", "x2")."""
    merged: list[str] = []
    for tok in tokens:
        joined = _without_repeat(normalize(merged[-1] + tok)) if merged and " " not in merged[-1] else ""
        if joined in _two_word_names() or joined.removesuffix("s") in _two_word_names():
            merged[-1] += " " + tok
        else:
            merged.append(tok)
    return merged


def _singular(name: str) -> str:
    """``dragons`` -> ``dragon``, ``RAFTS`` -> ``RAFT`` (an s after a Latin letter, in a name of three letters or
    more: ``re.sub(r"(?<=[a-zA-Z])[sS]$", "", name)`` of a name that holds no line break)."""
    return name[:-1] if len(name) > 2 and name[-1] in "sS" and name[-2] in _ASCII_LETTERS else name


def _without_repeat(text: str) -> str:
    """``text`` without a count such as ``x2`` or ``*3`` at its end (what ``re.sub(r"[x*][0-9]+$", "", text)`` leaves
    of a normalised token, which holds no line break)."""
    body = text.rstrip(_ASCII_DIGITS)
    return body[:-1] if len(body) < len(text) and body[-1:] in ("x", "*") else text


def format_cards(counts: dict[Transport, int]) -> str:
    """Canonical hand text: card letters in chart order, ``-`` for no cards (``DDCRR``)."""
    text = "".join(t.letter * counts.get(t, 0) for t in TRANSPORTS)
    return text or "-"


# -- connections and counters -------------------------------------------------------------------------------------
_ROAD_SEPARATORS = str.maketrans("-/", "  ")
"""What parts a connection's two towns besides white space (``lap-riv``, ``LAP / RIV``)."""

def parse_connection(text: str, board: Board | None = None, *, where: str = "", water: bool = False) -> Connection:
    """The connection named ``lap-riv``, ``Lapphalya-Rivinia``, ``LAP-RIV:f`` or ``VIR-JXA:r``.

    Without a terrain letter the road is meant (or, with ``water=True`` and no road, the only water link).

    Raises:
        NotationError: unknown towns, no such connection (naming what does join them), or a bad terrain letter.
    """
    board = board or load_board()
    where_text = where_part(where)
    body, _, letter = text.strip().partition(":")
    ends = body.translate(_ROAD_SEPARATORS).split()
    if len(ends) != 2:
        raise NotationError(say("connection {text!r}{where} must name two towns, like 'lap-riv' or 'LAP-RIV:f'",
                                text=text, where=where_text), kind="bad-road", value=text)
    a, b = (parse_town(end, where=where) for end in ends)
    if a == b:
        raise NotationError(say("connection {text!r}{where} names {town} twice: a connection joins two towns, like "
                                "'lap-riv'", text=text, where=where_text, town=town_word(board, a)), kind="bad-road",
                            value=text)
    links = board.between(a, b)
    if letter:
        try:
            terrain = Terrain(letter.strip().lower())
        except ValueError:
            raise NotationError(say("bad terrain letter {letter!r} in connection {text!r}{where}; use p f d m r l",
                                    letter=letter, text=text, where=where_text), kind="bad-road", value=text) from None
        links = tuple(c for c in links if c.terrain is terrain)
    elif not water:
        links = tuple(c for c in links if c.is_road) or links
    if len(links) == 1:
        return links[0]
    if not links:
        existing = ", ".join(c.id for c in board.between(a, b))
        message = (N_("no such connection {text!r}{where} between {a} and {b}; they are joined by {existing}")
                   if existing else
                   N_("no such connection {text!r}{where} between {a} and {b}; they are not neighbours"))
        raise NotationError(say(message, text=text, where=where_text, a=town_word(board, a), b=town_word(board, b),
                                existing=existing), kind="no-such-road", value=text)
    raise AmbiguousNameError(say("connection {text!r}{where} is ambiguous: {options}; add ':r' or ':l'", text=text,
                                 where=where_text, options=", ".join(c.id for c in links)),
                             kind="ambiguous-road", value=text)


def parse_counter(text: str, *, where: str = "") -> tuple[Transport | None, bool]:
    """A counter value: ``dragon``, ``D``, ``unicorn+obstacle``, ``U+X``; returns (transport, obstacle).

    A lone ``obstacle``/``X`` returns ``(None, True)`` so that validation can say the obstacle lacks a counter.

    Raises:
        NotationError: an unknown transport or an unknown part after ``+``.
    """
    where_text = where_part(where)
    parts = [p.strip() for p in text.split("+")]
    transport: Transport | None = None
    obstacle = False
    for part in parts:
        if normalize(part) in ("x", "obstacle", "obst", "o"):
            obstacle = True
        elif transport is None:
            found = parse_transport(part, where=where)
            if found is Transport.RAFT:
                raise NotationError(say("there are no raft counters ({text!r}{where})", text=text, where=where_text),
                                    kind="raft-counter", value=text)
            transport = found
        else:
            raise NotationError(say("one road holds one counter: {text!r}{where}", text=text, where=where_text),
                                kind="two-counters", value=text)
    return transport, obstacle


def format_counter(transport: Transport | None, obstacle: bool) -> str:
    """Canonical counter text: ``U`` or ``U+X``."""
    if transport is None:
        return "X" if obstacle else ""
    return transport.letter + ("+X" if obstacle else "")


# -- route steps ---------------------------------------------------------------------------------------------------
@frozen
class StepToken:
    """One step of route text as typed: where to, perhaps which kind of link, and the cards paid."""

    number: int
    """1-based position in the route."""
    text: str
    to: str
    """Town code."""
    terrain: Terrain | None
    """The link's terrain letter when given (``jxa:r/R``), to pick the river beside a road."""
    cards: dict[Transport, int]




@functools.cache
def _step() -> re.Pattern[str]:
    """One step of route text (compiled on first need: routes are typed to ``check``, not to ``route``)."""
    return re.compile(r"^(?P<to>[^/:]+?)(?::(?P<terrain>[a-zA-Z]))?\s*/\s*(?P<cards>.+)$")


def parse_route_tokens(text: str) -> list[StepToken]:
    """The steps of route text: ``THR/E JAC/D``, ``thr/e, jac/d``, ``Jxara:r/R → mah/CC`` (``-`` is no step).

    Raises:
        NotationError: a malformed step, an unknown town or unknown cards, naming the step.
    """
    text = re.sub(r"\s*(?:→|->|>|,|;)\s*", " ", text.strip())
    text = re.sub(r"\s*/\s*", "/", text)
    tokens = text.split()
    if tokens in ([], ["-"]):
        return []
    found = []
    for number, token in enumerate(tokens, 1):
        match = _step().match(token)
        if not match:
            raise NotationError(say("route step {number} {token!r} must look like 'TOWN/CARDS', e.g. 'thr/E' or "
                                    "'jxa:r/R'", number=number, token=token), kind="bad-step", value=token)
        where = say("route step {number}", number=number)
        terrain = None
        if match["terrain"]:
            try:
                terrain = Terrain(match["terrain"].lower())
            except ValueError:
                raise NotationError(say("bad terrain letter {letter!r} in {where} {token!r}; use p f d m r l",
                                        letter=match["terrain"], where=where, token=token), kind="bad-step",
                                    value=token) from None
        found.append(StepToken(number, token, parse_town(match["to"], where=where), terrain,
                               parse_cards(match["cards"], where=where)))
    return found
