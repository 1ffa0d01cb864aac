"""Position files: TOML forms read with every problem at once, command-line overrides merged in, files written.

A position file is TOML with exactly these keys (an unknown key is an error, so typos are caught)::

    title = "Round 4: home or one more town?"   # optional, and so is `notes`
    round = 4                       # 1..rounds (default 1); the last round applies the home-town penalty
    at = "Elvenhold"                # where the boot stands
    hand = ["dragon", "dragon", "cloud", "raft", "raft"]   # or a compact string: "DDCRR", "D x2 C R R"
    visited = ["Rivinia", "Tichih"] # markers already collected (the current town counts as visited)
    home = "Virst"                  # optional home-town card
    [tiles]                         # one entry per road holding a counter; key = the road's two towns
    "Lapphalya-Rivinia" = "dragon"
    "Elvenhold-Erg'Eren" = "unicorn+obstacle"
    [rules]                         # optional rule options, see Rules
    caravan = "flat"
    [expect]                        # optional golden answer checked by the tests
    score = 3
    cards_spent = 4

The drawing and planning phases (``elfenland place``, ``draw``, ``obstacle``) read more keys, all optional::

    supply = ["dragon", "pig"]      # my unplaced counters, face-down ones included (at most 5); or "DP"
    obstacle = true                 # I still hold my obstacle (the default)
    display = "UTTPD"               # the face-up counters
    seen = ["cloud"]                # other counters I can see that lie nowhere else
    players = 4
    [[opponent]]                    # one table per opponent
    name = "Anna"
    at = "Virst"
    visited = ["Jxara", "Lapphalya"]
    counters = ["cloud", "cloud"]   # their unplaced face-up counters
    secret = 1                      # how many face-down counters they hold
    obstacle = true
    points = 9

Command-line flags (:class:`Overrides`) are read in the same pass and take the place of the file's keys, so a
flag can also give a key the file lacks, and the problems of both are reported together. Files are never written
to by reading; :func:`position_to_toml` writes the format back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from planner.common.forms import Form, load_toml, read_path
from planner.common.i18n import N_, say
from planner.common.names import normalize
from planner.common.problems import Problem, Problems
from planner.common.values import frozen
from planner.elfenland.board import CAPITAL
from planner.elfenland.notation import parse_cards_partial, parse_connection, parse_counter, parse_town
from planner.elfenland.position import Expect, Hand, Opponent, Position, Tile
from planner.elfenland.rules import (
    FIRST_ROUND,
    LAST_ROUND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_OPTIONS,
    SUPPLY_LIMIT,
    Rules,
    Transport,
)
from planner.errors import IllegalPositionError, NotationError

__all__ = ["POSITION_KEYS", "Overrides", "load_position", "position_from_mapping", "position_from_toml",
           "position_to_mapping", "position_to_toml"]

POSITION_KEYS = ("title", "notes", "round", "at", "hand", "visited", "home", "tiles", "rules", "expect", "supply",
                 "obstacle", "display", "seen", "players", "opponent")
OPPONENT_KEYS = ("name", "at", "visited", "counters", "secret", "obstacle", "points")


@frozen
class Overrides:
    """Position fields given on the command line, as typed; None (or empty) keeps what the file says.

    ``tiles`` items are ``ROAD COUNTER`` (``"lap-riv D"``, ``"elv-erg U+X"``; several per string separated by
    commas); ``ROAD -`` removes the file's counter from that road. ``visited`` and ``home`` take ``-`` for none.
    ``rules`` maps option names to values (texts as typed, or values of the option's type).
    """

    at: str | None = None
    hand: str | None = None
    tiles: tuple[str, ...] = ()
    visited: str | None = None
    home: str | None = None
    round: int | None = None
    rules: Mapping[str, Any] | None = None
    supply: str | None = None
    display: str | None = None

    def empty(self) -> bool:
        """Whether no field is overridden."""
        return all(getattr(self, f.name) in (None, (), {}) for f in fields(self))


def position_from_mapping(data: Mapping[str, Any], *, source: str | None = None,
                          overrides: Overrides | None = None) -> Position:
    """Build and validate a position from a parsed position file and command-line overrides, every problem at once.

    Problems of the file's keys are prefixed with ``source`` when given; problems of the flags name the flag.

    Raises:
        IllegalPositionError: every syntax and rule problem found, each naming its key (or flag) and value.
    """
    flags = overrides or Overrides()
    file_problems, flag_problems = Problems(), Problems()
    form = Form(data, file_problems, keys=POSITION_KEYS)

    at: str | None = None
    if flags.at is not None:
        at = flag_problems.attempt("--at", parse_town, flags.at, where="--at")
    else:
        at_text = form.text("at", required=N_('where the boot stands, e.g. at = "Elvenhold", or --at'))
        at = file_problems.attempt("at", parse_town, at_text, where="at") if at_text is not None else None

    if flags.hand is not None:
        hand = _hand([flags.hand], flag_problems, "--hand")
    else:
        raw_hand = data.get("hand", [])
        if isinstance(raw_hand, str):
            raw_hand = [raw_hand]
        if not isinstance(raw_hand, list) or not all(isinstance(c, str) for c in raw_hand):
            form.wrong("hand", N_("a list of card names or a string like 'DDCRR'"), raw_hand)
            raw_hand = []
        hand = _hand(raw_hand, file_problems, "hand")

    if flags.visited is not None:
        names = [] if flags.visited.strip() == "-" else flags.visited.replace(",", " ").split()
        visited = _towns(names, flag_problems, "--visited")
    else:
        visited = _towns(form.strings("visited") or [], file_problems, "visited")

    home: str | None = None
    if flags.home is not None:
        if flags.home.strip() != "-":
            home = flag_problems.attempt("--home", parse_town, flags.home, where="--home")
    else:
        home_text = form.text("home")
        home = file_problems.attempt("home", parse_town, home_text, where="home") if home_text else None

    round_ = flags.round if flags.round is not None else form.integer("round", low=FIRST_ROUND, high=LAST_ROUND)

    rules = Rules()
    if form.has("rules") and not isinstance(data["rules"], Mapping):
        form.table("rules", keys=())  # notes the wrong type
    raw_rules = data.get("rules")
    file_rules: Mapping[str, Any] = raw_rules if isinstance(raw_rules, Mapping) else {}
    rules_given = file_problems.attempt("rules", Rules.from_mapping, file_rules)
    if flags.rules:
        merged = {**(rules_given or Rules()).to_mapping(), **_typed_rules(flags.rules, flag_problems)}
        rules_given = flag_problems.attempt("rules", Rules.from_mapping, merged)
    rules = rules_given or rules

    tiles = _file_tiles(form.mapping("tiles", shape="road = counter") or {}, file_problems)
    for text in flags.tiles:
        for item in (part.strip() for part in text.split(",")):
            if item:
                flag_problems.attempt("--tile", _apply_tile, tiles, item)

    expect = None
    raw_expect = form.table("expect", keys=tuple(f.name for f in fields(Expect)), what=N_("[expect] key"))
    if raw_expect is not None:
        def number(key: str) -> int | None:
            return raw_expect.integer(key, low=-99, high=999)

        expect = Expect(score=number("score"), cards_spent=number("cards_spent"), placed=number("placed"),
                        now=raw_expect.text("now"), draw=raw_expect.text("draw"),
                        obstacle=raw_expect.text("obstacle"), target=raw_expect.text("target"))

    title, notes = form.text("title", empty=True), form.text("notes", empty=True)
    supply, display, seen = (_counters(form, key, file_problems) for key in ("supply", "display", "seen"))
    if flags.supply is not None:
        supply = _flag_counters(flags.supply, flag_problems, "--supply")
    if flags.display is not None:
        display = _flag_counters(flags.display, flag_problems, "--display")
    held = form.boolean("obstacle")
    players = form.integer("players", low=MIN_PLAYERS, high=MAX_PLAYERS)
    opponents = tuple(_opponent(table, file_problems, i)
                      for i, table in enumerate(form.tables("opponent", keys=OPPONENT_KEYS), 1))
    # The rule checks run on whatever parsed, so one pass reports syntax and rule problems together.
    position = Position(at=at or CAPITAL, hand=hand, tiles=tuple(tiles.values()), visited=frozenset(visited),
                        home=home, round=round_ or FIRST_ROUND, rules=rules, title=title, notes=notes, expect=expect,
                        supply=supply, obstacle=True if held is None else held, display=display, seen=seen,
                        players=players, opponents=opponents)
    found = [p.with_source(source) if source else p for p in file_problems.found]
    found += flag_problems.found
    found += [p.with_source(source) if source and flags.empty() else p for p in position.problems()]
    if found:
        raise IllegalPositionError(_unique(found))
    return position


def _unique(problems: list[Problem]) -> list[Problem]:
    """The problems without repeats (a bad value may be noted by its key's parser and by the rule checks)."""
    return list({p.message: p for p in problems}.values())


def _hand(items: list[str], problems: Problems, field: str) -> Hand:
    """Every bad card is named, and the good ones still count for the deck-size check."""
    hand = Hand()
    for item in items:
        counts, bad = parse_cards_partial(item, where=field)
        hand = hand + Hand.from_counts(counts)
        for error in bad:
            problems.add(error.kind, field, error.value, str(error))
    return hand


def _counters(form: Form, key: str, problems: Problems) -> Hand:
    """Counters as a list of names or a letter string (``"DP"``); an obstacle among them is named as such."""
    raw = form.data.get(key)
    if raw is None:
        return Hand()
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        form.wrong(key, N_("a list of counter names or a string like 'DP'"), raw)
        return Hand()
    kept = []
    for item in items:
        words = item.replace(",", " ").split()
        if any(normalize(word) in ("x", "obstacle", "obstacles") for word in words):
            problems.add("obstacle-in-supply", form.name(key), item, say(
                "{field} lists an obstacle; it is no transport counter: `obstacle = true` says that you still hold "
                "yours", field=form.name(key)))
            words = [w for w in words if normalize(w) not in ("x", "obstacle", "obstacles")]
        kept.append(" ".join(words))
    return _hand(kept, problems, form.name(key))


def _flag_counters(text: str, problems: Problems, flag: str) -> Hand:
    """Counters given on the command line (``DP``, ``dragon pig``; ``-`` for none)."""
    return _counters(Form({"counters": text}, problems, keys=("counters",), where=f"{flag} "), "counters", problems) \
        if text.strip() != "-" else Hand()


def _opponent(form: Form, problems: Problems, index: int) -> Opponent:
    name = form.text("name", required=N_("how the opponent is called, e.g. name = \"Anna\"")) or \
        say("opponent {index}", index=index)
    at_text = form.text("at")
    at = problems.attempt(form.name("at"), parse_town, at_text, where=form.name("at")) if at_text else None
    visited = _towns(form.strings("visited") or [], problems, form.name("visited"))
    return Opponent(name=name, at=at or CAPITAL, visited=frozenset(visited),
                    counters=_counters(form, "counters", problems),
                    secret=form.integer("secret", low=0, high=SUPPLY_LIMIT) or 0,
                    obstacle=form.boolean("obstacle") is not False,
                    points=form.integer("points", low=0, high=20) or 0)


def _towns(names: list[str], problems: Problems, field: str) -> set[str]:
    return {t for t in (problems.attempt(field, parse_town, name, where=field) for name in names) if t}


def _typed_rules(options: Mapping[str, Any], problems: Problems) -> dict[str, Any]:
    """Flag values (texts like ``"3"`` or ``"scaled"``) turned into the option's type."""
    typed = {}
    for name, value in options.items():
        option = RULE_OPTIONS.get(name)
        if option is None or not isinstance(value, str):
            typed[name] = value
            continue
        parsed = problems.attempt(f"--{name.replace('_', '-')}", option.parse, value)
        if parsed is not None:
            typed[name] = parsed
    return typed


def _file_tiles(raw: Mapping[str, Any], problems: Problems) -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    for road_text, value in raw.items():
        where = say("[tiles] key {road!r}", road=road_text)
        connection = problems.attempt("tiles", parse_connection, road_text, where="[tiles]")
        if not isinstance(value, str):
            problems.add("bad-type", "tiles", road_text, say(
                "{where}: counter must be a string like 'dragon' or 'unicorn+obstacle', got {value!r}", where=where,
                value=value))
            continue
        counter = problems.attempt("tiles", parse_counter, value, where=where)
        if connection is not None and counter is not None:
            if connection.id in tiles:
                problems.add("two-counters", "tiles", connection.id, say(
                    "{where} names road {road} again; a road holds one counter (and perhaps an obstacle)",
                    where=where, road=connection.id))
            tiles[connection.id] = Tile(connection.id, *counter)
    return tiles


def _apply_tile(tiles: dict[str, Tile], item: str) -> None:
    road_text, sep, counter_text = item.replace("=", " ").rpartition(" ")
    if not sep or not road_text.strip():
        raise NotationError(say("--tile {item!r} must be 'ROAD COUNTER', e.g. 'lap-riv D' or 'elv-erg U+X'",
                                item=item), kind="bad-tile", value=item)
    road = parse_connection(road_text, where="--tile")
    if counter_text.strip() == "-":
        tiles.pop(road.id, None)
        return
    transport, obstacle = parse_counter(counter_text, where=f"--tile {item!r}")
    tiles[road.id] = Tile(road.id, transport, obstacle)


def position_from_toml(text: str, *, source: str = "position", overrides: Overrides | None = None) -> Position:
    """Parse a position file's text (and command-line overrides).

    Raises:
        IllegalPositionError: TOML syntax errors, or every problem of the position at once.
    """
    return position_from_mapping(load_toml(text, source=source), source=source, overrides=overrides)


def load_position(path: str, *, overrides: Overrides | None = None) -> Position:
    """Read a position file (never written to).

    Raises:
        IllegalPositionError: the file cannot be read, is not TOML, or the position has problems.
    """
    from pathlib import Path

    return position_from_toml(read_path(path), source=Path(path).name, overrides=overrides)


# -- writing --------------------------------------------------------------------------------------------------
def position_to_mapping(position: Position) -> dict[str, Any]:
    """The position as a position file's table (what :func:`position_from_mapping` reads back to the same
    position)."""
    board = position.board
    data: dict[str, Any] = {}
    if position.title is not None:
        data["title"] = position.title
    if position.notes is not None:
        data["notes"] = position.notes
    data["round"] = position.round
    data["at"] = board.towns[position.at].name
    data["hand"] = position.hand.names()
    data["visited"] = sorted(board.towns[c].name for c in position.visited - {position.at} if c in board.towns)
    if position.home is not None:
        data["home"] = board.towns[position.home].name
    data["tiles"] = {tile.road: _counter_name(tile.transport, tile.obstacle) for tile in position.tiles}
    options = position.rules.to_mapping()
    if options:
        data["rules"] = options
    if position.expect is not None:
        data["expect"] = {f.name: getattr(position.expect, f.name) for f in fields(Expect)
                          if getattr(position.expect, f.name) is not None}
    for key in ("supply", "display", "seen"):
        counters: Hand = getattr(position, key)
        if len(counters):
            data[key] = counters.names()
    if not position.obstacle:
        data["obstacle"] = False
    if position.players is not None:
        data["players"] = position.players
    if position.opponents:
        data["opponent"] = [_opponent_mapping(position, o) for o in position.opponents]
    return data


def _opponent_mapping(position: Position, opponent: Opponent) -> dict[str, Any]:
    towns = position.board.towns
    table: dict[str, Any] = {"name": opponent.name, "at": towns[opponent.at].name if opponent.at in towns else
                             opponent.at}
    visited = sorted(towns[c].name if c in towns else c for c in opponent.visited - {opponent.at})
    if visited:
        table["visited"] = visited
    if len(opponent.counters):
        table["counters"] = opponent.counters.names()
    if opponent.secret:
        table["secret"] = opponent.secret
    if not opponent.obstacle:
        table["obstacle"] = False
    if opponent.points:
        table["points"] = opponent.points
    return table


def _counter_name(transport: Transport | None, obstacle: bool) -> str:
    return (transport.title if transport else "") + ("+obstacle" if obstacle else "")


def position_to_toml(position: Position) -> str:
    """The position as a position file (round-trips through :func:`position_from_toml`)."""
    lines = []
    tables: list[tuple[str, dict[str, Any]]] = []
    arrays: list[tuple[str, list[dict[str, Any]]]] = []
    for key, value in position_to_mapping(position).items():
        if isinstance(value, dict):
            tables.append((key, value))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            arrays.append((key, value))
        else:
            lines.append(f"{key} = {toml_value(value)}")
    for key, table in tables:
        if table or key == "tiles":
            lines += ["", f"[{key}]"] + [f"{toml_value(k)} = {toml_value(v)}" for k, v in table.items()]
    for key, items in arrays:
        for item in items:
            lines += ["", f"[[{key}]]"] + [f"{k} = {toml_value(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


def toml_value(value: Any) -> str:
    """A string, whole number, boolean or list of them as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    # A JSON string is a TOML basic string, except that TOML also forbids a raw DEL character.
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")
