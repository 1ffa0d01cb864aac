"""The Expeditions world map: 122 spots (the start, 80 green locations, 21 red stars, 20 blue squares), 206 links.

The data lives in ``data/map.json`` (copied from the project's cross-checked map facts); it is loaded once,
validated at load and exposed as immutable objects. Spot keys are the domain ids everywhere: a green location's
key is its English name (``Gizeh``, ``Xi’an``), the start is ``start``, red and blue spots are ``red:<Anchor>-<dirs>``
and ``blue:<Anchor>-<dirs>``. Links are unordered pairs of spots; every link can carry one arrow of each colour.

Solvers work on the integer ``index`` of spots and links (bit masks are what makes the move search fast); every
interface above them speaks in keys.
"""

from __future__ import annotations

import enum
import functools
import json
import math
from collections import deque
from collections.abc import Iterable
from importlib import resources

from planner.common.values import frozen

__all__ = ["BEARINGS", "NEAR_START", "PIXELS", "START", "Board", "BoardDataError", "Link", "Spot", "SpotKind",
           "load_board"]

START = "start"
NEAR_START = 2
"""Greens this many links from the start or closer never take a token and are never a common objective at setup."""
PIXELS = (1744, 1321)
"""The board picture's size: bearings between spots are measured in these pixels (north up, y grows southwards)."""
BEARINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""The eight compass sectors, clockwise from north, 45° each."""


class SpotKind(enum.Enum):
    """What a spot does when an arrow arrives."""

    START = "start"
    """The compass rose in Northern Europe: every expedition leaves from it; no effect."""
    GREEN = "green"
    """A location with its expedition card: whoever holds the card scores it."""
    RED = "red"
    """A red star: the active player gains a ticket."""
    BLUE = "blue"
    """A blue square: the active player may place one more arrow."""

    def __str__(self) -> str:
        return self.value


@frozen
class Spot:
    """A spot of the map."""

    key: str
    """The id: the green's English name, ``start``, or ``red:<Anchor>-<dirs>`` / ``blue:<Anchor>-<dirs>``."""
    kind: SpotKind
    name: str
    """The printed name of a green (the key again for the others, a description for the start)."""
    aliases: tuple[str, ...]
    """Other spellings accepted on input (``Giza``, ``Xian``)."""
    x: float
    """Centre on the board picture as a fraction of its width (0 left, 1 right)."""
    y: float
    """Centre as a fraction of its height (0 top, 1 bottom)."""
    wraps: bool
    """A red star drawn half on the left and half on the right edge (one spot joining the Americas to Asia)."""
    index: int
    """Position in the data file: the bit of this spot in the solvers' masks."""

    def __str__(self) -> str:
        return self.key


@frozen
class Link:
    """An undirected link between two spots (``a`` before ``b`` in data order)."""

    a: str
    b: str
    index: int
    """The bit of this link in the solvers' used-link masks."""

    def other(self, spot: str) -> str:
        """The spot at the other end from ``spot``."""
        return self.b if spot == self.a else self.a

    def __str__(self) -> str:
        return f"{self.a}–{self.b}"


