"""The bots: greedy's choices on hand-built positions (derived by hand from the board and the cost table), and every
seat choosing only legal actions from its view."""

from __future__ import annotations

from dataclasses import replace

import pytest

from planner.elfenland.game.engine import check, new_game, options, view
from planner.elfenland.game.seats import (
    cheapest_counter,
    greedy_draw,
    greedy_place,
    greedy_route,
    make_seat,
    plentiful,
    way,
)
from planner.elfenland.game.selfplay import BotError, play
from planner.elfenland.game.state import Draw, GameRules, GameState, Pass, Phase, Place, Player, View
from planner.elfenland.plan import verify
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import TRANSPORTS

P, E, C, U, T, D, R = TRANSPORTS
ALL = frozenset({"ELV", "BEA", "STR", "VIR", "LAP", "RIV", "ERG", "TIC", "THR", "FEO", "ALB", "DAG", "JXA", "MAH",
                 "GRA", "KIH", "YTT", "PAR", "USS", "WYL", "JAC"})


def seen(phase: Phase, *, hand: str, display: tuple[object, ...] = (P, E, C, U, T), counters: str = "",
         town: str = "LAP", left: frozenset[str] = frozenset({"VIR"}), tiles: tuple[Tile, ...] = ()) -> View:
    """Anna's view: in ``town``, every town collected but ``left``."""
    anna = Player("Anna", town=town, hand=Hand.from_str(hand), open=Hand.from_str(counters), visited=ALL - left)
    state = GameState(seed=0, rules=GameRules(), players=(anna, Player("Ben")), phase=phase,
                      stack=(D,) * 5, display=display, tiles=tiles)  # type: ignore[arg-type]
    return view(state, 0)


def test_the_way_is_the_shortest_path_to_the_last_town() -> None:
    assert way(Position(at="LAP", visited=ALL - {"VIR"})) == ["LAP-VIR:p"]


def test_greedy_draws_the_counter_its_road_needs_that_its_hand_pays() -> None:
    # LAP-VIR is plain: pig 1 (no pig card), elfcycle 1 (paid), cloud 2 (paid), unicorn cannot, troll 1 (no card).
    assert greedy_draw(seen(Phase.DRAW, hand="EECCDDRR")) == Draw(1)


def test_greedy_draws_blind_when_no_face_up_counter_fits() -> None:
    assert greedy_draw(seen(Phase.DRAW, hand="EECCDDRR", display=(U, U, U, U, U))) == Draw(None)


def test_greedy_places_a_fitting_counter_on_the_first_empty_road() -> None:
    assert greedy_place(seen(Phase.PLAN, hand="DDRR", counters="PU")) == Place(P, "LAP-VIR:p")
    assert greedy_place(seen(Phase.PLAN, hand="DDRR", counters="U")) == Pass()  # a unicorn cannot go on plain


def test_greedy_travels_to_the_nearest_affordable_towns_one_after_another() -> None:
    # From Elvenhold with P E R R: Lapphalya (a pig, 1 card) ties Rivinia (1 raft downstream) and comes first by
    # code; then Virst by elfcycle, then down the river Virst -> Jxara -> Mah'Davikia with one raft each.
    position = Position(at="ELV", hand=Hand.from_str("PERR"), tiles=(Tile("ELV-LAP:p", P), Tile("LAP-VIR:p", E)))
    travel = greedy_route(position)
    assert [s.to for s in travel.steps] == ["LAP", "VIR", "JXA", "MAH"]
    assert verify(position, travel.steps).cards_spent == 4


def test_greedy_stays_when_nothing_is_affordable() -> None:
    assert greedy_route(Position(at="ELV", hand=Hand.from_str("DD"))).steps == ()


def test_greedy_keeps_its_most_plentiful_cards_and_the_cheapest_counter() -> None:
    assert plentiful(Hand.from_str("PPPEEDDRC")) == Hand.from_str("PPPE")
    # Mean cost over the roads each travels: pig 1, elfcycle 36/28, dragon 47/35.
    assert cheapest_counter(Hand.from_str("ED")) is E
    assert cheapest_counter(Hand.from_str("PED")) is P
    assert cheapest_counter(Hand()) is None


@pytest.mark.parametrize("kinds", [("random", "greedy", "router"), ("greedy", "random")])
def test_bots_choose_only_legal_actions(kinds: tuple[str, ...]) -> None:
    state = new_game(5, [f"{k}{i}" for i, k in enumerate(kinds)])
    states, actions = play(state, [make_seat(k, f"5/{i}") for i, k in enumerate(kinds)])
    assert states[-1].over
    for before, action in zip(states, actions, strict=False):
        assert check(before, action) is None


def test_the_advisor_decides_a_draw_and_a_placement_legally() -> None:
    state = new_game(2, ["a", "b", "c"])
    advisor = make_seat("advisor", "2/a")
    draw = advisor.choose(view(state, 0))
    assert check(state, draw) is None
    planning = replace(state, phase=Phase.PLAN)
    placement = advisor.choose(view(planning, 0))
    assert placement in set(options(view(planning, 0)))


def test_an_illegal_bot_action_is_a_bot_error() -> None:
    class Cheat:
        kind = "cheat"
        timings: dict[str, list[float]] = {}

        def choose(self, seen: View) -> Draw:
            return Draw(7)

    with pytest.raises(BotError, match="illegal"):
        play(new_game(0, ["a", "b"]), [Cheat(), Cheat()])


@pytest.mark.slow
def test_an_advisor_game_is_legal_to_the_end() -> None:
    kinds = ("advisor", "greedy", "greedy")
    states, actions = play(new_game(3, list(kinds[:1]) + ["g1", "g2"]), [make_seat(k, f"3/{i}")
                                                                        for i, k in enumerate(kinds)])
    assert states[-1].over
    for before, action in zip(states, actions, strict=False):
        assert check(before, action) is None


def test_the_advisor_places_where_the_advice_would_pass_with_counters_its_plan_needs() -> None:
    # From a real game: the placement advice passes (its pass keeps the counter for later), but planning ended
    # when the others passed too, and the advisor's plan was left without its road to Feodor.
    from planner.common.limits import Limit
    from planner.elfenland.advice.placing import place_now
    from planner.elfenland.game.seats import ADVICE_NODES, advised_placement

    position = Position.from_str(
        "D@ALB-DAG:d,P@BEA-ELV:p,E@BEA-STR:p,C@DAG-MAH:m,T@JXA-VIR:p,D@STR-VIR:m ELV PECDDDRR - 1 "
        "supply=DD,display=PEUUU,players=4,opponent=router%232:ELV:-:T:1,opponent=greedy%233:ELV:-:ED:1,"
        "opponent=greedy%234:ELV:-:TD:1")
    advice = place_now(position, solver="search", limit=Limit(nodes=ADVICE_NODES))
    assert advice.now.placement is None and advice.joint.plan.placements
    tile = advised_placement(position)
    assert tile is not None and tile in advice.joint.plan.placements
