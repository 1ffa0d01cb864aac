"""Positions: the hand, the counters on the roads, the collected towns, the round and the rules; validation and
the compact notation.

The compact notation is one line a player can copy, paste and edit (``route`` prints it)::

    <placements> <town> <hand> <visited> <round> [<home>] [<extras>]
    E@RIV-THR:f,D+X@JAC-THR:m RIV EDR TIC,JAC 4 VIR caravan=scaled,supply=DP

``-`` is an empty field; placements are ``COUNTER@ROAD`` (``X`` alone or ``+X`` for an obstacle). The extras field
lists, as ``key=value`` items separated by commas, the rule options that differ from the 1998 rules
(``caravan=scaled,rounds=3``), so a printed position re-solves to the same problem, and the keys of the drawing and
planning phases that differ from their defaults: ``supply=DP``, ``obstacle=false``, ``display=UTTPD``,
``seen=C``, ``players=4`` and one ``opponent=NAME:AT:VISITED:COUNTERS:SECRET:OBSTACLE:POINTS`` per opponent
(visited towns joined by ``+``, ``-`` for none; the name percent-encoded; trailing fields may be left out).
Position files are read and written by :mod:`planner.elfenland.position_file`.

Validation reports every problem at once as structured :class:`~planner.common.problems.Problem` objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field, replace
from typing import Any
from urllib.parse import quote, unquote

from planner.common.i18n import N_, format_list, gettext, say
from planner.common.names import Names, key_values
from planner.common.problems import Problem, Problems
from planner.common.values import frozen
from planner.elfenland.board import Board, load_board
from planner.elfenland.counts import count as count_of
from planner.elfenland.local_names import terrain_word, town_word, transport_word
from planner.elfenland.notation import (
    format_cards,
    format_counter,
    parse_cards,
    parse_connection,
    parse_counter,
    parse_town,
)
from planner.elfenland.rules import (
    COUNTER_TRANSPORTS,
    COUNTERS,
    DECK,
    DISPLAY_SIZE,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OBSTACLES,
    RULE_OPTIONS,
    SUPPLY_LIMIT,
    TRANSPORTS,
    HomeDistance,
    Rules,
    Transport,
    can_carry,
)
from planner.errors import IllegalPositionError, NotationError

__all__ = ["Expect", "Hand", "Opponent", "Position", "Tile"]


@frozen
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


@frozen
class Tile:
    """What lies on one road: a transport counter and perhaps an obstacle."""

    road: str
    """The road's connection id, e.g. ``LAP-RIV:f``."""
    transport: Transport | None
    """The counter's transport; None only in an invalid position (an obstacle with no counter)."""
    obstacle: bool = False

    def __str__(self) -> str:
        return f"{format_counter(self.transport, self.obstacle)}@{self.road}"


@frozen
class Expect:
    """A golden answer stored in a position file and checked by the tests."""

    score: int | None = None
    cards_spent: int | None = None
    placed: int | None = None
    """Counters the joint plan places (``elfenland place``)."""
    now: str | None = None
    """The placement to make now (``E@DAG-KIH:f``), or ``pass`` (``elfenland place``)."""
    draw: str | None = None
    """The counter to draw, by name, or ``blind`` (``elfenland draw``)."""
    obstacle: str | None = None
    """The road for my obstacle (``ALB-DAG:d``), or ``hold`` (``elfenland obstacle``)."""
    target: str | None = None
    """The opponent the obstacle is for (``elfenland obstacle``)."""


