"""Positions: the hand, the counters on the roads, the collected towns; TOML position files; validation.

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

Parsing reports every problem of a file at once (:class:`IllegalPositionError`); files are never written to.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from planner.elfenland.board import CAPITAL, Board, load_board
from planner.elfenland.notation import (
    format_cards,
    format_counter,
    parse_cards,
    parse_cards_partial,
    parse_connection,
    parse_counter,
    parse_town,
)
from planner.elfenland.rules import (
    COUNTER_TRANSPORTS,
    COUNTERS,
    DECK,
    HAND_SIZE,
    OBSTACLES,
    TRANSPORTS,
    Rules,
    Transport,
    can_carry,
)
from planner.errors import IllegalPositionError, NotationError, PlannerError


@dataclass(frozen=True, slots=True)
class Hand:
    """A multiset of travel cards, stored as counts in the chart order P E C U T D R."""

    counts: tuple[int, ...] = (0,) * len(TRANSPORTS)

    def __post_init__(self) -> None:
        if len(self.counts) != len(TRANSPORTS) or any(c < 0 for c in self.counts):
            raise ValueError(f"a hand needs {len(TRANSPORTS)} non-negative counts, got {self.counts!r}")

    @classmethod
    def from_str(cls, text: str) -> Hand:
        """Parse ``DDCRR``, ``D D C R R``, ``dragon x2 cloud raft raft``; see :func:`parse_cards`.

        Raises:
            NotationError: a token that names no card.
        """
        return cls.from_counts(parse_cards(text))

    @classmethod
    def from_counts(cls, counts: Mapping[Transport, int]) -> Hand:
        """A hand from a mapping of card counts."""
        return cls(tuple(int(counts.get(t, 0)) for t in TRANSPORTS))

    @classmethod
    def of(cls, cards: Iterable[Transport]) -> Hand:
        """A hand holding these cards."""
        counts = dict.fromkeys(TRANSPORTS, 0)
        for card in cards:
            counts[card] += 1
        return cls.from_counts(counts)

    def __getitem__(self, transport: Transport) -> int:
        return self.counts[TRANSPORTS.index(transport)]

    def __len__(self) -> int:
        return sum(self.counts)

    def __str__(self) -> str:
        return format_cards(self.as_dict())

    def __repr__(self) -> str:
        return f"Hand.from_str({str(self)!r})"

    def as_dict(self) -> dict[Transport, int]:
        """Card counts by transport (zeros included)."""
        return dict(zip(TRANSPORTS, self.counts, strict=True))

    def cards(self) -> list[Transport]:
        """The cards one by one in canonical order."""
        return [t for t, n in zip(TRANSPORTS, self.counts, strict=True) for _ in range(n)]

    def names(self) -> list[str]:
        """The cards' printed names one by one (``["dragon", "dragon", "raft"]``)."""
        return [t.title for t in self.cards()]

    def contains(self, other: Hand) -> bool:
        """Whether every card of ``other`` is in this hand."""
        return all(a >= b for a, b in zip(self.counts, other.counts, strict=True))

    def without(self, other: Hand) -> Hand:
        """This hand less the cards of ``other``.

        Raises:
            ValueError: ``other`` holds a card this hand lacks.
        """
        if not self.contains(other):
            raise ValueError(f"hand {self} does not hold {other}")
        return Hand(tuple(a - b for a, b in zip(self.counts, other.counts, strict=True)))

    def __add__(self, other: Hand) -> Hand:
        return Hand(tuple(a + b for a, b in zip(self.counts, other.counts, strict=True)))


@dataclass(frozen=True, slots=True)
class Tile:
    """What lies on one road: a transport counter and perhaps an obstacle."""

    road: str
    """The road's connection id, e.g. ``LAP-RIV:f``."""
    transport: Transport | None
    """The counter's transport; None only in an invalid position (an obstacle with no counter)."""
    obstacle: bool = False

    def __str__(self) -> str:
        return f"{format_counter(self.transport, self.obstacle)}@{self.road}"


@dataclass(frozen=True, slots=True)
class Expect:
    """A golden answer stored in a position file and checked by the tests."""

    score: int | None = None
    cards_spent: int | None = None


POSITION_KEYS = ("title", "notes", "round", "at", "hand", "visited", "home", "tiles", "rules", "expect")


