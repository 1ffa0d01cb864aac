"""Where positions come from at the table: files, folders, stdin, compact notation and command-line overrides.

Override grammar (all forgiving about case, accents and abbreviations):

- ``at``: a town (``elv``, ``Elvenhold``);
- ``hand``: cards (``"D D C U R R P T"``, ``DDCURRPT``, ``"dragon x2 cloud"``);
- ``tiles``: ``ROAD COUNTER`` items, several per string separated by commas: ``"lap-riv D, elv-erg U+X"``;
  ``ROAD -`` removes the counter from a road given in a file;
- ``visited``: towns separated by commas or spaces (``riv,tic``); ``-`` for none;
- ``home``: a town, or ``-`` for none; ``round``: 1..4.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from planner.elfenland.board import CAPITAL
from planner.elfenland.notation import parse_connection, parse_counter, parse_town
from planner.elfenland.position import Hand, Position, Problems, Tile, load_position, position_from_toml
from planner.elfenland.rules import Rules
from planner.errors import IllegalPositionError, NotationError


@dataclass(frozen=True, slots=True)
class Overrides:
    """Position fields given on the command line; None means "keep what the file says"."""

    at: str | None = None
    hand: str | None = None
    tiles: tuple[str, ...] = ()
    visited: str | None = None
    home: str | None = None
    round: int | None = None
    rules: dict[str, Any] | None = None

    def empty(self) -> bool:
        """Whether no field is overridden."""
        return all(getattr(self, f.name) in (None, ()) for f in fields(self))


def apply_overrides(base: Position | None, overrides: Overrides) -> Position:
    """``base`` (or an empty position at Elvenhold) with the overrides applied, checked.

    Raises:
        IllegalPositionError: every problem of the overrides and of the resulting position at once.
    """
    collector = Problems()
    problems, attempt = collector.found, collector.attempt

    position = base or Position(at=CAPITAL)
    changes: dict[str, Any] = {}
    if base is None and overrides.at is None:
        problems.append("no position given: name a position file or say where the boot stands with --at")
    if overrides.at is not None:
        at = attempt(parse_town, overrides.at, where="--at")
        if at:
            changes["at"] = at
            changes["visited"] = position.visited - {position.at}
    if overrides.hand is not None:
        hand = attempt(Hand.from_str, overrides.hand)
        if hand is not None:
            changes["hand"] = hand
    if overrides.visited is not None:
        names = [] if overrides.visited.strip() == "-" else overrides.visited.replace(",", " ").split()
        towns = [attempt(parse_town, name, where="--visited") for name in names]
        changes["visited"] = frozenset(t for t in towns if t)
    if overrides.home is not None:
        changes["home"] = None if overrides.home.strip() == "-" else attempt(parse_town, overrides.home, where="--home")
    if overrides.round is not None:
        changes["round"] = overrides.round
    if overrides.rules:
        merged = {**position.rules.to_mapping(), **overrides.rules}
        rules = attempt(Rules.from_mapping, merged, where="rule options")
        if rules is not None:
            changes["rules"] = rules
    if overrides.tiles:
        tiles = position.tile_map()
        for text in overrides.tiles:
            for item in (part.strip() for part in text.split(",")):
                if item:
                    attempt(_apply_tile, tiles, item)
        changes["tiles"] = tuple(tiles.values())
    result = position.replace(**changes)
    problems += result.problems()
    if problems:
        raise IllegalPositionError(problems)
    return result


def _apply_tile(tiles: dict[str, Tile], item: str) -> None:
    road_text, sep, counter_text = item.replace("=", " ").rpartition(" ")
    if not sep or not road_text.strip():
        raise NotationError(f"--tile {item!r} must be 'ROAD COUNTER', e.g. 'lap-riv D' or 'elv-erg U+X'")
    road = parse_connection(road_text, where="--tile")
    if counter_text.strip() == "-":
        tiles.pop(road.id, None)
        return
    transport, obstacle = parse_counter(counter_text, where=f"--tile {item!r}")
    tiles[road.id] = Tile(road.id, transport, obstacle)


def expand_sources(sources: Iterable[str]) -> Iterator[str]:
    """Files as given, folders as their ``*.toml`` files in name order, ``-`` as is."""
    for source in sources:
        path = Path(source)
        if source != "-" and path.is_dir():
            yield from sorted(str(p) for p in path.glob("*.toml"))
        else:
            yield source


def read_position(source: str) -> Position:
    """A position from a file path, ``-`` (stdin, TOML) or compact notation (``"D@LAP-RIV:f ELV DDC - 1"``).

    Raises:
        IllegalPositionError: unreadable file, bad TOML, or a position with problems.
        NotationError: malformed compact notation.
    """
    if source == "-":
        return position_from_toml(sys.stdin.read(), source="stdin")
    path = Path(source)
    if not path.exists() and len(source.split()) >= 4:
        return Position.from_str(source).check()
    if not path.exists():
        raise IllegalPositionError([f"no such position file {source!r}"])
    return load_position(path)