class Board:
    """The static map; use :func:`load_board` for the shared instance."""

    def __init__(self, spots: list[Spot], links: list[Link]) -> None:
        self.spots: dict[str, Spot] = {s.key: s for s in spots}
        self.order: tuple[Spot, ...] = tuple(spots)
        self.links: tuple[Link, ...] = tuple(links)
        near: dict[str, list[tuple[str, Link]]] = {s.key: [] for s in spots}
        for link in links:
            near[link.a].append((link.b, link))
            near[link.b].append((link.a, link))
        self._near = {key: tuple(pairs) for key, pairs in near.items()}
        self._between = {frozenset((link.a, link.b)): link for link in links}
        self.from_start: dict[str, int] = self._bfs(START)
        """Links from the start to every spot."""
        # Index-level tables for the solvers: neighbours with the link between, kinds, the greens.
        self.adjacent: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((self.spots[n].index, link.index) for n, link in self._near[s.key]) for s in spots)
        self.kinds: tuple[SpotKind, ...] = tuple(s.kind for s in spots)
        self.start_index = self.spots[START].index

    # -- lookups ---------------------------------------------------------------------------------------------
    def neighbours(self, spot: str) -> tuple[str, ...]:
        """The spots linked to ``spot``, in data order."""
        return tuple(n for n, _ in self._near[spot])

    def links_of(self, spot: str) -> tuple[tuple[str, Link], ...]:
        """``(neighbour, link)`` for every link of ``spot``."""
        return self._near[spot]

    def link(self, a: str, b: str) -> Link | None:
        """The link between two spots, if any."""
        return self._between.get(frozenset((a, b)))

    def kind(self, spot: str) -> SpotKind:
        """The kind of a spot."""
        return self.spots[spot].kind

    def of_kind(self, kind: SpotKind) -> tuple[str, ...]:
        """The keys of every spot of one kind, in data order."""
        return tuple(s.key for s in self.order if s.kind is kind)

    @functools.cached_property
    def greens(self) -> tuple[str, ...]:
        """The 80 green locations (one expedition card each), in data order."""
        return self.of_kind(SpotKind.GREEN)

    @functools.cached_property
    def near_start(self) -> frozenset[str]:
        """The greens within :data:`NEAR_START` links of the start: no token, no common objective at setup."""
        return frozenset(g for g in self.greens if self.from_start[g] <= NEAR_START)

    def distance(self, a: str, b: str) -> int:
        """Links on a shortest path between two spots (a plain breadth-first search: no networkx on this path)."""
        return self._bfs(a)[b]

    def _bfs(self, origin: str) -> dict[str, int]:
        dist = {origin: 0}
        queue = deque([origin])
        while queue:
            spot = queue.popleft()
            for nxt, _ in self._near[spot]:
                if nxt not in dist:
                    dist[nxt] = dist[spot] + 1
                    queue.append(nxt)
        return dist

    # -- geometry --------------------------------------------------------------------------------------------
    def pixel(self, spot: str, *, toward: str | None = None) -> tuple[float, float]:
        """The spot's centre in board pixels; a wrap star is placed on the edge on the side of ``toward``."""
        s = self.spots[spot]
        x = s.x
        if s.wraps and toward is not None:
            x = 1.0 if self.spots[toward].x > 0.5 else 0.0
        return x * PIXELS[0], s.y * PIXELS[1]

    def bearing(self, frm: str, to: str) -> float:
        """The compass angle from ``frm`` to ``to`` in degrees, clockwise from north (0 ≤ angle < 360)."""
        x0, y0 = self.pixel(frm, toward=to)
        x1, y1 = self.pixel(to, toward=frm)
        return math.degrees(math.atan2(x1 - x0, y0 - y1)) % 360

    def sector(self, frm: str, to: str) -> str:
        """The eight-way compass sector (``N``, ``NE``, ...) of ``to`` seen from ``frm``."""
        return BEARINGS[int(((self.bearing(frm, to) + 22.5) % 360) // 45)]


class BoardDataError(Exception):
    """The packaged map data is inconsistent (a bug in the data file, never user input)."""


def _check(spots: list[Spot], links: list[Link]) -> None:
    problems: list[str] = []
    keys = [s.key for s in spots]
    if len(set(keys)) != len(keys):
        problems.append("spot keys are not unique")
    if [s.key for s in spots if s.kind is SpotKind.START] != [START]:
        problems.append("there must be exactly one start, keyed 'start'")
    for s in spots:
        prefix = f"{s.kind.value}:"
        if s.kind in (SpotKind.RED, SpotKind.BLUE) and not s.key.startswith(prefix):
            problems.append(f"{s.key}: a {s.kind} spot's key must start with {prefix!r}")
        if not (0 <= s.x <= 1 and 0 <= s.y <= 1):
            problems.append(f"{s.key}: coordinates must be fractions of the board")
        if s.wraps and s.kind is not SpotKind.RED:
            problems.append(f"{s.key}: only red stars wrap around the board's edge")
    pairs = [frozenset((link.a, link.b)) for link in links]
    if len(set(pairs)) != len(pairs):
        problems.append("a pair of spots is linked twice")
    for link in links:
        if link.a == link.b or link.a not in keys or link.b not in keys:
            problems.append(f"{link}: a link joins two different known spots")
    if problems:
        raise BoardDataError("; ".join(problems))


def _names(entries: Iterable[str]) -> tuple[str, ...]:
    return tuple(str(e) for e in entries)


@functools.cache
def load_board() -> Board:
    """The Expeditions map, loaded and validated once.

    Raises:
        BoardDataError: the packaged data file is inconsistent.
    """
    data = json.loads(resources.files("planner.expedition").joinpath("data/map.json").read_text("utf-8"))
    spots = [Spot(s["key"], SpotKind(s["kind"]), s["name"], _names(s["aliases"]), float(s["x"]), float(s["y"]),
                  bool(s["wraps"]), i) for i, s in enumerate(data["spots"])]
    order = {s.key: s.index for s in spots}
    links = []
    for i, (a, b) in enumerate(data["links"]):
        first, second = sorted((a, b), key=lambda k: order.get(k, -1))
        links.append(Link(first, second, i))
    _check(spots, links)
    return Board(spots, links)
