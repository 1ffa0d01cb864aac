"""The game engine: each phase's rules on hand-built states (outcomes derived by hand from docs/RULES.md), the
invariants of random legal play, and the privacy of views."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.common.problems import Problem
from planner.elfenland.game.engine import apply, check, legal_actions, new_game, scores, view
from planner.elfenland.game.state import (
    Discard,
    Draw,
    GameRules,
    GameState,
    Keep,
    Pass,
    Phase,
    Place,
    PlaceObstacle,
    Player,
    Travel,
)
from planner.elfenland.plan import parse_route
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, TRANSPORTS, Rules, Transport

P, E, C, U, T, D, R = TRANSPORTS


def ok(state: GameState | Problem) -> GameState:
    assert isinstance(state, GameState), state
    return state


def planning(**changes: object) -> GameState:
    """Two players, Anna (seat 0) and Ben, planning in round 1 with small known hands and counters."""
    players = (Player("Anna", hand=Hand.from_str("PPEEDDRR"), open=Hand.from_str("P"), secret=Hand.from_str("E")),
               Player("Ben", hand=Hand.from_str("CCUUTTRR"), open=Hand.from_str("D")))
    state = GameState(seed=1, rules=GameRules(), players=players, phase=Phase.PLAN, deck=(T,) * 10,
                      stack=(U, U, C), display=(P, E, C, U, T))
    return replace(state, **changes)  # type: ignore[arg-type]


# -- the deal and the draw ------------------------------------------------------------------------------------------
def test_new_game_deals_eight_cards_and_one_face_down_counter_each() -> None:
    state = new_game(7, ["a", "b", "c"])
    assert [len(p.hand) for p in state.players] == [8, 8, 8]
    assert [len(p.secret) for p in state.players] == [1, 1, 1]
    assert len(state.display) == 5 and len(state.stack) == 48 - 5 - 3 and len(state.deck) == 72 - 24
    assert (state.phase, state.turn, state.round) == (Phase.DRAW, 0, 1)


def test_a_face_up_draw_is_replaced_at_once_in_its_slot() -> None:
    state = replace(planning(), phase=Phase.DRAW)
    after = ok(apply(state, Draw(2)))
    assert after.players[0].open == Hand.from_str("PC")
    assert after.display == (P, E, U, U, T)  # slot 2 refilled from the stack's top (U)
    assert after.stack == (U, C)
    assert after.turn == 1


def test_a_blind_draw_takes_the_stack_top() -> None:
    after = ok(apply(replace(planning(), phase=Phase.DRAW), Draw(None)))
    assert after.players[0].open == Hand.from_str("PU") and after.display == (P, E, C, U, T)


def test_three_draws_each_in_turn_order_then_planning_starts_with_the_start_player() -> None:
    state = replace(planning(), phase=Phase.DRAW, stack=(P,) * 10, round=2, turn=1)  # round 2: Ben starts
    turns = []
    for _ in range(6):
        turns.append(state.turn)
        state = ok(apply(state, Draw(None)))
    assert turns == [1, 0, 1, 0, 1, 0]
    assert (state.phase, state.turn) == (Phase.PLAN, 1)


def test_a_player_holding_five_counters_can_only_pass_the_draw() -> None:
    state = replace(planning(), phase=Phase.DRAW)
    full = replace(state.players[0], open=Hand.from_str("PPPP"), secret=Hand.from_str("E"))
    state = replace(state, players=(full, state.players[1]))
    assert list(legal_actions(state, 0)) == [Pass()]
    problem = check(state, Draw(0))
    assert problem is not None and "5 counters" in problem.message


# -- planning -------------------------------------------------------------------------------------------------------
def test_planning_ends_when_everybody_passes_in_a_row() -> None:
    state = ok(apply(planning(), Pass()))
    state = ok(apply(state, Place(D, "ELV-LAP:p")))  # Ben places: the passes start again
    assert (state.phase, state.passes, state.turn) == (Phase.PLAN, 0, 0)
    state = ok(apply(state, Pass()))
    assert state.phase is Phase.PLAN
    state = ok(apply(state, Pass()))
    assert (state.phase, state.turn) == (Phase.TRAVEL, 0)
    assert state.tiles == (Tile("ELV-LAP:p", D),)


def test_a_placement_takes_a_face_up_counter_before_a_face_down_one() -> None:
    state = replace(planning(), players=(replace(planning().players[0], open=Hand.from_str("E")),
                                         planning().players[1]))
    after = ok(apply(state, Place(E, "ELV-LAP:p")))
    assert after.players[0].open == Hand() and after.players[0].secret == Hand.from_str("E")


@pytest.mark.parametrize(("action", "words"), [
    (Place(P, "BEA-ELV:r"), "no road"),
    (Place(C, "ELV-ERG:f"), "holds no magic cloud"),
    (Place(P, "ELV-LAP:p"), "already holds"),
    (PlaceObstacle("ELV-ERG:f"), "holding a counter"),
    (Draw(0), "plan phase"),
])
def test_illegal_placements_are_problems_not_states(action: Place | PlaceObstacle | Draw, words: str) -> None:
    state = planning(tiles=(Tile("ELV-LAP:p", D),))
    problem = apply(state, action)
    assert isinstance(problem, Problem) and words in problem.message


@pytest.mark.parametrize("lang", ["ja", "uk"])
@pytest.mark.parametrize("action", [Place(P, "BEA-ELV:r"), Place(C, "ELV-ERG:f"), Place(P, "ELV-LAP:p"),
                                    PlaceObstacle("ELV-ERG:f"), Draw(0), Place(P, "ALB-DAG:d")])
def test_illegal_actions_are_refused_in_the_language_spoken(action: Place | PlaceObstacle | Draw, lang: str) -> None:
    from english import leaks  # tests/helpers

    from planner.common import i18n

    state = planning(tiles=(Tile("ELV-LAP:p", D),))
    english = apply(state, action)
    i18n.use(lang)  # this test only: conftest speaks English again before the next
    problem = apply(state, action)
    assert isinstance(problem, Problem) and isinstance(english, Problem) and problem.kind == english.kind
    assert problem.message != english.message
    roads = ["BEA-ELV:r", "ELV-ERG:f", "ELV-LAP:p", "ALB-DAG:d"]
    assert not leaks(problem.message, spared=[*roads, *(p.name for p in state.players)]), problem.message


def test_the_obstacle_goes_on_a_counter_once_per_game() -> None:
    state = ok(apply(planning(tiles=(Tile("ELV-LAP:p", D),)), PlaceObstacle("ELV-LAP:p")))
    assert state.tiles == (Tile("ELV-LAP:p", D, True),) and not state.players[0].obstacle
    state = ok(apply(state, Pass()))
    state = replace(state, tiles=(*state.tiles, Tile("ELV-ERG:f", P)))
    problem = check(state, PlaceObstacle("ELV-ERG:f"))
    assert problem is not None and "already" in problem.message


# -- travel, discard, keep ------------------------------------------------------------------------------------------
def travelling() -> GameState:
    return planning(phase=Phase.TRAVEL, tiles=(Tile("ELV-LAP:p", P), Tile("LAP-VIR:p", E)))


def test_travel_collects_towns_pays_cards_and_asks_for_the_discard() -> None:
    state = travelling()
    position = Position(at="ELV", hand=state.players[0].hand, tiles=state.tiles)
    after = ok(apply(state, Travel(parse_route(position, "LAP/P VIR/E"))))
    anna = after.players[0]
    assert (anna.town, anna.hand, anna.visited) == ("VIR", Hand.from_str("PEDDRR"), frozenset({"ELV", "LAP", "VIR"}))
    assert after.discards == Hand.from_str("PE")
    assert (after.phase, after.turn) == (Phase.DISCARD, 0)  # 6 cards left: down to 4
    assert check(after, Discard(Hand.from_str("R"))) is not None  # would leave 5
    after = ok(apply(after, Discard(Hand.from_str("RR"))))
    assert after.players[0].hand == Hand.from_str("PEDD") and (after.phase, after.turn) == (Phase.TRAVEL, 1)


def test_an_illegal_step_is_the_verifiers_problem() -> None:
    state = travelling()
    position = Position(at="ELV", hand=state.players[0].hand, tiles=state.tiles)
    problem = apply(state, Travel(parse_route(position, "LAP/D")))  # a pig counter, paid with a dragon
    assert isinstance(problem, Problem) and problem.kind == "illegal-step" and "step 1" in problem.message


def test_keep_returns_the_other_counters_and_the_round_ends() -> None:
    state = planning(phase=Phase.KEEP, tiles=(Tile("ELV-LAP:p", P, True),), stack=(), display=())
    state = ok(apply(state, Keep(E)))  # Anna keeps her face-down elfcycle, her face-up pig goes back
    assert state.players[0].secret == Hand.from_str("E") and state.players[0].open == Hand()
    state = ok(apply(state, Keep(None)))
    # Round 2: the board is empty, the obstacle used is out, Ben starts; the display holds 5 of the 3 returned
    # counters (pig, dragon, pig from the board) ... all of them, and nobody's kept counter.
    assert (state.round, state.phase, state.turn, state.tiles, state.obstacles_out) == (2, Phase.DRAW, 1, (), 1)
    assert sorted(t.letter for t in state.display) == ["D", "P", "P"]


def test_hands_are_topped_up_to_eight_each_round() -> None:
    state = planning(phase=Phase.KEEP, deck=(T,) * 20)
    state = replace(state, players=tuple(replace(p, hand=Hand.from_str("DR")) for p in state.players))
    state = ok(apply(ok(apply(state, Keep(None))), Keep(None)))
    assert [p.hand for p in state.players] == [Hand.from_str("TTTTTTDR")] * 2


def test_the_game_ends_after_the_last_round_and_ties_go_to_the_most_cards() -> None:
    state = planning(phase=Phase.KEEP, round=4)
    a, b = state.players
    state = replace(state, players=(replace(a, visited=frozenset({"ELV", "LAP"}), hand=Hand.from_str("D")),
                                    replace(b, visited=frozenset({"ELV", "VIR"}), hand=Hand.from_str("DD"))))
    state = ok(apply(ok(apply(state, Keep(None))), Keep(None)))
    assert state.phase is Phase.OVER
    found, winners = scores(state)
    assert [s.points for s in found] == [1, 1] and winners == (1,)


def test_three_rounds_as_a_rule_option() -> None:
    state = planning(phase=Phase.KEEP, round=3, rules=GameRules(Rules(rounds=3)))
    assert ok(apply(ok(apply(state, Keep(None))), Keep(None))).phase is Phase.OVER


def test_all_twenty_towns_end_the_game_early_and_win() -> None:
    state = planning(phase=Phase.KEEP)
    everything = frozenset(state.players[0].visited | {t for t in ("BEA", "STR", "VIR", "LAP", "RIV", "ERG", "TIC",
                           "THR", "FEO", "ALB", "DAG", "JXA", "MAH", "GRA", "KIH", "YTT", "PAR", "USS", "WYL", "JAC")})
    state = replace(state, players=(state.players[0], replace(state.players[1], visited=everything)))
    state = ok(apply(ok(apply(state, Keep(None))), Keep(None)))
    assert (state.phase, state.round) == (Phase.OVER, 1)
    assert scores(state)[1] == (1,)


def test_the_home_town_costs_its_distance_after_the_last_round() -> None:
    state = planning(phase=Phase.OVER, round=4, rules=GameRules(home_towns=True))
    a, b = state.players  # Anna in Lapphalya, home Virst (one road); Ben home in Elvenhold's neighbour Beata
    state = replace(state, players=(replace(a, town="LAP", visited=frozenset({"ELV", "LAP"}), home="VIR"),
                                    replace(b, home="BEA")))
    found, _ = scores(state)
    assert [(s.towns, s.penalty, s.points) for s in found] == [(1, 1, 0), (0, 1, -1)]


def test_a_home_town_costs_nothing_with_the_variant_off() -> None:
    state = planning(phase=Phase.OVER, round=4, rules=GameRules(Rules(home_variant=False), home_towns=True))
    a, b = state.players
    state = replace(state, players=(replace(a, town="LAP", home="VIR"), replace(b, home="BEA")))
    assert [(s.penalty, s.home_distance) for s in scores(state)[0]] == [(0, None), (0, None)]


# -- invariants of random legal play --------------------------------------------------------------------------------
def invariants(state: GameState) -> None:
    cards = state.discards + Hand.of(state.deck)
    counters = Hand.of([*state.stack, *state.display, *(t.transport for t in state.tiles if t.transport)])
    for p in state.players:
        cards = cards + p.hand
        counters = counters + p.counters
        assert len(p.hand) <= 8 and len(p.counters) <= 5
    assert cards == Hand.from_str("P" * 10 + "E" * 10 + "C" * 10 + "U" * 10 + "T" * 10 + "D" * 10 + "R" * 12)
    assert counters == Hand.from_counts(dict.fromkeys(COUNTER_TRANSPORTS, 8))
    held = sum(p.obstacle for p in state.players)
    assert held + sum(t.obstacle for t in state.tiles) + state.obstacles_out == len(state.players)
    assert len(state.display) == 5 or not state.stack
    assert len({t.road for t in state.tiles}) == len(state.tiles)


def random_game(seed: int, players: int, rules: GameRules | None = None) -> list[GameState]:
    rng = random.Random(seed)
    state = new_game(seed, [f"p{i}" for i in range(players)], rules)
    states = [state]
    while not state.over:
        actions = []
        for action in legal_actions(state, state.turn):
            actions.append(action)
            if len(actions) >= 60:
                break
        assert not list(legal_actions(state, (state.turn + 1) % players))  # only the player to act may act
        state = ok(apply(state, rng.choice(actions)))
        states.append(state)
    return states


@settings(max_examples=4)
@given(st.integers(0, 10_000), st.integers(2, 6), st.booleans(), st.booleans())
def test_random_legal_play_keeps_every_invariant(seed: int, players: int, carries: bool, homes: bool) -> None:
    for state in random_game(seed, players, GameRules(display_carries=carries, home_towns=homes)):
        invariants(state)


@pytest.mark.slow
@settings(max_examples=60)
@given(st.integers(0, 10_000), st.integers(2, 6), st.booleans(), st.booleans())
def test_random_legal_play_keeps_every_invariant_long(seed: int, players: int, carries: bool, homes: bool) -> None:
    for state in random_game(seed, players, GameRules(display_carries=carries, home_towns=homes)):
        invariants(state)


# -- what a player may know -----------------------------------------------------------------------------------------
def test_views_hide_what_a_player_may_not_know() -> None:
    state = new_game(3, ["a", "b", "c"], GameRules(home_towns=True))
    hidden = replace(state, seed=99, deck=tuple(reversed(state.deck)), stack=tuple(reversed(state.stack)),
                     players=(state.players[0], *(replace(p, hand=Hand.from_str("RRRRRRRR"), secret=Hand.of([U]),
                                                         home="TIC") for p in state.players[1:])))
    assert view(state, 0) == view(hidden, 0)
    assert view(state, 1) != view(hidden, 1)


@settings(max_examples=5)
@given(st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_states_differing_only_in_secrets_give_equal_views(seed: int, rng: random.Random) -> None:
    states = random_game(seed, 3)
    state = rng.choice(states)
    me = rng.randrange(3)
    others = []
    for i, p in enumerate(state.players):
        if i == me:
            others.append(p)
            continue
        cards = p.hand.cards()
        swapped = [rng.choice(TRANSPORTS) for _ in cards]
        secret = [rng.choice(COUNTER_TRANSPORTS) for _ in p.secret.cards()]
        others.append(replace(p, hand=Hand.of(swapped), secret=Hand.of(secret)))
    deck = list(state.deck)
    rng.shuffle(deck)
    stack = list(state.stack)
    rng.shuffle(stack)
    twin = replace(state, players=tuple(others), deck=tuple(deck), stack=tuple(stack), seed=seed + 1,
                   discards=Hand.of([Transport.RAFT] * len(state.discards)))
    assert view(state, me) == view(twin, me)