@frozen
class Opponent:
    """What I know of one opponent during the drawing and planning phases (for obstacle and denial advice)."""

    name: str
    at: str = "ELV"
    """Code of the town where their boot stands."""
    visited: frozenset[str] = frozenset()
    """Towns whose marker they hold (their current town included)."""
    counters: Hand = field(default_factory=Hand)
    """Their unplaced counters lying face up (drawn from the display or blind in this round)."""
    secret: int = 0
    """How many face-down counters they hold."""
    obstacle: bool = True
    """Whether they still hold their obstacle."""
    points: int = 0
    """Markers collected so far."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "visited", frozenset(self.visited) | {self.at})


@frozen
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
    supply: Hand = field(default_factory=Hand)
    """My unplaced counters, face-down ones included (a multiset of counter transports; at most 5)."""
    obstacle: bool = True
    """Whether I still hold my obstacle (one per game)."""
    display: Hand = field(default_factory=Hand)
    """The face-up counters to draw from (at most 5)."""
    seen: Hand = field(default_factory=Hand)
    """Other counters I can see that are not on the board, in the display or an opponent's table (e.g. set aside)."""
    players: int | None = None
    """Players at the table, when known (2..6)."""
    opponents: tuple[Opponent, ...] = ()

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
        return self.board.distance(end, self.home, roads_only=self.rules.home_distance is HomeDistance.ROADS)

    def collectable(self) -> frozenset[str]:
        """Towns whose marker is still to be collected."""
        return frozenset(t.code for t in self.board.towns.values() if t.has_marker) - self.visited

    # -- validation --------------------------------------------------------------------------------------------
    def problems(self) -> list[Problem]:
        """Every rule violation of the position, each naming the bad input (empty when legal)."""
        board = self.board
        found = Problems()
        round_problem = self.rules.round_problem(self.round)
        if round_problem is not None:
            found.extend([round_problem])
        for name, towns in (("at", [self.at]), ("home", [self.home]), ("visited", sorted(self.visited))):
            for town in towns:
                if town is not None and town not in board.towns:
                    found.add("unknown-town", name, town, say("unknown town code {town!r}", town=town))
        for card, count in self.hand.as_dict().items():
            if count > DECK[card]:
                found.add("too-many-cards", "hand", card.letter, say(
                    "hand holds {n} {card} cards but the game has only {most}", n=count, card=transport_word(card),
                    most=DECK[card]))
        seen: set[str] = set()
        for tile in self.tiles:
            found.extend(self._tile_problems(tile, seen))
        for transport in COUNTER_TRANSPORTS:
            used = sum(t.transport is transport for t in self.tiles)
            if used > COUNTERS[transport]:
                found.add("too-many-counters", "tiles", transport.letter, say(
                    "{n} {counter} counters on the board but the game has only {most}", n=used,
                    counter=transport_word(transport), most=COUNTERS[transport]))
        obstacles = sum(t.obstacle for t in self.tiles)
        if obstacles > OBSTACLES:
            found.add("too-many-obstacles", "tiles", "X", say("{n} obstacles on the board but the game has only {most}",
                                                              n=obstacles, most=OBSTACLES))
        found.extend(self._round_problems())
        return found.found

    def _round_problems(self) -> list[Problem]:
        """The drawing-and-planning keys: supply, display, seen, players, opponents."""
        board = self.board
        found = Problems()
        for name, counters in (("supply", self.supply), ("display", self.display), ("seen", self.seen),
                               *((f"opponent[{i}].counters", o.counters) for i, o in enumerate(self.opponents, 1))):
            if counters[Transport.RAFT]:
                found.add("raft-counter", name, "R", say("{field} holds raft counters, but there are none",
                                                         field=name))
        if len(self.supply) > SUPPLY_LIMIT:
            found.add("too-many-counters", "supply", str(self.supply), say(
                "supply holds {n} counters; a player holds at most {most}", n=len(self.supply), most=SUPPLY_LIMIT))
        if len(self.display) > DISPLAY_SIZE:
            found.add("too-many-counters", "display", str(self.display), say(
                "display holds {n} counters; {most} lie face up", n=len(self.display), most=DISPLAY_SIZE))
        for transport in COUNTER_TRANSPORTS:
            on_board = sum(t.transport is transport for t in self.tiles)
            known = (on_board + self.supply[transport] + self.display[transport] + self.seen[transport]
                     + sum(o.counters[transport] for o in self.opponents))
            if known > COUNTERS[transport] and on_board <= COUNTERS[transport]:
                found.add("too-many-counters", "supply", transport.letter, say(
                    "{n} {counter} counters on the board, in the supply, the display, seen and with opponents, but "
                    "the game has only {most}", n=known, counter=transport_word(transport), most=COUNTERS[transport]))
        if self.players is not None:
            if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
                found.add("bad-players", "players", str(self.players), say(
                    "players = {n} is not between {least} and {most}", n=self.players, least=MIN_PLAYERS,
                    most=MAX_PLAYERS))
            elif len(self.opponents) > self.players - 1:
                found.add("too-many-opponents", "opponent", str(len(self.opponents)), say(
                    "{n} opponents at a table of {players} players", n=len(self.opponents), players=self.players))
        names = [o.name for o in self.opponents]
        for i, opponent in enumerate(self.opponents, 1):
            where = f"opponent[{i}]"
            if not opponent.name.strip():
                found.add("empty", f"{where}.name", opponent.name, say("{field} needs a name", field=where))
            elif names.count(opponent.name) > 1 and names.index(opponent.name) == i - 1:
                found.add("duplicate-opponent", f"{where}.name", opponent.name,
                          say("two opponents are called {name!r}", name=opponent.name))
            for town in sorted(opponent.visited):
                if town not in board.towns:
                    found.add("unknown-town", f"{where}.visited", town, say("unknown town code {town!r}", town=town))
            if len(opponent.counters) + opponent.secret > SUPPLY_LIMIT:
                found.add("too-many-counters", f"{where}.counters", str(opponent.counters), say(
                    "{name} holds {up} face-up and {down} face-down counters; a player holds at most {most}",
                    name=opponent.name, up=len(opponent.counters), down=opponent.secret, most=SUPPLY_LIMIT))
            if not 0 <= opponent.points <= len(board.towns) - 1:
                found.add("out-of-range", f"{where}.points", str(opponent.points), say(
                    "{field} {n} is not between 0 and {most}", field=f"{where}.points", n=opponent.points,
                    most=len(board.towns) - 1))
            if opponent.secret < 0:
                found.add("out-of-range", f"{where}.secret", str(opponent.secret),
                          say("{field} {n} is below 0", field=f"{where}.secret", n=opponent.secret))
        held = int(self.obstacle) + sum(o.obstacle for o in self.opponents)
        placed = sum(t.obstacle for t in self.tiles)
        if self.players is not None and placed + held > self.players:
            found.add("too-many-obstacles", "obstacle", str(held), say(
                "{placed} obstacles on the board and {held} still held, but each of the {players} players has one "
                "for the game", placed=placed, held=held, players=self.players))
        return found.found

    def _tile_problems(self, tile: Tile, seen: set[str]) -> list[Problem]:
        connection = self.board.connections.get(tile.road)
        found = Problems()
        if connection is None:
            found.add("no-such-road", "tiles", tile.road, say("unknown road {road!r}", road=tile.road))
            return found.found
        if tile.road in seen:
            found.add("two-counters", "tiles", tile.road, say(
                "two counters on road {road}; a road holds one counter (and perhaps an obstacle)", road=tile.road))
        seen.add(tile.road)
        if not connection.is_road:
            found.add("water", "tiles", tile.road, say(
                N_("counter on {road}, a lake: water never carries counters or obstacles") if connection.kind == "lake"
                else N_("counter on {road}, a river: water never carries counters or obstacles"), road=tile.road))
        elif tile.transport is None:
            found.add("obstacle-alone", "tiles", tile.road, say(
                "obstacle on {road} without a counter: an obstacle goes only on a road holding one", road=tile.road))
        elif not can_carry(tile.transport, connection.terrain):
            found.add("terrain", "tiles", tile.road, say(
                "{counter} counter on {road}, a {terrain} road it cannot travel",
                counter=transport_word(tile.transport), road=tile.road, terrain=terrain_word(connection.terrain)))
        return found.found

    def warnings(self) -> list[Problem]:
        """Things a real game cannot produce but a puzzle may: a hand over 8 cards, a home town without a card."""
        found = Problems()
        if len(self.hand) > HAND_SIZE:
            found.add("big-hand", "hand", str(self.hand), say("hand holds {cards}; a real game never has more than "
                      "{most} (fine for a puzzle)", cards=count_of(len(self.hand), "card"), most=HAND_SIZE))
        board = self.board
        if self.home is not None and self.home in board.towns and not board.towns[self.home].home_card:
            cards = format_list([town_word(board, t.code) for t in board.towns.values() if t.home_card])
            found.add("home-without-card", "home", self.home, say("home {town!r} has no home-town card in the game "
                      "(the cards are {cards}); fine for a puzzle", town=town_word(board, self.home), cards=cards))
        return found.found

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

    # -- the compact notation ------------------------------------------------------------------------------------
    def __str__(self) -> str:
        """Compact notation: ``<placements> <town> <hand> <visited> <round> [<home>] [<rules>]``."""
        placements = ",".join(str(t) for t in self.tiles) or "-"
        visited = ",".join(sorted(self.visited - {self.at})) or "-"
        fields = [placements, self.at, str(self.hand), visited, str(self.round)]
        if self.home:
            fields.append(self.home)
        extras = ",".join(item for item in (str(self.rules), *self._round_items()) if item)
        if extras:
            fields.append(extras)
        return " ".join(fields)

    def _round_items(self) -> list[str]:
        """The drawing-and-planning keys that differ from their defaults, as notation items."""
        items = [f"{key}={getattr(self, key)}" for key in ("supply", "display", "seen") if len(getattr(self, key))]
        if not self.obstacle:
            items.append("obstacle=false")
        if self.players is not None:
            items.append(f"players={self.players}")
        for o in self.opponents:
            fields = [quote(o.name, safe=""), o.at, "+".join(sorted(o.visited - {o.at})) or "-", str(o.counters),
                      str(o.secret), "true" if o.obstacle else "false", str(o.points)]
            while len(fields) > 1 and fields[-1] == _OPPONENT_DEFAULTS[len(fields) - 1]:
                fields.pop()
            items.append("opponent=" + ":".join(fields))
        return items

    @classmethod
    def from_str(cls, text: str) -> Position:
        """Parse the compact notation of :meth:`__str__` (names, abbreviations and lower case accepted).

        Raises:
            NotationError: a malformed field.
        """
        parts = text.split()
        extras: dict[str, Any] = {}
        if parts and "=" in parts[-1]:
            extras = _parse_extras(parts.pop())
        if not 4 <= len(parts) <= 6:
            raise NotationError(say(
                "position {text!r} needs 4 to 6 fields and perhaps rule options: <placements> <town> <hand> "
                "<visited> [<round> [<home>]] [<rules>]", text=_cut(text)), kind="bad-position", value=text)
        return cls(
            at=parse_town(parts[1], where="position"),
            hand=Hand.from_str(parts[2]),
            tiles=_parse_placements(parts[0]),
            visited=frozenset() if parts[3] == "-" else frozenset(
                parse_town(v, where="visited") for v in parts[3].split(",") if v),
            round=_round(parts[4]) if len(parts) > 4 else 1,
            home=None if len(parts) <= 5 or parts[5] == "-" else parse_town(parts[5], where="home"),
            **extras,
        )