@dataclass(frozen=True, slots=True)
class Position:
    """A player's mid-game position before it moves."""

    at: str
    """Code of the town where the boot stands."""
    hand: Hand = field(default_factory=Hand)
    tiles: tuple[Tile, ...] = ()
    """Counters (and obstacles) on roads, sorted by road id."""
    visited: frozenset[str] = frozenset()
    """Towns whose marker is already collected (normalised: the current town is included)."""
    home: str | None = None
    """Code of the home-town card, if the home-town variant is played."""
    round: int = 1
    rules: Rules = field(default_factory=Rules)
    title: str | None = None
    notes: str | None = None
    expect: Expect | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles, key=lambda t: t.road)))
        object.__setattr__(self, "visited", frozenset(self.visited) | {self.at})

    # -- derived views -------------------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The board the position is played on."""
        return load_board()

    def tile_map(self) -> dict[str, Tile]:
        """Tiles keyed by road id."""
        return {t.road: t for t in self.tiles}

    @property
    def last_round(self) -> bool:
        """Whether this is the last round, when the home-town penalty applies."""
        return self.round >= self.rules.rounds

    @property
    def scores_home(self) -> bool:
        """Whether the end of the route is charged the distance to the home town."""
        return self.home is not None and self.rules.home_variant and self.last_round

    def home_penalty(self, end: str) -> int:
        """Points lost for ending in ``end`` (0 unless the home-town variant applies this round)."""
        if not self.scores_home or self.home is None:
            return 0
        return self.board.distance(end, self.home, roads_only=self.rules.home_distance == "roads")

    def collectable(self) -> frozenset[str]:
        """Towns whose marker is still to be collected."""
        return frozenset(t.code for t in self.board.towns.values() if t.has_marker) - self.visited

    # -- validation --------------------------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Every rule violation of the position, each naming the bad input (empty when legal)."""
        board = self.board
        found = list(self.rules.problems())
        if not 1 <= self.round <= self.rules.rounds:
            found.append(f"round {self.round} is not between 1 and {self.rules.rounds}")
        for town in (self.at, self.home, *self.visited):
            if town is not None and town not in board.towns:
                found.append(f"unknown town code {town!r}")
        if self.home is not None and self.home in board.towns and not board.towns[self.home].home_card:
            cards = ", ".join(t.name for t in board.towns.values() if t.home_card)
            found.append(f"home {board.towns[self.home].name!r} has no home-town card; the cards are {cards}")
        for card, count in self.hand.as_dict().items():
            if count > DECK[card]:
                found.append(f"hand holds {count} {card.title} cards but the game has only {DECK[card]}")
        seen: set[str] = set()
        for tile in self.tiles:
            found.extend(self._tile_problems(tile, seen))
        for transport in COUNTER_TRANSPORTS:
            used = sum(t.transport is transport for t in self.tiles)
            if used > COUNTERS[transport]:
                found.append(f"{used} {transport.title} counters on the board "
                             f"but the game has only {COUNTERS[transport]}")
        obstacles = sum(t.obstacle for t in self.tiles)
        if obstacles > OBSTACLES:
            found.append(f"{obstacles} obstacles on the board but the game has only {OBSTACLES}")
        return found

    def _tile_problems(self, tile: Tile, seen: set[str]) -> list[str]:
        connection = self.board.connections.get(tile.road)
        if connection is None:
            return [f"unknown road {tile.road!r}"]
        found = []
        if tile.road in seen:
            found.append(f"two counters on road {tile.road}; a road holds one counter (and perhaps an obstacle)")
        seen.add(tile.road)
        if not connection.is_road:
            found.append(f"counter on {tile.road}, a {connection.kind}: water never carries counters or obstacles")
        elif tile.transport is None:
            found.append(f"obstacle on {tile.road} without a counter: an obstacle goes only on a road holding one")
        elif not can_carry(tile.transport, connection.terrain):
            found.append(
                f"{tile.transport.title} counter on {tile.road}, a {connection.terrain} road it cannot travel"
            )
        return found

    def warnings(self) -> list[str]:
        """Things a real game cannot produce but a puzzle may (a hand over 8 cards)."""
        if len(self.hand) > HAND_SIZE:
            return [f"hand holds {len(self.hand)} cards; "
                    f"a real game never has more than {HAND_SIZE} (fine for a puzzle)"]
        return []

    def check(self) -> Position:
        """This position, if it is legal.

        Raises:
            IllegalPositionError: listing every problem.
        """
        found = self.problems()
        if found:
            raise IllegalPositionError(found)
        return self

    def replace(self, **changes: Any) -> Position:
        """A copy with some fields changed."""
        return replace(self, **changes)

    # -- text forms ----------------------------------------------------------------------------------------------
    def __str__(self) -> str:
        """Compact notation: ``<placements> <town> <hand> <visited> <round> [<home>]``."""
        placements = ",".join(str(t) for t in self.tiles) or "-"
        visited = ",".join(sorted(self.visited - {self.at})) or "-"
        text = f"{placements} {self.at} {self.hand} {visited} {self.round}"
        return f"{text} {self.home}" if self.home else text

    def to_toml(self) -> str:
        """The position as a position file (round-trips through :func:`position_from_toml`)."""
        board = self.board
        lines = []
        if self.title is not None:
            lines.append(f"title = {_toml_str(self.title)}")
        if self.notes is not None:
            lines.append(f"notes = {_toml_str(self.notes)}")
        lines.append(f"round = {self.round}")
        lines.append(f"at = {_toml_str(board.towns[self.at].name)}")
        lines.append(f"hand = {_toml_list(self.hand.names())}")
        visited = sorted(board.towns[c].name for c in self.visited - {self.at} if c in board.towns)
        lines.append(f"visited = {_toml_list(visited)}")
        if self.home is not None:
            lines.append(f"home = {_toml_str(board.towns[self.home].name)}")
        lines.append("")
        lines.append("[tiles]")
        for tile in self.tiles:
            value = (tile.transport.title if tile.transport else "") + ("+obstacle" if tile.obstacle else "")
            lines.append(f"{_toml_str(tile.road)} = {_toml_str(value)}")
        options = self.rules.to_mapping()
        if options:
            lines += ["", "[rules]"] + [f"{k} = {_toml_value(v)}" for k, v in options.items()]
        if self.expect is not None:
            lines += ["", "[expect]"]
            lines += [f"{f.name} = {getattr(self.expect, f.name)}" for f in fields(Expect)
                      if getattr(self.expect, f.name) is not None]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_str(cls, text: str) -> Position:
        """Parse the compact notation of :meth:`__str__` (names and abbreviations accepted).

        Raises:
            NotationError: a malformed field.
        """
        parts = text.split()
        if not 4 <= len(parts) <= 6:
            raise NotationError(
                f"position {text!r} needs 4 to 6 fields: <placements> <town> <hand> <visited> [<round> [<home>]]"
            )
        tiles = []
        if parts[0] != "-":
            for item in parts[0].split(","):
                counter, at_sign, road = item.partition("@")
                if not at_sign:
                    raise NotationError(f"placement {item!r} must look like 'D@LAP-RIV:f'")
                transport, obstacle = parse_counter(counter, where="placements")
                tiles.append((parse_connection(road, where="placements").id, transport, obstacle))
        merged: list[Tile] = []
        for road, transport, obstacle in tiles:
            # "U@r,X@r" is one tile; any other second counter on a road stays, for validation to report.
            same = next((i for i, t in enumerate(merged)
                         if t.road == road and (transport is None or t.transport is None)), None)
            if same is None:
                merged.append(Tile(road, transport, obstacle))
            else:
                old = merged[same]
                merged[same] = Tile(road, old.transport or transport, old.obstacle or obstacle)
        visited: frozenset[str] = frozenset()
        if parts[3] != "-":
            visited = frozenset(parse_town(v, where="visited") for v in parts[3].split(","))
        return cls(
            at=parse_town(parts[1], where="position"),
            hand=Hand.from_str(parts[2]),
            tiles=tuple(merged),
            visited=visited,
            round=_int(parts[4], "round") if len(parts) > 4 else 1,
            home=parse_town(parts[5], where="home") if len(parts) > 5 else None,
        )


