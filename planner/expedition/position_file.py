"""Position files (TOML, ``format = "expedition/1"``): read with every problem at once, and written back.

The format is EXPEDITION.md's "Position file"::

    format = "expedition/1"
    players = ["Ann", "Ben", "Cleo"]        # turn order
    me = "Ben"
    common = ["Uluru", "Timbuktu", "Perth", "Machu Picchu", "Sahara", "Banff"]
    [expedition.yellow]
    path = ["start", "Athens", "Gizeh", "Aksum", "red SE", "Sigiriya"]
    [expedition.blue]
    path = [["start", "blue E", "Zagorsk", "red N", "Svalbard", "start"], ["Zagorsk", "Putorana Plateau"]]
    arrows_left = 39                        # optional check
    [player.Ben]                            # me: my hand
    hand = ["Victoria Falls", "Kush"]
    tokens = ["Kush"]
    scored = ["Zagorsk"]
    tickets = 2
    [player.Ann]                            # the others: the size of their hand
    hand_size = 11
    [rules]                                 # optional, see Rules
    blue_bonus = "mandatory"

A TOML syntax error is reported alone; everything else is collected: unknown keys (with a did-you-mean), names that
do not resolve, wrong types, then the rule problems of :meth:`Position.problems`. Files are only ever read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from planner.common.forms import Form, load_toml, path_exists, read_input
from planner.common.i18n import N_, say
from planner.common.names import did_you_mean
from planner.common.problems import Problems
from planner.errors import IllegalPositionError
from planner.expedition.notation import parse_location
from planner.expedition.position import MAX_COUNT, Expedition, Player, Position, parse_path
from planner.expedition.rules import ARROWS, COLOURS, TICKETS, Colour, Rules

__all__ = ["FORMAT", "POSITION_KEYS", "load_position", "looks_like_notation", "position_from_mapping",
           "position_from_toml", "position_to_toml", "read_position"]

FORMAT = "expedition/1"
POSITION_KEYS = ("format", "title", "notes", "turn", "players", "me", "common", "expedition", "player", "rules")
MY_KEYS = ("hand", "tokens", "scored", "tickets")
THEIR_KEYS = ("hand_size", "tokens", "scored", "tickets")
_NAME_MAX = 255
"""The longest file name (one path component, in bytes) common file systems accept."""


def position_from_mapping(data: Mapping[str, Any], *, source: str | None = None) -> Position:
    """Build and validate a position from a parsed position file, every problem at once.

    Raises:
        IllegalPositionError: every syntax, name and rule problem, each naming its key and quoting the input.
    """
    problems = Problems()
    form = Form(data, problems, keys=POSITION_KEYS)
    fmt = form.text("format", required=say('the file format, format = "{format}"', format=FORMAT))
    if fmt is not None and fmt != FORMAT:
        problems.add("bad-format", "format", fmt, say("format = {given!r} is not {format!r}", given=fmt,
                                                        format=FORMAT))
    clean = _Clean()
    players = tuple(form.strings("players", split=False) or ())
    if not form.has("players"):
        problems.add("missing-key", "players", None, say("missing key 'players' (names in turn order)"))
        clean.skip |= {"player-count", "me-not-player", "unknown-player"}
    me = form.text("me", required=N_("my name, one of players")) or ""
    if not me:
        clean.skip.add("me-not-player")
    elif players and me not in players:
        problems.add("me-not-player", "me", me, say("me = {me!r} is not one of the players ({players}){hint}", me=me,
                                                    players=", ".join(players), hint=did_you_mean(me, players)))
        clean.skip.add("me-not-player")
    common = _cards(form.strings("common", split=False) or [], problems, "common", clean)
    expeditions = _expeditions(form, problems, clean)
    seats = _seats(form, problems, players, me, clean)
    rules = Rules()
    if form.has("rules"):
        table = form.mapping("rules")
        if table is not None:
            rules = problems.attempt("rules", Rules.from_mapping, table) or rules
    turn = form.integer("turn", low=0, high=MAX_COUNT)
    title, notes = form.text("title", empty=True), form.text("notes", empty=True)
    position = Position(players, me, tuple(common), expeditions, seats, rules, title=title, notes=notes, turn=turn)
    rule_problems = [p for p in position.problems(counts=clean.cards) if p.kind not in clean.skip]
    found = [*problems.found, *rule_problems]
    if found:
        unique = list({p.message: p for p in found}.values())
        raise IllegalPositionError([p.with_source(source) for p in unique] if source else unique)
    return position


class _Clean:
    """What parsed cleanly: rule checks that need a complete input are skipped otherwise (no spurious echoes of a
    problem already reported)."""

    def __init__(self) -> None:
        self.cards = True
        self.skip: set[str] = set()


def _cards(names: list[str], problems: Problems, field: str, clean: _Clean) -> list[str]:
    found = []
    for name in names:
        key = problems.attempt(field, parse_location, name, where=field)
        if key is None:
            clean.cards = False
        elif key in found:
            problems.add("card-twice", field, name, say("{field} names {key!r} twice", field=field, key=key))
        else:
            found.append(key)
    return found


def _expeditions(form: Form, problems: Problems, clean: _Clean) -> tuple[Expedition, ...]:
    table = form.table("expedition", keys=tuple(c.value for c in COLOURS), what=N_("expedition colour"))
    if table is None:
        if not form.has("expedition"):
            problems.add("missing-key", "expedition", None, say(
                "missing tables [expedition.yellow], [expedition.blue] and [expedition.red] (path = [] when not "
                "started)"))
        return ()
    found = []
    for colour in COLOURS:
        sub = table.table(colour.value, keys=("path", "arrows_left"))
        if sub is None:
            if not table.has(colour.value):
                problems.add("missing-key", f"expedition.{colour}", None, say(
                    "missing table [expedition.{colour}] (path = [] when not started)", colour=colour))
            continue
        expedition = _expedition(colour, sub, problems)
        if expedition is None:
            continue
        found.append(expedition)
        arrows_left = sub.integer("arrows_left", low=0, high=ARROWS)
        if arrows_left is not None and arrows_left != expedition.arrows_left:
            problems.add("arrows-left", sub.name("arrows_left"), arrows_left, say(
                "expedition.{colour}.arrows_left = {given}, but the path has {n} arrows, leaving {left}",
                colour=colour, given=arrows_left, n=len(expedition.arrows), left=expedition.arrows_left))
    return tuple(found)


def _expedition(colour: Colour, form: Form, problems: Problems) -> Expedition | None:
    field = form.name("path")
    raw = form.data.get("path")
    if raw is None:
        problems.add("missing-key", field, None, say(
            "missing key {field!r} (spots from the start; [] when not started)", field=field))
        return None
    legs: list[list[str]]
    if isinstance(raw, list) and all(isinstance(s, str) for s in raw):
        legs = [list(raw)] if raw else []
    elif isinstance(raw, list) and all(isinstance(leg, list) and all(isinstance(s, str) for s in leg) for leg in raw):
        legs = [list(leg) for leg in raw]
    else:
        problems.add("bad-type", field, repr(raw)[:60], say(
            "{field} must be a list of spots, or a list of legs (lists of spots), got {value}", field=field,
            value=repr(raw)[:60]))
        return None
    before = len(problems)
    resolved = problems.attempt(field, parse_path, legs, where=field)
    if resolved is None or len(problems) > before:
        return None
    return Expedition(colour, resolved)


def _seats(form: Form, problems: Problems, players: tuple[str, ...], me: str, clean: _Clean) -> tuple[Player, ...]:
    tables = form.mapping("player")
    if tables is None:
        if not form.has("player"):
            problems.add("missing-key", "player", None, say("missing tables [player.<name>], one per player"))
        return ()
    seats = []
    for name, value in tables.items():
        if not isinstance(value, Mapping):
            problems.add("bad-type", f"player.{name}", repr(value)[:60], say("player.{name} must be a table",
                                                                             name=name))
            continue
        if players and name not in players:
            problems.add("unknown-player", f"player.{name}", name, say(
                "[player.{name}] is not one of the players ({players}){hint}", name=name, players=", ".join(players),
                hint=did_you_mean(name, players)))
            continue
        mine = name == me or (me not in players and "hand" in value)  # me unknown: its table has the hand
        keys = MY_KEYS if mine else THEIR_KEYS
        sub = Form(value, problems, keys=keys, where=f"player.{name}.")
        if mine and sub.has("hand_size") and not sub.has("hand"):
            problems.add("my-hand-size", sub.name("hand_size"), None, say(
                "{name} is me: list my cards as hand = [...]", name=name))
        tokens = _cards(sub.strings("tokens", split=False) or [], problems, sub.name("tokens"), clean)
        scored = _cards(sub.strings("scored", split=False) or [], problems, sub.name("scored"), clean)
        tickets = sub.integer("tickets", low=0, high=MAX_COUNT)
        if mine:
            if not sub.has("hand"):
                problems.add("missing-key", sub.name("hand"), None, say("missing key {field!r} (my cards)",
                                                                        field=sub.name("hand")))
            hand = _cards(sub.strings("hand", split=False) or [], problems, sub.name("hand"), clean)
            seats.append(Player(name, tuple(hand), len(hand), tuple(tokens), tuple(scored),
                                TICKETS if tickets is None else tickets))
        else:
            size = sub.integer("hand_size", low=0, high=MAX_COUNT)
            if not sub.has("hand_size"):
                problems.add("missing-key", sub.name("hand_size"), None, say(
                    "missing key {field!r} (the number of cards in their hand)", field=sub.name("hand_size")))
                clean.cards = False
            elif size is None:
                clean.cards = False
            seats.append(Player(name, None, size or 0, tuple(tokens), tuple(scored),
                                TICKETS if tickets is None else tickets))
    return tuple(seats)


def position_from_toml(text: str, *, source: str = "position") -> Position:
    """Parse a position file's text.

    Raises:
        IllegalPositionError: a TOML syntax error (alone), or every problem of the position.
    """
    return position_from_mapping(load_toml(text, source=source), source=source)


def load_position(path: str | Path) -> Position:
    """Read a position file (never written to).

    Raises:
        IllegalPositionError: the file cannot be read, is not TOML, or the position has problems.
    """
    return read_position(str(path))


def looks_like_notation(source: str) -> bool:
    """Whether ``source`` is read as one-line notation rather than as a file name: it holds a ``|``, does not end in
    ``.toml`` and names no existing file. A name longer than the system's longest file name (the notation of most
    mid-game positions) is never looked up on disk, where it would fail with "File name too long"."""
    if source == "-" or "|" not in source or source.rstrip().lower().endswith(".toml"):
        return False
    return len(source.encode()) > _NAME_MAX or not path_exists(source)


def read_position(source: str) -> Position:
    """A position from a file path, ``-`` (standard input), or a whole position in one-line notation.

    Raises:
        IllegalPositionError: the input cannot be read or the position has problems.
        NotationError: a one-line notation that does not parse.
    """
    if looks_like_notation(source):
        return Position.from_str(source)
    name = "stdin" if source == "-" else Path(source).name
    return position_from_toml(read_input(source), source=name)


# -- writing ------------------------------------------------------------------------------------------------------
def position_to_toml(position: Position) -> str:
    """The position as a position file (reads back to an equal position)."""
    lines = [f"format = {_value(FORMAT)}"]
    for key in ("title", "notes"):
        if getattr(position, key) is not None:
            lines.append(f"{key} = {_value(getattr(position, key))}")
    if position.turn is not None:
        lines.append(f"turn = {position.turn}")
    lines += [f"players = {_value(list(position.players))}", f"me = {_value(position.me)}",
              f"common = {_value(list(position.common))}"]
    for expedition in position.expeditions:
        legs = [list(leg) for leg in expedition.legs]
        path: Any = legs[0] if len(legs) == 1 else legs
        lines += ["", f"[expedition.{expedition.colour}]", f"path = {_value(path or [])}",
                  f"arrows_left = {expedition.arrows_left}"]
    for name in position.players:
        seat = position.seat(name)
        lines += ["", f"[player.{_key(name)}]"]
        if seat.hand is not None:
            lines.append(f"hand = {_value(list(seat.hand))}")
        else:
            lines.append(f"hand_size = {seat.hand_size}")
        lines += [f"tokens = {_value(list(seat.tokens))}", f"scored = {_value(list(seat.scored))}",
                  f"tickets = {seat.tickets}"]
    options = position.rules.to_mapping()
    if options:
        lines += ["", "[rules]"] + [f"{k} = {_value(v)}" for k, v in options.items()]
    return "\n".join(lines) + "\n"


def _key(name: str) -> str:
    return name if name.replace("_", "").replace("-", "").isalnum() and name.isascii() else _value(name)


def _value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    # A JSON string is a TOML basic string, except that TOML also forbids a raw DEL character.
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")
