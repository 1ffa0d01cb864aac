"""Every claim ``explain`` makes, checked against an independent computation: the verifier's replay, the brute
force, networkx distances, the board data and the rule text's numbers."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import networkx as nx
import pytest
import strategies
from brute import best_by_key, brute_force, payments
from hypothesis import given, settings
from hypothesis import strategies as st
from teachbrute import best_per_end, best_value, small_positions

from planner.elfenland.board import Terrain
from planner.elfenland.generate import random_position
from planner.elfenland.keep import cheapest_cards
from planner.elfenland.plan import Pay, Plan, Step, parse_route, verify
from planner.elfenland.position import Hand, Position
from planner.elfenland.position_file import load_position
from planner.elfenland.rules import COSTS, DECK, TRANSPORTS, Caravan, HomeDistance
from planner.elfenland.solvers import Status, solve
from planner.elfenland.teach.compare import compare
from planner.elfenland.teach.ends import END_ROWS, end_table
from planner.elfenland.teach.explanation import explain
from planner.elfenland.teach.steps import Reason, step_notes
from planner.elfenland.teach.whatif import what_if
from planner.errors import IllegalStepError

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


# -- the steps ---------------------------------------------------------------------------------------------------
def switched(plan: Plan, index: int) -> Plan | None:
    """The route with caravan ``index`` paid with the counter's matching cards and every caravan paid again from
    the cards no counter or raft needs, if the verifier accepts it (any such cards do: nothing is drawn)."""
    position = plan.position
    steps = list(plan.steps)
    step = steps[index]
    tile = position.tile_map()[step.connection]
    assert tile.transport is not None
    cost = COSTS[tile.transport][position.board.connections[step.connection].terrain] + tile.obstacle
    steps[index] = Step(step.frm, step.to, step.connection, Pay.COUNTER, Hand.from_counts({tile.transport: cost}))
    specific = Hand()
    for s in steps:
        if s.pay is not Pay.CARAVAN:
            specific = specific + s.cards
    if not position.hand.contains(specific):
        return None
    spare = position.hand.without(specific)
    repaid = []
    for s in steps:
        if s.pay is Pay.CARAVAN:
            if len(spare) < len(s.cards):
                return None
            s = Step(s.frm, s.to, s.connection, s.pay, cheapest_cards(spare, len(s.cards)))
            spare = spare.without(s.cards)
        repaid.append(s)
    try:
        return Plan.of(position, repaid)
    except IllegalStepError:
        return None


def check_notes(plan: Plan) -> None:
    """Each note's facts against the replay, the board and the rule text (RULES.md's tables and numbers)."""
    position = plan.position
    board = position.board
    stood = {position.at}
    collected = set(position.visited)
    for index, note in enumerate(step_notes(plan)):
        step = plan.steps[index]
        held = verify(position, plan.steps[:index]).cards_left
        assert note.held == held and note.number == index + 1 and note.step == step
        reasons = set(note.reasons)
        connection = board.connections[step.connection]
        assert note.beside == next((c.id for c in board.between(step.frm, step.to) if c.id != step.connection), None)
        if connection.is_road:
            tile = position.tile_map()[step.connection]
            assert tile.transport is not None
            cost = COSTS[tile.transport][connection.terrain] + tile.obstacle
            caravan = cost + 2 if position.rules.caravan is Caravan.SCALED else 3 + tile.obstacle
            assert (note.counter, note.obstacle, note.counter_cost, note.caravan_cost) == (
                tile.transport, tile.obstacle, cost, caravan)
            assert (Reason.OBSTACLE in reasons) == tile.obstacle
            if step.pay is Pay.COUNTER:
                assert Reason.COUNTER in reasons and step.cards == Hand.from_counts({tile.transport: cost})
            elif held[tile.transport] < cost:
                assert Reason.CARAVAN_ONLY in reasons
            elif Reason.CARAVAN_SAVES in reasons:
                assert switched(plan, index) is None
                others = [n for n, s in enumerate(plan.steps, 1) if n != index + 1 and s.pay is not Pay.CARAVAN
                          and s.cards[tile.transport]]
                assert note.others == tuple(others)
                assert note.needed == sum(plan.steps[n - 1].cards[tile.transport] for n in others)
            else:
                assert Reason.CARAVAN_DEARER in reasons
                better = switched(plan, index)
                assert better is not None and better.cards_spent == plan.cards_spent - note.saved
                assert better.score == plan.score
        else:
            kind = ("ferry" if connection.terrain is Terrain.LAKE
                    else "downstream" if connection.downstream_to == step.to else "upstream")
            assert Reason(kind) in reasons and note.rafts == {"ferry": 2, "downstream": 1, "upstream": 2}[kind]
        new = step.to not in collected and step.to != "ELV"
        assert (Reason.NEW_TOWN in reasons) == new
        assert (Reason.CAPITAL in reasons) == (step.to == "ELV" and not new)
        assert (Reason.BACKTRACK in reasons) == (step.to in stood)
        assert (Reason.COLLECTED in reasons) == (step.to in collected and step.to not in stood and step.to != "ELV")
        if Reason.DEAD_END in reasons:
            assert plan.steps[index - 1].frm == step.to
            assert {s.to for s in payments(position, step.frm, held.counts)} == {step.to}
        last = index == len(plan.steps) - 1
        assert (Reason.END in reasons) == last
        if last and position.scores_home:
            assert position.home is not None
            graph = board.graph if position.rules.home_distance is HomeDistance.ALL else board.road_graph()
            assert note.home_distance == nx.shortest_path_length(graph, step.to, position.home)
        else:
            assert Reason.HOME not in reasons
        assert len(note.text) >= 2 and all(sentence.strip() for sentence in note.text)
        stood.add(step.to)
        collected.add(step.to)


def check_notes_of(case: tuple[Position, tuple[Step, ...]]) -> None:
    position, steps = case
    try:
        plan = Plan.of(position, steps)
    except IllegalStepError:
        return
    check_notes(plan)


@settings(max_examples=strategies.examples(25))
@given(strategies.positions_and_routes())
def test_every_note_of_any_legal_route_is_true(case: tuple[Position, tuple[Step, ...]]) -> None:
    check_notes_of(case)


@pytest.mark.slow
@settings(max_examples=400)
@given(strategies.positions_and_routes())
def test_every_note_of_many_more_legal_routes_is_true(case: tuple[Position, tuple[Step, ...]]) -> None:
    check_notes_of(case)


@pytest.mark.parametrize("seed", range(4))
def test_every_note_of_the_best_route_is_true(seed: int) -> None:
    position = random_position(random.Random(seed), cards=8, counters=35)
    check_notes(solve(position).plan)


def test_worked_by_hand_the_caravan_that_keeps_the_dragons() -> None:
    """Scenario 02: the obstacle road to Feodor takes a 4-card caravan although 3 dragons are in hand, because
    steps 2, 3 and 4 pay a dragon each."""
    position = load_position(str(SCENARIOS / "02-caravan.toml"))
    first = step_notes(solve(position).plan)[0]
    assert Reason.CARAVAN_SAVES in first.reasons and Reason.OBSTACLE in first.reasons
    assert (first.others, first.needed, first.counter_cost, first.caravan_cost) == ((2, 3, 4), 3, 3, 4)


def test_worked_by_hand_the_dead_end_and_the_dearer_caravan() -> None:
    """Scenario 06: back from Kihromah is a dead end; a caravan where one unicorn would do wastes two cards."""
    position = load_position(str(SCENARIOS / "06-dead-end.toml"))
    notes = step_notes(Plan.of(position, parse_route(position, "dag/U kih/U dag/PCT")))
    assert Reason.DEAD_END in notes[2].reasons and notes[2].ways_on == ("DAG",)
    assert Reason.CARAVAN_DEARER in notes[2].reasons and notes[2].saved == 2


# -- what-if -----------------------------------------------------------------------------------------------------
def check_what_if(position: Position) -> None:
    """Each gain is the difference of two optima of the brute force, and no single card or counter does better."""
    base = solve(position).plan
    assert base.value == brute_force(position)[0]
    found = what_if(position, base)
    assert found.proven
    from test_teach_reach import every_addition

    gains: dict[str, list[tuple[int, int]]] = {"card": [], "counter": []}
    for kind, bigger in every_addition(position):
        value = best_value(bigger)
        gains[kind].append((value[0] - base.score, base.cards_spent + value[1]))
    for kind, gain in (("card", found.card), ("counter", found.counter)):
        if not gains[kind]:
            assert gain is None
            continue
        assert gain is not None
        assert gain.value == max(gains[kind]), kind
        bigger = gain.addition.apply(position)
        assert gain.plan.value == best_value(bigger) and verify(bigger, gain.plan.steps).score == gain.plan.score
    for tie in found.card_ties + found.counter_ties:
        tied = best_value(tie.apply(position))
        gain = found.card if tie.kind == "card" else found.counter
        assert gain is not None and tied == gain.plan.value


@pytest.mark.parametrize("position", small_positions(3, 41, cards=4), ids=str)
def test_what_if_gains_are_re_solved_optima(position: Position) -> None:
    check_what_if(position)


@pytest.mark.slow
@pytest.mark.parametrize("position", small_positions(12, 42, cards=5) + small_positions(4, 43, cards=6), ids=str)
def test_what_if_gains_on_more_positions(position: Position) -> None:
    check_what_if(position)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_what_if_on_real_game_hands_matches_cpsat_re_solving_with_each_card(seed: int) -> None:
    position = random_position(random.Random(seed + 50), cards=8, counters=28)
    base = solve(position, solver="cpsat").plan
    found = what_if(position, solve(position).plan)
    assert found.card is not None and found.counter is not None
    values = {}
    for card in TRANSPORTS:
        if position.hand[card] < DECK[card]:
            bigger = position.replace(hand=position.hand + Hand.of([card]))
            values[card] = solve(bigger, solver="cpsat").plan.value
    top = max(values.values())
    assert found.card.value == (top[0] - base.score, base.cards_spent + top[1])
    assert found.card.addition.card is not None and values[found.card.addition.card] == top
    chosen = found.counter.addition.apply(position)
    assert found.counter.plan.value == solve(chosen, solver="cpsat").plan.value


# -- end towns ---------------------------------------------------------------------------------------------------
@st.composite
def last_rounds(draw: st.DrawFn) -> Position:
    position = draw(strategies.positions(max_cards=4, min_tiles=15))
    return position.replace(round=position.rules.rounds, home=draw(st.sampled_from(strategies.HOME_TOWNS)),
                            rules=position.rules.with_options(home_variant=True, caravan_when="always"))


def check_end_rows(position: Position) -> None:
    table = end_table(position)
    assert table is not None and table.proven
    per_end = best_per_end(position)
    keys = best_by_key(position)
    assert table.most_towns == max(len(towns) for towns, _ in keys)
    best = brute_force(position)[0]
    assert table.rows[0].plan.value == best
    assert all(row.best == (row.plan.value == best) for row in table.rows)
    kth = sorted(keys.values(), reverse=True)[min(END_ROWS, len(keys)) - 1]
    for row in table.rows:
        assert row.plan.value == per_end[row.end], row.end
        assert row.home_distance == position.home_penalty(row.end) and row.towns == len(row.plan.new_towns)
        assert row.most_towns == (row.towns == table.most_towns)
    listed = {row.end for row in table.rows}
    assert all(value <= kth for end, value in per_end.items() if end not in listed)
    assert any(row.most_towns for row in table.rows)


@settings(max_examples=12)
@given(last_rounds())
def test_each_end_town_row_is_the_best_route_into_that_town(position: Position) -> None:
    check_end_rows(position)


@pytest.mark.slow
@settings(max_examples=strategies.examples(200))
@given(last_rounds())
def test_each_end_town_row_on_many_more_last_rounds(position: Position) -> None:
    check_end_rows(position)


def test_end_towns_only_when_home_scores() -> None:
    assert end_table(load_position(str(SCENARIOS / "02-caravan.toml"))) is None


def test_worked_by_hand_two_towns_at_home_beat_five_far_away() -> None:
    """Scenario 07: ending at home (Virst) with 2 towns scores 2; the most towns end far from Virst."""
    table = end_table(load_position(str(SCENARIOS / "07-last-round-home.toml")))
    assert table is not None
    best = table.rows[0]
    assert (best.end, best.towns, best.home_distance, best.score) == ("VIR", 2, 0, 2)
    far = next(row for row in table.rows if row.most_towns)
    assert far.score < best.score and far.towns > best.towns


# -- your route --------------------------------------------------------------------------------------------------
def check_comparison(position: Position, steps: tuple[Step, ...]) -> None:
    best = solve(position).plan
    found = compare(position, steps, best)
    try:
        yours = verify(position, steps)
        legal = steps
        assert found.error is None and found.yours is not None
        assert found.optimal == ((yours.score, -yours.cards_spent) >= best.value)
    except IllegalStepError as error:
        assert found.error is not None and (found.error.index, found.error.reason) == (error.index, error.reason)
        legal = steps[:error.index]
    expected = []
    for k in range(len(legal) + 1):
        done = verify(position, legal[:k])
        after = Position(at=done.end, hand=done.cards_left, tiles=position.tiles,
                         visited=position.visited | set(done.new_towns), home=position.home,
                         round=position.round, rules=position.rules)
        score, neg = brute_force(after)[0]
        expected.append((len(done.new_towns) + score, neg - done.cards_spent))
    assert list(found.potentials) == expected
    drops = [k for k in range(1, len(expected)) if expected[k] < expected[k - 1]]
    assert found.behind_at == (drops[0] if drops else None)
    if found.yours is not None:
        assert found.stopped_early == (expected[-1] > found.yours.value)


SMALL_CASES = strategies.positions_and_routes(max_steps=5).filter(lambda case: len(case[0].hand) <= 6)


@settings(max_examples=8)
@given(SMALL_CASES)
def test_where_a_route_falls_behind_is_where_the_best_still_possible_drops(
        case: tuple[Position, tuple[Step, ...]]) -> None:
    check_comparison(*case)


@pytest.mark.slow
@settings(max_examples=strategies.examples(200))
@given(SMALL_CASES)
def test_where_many_more_routes_fall_behind(case: tuple[Position, tuple[Step, ...]]) -> None:
    check_comparison(*case)


def test_worked_by_hand_skipping_kihromah_costs_a_point_at_step_two() -> None:
    """Scenario 06 without the dead end: after Dag'Amura, going on to Mah'Davikia leaves Kihromah out of reach
    (coming back needs the dragon Grangor needs), so the second step costs a town."""
    position = load_position(str(SCENARIOS / "06-dead-end.toml"))
    steps = parse_route(position, "dag/U mah/D gra:m/D")
    found = compare(position, steps, solve(position).plan)
    assert found.behind_at == 2 and found.step_cost[0] == 1 and found.lost == (1, -2)
    assert found.instead is not None and found.instead.steps[0].to == "KIH"


def test_explain_puts_it_all_together() -> None:
    position = load_position(str(SCENARIOS / "07-last-round-home.toml"))
    found = explain(position, route=parse_route(position, "mah:r/R gra:r/R"))
    assert found.proven and found.solution.plan.value == (2, -2)
    assert len(found.notes) == 2 and found.ends is not None and found.what_if is not None
    assert found.comparison is not None and found.comparison.behind_at == 1
    assert {row.town for row in found.reach} == position.collectable()


# -- stopping ----------------------------------------------------------------------------------------------------
def test_a_set_stop_ends_the_explanation_with_what_was_found_unproven() -> None:
    # The table stops an explanation when a newer change comes: every solve in it (the route, each what-if, the
    # end towns, the comparison) takes the stop, so it ends at once with a legal route, marked unproven.
    position = load_position(str(SCENARIOS / "18-puzzle-every-road.toml"))  # about 2 s when left to finish
    stop = threading.Event()
    stop.set()
    found = explain(position, route=(), stop=stop)
    assert found.solution.status is Status.STOPPED and not found.proven
    assert found.what_if is not None and not found.what_if.proven
    assert verify(position, found.solution.plan.steps).score == found.solution.plan.score
