"""Names of spots and the text of a turn's actions: forgiving on input, canonical on output.

Spots:
- greens by their English name or an alias, forgiving case, accents, apostrophes and unique prefixes
  (``gizeh``, ``Giza``, ``xian``, ``Machu``); the start as ``start`` (or ``compass``);
- red and blue spots by key (``red:Svalbard-E``, a unique prefix such as ``blue:start`` will do), or relative to the
  previous spot of the path: ``red NE``, ``blue S``, a bare ``red``/``blue`` when that spot has only one neighbour of
  the kind (:func:`relative_spot`, EXPEDITION.md "Naming red and blue spots").

Actions of a turn, separated by commas or semicolons (canonical output first)::

    yellow Gizeh>Aksum            an arrow (the mandatory one, a blue-square bonus or a restart: the engine knows)
    yellow Aksum                  the same from the expedition's head; ``yellow red SE`` names the tip relatively
    ticket blue Zagorsk>Sakha     a ticket's extra arrow (``t`` or ``+`` will do for ``ticket``)
    ticket remove red             a ticket removing the last arrow of red
    ticket exchange Kush for Perth   a ticket exchanging a card (``for`` names the card kept; without it: unknown)
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable

from planner.common.i18n import say
from planner.common.names import Names, normalize, where_part
from planner.common.values import frozen
from planner.errors import NotationError
from planner.expedition.board import BEARINGS, START, Board, SpotKind, load_board
from planner.expedition.local_names import spot_aliases
from planner.expedition.rules import Colour, parse_colour

__all__ = ["Action", "ActionKind", "parse_action", "parse_location", "parse_spot", "relative_spot", "short_spot",
           "split_actions"]

_BEARING_WORDS = {
    "n": "N", "north": "N", "ne": "NE", "northeast": "NE", "e": "E", "east": "E", "se": "SE", "southeast": "SE",
    "s": "S", "south": "S", "sw": "SW", "southwest": "SW", "w": "W", "west": "W", "nw": "NW", "northwest": "NW",
}
_RELATIVE = re.compile(r"^\s*(red|blue)\b\s*(.*?)\s*$", re.IGNORECASE)
SECTOR_HALF = 22.5
"""Half a compass sector: a bearing names the neighbours within this angle first."""
NEAREST_WITHIN = 67.5
"""Outside its sector, a bearing may still name the nearest neighbour by angle, if within this angle..."""
CLEARER_BY = 22.5
"""...and at least this much nearer than the next one."""


@functools.cache
def _spot_names() -> Names[str]:
    board = load_board()
    entries = {s.key: (s.key, s.name, *s.aliases, *spot_aliases(s.key)) for s in board.order}
    return Names("spot", entries, {s.key: s.key for s in board.order})


@functools.cache
def _location_names() -> Names[str]:
    board = load_board()
    greens = [board.spots[g] for g in board.greens]
    entries = {s.key: (s.key, s.name, *s.aliases, *spot_aliases(s.key)) for s in greens}
    return Names("location", entries, {s.key: s.key for s in greens})


def _angle_gap(a: float, b: float) -> float:
    gap = abs(a - b) % 360
    return min(gap, 360 - gap)


def relative_spot(kind: SpotKind, bearing: str | None, after: str, *, board: Board | None = None,
                  where: str = "") -> str:
    """The neighbour of ``after`` of ``kind`` (red or blue) that ``bearing`` names (None: the only one).

    Resolution (EXPEDITION.md): the neighbour whose 8-way sector is ``bearing`` (unique on the whole board);
    else the nearest by angle if within 67.5° and at least 22.5° clearer than the next.

    Raises:
        NotationError: no such neighbour, or several fit (the message lists the candidates with their keys).
    """
    board = board or load_board()
    where_text = where_part(where)
    candidates = [n for n in board.neighbours(after) if board.kind(n) is kind]
    listing = ", ".join(f"{n} ({board.sector(after, n)})" for n in candidates)
    typed = f"{kind} {bearing}" if bearing else str(kind)
    if not candidates:
        raise NotationError(say("no {kind} spot next to {after}{where} ({typed!r})", kind=kind, after=after,
                                where=where_text, typed=typed), kind="no-such-spot", value=typed)
    if bearing is None:
        if len(candidates) == 1:
            return candidates[0]
        raise NotationError(say("{typed!r} after {after}{where} is ambiguous: {listing}; add a bearing such as "
                                "'{kind} {bearing}' or write the key", typed=typed, after=after, where=where_text,
                                listing=listing, kind=kind, bearing=board.sector(after, candidates[0])),
                            kind="ambiguous-spot", value=typed)
    in_sector = [n for n in candidates if board.sector(after, n) == bearing]
    if len(in_sector) == 1:
        return in_sector[0]
    aim = BEARINGS.index(bearing) * 45.0
    ranked = sorted(candidates, key=lambda n: _angle_gap(board.bearing(after, n), aim))
    gaps = [_angle_gap(board.bearing(after, n), aim) for n in ranked]
    if gaps[0] <= NEAREST_WITHIN and (len(gaps) == 1 or gaps[1] - gaps[0] >= CLEARER_BY):
        return ranked[0]
    raise NotationError(say("no {kind} spot lies {bearing} of {after}{where}; its {kind} neighbours are {listing}",
                            kind=kind, bearing=bearing, after=after, where=where_text, listing=listing),
                        kind="no-such-spot", value=typed)


def _bearing(text: str, typed: str, where: str) -> str | None:
    if not text.strip():
        return None
    word = _BEARING_WORDS.get(normalize(text))
    if word is None:
        raise NotationError(say("unknown bearing {text!r} in {typed!r}{where}; bearings are {bearings}",
                                text=text.strip(), typed=typed.strip(), where=where_part(where),
                                bearings=", ".join(BEARINGS)), kind="bad-bearing", value=typed.strip())
    return word


def parse_spot(text: str, *, after: str | None = None, where: str = "") -> str:
    """The key of the spot ``text`` names; ``after`` is the previous spot, needed by relative names (``red SE``).

    Raises:
        NotationError: unknown, ambiguous or (without ``after``) relative names, each with a hint.
    """
    match = _RELATIVE.match(text)
    if match and ":" not in text:
        kind = SpotKind(match.group(1).lower())
        if after is None:
            raise NotationError(say("relative name {text!r}{where} needs a previous spot; write the key (e.g. "
                                    "'{kind}:...') where a leg starts", text=text.strip(), where=where_part(where),
                                    kind=kind), kind="relative-first", value=text.strip())
        return relative_spot(kind, _bearing(match.group(2), text, where), after, where=where)
    return _spot_names().find(text, where=where)


def parse_location(text: str, *, where: str = "") -> str:
    """The key of the green location ``text`` names (cards and tokens name greens only).

    Raises:
        NotationError: not a spot, or a spot that is not green.
    """
    names = _location_names()
    if names.candidates(text) or _RELATIVE.match(text) is None and not _spot_names().candidates(text):
        return names.find(text, where=where)
    key = parse_spot(text, where=where)
    kind = load_board().kind(key)
    if kind is not SpotKind.GREEN:
        raise NotationError(say("{text!r}{where} is not a green location: it is the {kind} spot {key!r}, and only "
                                "greens have cards and tokens", text=text, where=where_part(where), kind=kind, key=key),
                            kind="not-green", value=text)
    return key


def short_spot(key: str, *, after: str | None = None, board: Board | None = None) -> str:
    """The shortest name a player would type: a green's name, or ``red NE`` when that names the spot after
    ``after`` (the key otherwise)."""
    board = board or load_board()
    kind = board.kind(key)
    if after is None or kind not in (SpotKind.RED, SpotKind.BLUE):
        return key
    same_kind = [n for n in board.neighbours(after) if board.kind(n) is kind]
    if key not in same_kind:
        return key
    if len(same_kind) == 1:
        return str(kind)
    return f"{kind} {board.sector(after, key)}"


# -- actions ------------------------------------------------------------------------------------------------------
class ActionKind(enum.Enum):
    """What one action of a turn does."""

    ARROW = "arrow"
    """Place an arrow (the turn's mandatory arrow, a bonus, a restart, or a ticket's extra arrow)."""
    REMOVE = "remove"
    """A ticket: remove the last arrow of an expedition with a free head."""
    EXCHANGE = "exchange"
    """A ticket: exchange a card from hand."""

    def __str__(self) -> str:
        return self.value


@frozen
class Action:
    """One action of a turn, in spot keys; ``str()`` is its canonical text.

    Attributes:
        kind: arrow, remove or exchange.
        colour: the expedition (arrow, remove).
        frm: where the arrow leaves from.
        to: the spot the arrow points to.
        ticket: whether a ticket pays for it (always for remove and exchange).
        card: exchange: the card put under the deck.
        keep: exchange: the card kept (the old one, one of the two drawn), or None when unknown.
    """

    kind: ActionKind
    colour: Colour | None = None
    frm: str | None = None
    to: str | None = None
    ticket: bool = False
    card: str | None = None
    keep: str | None = None

    @classmethod
    def arrow(cls, colour: Colour, frm: str, to: str, *, ticket: bool = False) -> Action:
        """An arrow of ``colour`` from ``frm`` to ``to``."""
        return cls(ActionKind.ARROW, colour, frm, to, ticket=ticket)

    @classmethod
    def remove(cls, colour: Colour) -> Action:
        """A ticket removing the last arrow of ``colour``."""
        return cls(ActionKind.REMOVE, colour, ticket=True)

    @classmethod
    def exchange(cls, card: str, keep: str | None = None) -> Action:
        """A ticket exchanging ``card`` (keeping ``keep``)."""
        return cls(ActionKind.EXCHANGE, card=card, keep=keep, ticket=True)

    @property
    def link(self) -> frozenset[str]:
        """The two ends of an arrow."""
        return frozenset((self.frm or "", self.to or ""))

    def __str__(self) -> str:
        prefix = "ticket " if self.ticket else ""
        if self.kind is ActionKind.ARROW:
            return f"{prefix}{self.colour} {self.frm}>{self.to}"
        if self.kind is ActionKind.REMOVE:
            return f"{prefix}remove {self.colour}"
        return f"{prefix}exchange {self.card}" + (f" for {self.keep}" if self.keep else "")

    def __repr__(self) -> str:
        return f"Action.from_text({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> Action:
        """An action from its canonical text (every spot named in full; see :func:`parse_action`).

        Raises:
            NotationError: it does not parse.
        """
        return parse_action(text, origin=lambda colour: None)


_WORDS: Names[str] = Names("word", {"ticket": ("ticket",), "remove": ("remove",), "exchange": ("exchange",)},
                           {"ticket": "ticket", "remove": "remove", "exchange": "exchange"})


def split_actions(text: str) -> list[str]:
    """The actions of a turn's text, split at commas, semicolons and new lines (empty pieces dropped)."""
    return [part.strip() for part in re.split(r"[,;\n]", text) if part.strip()]