def _int(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise NotationError(f"{name} {text!r} is not a whole number") from None


def _toml_str(text: str) -> str:
    # A JSON string is a TOML basic string, except that TOML also forbids a raw DEL character.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(_toml_str(i) for i in items) + "]"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _toml_str(str(value))


class Problems:
    """Collects the problems of one input, so that all of them are reported at once."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def attempt(self, parse: Any, *args: Any, **kwargs: Any) -> Any:
        """``parse(*args, **kwargs)``, or None after noting the :class:`PlannerError` it raised."""
        try:
            return parse(*args, **kwargs)
        except PlannerError as exc:
            self.found.append(str(exc))
            return None


def position_from_mapping(data: Mapping[str, Any], *, source: str = "position") -> Position:
    """Build and validate a position from a parsed position file, reporting every problem at once.

    Raises:
        IllegalPositionError: every syntax and rule problem found, each naming its key and value.
    """
    collector = Problems()
    problems, attempt = collector.found, collector.attempt

    for key in data:
        if key not in POSITION_KEYS:
            near = [k for k in POSITION_KEYS if k.startswith(key[:2])]
            hint = f"; did you mean {near[0]!r}?" if near else f"; keys are {', '.join(POSITION_KEYS)}"
            problems.append(f"unknown key {key!r}{hint}")

    def text(key: str, required: bool = False) -> str | None:
        value = data.get(key)
        if value is None:
            if required:
                problems.append(f"missing key {key!r} (where the boot stands, e.g. at = \"Elvenhold\")")
            return None
        if not isinstance(value, str):
            problems.append(f"{key} must be a string, got {value!r}")
            return None
        return value

    def names(key: str) -> list[str]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [v for v in value.replace(",", " ").split() if v]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append(f"{key} must be a list of names, got {value!r}")
            return []
        return value

    at_text = text("at", required=True)
    at = attempt(parse_town, at_text, where="at") if at_text is not None else None
    home_text = text("home")
    home = attempt(parse_town, home_text, where="home") if home_text else None
    visited = {v for v in (attempt(parse_town, name, where="visited") for name in names("visited")) if v}

    raw_hand = data.get("hand", [])
    hand = Hand()
    if isinstance(raw_hand, str) or (isinstance(raw_hand, list) and all(isinstance(c, str) for c in raw_hand)):
        # Every bad card is named, and the good ones still count for the deck-size check.
        items = [raw_hand] if isinstance(raw_hand, str) else raw_hand
        for item in items:
            counts, bad = parse_cards_partial(item)
            hand = hand + Hand.from_counts(counts)
            problems.extend(bad)
    else:
        problems.append(f"hand must be a list of card names or a string like 'DDCRR', got {raw_hand!r}")

    round_ = data.get("round", 1)
    if not isinstance(round_, int) or isinstance(round_, bool):
        problems.append(f"round must be a whole number 1..4, got {round_!r}")
        round_ = 1

    rules = Rules()
    raw_rules = data.get("rules", {})
    if isinstance(raw_rules, Mapping):
        try:
            rules = Rules.from_mapping(dict(raw_rules))
        except (NotationError, TypeError) as exc:
            problems.append(str(exc))
    else:
        problems.append(f"[rules] must be a table, got {raw_rules!r}")

    tiles = []
    raw_tiles = data.get("tiles", {})
    if not isinstance(raw_tiles, Mapping):
        problems.append(f"[tiles] must be a table of road = counter, got {raw_tiles!r}")
        raw_tiles = {}
    for road_text, value in raw_tiles.items():
        where = f"[tiles] key {road_text!r}"
        connection = attempt(parse_connection, road_text, where="[tiles]")
        if not isinstance(value, str):
            problems.append(f"{where}: counter must be a string like 'dragon' or 'unicorn+obstacle', got {value!r}")
            continue
        counter = attempt(parse_counter, value, where=where)
        if connection is not None and counter is not None:
            tiles.append(Tile(connection.id, *counter))

    expect = None
    raw_expect = data.get("expect")
    if raw_expect is not None:
        expect = attempt(_expect, raw_expect)

    title, notes = text("title"), text("notes")
    # The rule checks run on whatever parsed, so one pass reports syntax and rule problems together.
    position = Position(at=at or CAPITAL, hand=hand, tiles=tuple(tiles), visited=frozenset(visited), home=home,
                        round=round_, rules=rules, title=title, notes=notes, expect=expect)
    problems += position.problems()
    if problems:
        raise IllegalPositionError(problems)
    return position


def _expect(raw: Any) -> Expect:
    if not isinstance(raw, Mapping):
        raise NotationError(f"[expect] must be a table with score and cards_spent, got {raw!r}")
    known = {f.name for f in fields(Expect)}
    unknown = [k for k in raw if k not in known]
    if unknown or not all(isinstance(v, int) for v in raw.values()):
        raise NotationError(f"[expect] takes whole numbers for {', '.join(sorted(known))}; got {dict(raw)!r}")
    return Expect(**raw)


def position_from_toml(text: str, *, source: str = "position") -> Position:
    """Parse a position file's text.

    Raises:
        IllegalPositionError: TOML syntax errors, or every problem of the position at once.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise IllegalPositionError([f"{source} is not valid TOML: {exc}"]) from None
    try:
        return position_from_mapping(data, source=source)
    except IllegalPositionError as exc:
        raise IllegalPositionError([f"{source}: {p}" for p in exc.problems]) from None


def load_position(path: str | Path) -> Position:
    """Read a position file (never written to).

    Raises:
        IllegalPositionError: the file cannot be read, is not TOML, or the position has problems.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else exc
        raise IllegalPositionError([f"cannot read position file {str(path)!r}: {reason}"]) from None
    return position_from_toml(text, source=path.name)
