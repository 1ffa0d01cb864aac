"""The board: counts, parallel road+water pairs, river flow, connectivity, distances, and the shared board facts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from planner.elfenland.board import CAPITAL, Board, Connection, Crossing, Terrain, load_board

# The cross-checked board facts the project's data file was built from (eight digital implementations and a photo
# of the printed board), kept in the repository so that the data file is checked against them everywhere.
BOARD_FACTS = Path(__file__).parent / "data" / "elfenland-board-facts.json"

# The 7 river segments as (upstream, downstream), per RULES.md.
RIVER_FLOW = [
    ("BEA", "ELV"),
    ("ELV", "RIV"),
    ("RIV", "TIC"),
    ("VIR", "JXA"),
    ("JXA", "MAH"),
    ("MAH", "GRA"),
    ("WYL", "USS"),
]
PARALLEL_PAIRS = [
    ("BEA", "ELV"),
    ("GRA", "MAH"),
    ("JXA", "MAH"),
    ("JXA", "VIR"),
    ("USS", "WYL"),
    ("GRA", "YTT"),
    ("STR", "VIR"),
]
HOME_CARDS = {"BEA", "ERG", "GRA", "JAC", "JXA", "MAH", "STR", "TIC", "USS", "VIR", "WYL", "YTT"}


def of_terrain(board: Board, terrain: Terrain) -> list[Connection]:
    return [c for c in board.connections.values() if c.terrain is terrain]


# -- counts ------------------------------------------------------------------------------------------------------
def test_load_board_is_cached() -> None:
    assert load_board() is load_board()


def test_town_and_connection_counts(board: Board) -> None:
    assert len(board.towns) == 21
    assert len(board.connections) == 48
    assert len(board.roads) == 35
    assert all(c.is_road for c in board.roads)


@pytest.mark.parametrize(
    ("terrain", "count"),
    [
        (Terrain.PLAIN, 8),
        (Terrain.FOREST, 12),
        (Terrain.DESERT, 7),
        (Terrain.MOUNTAIN, 8),
        (Terrain.RIVER, 7),
        (Terrain.LAKE, 6),
    ],
)
def test_connections_per_terrain(board: Board, terrain: Terrain, count: int) -> None:
    assert len(of_terrain(board, terrain)) == count


def test_capital_is_elvenhold_and_has_no_marker(board: Board) -> None:
    capitals = [t for t in board.towns.values() if t.capital]
    assert [t.code for t in capitals] == [CAPITAL] == ["ELV"]
    assert board.towns["ELV"].name == "Elvenhold"
    assert not board.towns["ELV"].has_marker
    assert sum(t.has_marker for t in board.towns.values()) == 20


def test_town_codes_are_unique_three_upper_case_letters(board: Board) -> None:
    for code, town in board.towns.items():
        assert town.code == code
        assert len(code) == 3 and code.isalpha() and code.isupper()


def test_home_card_towns(board: Board) -> None:
    assert {c for c, t in board.towns.items() if t.home_card} == HOME_CARDS


# -- connection ids, road and water kept apart -------------------------------------------------------------------
def test_connection_ids_are_sorted_codes_and_terrain_letter(board: Board) -> None:
    for cid, c in board.connections.items():
        assert c.id == cid == f"{c.a}-{c.b}:{c.terrain.letter}"
        assert c.a < c.b
        assert str(c) == cid


def test_connection_kinds(board: Board) -> None:
    kinds = Counter(c.kind for c in board.connections.values())
    assert kinds == {"road": 35, "river": 7, "lake": 6}


def test_at_most_one_road_per_pair(board: Board) -> None:
    pairs = Counter(frozenset((c.a, c.b)) for c in board.roads)
    assert max(pairs.values()) == 1


@pytest.mark.parametrize(("a", "b"), PARALLEL_PAIRS)
def test_parallel_road_and_water_are_separate_connections(board: Board, a: str, b: str) -> None:
    links = board.between(a, b)
    assert len(links) == 2
    assert sorted(c.kind == "road" for c in links) == [False, True]
    road = board.road(a, b)
    assert road is not None and road.is_road
    assert board.road(b, a) is road
    water = next(c for c in links if not c.is_road)
    assert water.id != road.id and water.id[:-1] == road.id[:-1]


def test_exactly_seven_parallel_pairs(board: Board) -> None:
    pairs = Counter(frozenset((c.a, c.b)) for c in board.connections.values())
    assert {p for p, n in pairs.items() if n > 1} == {frozenset(p) for p in PARALLEL_PAIRS}
    assert max(pairs.values()) == 2


@pytest.mark.parametrize(("upstream", "downstream"), RIVER_FLOW)
def test_river_flow(board: Board, upstream: str, downstream: str) -> None:
    (river,) = [c for c in board.between(upstream, downstream) if c.terrain is Terrain.RIVER]
    assert river.downstream_to == downstream
    assert river.lake is None
    assert river.kind == "river"


@pytest.mark.parametrize(("upstream", "downstream"), RIVER_FLOW)
def test_a_river_is_crossed_with_the_current_one_way_and_against_it_the_other(board: Board, upstream: str,
                                                                              downstream: str) -> None:
    (river,) = [c for c in board.between(upstream, downstream) if c.terrain is Terrain.RIVER]
    assert river.way(upstream) is Crossing.DOWNSTREAM  # setting off from the upstream end, with the current
    assert river.way(downstream) is Crossing.UPSTREAM


def test_lakes_are_crossed_by_ferry_and_roads_not_by_raft(board: Board) -> None:
    for c in board.connections.values():
        ways = {c.way(c.a), c.way(c.b)}
        assert ways == ({Crossing.LAKE} if c.terrain is Terrain.LAKE else {None} if c.is_road else ways)


def test_every_river_segment_is_listed(board: Board) -> None:
    rivers = {
        (c.other(c.downstream_to), c.downstream_to)
        for c in of_terrain(board, Terrain.RIVER)
        if c.downstream_to is not None
    }
    assert rivers == set(RIVER_FLOW)


def test_only_rivers_have_a_flow(board: Board) -> None:
    for c in board.connections.values():
        assert (c.downstream_to is not None) == (c.terrain is Terrain.RIVER), c.id


def test_lakes_join_their_towns_pairwise(board: Board) -> None:
    lakes: dict[str, set[frozenset[str]]] = {}
    for c in of_terrain(board, Terrain.LAKE):
        assert c.lake is not None and c.downstream_to is None
        lakes.setdefault(c.lake, set()).add(frozenset((c.a, c.b)))
    assert lakes == {
        "Mare Magnum": {frozenset(p) for p in [("ELV", "VIR"), ("ELV", "STR"), ("STR", "VIR")]},
        "Mare Nebulae": {frozenset(p) for p in [("GRA", "YTT"), ("GRA", "PAR"), ("PAR", "YTT")]},
    }


def test_kihromah_has_a_single_road_to_dag_amura_through_forest(board: Board) -> None:
    (link,) = board.links("KIH")
    assert link.id == "DAG-KIH:f"
    assert link.terrain is Terrain.FOREST
    assert link.other("KIH") == "DAG"
    assert board.road("KIH", "DAG") is link


def test_links_and_other_and_touches(board: Board) -> None:
    for code in board.towns:
        for c in board.links(code):
            assert c.touches(code)
            assert c.other(c.other(code)) == code
            assert c in board.between(code, c.other(code))
    assert board.road("ELV", "TIC") is None
    assert board.between("ELV", "TIC") == ()


def test_terrain_letters_and_roads() -> None:
    assert [t.letter for t in Terrain] == ["p", "f", "d", "m", "r", "l"]
    assert [t.is_road for t in Terrain] == [True, True, True, True, False, False]
    assert str(Terrain.MOUNTAIN) == "mountain"


# -- graph, connectivity, distances ------------------------------------------------------------------------------
def test_graph_matches_connections(board: Board) -> None:
    g = board.graph
    assert isinstance(g, nx.MultiGraph)
    assert set(g.nodes) == set(board.towns)
    assert g.number_of_edges() == 48
    assert {k for _, _, k in g.edges(keys=True)} == set(board.connections)
    roads = board.road_graph()
    assert roads.number_of_edges() == 35
    assert {k for _, _, k in roads.edges(keys=True)} == {c.id for c in board.roads}


def test_board_is_connected_with_and_without_water(board: Board) -> None:
    assert nx.is_connected(board.graph)
    roads = board.road_graph()
    assert set(roads.nodes) == set(board.towns)
    assert nx.is_connected(roads)


@pytest.mark.parametrize("roads_only", [False, True], ids=["all-links", "roads-only"])
def test_distance_matches_networkx_for_all_pairs(board: Board, roads_only: bool) -> None:
    graph = board.road_graph() if roads_only else board.graph
    expected = dict(nx.all_pairs_shortest_path_length(graph))
    for a in board.towns:
        for b in board.towns:
            assert board.distance(a, b, roads_only=roads_only) == expected[a][b], (a, b)
            assert nx.shortest_path_length(graph, a, b) == expected[a][b]


def test_distance_examples(board: Board) -> None:
    assert board.distance("ELV", "ELV") == 0
    assert board.distance("ELV", "VIR") == 1  # across Mare Magnum
    assert board.distance("ELV", "VIR", roads_only=True) == 2  # via Lapphalya
    assert board.distance("ELV", "RIV") == 1  # by river
    assert board.distance("ELV", "RIV", roads_only=True) == 2


# -- consistency with the project's board facts ------------------------------------------------------------------
@pytest.fixture(scope="module")
def shared() -> dict[str, Any]:
    return dict(json.loads(BOARD_FACTS.read_text("utf-8")))


def test_towns_match_shared_board_facts(board: Board, shared: dict[str, Any]) -> None:
    by_name = {t.name: t for t in board.towns.values()}
    assert set(by_name) == {t["name"] for t in shared["towns"]}
    for t in shared["towns"]:
        town = by_name[t["name"]]
        assert town.capital == t["capital"]
        assert town.home_card == t["home_card"]
        assert town.has_marker == t["has_town_pieces"]
        assert set(town.aliases) == set(t["aliases"])
        assert (town.x, town.y) == (t["x"], t["y"])
    assert {by_name[n].code for n in shared["home_cards"]} == HOME_CARDS


def test_connections_match_shared_board_facts(board: Board, shared: dict[str, Any]) -> None:
    code = {t.name: t.code for t in board.towns.values()}
    seen = set()
    for c in shared["connections"]:
        terrain = Terrain(c["kind"][0])
        a, b = sorted((code[c["a"]], code[c["b"]]))
        cid = f"{a}-{b}:{terrain.letter}"
        assert cid in board.connections, c
        mine = board.connections[cid]
        assert mine.terrain is terrain
        if terrain is Terrain.RIVER:
            assert mine.downstream_to == code[c["downstream_to"]], cid
        else:
            assert mine.downstream_to is None
        assert mine.lake == c.get("lake")
        seen.add(cid)
    assert seen == set(board.connections)


def test_counts_match_shared_meta(board: Board, shared: dict[str, Any]) -> None:
    for kind, count in shared["meta"]["counts"].items():
        assert len(of_terrain(board, Terrain(kind[0]))) == count
