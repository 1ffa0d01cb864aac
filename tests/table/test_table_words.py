"""The page's advice in the game's words (issue 22): whole towns and cards where they are whole, averages said as
"about 2 towns (2.4 on average)", ties named, and "pass" when placing gains nothing. The expected sentences are
written out by hand from the rule: round to the nearest whole count, the average to one decimal beside it."""

from __future__ import annotations

import pytest

from planner.elfenland.sentences import MINUS, about, about_change, pass_gains_nothing, tied


@pytest.mark.parametrize(("value", "noun", "said"), [
    (2, "town", "2 towns"), (1.0, "card", "1 card"), (2.4, "town", "about 2 towns (2.4 on average)"),
    (2.6, "town", "about 3 towns (2.6 on average)"), (0.17, "town", "less than half a town (0.17 on average)"),
    (1.004, "card", "1 card"),
])
def test_an_average_is_said_in_whole_towns_and_cards(value: float, noun: str, said: str) -> None:
    assert about(value, noun) == said


@pytest.mark.parametrize(("value", "said"), [
    (-1, f"{MINUS}1 town"), (0, "nothing"), (-2.4, f"about {MINUS}2 towns ({MINUS}2.4 on average)"),
    (-0.17, f"almost nothing ({MINUS}0.17 towns on average)"), (1.6, "about +2 towns (+1.6 on average)"),
])
def test_a_change_is_said_in_whole_towns_with_its_sign(value: float, said: str) -> None:
    assert about_change(value, "town") == said


def test_ties_are_named_and_passing_is_said_plainly() -> None:
    assert tied(["pig", "dragon", "blind"]) == "pig, dragon and blind are equally good"
    assert tied(["pig", "blind"]) == "pig and blind are equally good"
    assert pass_gains_nothing() == "pass \N{EM DASH} placing now gains nothing"


def test_the_obstacle_rows_come_by_effect_and_say_whole_towns() -> None:
    from tables import served

    with served("22-obstacle-on-the-leader.toml", "plan") as table:
        obstacle = table.complete(1)["advice"]["obstacle"]
        assert obstacle["status"] == "done"
        for opponent in obstacle["opponents"]:
            effects = [(road["towns_lost"], road["extra_cards"]) for road in opponent["roads"]]
            assert effects == sorted(effects, key=lambda effect: (-effect[0], -effect[1]))
            assert not any("±" in road["towns_text"] or "±" in road["cards_text"] for road in opponent["roads"])
            for road in opponent["roads"]:  # the loss beside the other opponents, in whole towns where whole
                whole = road["towns_lost"] == round(road["towns_lost"])
                assert ("on average" in road["loss_text"]) is not whole
