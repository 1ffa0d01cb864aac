"""The turn engine, rule by rule, on hand-built positions whose answers are derived by hand from EXPEDITION.md."""

from __future__ import annotations

import pytest
from exhelp import table

from planner.expedition.notation import Action
from planner.expedition.position import Mode, Player
from planner.expedition.rules import BlueBonus, Colour, LoopRestart, Rules
from planner.expedition.turn import IllegalActionError, begin, legal_actions, replay, verify


# -- the mandatory arrow --------------------------------------------------------------------------------------------
def test_the_mandatory_arrow_scores_the_card_it_reaches() -> None:
    outcome = replay(table(hand=["Athens"]), "yellow start>Athens")
    assert (outcome.points, outcome.arrows, outcome.tickets_spent) == (2, 1, 0)  # +1 in front, -1 out of hand


def test_a_turn_needs_its_mandatory_arrow() -> None:
    with pytest.raises(IllegalActionError, match="mandatory arrow is missing"):
        replay(table(), "")


def test_a_second_arrow_needs_a_ticket() -> None:
    with pytest.raises(IllegalActionError, match="action 2: .*needs a ticket"):
        replay(table(), "yellow start>Athens, red start>Rome")


def test_an_arrow_leaves_from_the_head_and_never_reuses_its_link() -> None:
    position = table(yellow=["start", "Athens", "Gizeh"])
    with pytest.raises(IllegalActionError, match="leaves from its head Gizeh"):
        replay(position, "yellow Athens>Petra")
    with pytest.raises(IllegalActionError, match="used the link"):
        replay(position, "yellow Gizeh>Athens")
    assert replay(position, "yellow Sahara").arrows == 1  # the head is implied when only the tip is named


def test_a_green_with_my_token_is_worth_four_and_an_opponents_token_four_to_them() -> None:
    yellow = ["start", "Athens", "Gizeh"]
    assert replay(table(yellow=yellow, hand=["Sahara"], tokens=["Sahara"]), "yellow Gizeh>Sahara").points == 4
    theirs = replay(table(yellow=yellow, theirs=["Sahara"]), "yellow Gizeh>Sahara")
    assert (theirs.points, theirs.opponents) == (0, {"Ann": 4})


def test_a_common_objective_is_mine_and_its_replacement_is_unknown() -> None:
    outcome = replay(table(yellow=["start", "Athens", "Gizeh"], common=["Sahara"]), "yellow Gizeh>Sahara")
    assert outcome.points == 1
    assert "Sahara" not in outcome.state.common and len(outcome.state.common) == 5


# -- blue squares ---------------------------------------------------------------------------------------------------
def test_a_blue_chain_places_one_more_arrow_per_square_on_any_expedition() -> None:
    # yellow onto blue:Rome-W (1 bonus), red onto blue:Start-E (1 more), blue onto Athens (+2)
    position = table(yellow=["start", "Rome"], hand=["Athens"])
    outcome = replay(position, "yellow blue:Rome-W, red start>blue:Start-E, blue start>Athens")
    assert (outcome.points, outcome.arrows, outcome.tickets_spent) == (2, 3, 0)
    with pytest.raises(IllegalActionError, match="action 4: .*needs a ticket"):
        replay(position, "yellow blue:Rome-W, red start>blue:Start-E, blue start>Athens, yellow Canary Islands")


def test_the_blue_bonus_is_optional_unless_the_rules_say_mandatory() -> None:
    assert replay(table(), "blue start>blue:Start-E").points == 0
    with pytest.raises(IllegalActionError, match="blue square's arrow is pending"):
        replay(table(rules=Rules(blue_bonus=BlueBonus.MANDATORY)), "blue start>blue:Start-E")