_ROUND_KEYS = ("supply", "obstacle", "display", "seen", "players", "opponent")
_OPPONENT_DEFAULTS = ("", "ELV", "-", "-", "0", "true", "0")
_SWITCH = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


def _parse_extras(text: str) -> dict[str, Any]:
    """The extras field: rule items for :meth:`Rules.from_str`, the drawing-and-planning items here."""
    keys = Names("notation key", {key: (key,) for key in _ROUND_KEYS} | {
        name: (name, *option.aliases) for name, option in RULE_OPTIONS.items()}, {k: k for k in (*_ROUND_KEYS,
                                                                                            *RULE_OPTIONS)})
    rule_items: list[str] = []
    found: dict[str, Any] = {}
    opponents: list[Opponent] = []
    for key, value, item in key_values(text, example="'caravan=scaled' or 'supply=DP'"):
        name = keys.find(key, where=gettext("the extras field"))
        if name in RULE_OPTIONS:
            rule_items.append(f"{name}={value}")
        elif name in ("supply", "display", "seen"):
            found[name] = Hand.from_str(value)
        elif name == "obstacle":
            found[name] = _switch(value, item)
        elif name == "players":
            found[name] = _round(value)
        else:
            opponents.append(_parse_opponent(value, item))
    return {**found, "rules": Rules.from_str(",".join(rule_items)), "opponents": tuple(opponents)}


