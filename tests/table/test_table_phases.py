"""The table's phases through its HTTP API: the draw, plan and travel views with the round advisor's advice, every
change of the round, problems answered inline, and a newer change stopping the work of an older one.

The expected answers are the hand-derived ones of the bundled scenarios (their notes say why): take the unicorn
(20), place the elfcycle on Dag'Amura-Kihromah first (21), block Al'Baran-Throtmanni against Anna (22).
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from tables import position_of, served

import planner.table.session as session_module
from planner.elfenland.plan import parse_route, place, verify
from planner.elfenland.position import Position, Tile
from planner.elfenland.rules import Transport
from planner.table.advising import first_stage, later_stage

SIMPLE = "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"  # best by hand: THR/E JAC/D, 2 new towns, 2 cards, the raft kept


# -- draw ------------------------------------------------------------------------------------------------------
def test_the_draw_view_names_the_counter_to_take_and_a_tap_takes_it() -> None:
    with served("20-opening-draft.toml", "draw") as table:
        advice = table.complete(1)["advice"]
        assert advice["phase"] == "draw" and advice["best"] == "U"
        unicorn = advice["options"][0]
        assert (unicorn["counter"], unicorn["score"], unicorn["cards_spent"], unicorn["best"]) == ("U", 1, 1, True)
        assert advice["verdict"] == "draw the face-up unicorn: 1 town for 1 card (now 1 town for 3 cards)"
        # Any other face-up counter is paid as the 3-card caravan; blind, a unicorn comes one time in six (1 card,
        # else 3): 8/3 cards expected, second best, ahead of every 3-card face-up counter.
        blind = advice["options"][1]
        assert blind["counter"] is None and blind["chances"]["U"] == pytest.approx(1 / 6, abs=1e-3)
        assert (blind["score"], blind["cards_spent"]) == (1, pytest.approx(8 / 3, abs=1e-3))
        others = {o["counter"]: (o["score"], o["cards_spent"]) for o in advice["options"][2:]}
        assert others == {"E": (1, 3), "C": (1, 3), "T": (1, 3), "D": (1, 3)}
        assert advice["shown"] == {"route": "DAG/U", "placements": [{"road": "DAG-KIH:f", "counter": "U"}],
                                   "counter": "U"}
        view = table.change({"op": "take", "counter": "U"})
        position = view["position"]
        assert position["supply"] == {"P": 1, "E": 0, "C": 0, "U": 1, "T": 0, "D": 0}
        assert position["display"] == {"P": 0, "E": 1, "C": 1, "U": 0, "T": 1, "D": 1}
        assert view["advice"]["phase"] == "draw"


def test_a_full_supply_has_nothing_left_to_draw() -> None:
    with served("- KIH URR ELV 2 supply=PPUUD", "draw") as table:
        advice = table.complete(1)["advice"]
        assert advice["full"] is True and advice["options"] == []
        assert advice["verdict"].startswith("your supply holds 5 counters")
        assert advice["shown"]["route"] == "DAG/U"  # the unicorn opens Kihromah's forest road for one card


# -- plan ------------------------------------------------------------------------------------------------------
def test_the_plan_view_says_what_to_place_now_with_its_regrets_and_a_tap_places_it() -> None:
    with served("21-contested-road.toml", "plan") as table:
        view = table.complete(1)
        advice = view["advice"]
        assert advice["now"]["road"] == "DAG-KIH:f" and advice["now"]["letter"] == "E"
        assert advice["verdict"] == "place now: your elfcycle on Dag'Amura–Kihromah"
        assert advice["worst"] == {"score": 2, "cards_spent": 2}
        assert [p["letter"] for p in advice["placements"]] == ["E", "E"]
        assert advice["placements"][0]["road"] == "DAG-KIH:f"
        # A cloud on Kihromah's road before my elfcycle leaves the boot stuck: both towns lost.
        regret = next(r for r in advice["regrets"] if r["road"] == "DAG-KIH:f")
        assert regret["filled"]["towns"] == 2 and regret["filled"]["counter"] == "magic cloud"
        assert regret["obstacle"] is None  # Anna has used her obstacle
        # The joint plan shown replays legally with its placements on the board.
        position = position_of("21-contested-road.toml")
        plan = view["solution"]["plans"][0]
        tiles = [Tile(p["road"], Transport.ELFCYCLE) for p in advice["placements"]]
        board = place(position, tiles)
        outcome = verify(board, parse_route(board, plan["route"]))
        assert (outcome.score, outcome.cards_spent) == (2, 2) == (plan["score"], plan["cards_spent"])
        assert 'data-road="DAG-KIH:f"' in view["svg"]  # my planned counter is drawn for the page to mark
        placed = table.change({"op": "place", "road": advice["now"]["road"], "counter": advice["now"]["letter"]})
        assert {"road": "DAG-KIH:f", "counter": "E", "obstacle": False} in placed["position"]["tiles"]
        assert placed["position"]["supply"]["E"] == 1
        assert [p["road"] for p in placed["advice"]["placements"]] != ["DAG-KIH:f"]  # that one is on the board now


def test_the_obstacle_advice_comes_with_the_plan_and_a_tap_places_the_obstacle() -> None:
    with served("22-obstacle-on-the-leader.toml", "plan") as table:
        obstacle = table.complete(1)["advice"]["obstacle"]
        assert obstacle["status"] == "done" and obstacle["samples"] == 100
        assert (obstacle["target"], obstacle["road"], obstacle["hold"]) == ("Anna", "ALB-THR:d", False)
        assert obstacle["verdict"] == "obstacle on Al'Baran–Throtmanni against Anna"
        first = obstacle["opponents"][0]["roads"][0]
        assert first["road"] == "ALB-THR:d" and first["on_route"] == 1.0  # every route of hers starts there
        assert first["my_towns_lost"] == 0 and first["my_extra_cards"] == 0  # mine never touches her roads
        view = table.change({"op": "place", "road": "ALB-THR:d", "obstacle": True})
        assert view["position"]["obstacle"] is False
        assert {"road": "ALB-THR:d", "counter": "D", "obstacle": True} in view["position"]["tiles"]
        assert view["advice"]["obstacle"]["status"] == "placed"
        assert table.problems({"op": "place", "road": "JAC-THR:m", "obstacle": True}) == \
            [("no-obstacle", "obstacle", "JAC-THR:m")]
        assert table.change({"op": "my_obstacle", "held": True})["position"]["obstacle"] is True


def test_without_opponents_the_obstacle_advice_asks_for_them() -> None:
    with served("- KIH EE ELV 2 supply=EE", "plan") as table:
        obstacle = table.complete(1)["advice"]["obstacle"]
        assert obstacle["status"] == "no-opponents" and "add the opponents" in obstacle["note"]
        view = table.change({"op": "opponent", "name": "Anna", "at": "Virst", "points": 4})
        assert view["position"]["opponents"] == [{"index": 1, "name": "Anna", "at": "VIR", "visited": ["VIR"],
                                                  "counters": {"P": 0, "E": 0, "C": 0, "U": 0, "T": 0, "D": 0},
                                                  "secret": 0, "obstacle": True, "points": 4}]
        # No road holds a counter yet: nowhere to put an obstacle.
        obstacle = view["advice"]["obstacle"]
        assert obstacle["status"] == "done" and obstacle["hold"] is True and obstacle["road"] is None


# -- travel ----------------------------------------------------------------------------------------------------
def test_the_travel_view_has_the_route_then_what_to_keep() -> None:
    with served(SIMPLE, "travel") as table:
        view = table.complete(1)
        assert view["solution"]["plans"][0]["route"] == "THR/E JAC/D"
        keep = view["advice"]["keep"]
        # One route is best: it ends in Jaccaranda with the raft left, and no counter is in hand.
        assert (keep["end_code"], keep["card_letters"], keep["counter_letter"]) == ("JAC", "R", None)
        assert keep["samples"] == 30 and keep["verdict"].startswith("end in Jaccaranda, keep raft and no counter")


def test_the_last_round_keeps_nothing() -> None:
    with served("- ELV D - 4", "travel") as table:
        view = table.complete(1)
        assert view["advice"]["keep"] is None and view["advice"]["last_round"] is True


def test_a_new_round_keeps_the_counter_chosen_and_begins_with_drawing() -> None:
    with served("E@RIV-THR:f RIV EDDRR - 1 supply=DU,display=PPCCT", "travel") as table:
        assert table.problems({"op": "new_round"}) == [("choose-counter", "keep", "UD")]
        view = table.change({"op": "new_round", "keep": "U", "cards": "DDR", "display": "new"})
        position = view["position"]
        assert (view["phase"], position["round"], position["tiles"]) == ("draw", 2, [])
        assert position["notation"] == "- RIV DDR - 2 supply=U"
        assert view["advice"]["phase"] == "draw"


# -- changes and problems --------------------------------------------------------------------------------------
def test_the_phase_switch_is_shared_and_refuses_a_phase_that_is_not() -> None:
    with served(SIMPLE, "travel") as table:
        view = table.change({"op": "phase", "phase": "plan"})
        assert view["phase"] == "plan" and view["advice"]["phase"] == "plan"
        assert table.client.get("/api/view").json()["phase"] == "plan"
        assert table.problems({"op": "phase", "phase": "moving"}) == [("bad-phase", "phase", "moving")]


DRAGONS = "D@ELV-LAP:p,D@JXA-VIR:p KIH URR ELV 2 supply=DD,display=DDE,opponent=Anna:VIR:-:DD:1"
"""All 8 dragon counters in view: 2 on the board, 2 in my supply, 2 face up, 2 with Anna."""


def test_the_counters_off_the_board_and_a_ninth_dragon_through_the_api() -> None:
    with served(DRAGONS, "travel") as table:
        answer = table.post({"op": "counter", "pile": "display", "counter": "D", "delta": 1})
        assert answer["problems"] == [{"kind": "too-many-counters", "field": "supply", "value": "D", "message": (
            "9 dragon counters on the board, in the supply, the display, seen and with opponents, but the game has "
            "only 8")}]
        view = table.change({"op": "pile", "pile": "seen", "counters": "PP"})
        assert view["position"]["seen"]["P"] == 2
        view = table.change({"op": "place", "road": "DAG-KIH", "counter": "D", "by": 1})
        assert view["position"]["opponents"][0]["counters"]["D"] == 1


def test_the_draw_phase_weighs_a_position_with_every_dragon_in_view() -> None:
    # Kihromah's one road (to Dag'Amura, forest) is empty. With the supply's dragons it takes a 3-card caravan
    # (URR); a unicorn counter there costs the one unicorn card in hand. No face-up counter helps, and the blind
    # draw is a unicorn 8 times in 39 (every dragon is in view, one elfcycle face up): 8/39 * 1 + 31/39 * 3 cards.
    with served(DRAGONS, "draw") as table:
        advice = table.complete(1)["advice"]
        assert advice["best"] == "blind"
        blind = advice["options"][0]
        assert (blind["score"], blind["cards_spent"]) == (1, round(101 / 39, 4))
        assert blind["chances"]["U"] == round(8 / 39, 4) and "D" not in blind["chances"]
        assert {(o["counter"], o["score"], o["cards_spent"]) for o in advice["options"][1:]} == {("D", 1, 3),
                                                                                               ("E", 1, 3)}


def test_the_plan_phase_answers_when_every_obstacle_is_accounted_for() -> None:
    # Two players, both holding their obstacle: an opponent's obstacle reply is Anna's, not a third one.
    with served("E@RIV-THR:f RIV ED - 1 players=2,opponent=Anna:ELV", "plan") as table:
        advice = table.complete(1)["advice"]
        regret = advice["regrets"][0]
        # Throtmanni for the one elfcycle card; an obstacle there asks for two, or a 4-card caravan: the hand has
        # neither, so the town is lost (and its card kept).
        assert (regret["road"], regret["obstacle"]) == ("RIV-THR:f", {"towns": 1, "cards": -1})


def test_opponent_problems_name_the_opponent_and_the_field() -> None:
    with served("- KIH EE ELV 2 supply=EE,opponent=Anna:VIR", "plan") as table:
        assert table.problems({"op": "opponent", "index": 1, "visited": "Jxara Atlantis", "points": 30}) == [
            ("unknown-town", "opponent[1].visited", "Atlantis"), ("out-of-range", "opponent[1].points", "30")]
        view = table.change({"op": "opponent", "index": 1, "remove": True})
        assert view["position"]["opponents"] == []
        assert table.change({"op": "players", "players": 3})["position"]["players"] == 3


# -- a newer change stops the older one's work -----------------------------------------------------------------
def test_a_newer_change_stops_the_work_for_the_older_position(monkeypatch: pytest.MonkeyPatch) -> None:
    real = first_stage
    blocked, stopped = threading.Event(), []

    def slow(phase: str, position: Position, **kwargs: Any) -> Any:
        if len(position.hand) == 4:  # the position after the first tap: wait until a newer change stops it
            blocked.set()
            stopped.append(kwargs["stop"].wait(timeout=20))
        return real(phase, position, **kwargs)

    monkeypatch.setattr(session_module, "first_stage", slow)
    with served(SIMPLE, "plan") as table:
        table.complete(1)
        first = table.session.change({"op": "card", "card": "D", "delta": 1})[0]
        assert blocked.wait(timeout=20)
        second = table.session.change({"op": "card", "card": "D", "delta": -1})[0]
        view = table.complete(second.version)
        assert stopped == [True] and first.version < second.version
        assert view["position"]["notation"] == SIMPLE and view["advice"]["phase"] == "plan"


def test_a_newer_change_drops_the_later_advice_of_the_older_position(monkeypatch: pytest.MonkeyPatch) -> None:
    real = later_stage
    calls: list[bool] = []
    blocked = threading.Event()

    def slow(later: Any, **kwargs: Any) -> Any:
        if later.kind != "keep":  # the explanation after it is another test's (test_table_explain.py)
            return real(later, **kwargs)
        if not calls:  # the first position's keep advice: wait for the newer change, then answer something stale
            blocked.set()
            calls.append(kwargs["stop"].wait(timeout=20))
            return {"keep": {"status": "stale"}}
        calls.append(False)
        return real(later, **kwargs)

    monkeypatch.setattr(session_module, "later_stage", slow)
    with served(SIMPLE, "travel") as table:
        heard: list[str] = []
        table.session.subscribe(heard.append)
        assert blocked.wait(timeout=20)
        view = table.change({"op": "visit", "town": "TIC"})
        assert calls == [True, False]
        assert view["advice"]["keep"]["end_code"] == "JAC"
        assert not any('"stale"' in text for text in heard)
        # Every view published has the next serial: a page orders the views of one version (first, later) by it.
        serials = [json.loads(text)["serial"] for text in heard]
        assert serials == list(range(serials[0], serials[0] + len(serials)))