# -- loops and restarts ---------------------------------------------------------------------------------------------
def test_a_loop_scores_the_visited_green_again_and_must_restart() -> None:
    position = table(yellow=["start", "Athens", "Gizeh", "Timgad"], hand=["Athens", "Rome"])
    with pytest.raises(IllegalActionError, match="restart is pending"):
        replay(position, "yellow Timgad>Athens")
    with pytest.raises(IllegalActionError, match="yellow restart is pending"):
        replay(position, "yellow Timgad>Athens, red start>Rome")
    outcome = replay(position, "yellow Timgad>Athens, yellow start>Rome")  # Athens re-entered (+2), Rome (+2)
    assert (outcome.points, outcome.arrows) == (4, 2)
    assert outcome.state.expedition(Colour.YELLOW).legs[-1] == ("start", "Rome")


def test_a_restart_onto_a_visited_spot_loops_again() -> None:
    # the loop onto the start leaves Timgad–Athens unused between two visited spots: the restart there loops again
    position = table(yellow=["start", "Athens", "Gizeh", "Timgad", "blue:Rome-W", "Rome"], hand=["Stonehenge"])
    outcome = replay(position, "yellow Rome>start, yellow Timgad>Athens, yellow start>Stonehenge")
    assert (outcome.points, outcome.arrows) == (2, 3)
    assert [e.kind for e in outcome.events].count("loop") == 2


def test_a_loop_on_a_blue_square_gives_the_restart_first_then_the_bonus() -> None:
    blue = ["start", "Stonehenge", "Newfoundland", "blue:Thingvellir-W", "Northwest Passage", "Greenland",
            "Thingvellir"]
    position = table(blue=blue, hand=["Athens", "Rome"])
    with pytest.raises(IllegalActionError, match="blue restart is pending"):
        replay(position, "blue Thingvellir>blue:Thingvellir-W, yellow start>Rome")
    outcome = replay(position, "blue Thingvellir>blue:Thingvellir-W, blue start>Athens, yellow start>Rome")
    assert (outcome.points, outcome.arrows) == (4, 3)


def test_the_restart_may_be_declined_when_the_rules_say_optional() -> None:
    position = table(yellow=["start", "Athens", "Gizeh", "Timgad"], rules=Rules(loop_restart=LoopRestart.OPTIONAL))
    assert replay(position, "yellow Timgad>Athens").arrows == 1


def test_a_looped_expedition_leaves_from_any_visited_spot() -> None:
    position = table(yellow=[["start", "Athens", "Gizeh", "Timgad", "Athens"]], hand=["Sahara"])
    assert position.expedition(Colour.YELLOW).mode is Mode.LOOPED
    assert replay(position, "yellow Gizeh>Sahara").points == 2
    with pytest.raises(IllegalActionError, match="has not visited Rome"):
        replay(position, "yellow Rome>blue:Rome-W")


# -- tickets --------------------------------------------------------------------------------------------------------
def test_a_ticket_buys_an_extra_arrow() -> None:
    position = table(yellow=["start", "Athens"], hand=["Gizeh", "Sahara"])
    outcome = replay(position, "yellow Gizeh, ticket yellow Gizeh>Sahara")
    assert (outcome.points, outcome.tickets_spent, outcome.state.me.tickets) == (4, 1, 2)


def test_at_most_two_tickets_a_turn_and_none_without_one() -> None:
    position = table(yellow=["start", "Athens"])
    with pytest.raises(IllegalActionError, match="action 4: .*a turn spends at most 2 tickets"):
        replay(position, "yellow Gizeh, ticket yellow Sahara, ticket yellow Kush, ticket yellow Virunga")
    with pytest.raises(IllegalActionError, match="no ticket left"):
        replay(table(yellow=["start", "Athens"], tickets=0), "yellow Gizeh, ticket yellow Sahara")


def test_a_ticket_won_on_a_red_star_may_be_spent_at_once() -> None:
    position = table(red=["start", "Svalbard"], hand=["Zagorsk"], tickets=0)
    outcome = replay(position, "red Svalbard>red:Svalbard-E, ticket red Zagorsk")
    assert (outcome.points, outcome.tickets_won, outcome.tickets_spent) == (2, 1, 1)


