"""The reachability table against a plain shortest path (networkx) and a brute force over exact hands."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from teachbrute import fewest_cards, small_positions

from planner.elfenland.board import Terrain
from planner.elfenland.generate import random_position
from planner.elfenland.plan import Pay
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COSTS, COUNTER_TRANSPORTS, COUNTERS, DECK, TRANSPORTS, Rules, Transport
from planner.elfenland.teach.reach import cheapest, reach_table


def card_graph(position: Position) -> nx.DiGraph:
    """Towns joined by the cheapest cards each step can cost, read from the cost table of RULES.md: the counter's
    cost (+1 obstacle) or a caravan; rafts 1 downstream, 2 upstream and across lakes."""
    graph = nx.DiGraph()
    graph.add_nodes_from(position.board.towns)
    tiles = position.tile_map()
    for c in position.board.connections.values():
        for frm, to in ((c.a, c.b), (c.b, c.a)):
            if c.terrain is Terrain.LAKE:
                weight = 2
            elif c.terrain is Terrain.RIVER:
                weight = 1 if c.downstream_to == to else 2
            else:
                tile = tiles.get(c.id)
                if tile is None or tile.transport is None:
                    continue
                cost = COSTS[tile.transport][c.terrain] + tile.obstacle
                weight = min(cost, position.rules.caravan_cost(cost, obstacle=tile.obstacle))
            if not graph.has_edge(frm, to) or graph[frm][to]["weight"] > weight:
                graph.add_edge(frm, to, weight=weight)
    return graph


FULL_DECK = Hand.from_counts(DECK)


@pytest.mark.parametrize("seed", [0, 2, pytest.param(4, marks=pytest.mark.slow), 5,
                                  *[pytest.param(s, marks=pytest.mark.slow) for s in range(6, 16)]])
def test_with_the_whole_deck_in_hand_reach_is_a_plain_shortest_path(seed: int) -> None:
    """With every card of the game in hand the hand's limits never bind: the fewest cards to each town are a
    shortest path over card costs."""
    rules = Rules(caravan="scaled") if seed % 3 == 2 else Rules()
    base = random_position(random.Random(seed), cards=8, counters=12 + 4 * seed, rules=rules)
    position = base.replace(hand=FULL_DECK)
    distances = nx.single_source_dijkstra_path_length(card_graph(position), position.at)
    found = cheapest(position)  # what the table's numbers are (the table itself is checked on small hands)
    for town in position.board.towns:
        assert found.get(town, (None,))[0] == distances.get(town), (town, str(position))


@pytest.mark.parametrize("position", small_positions(6, 31, cards=5) + small_positions(3, 32, cards=7), ids=str)
def test_reach_is_the_fewest_cards_any_route_pays(position: Position) -> None:
    cheapest = fewest_cards(position)
    for row in reach_table(position):
        assert row.cards == cheapest.get(row.town), (row.town, str(position))
        if row.route is not None:
            assert row.route.end == row.town and row.route.cards_spent == row.cards
        else:
            assert row.town not in cheapest


def every_addition(position: Position) -> list[tuple[str, Position]]:
    """Every single extra card the deck has left and every single extra counter on an empty road (whatever the
    library would try), each with the position it makes."""
    found = []
    for card in TRANSPORTS:
        if position.hand[card] < DECK[card]:
            found.append(("card", position.replace(hand=position.hand + Hand.of([card]))))
    tiles = position.tile_map()
    for road in position.board.roads:
        for transport in COUNTER_TRANSPORTS:
            used = sum(t.transport is transport for t in position.tiles)
            if road.id not in tiles and road.terrain in COSTS[transport] and used < COUNTERS[transport]:
                found.append(("counter", position.replace(tiles=(*position.tiles, Tile(road.id, transport)))))
    return found


def check_needs(position: Position) -> None:
    rows = [row for row in reach_table(position) if row.cards is None]
    if not rows:
        return
    best: dict[tuple[str, str], int] = {}
    for kind, bigger in every_addition(position):
        for town, cards in fewest_cards(bigger).items():
            best[(town, kind)] = min(best.get((town, kind), cards), cards)
    for row in rows:
        for kind, need in (("card", row.card), ("counter", row.counter)):
            assert (need.cards if need else None) == best.get((row.town, kind)), (row.town, kind, str(position))
            if need is not None:
                assert fewest_cards(need.addition.apply(position))[row.town] == need.cards
                assert need.route.end == row.town and need.route.cards_spent == need.cards
                assert need.addition.kind == kind


@pytest.mark.parametrize("position", small_positions(3, 33, cards=3), ids=str)
def test_what_an_unreachable_town_would_need_is_the_best_single_addition(position: Position) -> None:
    check_needs(position)


@pytest.mark.slow
@pytest.mark.parametrize("position", small_positions(20, 34, cards=4) + small_positions(8, 35, cards=6), ids=str)
def test_what_an_unreachable_town_would_need_on_more_positions(position: Position) -> None:
    check_needs(position)


def test_worked_by_hand_a_caravan_a_river_and_what_virst_would_need() -> None:
    """From Dag'Amura with U D D R: Kihromah is 1 unicorn. Jxara is a 3-card caravan (the pig counter; no pig in
    hand), and Mah'Davikia one raft more, downstream: 4. Virst lies up the river from Jxara (2 rafts) and its road
    from Jxara holds no counter: out of reach. One more raft brings it in for 3 + 2 = 5 cards; a counter on the
    Jxara-Virst road paid by the dragon left after a U D R caravan, for 3 + 1 = 4."""
    position = Position.from_str("U@DAG-KIH:f,P@DAG-JXA:f DAG UDDR - 1")
    rows = {row.town: row for row in reach_table(position)}
    assert (rows["KIH"].cards, rows["JXA"].cards, rows["MAH"].cards) == (1, 3, 4)
    assert rows["JXA"].route is not None and rows["JXA"].route.steps[0].pay is Pay.CARAVAN
    virst = rows["VIR"]
    assert virst.cards is None and virst.card is not None and virst.counter is not None
    assert (virst.card.addition.card, virst.card.cards) == (Transport.RAFT, 5)
    assert (virst.counter.addition.road, virst.counter.addition.counter, virst.counter.cards) == (
        "JXA-VIR:p", Transport.DRAGON, 4)