def _switch(text: str, item: str) -> bool:
    value = _SWITCH.get(text.strip().lower())
    if value is None:
        raise NotationError(say("{item!r} must say true or false", item=item), kind="bad-item", value=item)
    return value


def _parse_opponent(text: str, item: str) -> Opponent:
    fields = text.split(":")
    if not 1 <= len(fields) <= 7 or not fields[0]:
        raise NotationError(say("opponent {item!r} must look like 'opponent=Anna:VIR:JXA+LAP:CC:1:true:9'",
                                item=item), kind="bad-item", value=item)
    fields += list(_OPPONENT_DEFAULTS[len(fields):])
    name, at, visited, counters, secret, obstacle, points = fields
    where = say("opponent {name!r}", name=unquote(name))
    return Opponent(name=unquote(name), at=parse_town(at, where=where),
                    visited=frozenset() if visited == "-" else frozenset(
                        parse_town(town, where=where) for town in visited.split("+") if town),
                    counters=Hand.from_str(counters), secret=_round(secret), obstacle=_switch(obstacle, item),
                    points=_round(points))


def _cut(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _round(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 2:
        raise NotationError(say("round {text!r} is not a round number like 1 or 4", text=_cut(text)), kind="bad-round",
                            value=text)
    return int(text)


def _parse_placements(text: str) -> tuple[Tile, ...]:
    """``E@RIV-THR:f,D+X@JAC-THR:m``; ``U@r,X@r`` is one tile, any other second counter stays for validation."""
    if text == "-":
        return ()
    merged: list[Tile] = []
    for item in (part for part in text.split(",") if part):
        counter, at_sign, road = item.partition("@")
        if not at_sign:
            raise NotationError(say("placement {item!r} must look like 'D@LAP-RIV:f'", item=item),
                                kind="bad-placement", value=item)
        transport, obstacle = parse_counter(counter, where="placements")
        road_id = parse_connection(road, where="placements").id
        same = next((i for i, t in enumerate(merged)
                     if t.road == road_id and (transport is None or t.transport is None)), None)
        if same is None:
            merged.append(Tile(road_id, transport, obstacle))
        else:
            old = merged[same]
            merged[same] = Tile(road_id, old.transport or transport, old.obstacle or obstacle)
    return tuple(merged)