def test_a_ticket_spent_declines_the_pending_blue_arrow() -> None:
    position = table(hand=["Athens", "Rome"])
    with pytest.raises(IllegalActionError, match="action 3: .*needs a ticket"):
        replay(position, "blue start>blue:Start-E, ticket yellow start>Athens, red start>Rome")


def test_removing_the_last_arrow_takes_the_effect_of_the_spot_it_left_from() -> None:
    position = table(yellow=["start", "Athens", "Gizeh"], hand=["Athens"])
    outcome = replay(position, "ticket remove yellow, red start>Rome")  # Athens again: the card is mine now
    assert (outcome.points, outcome.tickets_spent) == (2, 1)
    assert outcome.state.expedition(Colour.YELLOW).head == "Athens"
    blue_square = table(yellow=["start", "blue:Start-E", "Zagorsk"], hand=["Caspian Sea", "Babylon"])
    outcome = replay(blue_square, "ticket remove yellow, yellow Caspian Sea, yellow Babylon")  # bonus, then turn
    assert (outcome.points, outcome.arrows) == (4, 2)


def test_a_loop_closing_arrow_cannot_be_removed() -> None:
    position = table(yellow=[["start", "Athens", "Gizeh", "Timgad", "Athens"]])
    with pytest.raises(IllegalActionError, match="no free head"):
        replay(position, "ticket remove yellow")
    with pytest.raises(IllegalActionError, match="has no arrow"):
        replay(position, "ticket remove red")


def test_removing_a_restart_arrow_restarts_at_once() -> None:
    position = table(yellow=[["start", "Athens", "Gizeh", "Timgad", "Athens"], ["Athens", "Petra"]],
                     hand=["Athens", "Rome"])
    with pytest.raises(IllegalActionError, match="yellow restart is pending"):
        replay(position, "ticket remove yellow, red start>Svalbard")
    with pytest.raises(IllegalActionError, match="mandatory arrow is missing"):
        replay(position, "ticket remove yellow, yellow start>Rome")
    outcome = replay(position, "ticket remove yellow, yellow start>Rome, red start>Svalbard")
    assert (outcome.points, outcome.arrows, outcome.tickets_spent) == (4, 2, 1)  # Athens (left from), Rome


def test_an_exchange_scores_nothing_and_keeps_the_hand_size() -> None:
    position = table(yellow=["start", "Athens"])
    outcome = replay(position, "yellow Gizeh, ticket exchange Perth")
    assert (outcome.points, outcome.tickets_spent) == (0, 1)
    assert "Perth" not in outcome.state.me.hand and len(outcome.state.me.hand) + outcome.state.me.hidden == 12
    with pytest.raises(IllegalActionError, match="not in your hand"):
        replay(position, "yellow Gizeh, ticket exchange Sahara")
    with pytest.raises(IllegalActionError, match="known to be elsewhere"):
        replay(position, "yellow Gizeh, ticket exchange Perth for Atacama")


# -- the end, scoring, the engine's lists --------------------------------------------------------------------------
def test_the_score_counts_cards_and_tokens() -> None:
    # 2 in front, 1 token recovered, 10 in hand, 3 tokens on the map: 2 + 1 - 10 - 3
    player = Player("Ben", tuple(f"x{i}" for i in range(10)), 10, ("a", "b", "c"), ("d", "e"), 3)
    assert player.score == -10


def test_verify_reports_the_end_of_a_turn_that_may_not_end() -> None:
    position = table(yellow=["start", "Athens", "Gizeh", "Timgad"])
    with pytest.raises(IllegalActionError, match="action 2: the turn cannot end here"):
        verify(position, [Action.arrow(Colour.YELLOW, "Timgad", "Athens")])


def test_legal_actions_at_the_start_are_every_first_arrow_and_no_ticket_arrow_twice() -> None:
    actions = legal_actions(begin(table()))
    plain = [a for a in actions if not a.ticket]
    assert len(plain) == 3 * 6  # each colour from the start along its 6 links
    assert {a.to for a in plain} == {"Athens", "Rome", "Stonehenge", "Svalbard", "Thingvellir", "blue:Start-E"}
