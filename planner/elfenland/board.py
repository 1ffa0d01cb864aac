"""The Elfenland map: towns, roads with their terrain, rivers with their flow, lakes with their ferries.

The data lives in ``data/board.json`` (built from the project's cross-checked board facts); it is loaded once,
validated at load and exposed as immutable objects. Connection ids are the domain keys everywhere: the two town
codes in sorted order and a terrain letter, e.g. ``BEA-ELV:p`` (road) and ``BEA-ELV:r`` (river).
"""

from __future__ import annotations

import enum
import functools
import json
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

from planner.common.values import frozen

if TYPE_CHECKING:  # networkx costs ~0.2 s to import; only the graph property pays it.
    import networkx as nx

CAPITAL = "ELV"


class Terrain(enum.Enum):
    """What a connection runs through: four road terrains and two kinds of water."""

    PLAIN = "p"
    FOREST = "f"
    DESERT = "d"
    MOUNTAIN = "m"
    RIVER = "r"
    LAKE = "l"

    @property
    def letter(self) -> str:
        """The one-letter terrain code used in connection ids (``BEA-ELV:p``)."""
        return self.value

    @property
    def is_road(self) -> bool:
        """Roads carry counters and obstacles; water carries rafts only."""
        return self not in (Terrain.RIVER, Terrain.LAKE)

    def __str__(self) -> str:
        return self.name.lower()


class Crossing(enum.StrEnum):
    """How a raft crosses water from one end: with a river's current, against it, or across a lake.

    Its text is the word a player reads (``upstream``); what each costs is :data:`~planner.elfenland.rules.RAFT_COSTS`.
    """

    DOWNSTREAM = "downstream"
    UPSTREAM = "upstream"
    LAKE = "lake"


@frozen
class Town:
    """A town of the map."""

    code: str
    """Unique three-letter code, e.g. ``ELV``."""
    name: str
    """Printed name without accents, e.g. ``Erg'Eren``."""
    aliases: tuple[str, ...]
    """Other spellings accepted on input."""
    x: int
    """Centre on the board picture, 0..1000 from the left."""
    y: int
    """Centre on the board picture, 0..700 from the top."""
    capital: bool
    """Elvenhold: every boot starts there and it holds no town marker."""
    home_card: bool
    """Whether a home-town card names this town."""

    @property
    def has_marker(self) -> bool:
        """Whether entering the town can collect a marker (every town but the capital)."""
        return not self.capital

    def __str__(self) -> str:
        return self.name


@frozen
class Connection:
    """A road, river segment or lake link between two towns (``a`` < ``b`` by code)."""

    id: str
    """``AAA-BBB:t`` with the codes sorted and the terrain letter."""
    a: str
    b: str
    terrain: Terrain
    downstream_to: str | None = None
    """For rivers, the town the water flows to."""
    lake: str | None = None
    """For lake links, the lake's name."""

    @property
    def is_road(self) -> bool:
        """Whether counters, obstacles and caravans can use this connection."""
        return self.terrain.is_road

    @property
    def kind(self) -> str:
        """``road``, ``river`` or ``lake``."""
        return "road" if self.is_road else self.terrain.name.lower()

    def other(self, town: str) -> str:
        """The town at the other end from ``town``."""
        return self.b if town == self.a else self.a

    def way(self, frm: str) -> Crossing | None:
        """How the water is crossed from ``frm`` (a :class:`Crossing`); None on a road.

        The one place where a river's flow turns into a direction of travel.
        """
        if self.terrain is Terrain.LAKE:
            return Crossing.LAKE
        if self.terrain is Terrain.RIVER:
            return Crossing.UPSTREAM if self.downstream_to == frm else Crossing.DOWNSTREAM
        return None

    def touches(self, town: str) -> bool:
        """Whether ``town`` is one of the two ends."""
        return town in (self.a, self.b)

    def __str__(self) -> str:
        return self.id