def _word(token: str) -> str | None:
    keys = _WORDS.candidates(token) if len(normalize(token)) >= 2 else set()
    return next(iter(keys)) if len(keys) == 1 else None


def parse_action(text: str, *, origin: Callable[[Colour], str | None], where: str = "") -> Action:
    """One action from text; ``origin(colour)`` is where an arrow leaves when the text names only its tip (the
    expedition's head), or None when it must be named.

    Raises:
        NotationError: unknown words or spots, or an arrow whose start is needed and not named.
    """
    body = text.strip()
    where = where or say("action {text!r}", text=body)
    head, _, rest = body.partition(" ")
    ticket = head.casefold() in ("t", "+") or _word(head) == "ticket"
    if ticket:
        body = rest.strip().lstrip(":").strip()
        head, _, rest = body.partition(" ")
    if not body:
        raise NotationError(say("empty action {text!r}: write e.g. 'yellow Gizeh>Aksum' or 'ticket remove red'",
                                text=text.strip()), kind="bad-action", value=text.strip())
    word = _word(head)
    if word == "remove":
        colour = parse_colour(rest, where=where)
        return Action.remove(colour)
    if word == "exchange":
        parts = re.split(r"\s+for\s+", f" {rest.strip()} ", maxsplit=1, flags=re.IGNORECASE)
        if not parts[0].strip():
            raise NotationError(say("{where}: say which card to exchange, e.g. 'ticket exchange Kush for Perth'",
                                    where=where), kind="bad-action", value=text.strip())
        card = parse_location(parts[0], where=where)
        keep = parse_location(parts[1], where=where) if len(parts) > 1 else None
        return Action.exchange(card, keep)
    colour = parse_colour(head, where=where)
    if not rest.strip():
        raise NotationError(say("{where}: say where the {colour} arrow goes, e.g. '{colour} Gizeh>Aksum'",
                                where=where, colour=colour), kind="bad-action", value=text.strip())
    frm_text, arrow_sign, to_text = rest.rpartition(">")
    if not arrow_sign:
        frm_text, to_text = "", rest
    frm: str | None
    if frm_text.strip():
        frm = parse_spot(frm_text, where=where)
    else:
        frm = origin(colour)
        if frm is None:
            raise NotationError(say("{where}: {colour} has no free head; say where the arrow leaves from, e.g. "
                                    "'{colour} {start}>...'", where=where, colour=colour, start=START),
                                kind="needs-origin", value=text.strip())
    to = parse_spot(to_text, after=frm, where=where)
    return Action.arrow(colour, frm, to, ticket=ticket)
