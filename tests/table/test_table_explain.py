"""The travel phase's "Why this route?" panel through the table's HTTP API: the explanation arrives after the first
answer, the player's own route is compared with the best (a legal one), refused inline (an illegal one, a typo),
a what-if's counter goes on the board as a change that undo takes back, and a newer change stops the work.

The expected answers are derived by hand from scenario 06 ("Dead end", round 2 of 4): the boot in Lapphalya with
P C U U U T D D, counters U on Lapphalya-Dag'Amura (forest), U on Dag'Amura-Kihromah (forest), D on
Dag'Amura-Mah'Davikia (mountain), D on Mah'Davikia-Grangor (mountain), P on Elvenhold-Lapphalya, T on
Lapphalya-Rivinia (forest); Elvenhold collected.

- The best is 4 towns for 5 cards (the scenario's notes): DAG/U KIH/U DAG/U MAH/D GRA/D. Kihromah hangs off
  Dag'Amura on its one road, so the third step goes back: it is paid again with a unicorn.
- Fewest cards to each town: Dag'Amura 1 (a unicorn), Kihromah and Mah'Davikia 2 (via Dag'Amura), Grangor 3;
  Rivinia 3: the troll costs 2 in a forest and the hand holds one troll, so it takes a caravan of any 3 cards.
- What if one more counter: the route ends in Grangor with P C T unspent, and a magic cloud on the empty mountain
  road Grangor-Yttar costs 1 cloud there: Yttar too, for one card more. So the best extra counter adds at least a
  town.
- Your route ``dag/U mah/D gra/D`` skips Kihromah: 3 towns for 3 cards. After its first step (in Dag'Amura, with
  P C U U T D D) the best is still the whole best route (4 for 5). After the second (in Mah'Davikia with
  P C U U T D) one dragon is left: either Grangor (1 card, 3 towns in all for 3 cards) or back to Dag'Amura and
  on to Kihromah (2 cards: 3 towns for 4); Yttar has no counter and no caravan runs on an empty road. So the
  route falls behind at step 2, which costs a town and saves 2 cards; the whole route loses the same.
- ``dag/U kih/U dag/U mah/D`` is the best route without its last step: it never falls behind, it stops early,
  and loses Grangor (1 town) for 1 card fewer.
- ``dag/U kih/D``: the unicorn counter on Dag'Amura-Kihromah takes a unicorn (or a caravan of 3): step 2 is
  illegal.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tables import position_of, served

from planner.elfenland.plan import parse_route, verify
from planner.elfenland.position import Tile
from planner.elfenland.rules import Transport
from planner.errors import IllegalPositionError
from planner.table.advising import later_stage
from planner.table.changes import read_own_route
from planner.table.explaining import explain_stage

DEAD_END = "06-dead-end.toml"


def explanation(view: dict[str, Any]) -> dict[str, Any]:
    document: dict[str, Any] = view["advice"]["explain"]
    assert document["status"] == "done", document
    return document


def test_the_explanation_comes_after_the_route_and_says_why_each_step() -> None:
    with served(DEAD_END, "travel") as table:
        first = table.session.wait_solved(1, timeout=30)
        assert first["advice"]["phase"] == "travel"
        if first["pending"]:  # the first answer does not wait for the explanation
            assert first["pending"][-1] == "explain" and first["advice"]["explain"] == {"status": "pending"}
        found = explanation(table.complete(1))
        assert (found["best"]["score"], found["best"]["cards_spent"]) == (4, 5) and found["best"]["optimal"]
        steps = found["steps"]
        assert [s["to"] for s in steps] == ["Dag'Amura", "Kihromah", "Dag'Amura", "Mah'Davikia", "Grangor"]
        assert steps[2]["connection"] == "DAG-KIH:f" and "dead-end" in steps[2]["reasons"]
        assert any("Kihromah" in sentence and "dead end" in sentence for sentence in steps[2]["text"])
        assert all(s["pay"] == "counter" and s["text"] for s in steps)
        cards = {row["code"]: row["cards"] for row in found["reach"]}
        assert {code: cards[code] for code in ("DAG", "KIH", "MAH", "GRA", "RIV")} == \
            {"DAG": 1, "KIH": 2, "MAH": 2, "GRA": 3, "RIV": 3}
        assert "ELV" not in cards and "LAP" not in cards  # collected towns are not in the table
        assert found["end_towns"] is None and found["yours"] is None  # round 2 of 4; no route of mine yet


def test_each_what_if_carries_its_map_and_the_tile_change_a_tap_sends() -> None:
    with served(DEAD_END, "travel") as table:
        view = table.complete(1)
        found = explanation(view)
        counter = found["what_if"]["counter"]
        assert counter["points"] >= 1 and counter["score"] == 4 + counter["points"]
        on_road = f'data-road="{counter["road"]}"'  # the counter drawn on its road: on the what-if's map only
        assert on_road in counter["svg"] and on_road not in view["svg"] and counter["card_letter"] is None
        # The route shown with the counter replays as legal once the counter is on the board.
        position = position_of(DEAD_END)
        added = position.replace(tiles=(*position.tiles, Tile(counter["road"], Transport(counter["counter_letter"]))))
        assert verify(added, parse_route(added, counter["route"])).score == counter["score"]
        card = found["what_if"]["card"]
        assert card["card_letter"] in "PECUTDR" and "<svg" in card["svg"] and card["points"] >= 0
        # A tap applies the counter as an ordinary change, which undo takes back.
        view = table.change({"op": "tile", "road": counter["road"], "counter": counter["counter_letter"]})
        assert {"road": counter["road"], "counter": counter["counter_letter"], "obstacle": False} in \
            view["position"]["tiles"]
        assert explanation(view)["best"]["score"] == counter["score"]
        view = table.change({"op": "undo"})
        assert explanation(view)["best"]["score"] == 4


def test_my_route_that_falls_behind_says_where_and_what_it_cost() -> None:
    with served(DEAD_END, "travel") as table:
        answer = table.post({"op": "yours", "route": "dag/U mah/D gra/D"})
        assert answer["ok"] and answer["view"]["yours"] == "dag/U mah/D gra/D"
        yours = explanation(table.complete(answer["version"]))["yours"]
        assert yours["route_legal"] and not yours["optimal"]
        assert (yours["plan"]["score"], yours["plan"]["cards_spent"]) == (3, 3)
        assert yours["behind_at"] == 2 and yours["step_cost"] == {"points": 1, "cards": -2}
        assert yours["lost"] == {"points": 1, "cards": -2} and not yours["stopped_early"]


def test_my_route_that_stops_early_loses_the_last_town() -> None:
    with served(DEAD_END, "travel") as table:
        view = table.change({"op": "yours", "route": "dag/U kih/U dag/U mah/D"})
        yours = explanation(view)["yours"]
        assert yours["behind_at"] is None and yours["stopped_early"]
        assert yours["lost"] == {"points": 1, "cards": -1}
        view = table.change({"op": "yours", "route": ""})  # an empty route takes mine away
        assert view["yours"] is None and explanation(view)["yours"] is None


def test_an_illegal_route_or_a_typo_is_refused_inline_and_changes_nothing() -> None:
    with served(DEAD_END, "travel") as table:
        table.complete(1)
        answer = table.post({"op": "yours", "route": "dag/U kih/D"})
        assert not answer["ok"] and answer["version"] == 1
        [problem] = answer["problems"]
        assert (problem["kind"], problem["field"], problem["value"]) == ("illegal-route", "yours", "kih/D")
        assert problem["message"].startswith("step 2 (kih/D): ") and "unicorn" in problem["message"]
        [typo] = table.problems({"op": "yours", "route": "dag/U kirhomah/U"})
        assert typo == ("unknown-town", "yours", "kirhomah")
        answer = table.post({"op": "yours", "route": "dag/U kirhomah/U"})
        assert "did you mean 'Kihromah'?" in answer["problems"][0]["message"]
        malformed = table.client.post("/api/change", json={"op": "yours", "route": 7})  # not what a page sends
        assert malformed.status_code == 422
        assert [(p["kind"], p["field"], p["value"]) for p in malformed.json()["problems"]] == [("bad-type", "route",
                                                                                                "7")]
        assert table.session.view()["yours"] is None and table.session.view()["version"] == 1


def test_a_new_position_drops_my_route() -> None:
    with served(DEAD_END, "travel") as table:
        assert table.change({"op": "yours", "route": "dag/U"})["yours"] == "dag/U"
        view = table.change({"op": "card", "card": "D", "delta": -1})
        assert view["yours"] is None and explanation(view)["yours"] is None


def test_the_last_round_explains_the_end_towns() -> None:
    # Scenario 07 (its notes): home is Virst; two towns ending at home score 2, four far away score -1.
    with served("07-last-round-home.toml", "travel") as table:
        view = table.complete(1)
        ends = explanation(view)["end_towns"]
        assert view["advice"]["keep"] is None  # no next round to keep cards for
        best = [row for row in ends["rows"] if row["best"]]
        assert [(row["end"], row["score"]) for row in best] == [("Virst", 2)]
        assert all(row["score"] <= 2 for row in ends["rows"])


def test_a_newer_change_stops_the_explanation_of_the_older_position(monkeypatch: pytest.MonkeyPatch) -> None:
    real = explain_stage
    stopped: list[bool] = []
    blocked = threading.Event()

    def slow(position: Any, route: Any, **kwargs: Any) -> Any:
        if not stopped:  # the first position's explanation: wait to be stopped by the newer change
            blocked.set()
            stopped.append(kwargs["stop"].wait(timeout=20))
            return {"status": "stale"}
        return real(position, route, **kwargs)

    monkeypatch.setattr("planner.table.advising.explain_stage", slow)
    with served(DEAD_END, "travel") as table:
        heard: list[str] = []
        table.session.subscribe(heard.append)
        assert blocked.wait(timeout=20)
        view = table.change({"op": "yours", "route": "dag/U"})
        assert stopped == [True] and explanation(view)["yours"]["route_legal"]
        assert not any('"stale"' in text for text in heard)


# Route text near the notation: town codes, names and typos of them, card letters, terrains, separators, junk.
_towns = st.sampled_from(["dag", "kih", "mah", "gra", "lap", "riv", "elv", "ytt", "Kihromah", "kirhomah", "Dag'Amura",
                          "xyz", "", "d", "mah:m", "gra:r", "kih:q"])
_cards = st.sampled_from(["U", "D", "UU", "PCT", "R", "u", "Q", "", "D2", "dragon"])
_steps = st.tuples(_towns, st.sampled_from(["/", " / ", "", "//"]), _cards).map("".join)
_routes = st.lists(_steps, max_size=6).flatmap(
    lambda steps: st.sampled_from([" ", ", ", " -> ", ";"]).map(lambda sep: sep.join(steps))) | st.text(max_size=40)


@given(_routes)
def test_fuzzed_own_routes_are_legal_or_refused_with_their_reason(text: str) -> None:
    position = position_of(DEAD_END)
    try:
        steps = read_own_route(position, text)
    except IllegalPositionError as error:
        assert error.problems and all(p.field == "yours" and p.message for p in error.problems)
        return
    verify(position, steps)  # what is accepted replays as legal: the comparison never meets an illegal step


def test_my_route_does_not_sample_the_keep_advice_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # Setting my route leaves the position as it was: its keep advice (seeded) and, once my route is taken away
    # again, its plain explanation are the answers worked out before, not worked out again.
    real = later_stage
    kinds: list[str] = []

    def counted(later: Any, **kwargs: Any) -> Any:
        kinds.append(later.kind)
        return real(later, **kwargs)

    monkeypatch.setattr("planner.table.session.later_stage", counted)
    with served(DEAD_END, "travel") as table:
        first = table.complete(1)
        view = table.change({"op": "yours", "route": "dag/U mah/D gra/D"})
        assert kinds == ["keep", "explain", "explain"]
        assert view["advice"]["keep"] == first["advice"]["keep"] and explanation(view)["yours"]["behind_at"] == 2
        view = table.change({"op": "yours", "route": ""})
        assert kinds == ["keep", "explain", "explain"] and explanation(view) == explanation(first)