class Board:
    """The static map; use :func:`load_board` to get the shared instance."""

    def __init__(self, towns: list[Town], connections: list[Connection]) -> None:
        self.towns: dict[str, Town] = {t.code: t for t in towns}
        self.connections: dict[str, Connection] = {c.id: c for c in connections}
        links: dict[str, list[Connection]] = {code: [] for code in self.towns}
        for c in connections:
            links[c.a].append(c)
            links[c.b].append(c)
        self._links = {code: tuple(cs) for code, cs in links.items()}
        self._roads = {frozenset((c.a, c.b)): c for c in connections if c.is_road}
        self._distances: dict[tuple[str, bool], dict[str, int]] = {}

    def links(self, town: str) -> tuple[Connection, ...]:
        """Every connection touching ``town``."""
        return self._links[town]

    def road(self, a: str, b: str) -> Connection | None:
        """The road between two towns, if any (there is at most one road per pair)."""
        return self._roads.get(frozenset((a, b)))

    def between(self, a: str, b: str) -> tuple[Connection, ...]:
        """Every connection (road and water) between two towns."""
        return tuple(c for c in self._links[a] if c.other(a) == b)

    @property
    def roads(self) -> tuple[Connection, ...]:
        """The 35 roads, in data order."""
        return tuple(c for c in self.connections.values() if c.is_road)

    def distance(self, a: str, b: str, *, roads_only: bool = False) -> int:
        """Links on a shortest path between two towns (water links counted unless ``roads_only``).

        A plain breadth-first search rather than networkx, so that the CLI's default path never imports it;
        the tests cross-check it against ``networkx.shortest_path_length`` on :attr:`graph`.
        """
        key = (a, roads_only)
        table = self._distances.get(key)
        if table is None:
            table = self._distances[key] = self._bfs(a, roads_only)
        return table[b]

    def _bfs(self, start: str, roads_only: bool) -> dict[str, int]:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            town = queue.popleft()
            for c in self._links[town]:
                nxt = c.other(town)
                if nxt not in dist and (c.is_road or not roads_only):
                    dist[nxt] = dist[town] + 1
                    queue.append(nxt)
        return dist

    @functools.cached_property
    def graph(self) -> nx.MultiGraph:
        """The map as a networkx multigraph: nodes are town codes, edge keys are connection ids."""
        import networkx as nx

        g = nx.MultiGraph()
        for t in self.towns.values():
            g.add_node(t.code, name=t.name, x=t.x, y=t.y)
        for c in self.connections.values():
            g.add_edge(c.a, c.b, key=c.id, terrain=c.terrain.letter, downstream_to=c.downstream_to)
        return g

    def road_graph(self) -> nx.MultiGraph:
        """The subgraph of roads only."""
        g = self.graph
        return g.edge_subgraph([(a, b, k) for a, b, k in g.edges(keys=True) if self.connections[k].is_road])


class BoardDataError(Exception):
    """The packaged board data is inconsistent (a bug in the data file, never user input)."""


def _check(towns: list[Town], connections: list[Connection]) -> None:
    problems = []
    codes = [t.code for t in towns]
    if len(set(codes)) != len(codes):
        problems.append("town codes are not unique")
    if sum(t.capital for t in towns) != 1:
        problems.append("there must be exactly one capital")
    ids = [c.id for c in connections]
    if len(set(ids)) != len(ids):
        problems.append("connection ids are not unique")
    for c in connections:
        if c.a not in codes or c.b not in codes or not c.a < c.b:
            problems.append(f"{c.id}: ends must be known towns in sorted order")
        if c.id != f"{c.a}-{c.b}:{c.terrain.letter}":
            problems.append(f"{c.id}: id does not match its ends and terrain")
        if (c.terrain is Terrain.RIVER) != (c.downstream_to is not None) or (
            c.downstream_to is not None and not c.touches(c.downstream_to)
        ):
            problems.append(f"{c.id}: a river needs downstream_to naming one of its ends, nothing else may")
        if (c.terrain is Terrain.LAKE) != (c.lake is not None):
            problems.append(f"{c.id}: a lake link needs its lake's name, nothing else may")
    if problems:
        raise BoardDataError("; ".join(problems))


def _board_text() -> str:
    """The packaged ``data/board.json``: read beside this module (importlib.resources, with the zip, tempfile and
    compression modules it imports, costs more start-up than parsing the file; it serves zipped installs only)."""
    path = Path(__file__).with_name("data") / "board.json"
    if path.is_file():
        return path.read_text("utf-8")
    from importlib import resources

    return resources.files("planner.elfenland").joinpath("data/board.json").read_text("utf-8")


@functools.cache
def load_board() -> Board:
    """The Elfenland board, loaded and validated once.

    Raises:
        BoardDataError: the packaged data file is inconsistent.
    """
    data = json.loads(_board_text())
    towns = [
        Town(t["code"], t["name"], tuple(t["aliases"]), t["x"], t["y"], t["capital"], t["home_card"])
        for t in data["towns"]
    ]
    connections = [
        Connection(c["id"], c["a"], c["b"], Terrain(c["id"][-1]), c.get("downstream_to"), c.get("lake"))
        for c in data["connections"]
    ]
    _check(towns, connections)
    return Board(towns, connections)
