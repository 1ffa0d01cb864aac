"""The bounds and shortcuts that make the advice fast change no answer: every value is checked against the brute
force of ``tests/helpers/brute.py`` (which shares no code with the solvers) or against the same computation
without the shortcut.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import strategies
from brute import brute_force, brute_force_joint
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from planner.common import processes
from planner.common.limits import Budget, Limit
from planner.elfenland.advice import solving
from planner.elfenland.advice.drawing import advise_draw
from planner.elfenland.advice.placing import after_reply, joint_plan, place_now, replies_to
from planner.elfenland.advice.pools import unseen_counters
from planner.elfenland.advice.solving import clear_cache
from planner.elfenland.plan import place, verify
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, SUPPLY_LIMIT, Transport
from planner.elfenland.solvers import Solution, solve
from planner.elfenland.solvers.auto import Team, race
from planner.elfenland.solvers.common import Move
from planner.elfenland.solvers.search import solve_search


@st.composite
def joint_positions(draw: st.DrawFn) -> Position:
    """Small legal positions (brute force stays quick) with up to 3 counters in the supply, the start town
    sometimes still to collect."""
    position = draw(strategies.positions(max_cards=5, round_keys=False))
    on_board = Counter(t.transport for t in position.tiles)
    stock = [t for t in COUNTER_TRANSPORTS for _ in range(COUNTERS[t] - on_board[t])]
    supply = draw(st.lists(st.sampled_from(stock), max_size=3)) if stock else []
    position = position.replace(supply=Hand.of(supply))
    if draw(st.booleans()):
        position = position.replace(visited=position.visited | {position.at})
    return position


@given(joint_positions())
@settings(max_examples=strategies.examples(120), deadline=None)
def test_the_card_bound_keeps_the_joint_search_exact(position: Position) -> None:
    joint = solve_search(position, joint=True)
    assert joint.proven
    assert joint.plan.objective == brute_force_joint(position)[0], str(position)
    route = solve_search(position)
    assert route.plan.value == brute_force(position)[0], str(position)



def _naive_worst(position: Position) -> tuple[int, int]:
    """My plan after the worst single reply to it, every reply solved afresh (no cache, no shortcut)."""
    plan = solve(position, solver="search", joint=True).plan
    values = [solve(after_reply(position, road, counter), solver="search", joint=True).plan.value
              for road, counter in replies_to(position, plan)]
    return min([plan.value, *values])


@given(joint_positions(), st.booleans())
@settings(max_examples=strategies.examples(40), deadline=None)
def test_place_now_with_its_shortcuts_is_the_maximin_of_fresh_solves(position: Position, warm: bool) -> None:
    clear_cache()
    if warm:  # the same advice from a cache the first run filled
        place_now(position, solver="search")
    advice = place_now(position, solver="search")
    # Passing also meets the end of planning (everybody else passes): the route on the board as it is.
    ended = solve(position, solver="search").plan.value
    assert advice.passing.worst == min(_naive_worst(position), ended), str(position)
    for candidate in advice.candidates[1:]:
        assert candidate.placement is not None
        if not candidate.refuted:
            assert candidate.worst == _naive_worst(place(position, [candidate.placement])), str(position)
    assert advice.now.worst == max(c.worst for c in advice.candidates if not c.refuted)
    for reply in (r for c in advice.candidates for r in c.replies):
        assert reply.plan.position.tiles  # walked on its own position: replays under the verifier
        verify(reply.plan.position, reply.plan.steps)


@given(joint_positions())
@settings(max_examples=strategies.examples(40), deadline=None)
def test_a_cached_joint_plan_is_walked_on_the_position_asked(position: Position) -> None:
    clear_cache()
    first = joint_plan(position)
    other = position.replace(title="another title", notes="asked again")
    again = joint_plan(other)
    assert again.plan.objective == first.plan.objective == solve(other, solver="search", joint=True).plan.objective
    assert again.plan.position == place(other, again.plan.placements)
    verify(again.plan.position, again.plan.steps)


@given(joint_positions())
@settings(max_examples=strategies.examples(40), deadline=None)
def test_a_joint_plan_cpsat_may_join_from_the_first_node_is_the_same(position: Position) -> None:
    clear_cache()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solving, "SEARCH_FIRST_NODES", 1)  # CP-SAT may join once the race's head start is over
        raced = joint_plan(position)
    clear_cache()
    assert raced.proven
    expected = solve_search(position, joint=True).plan.objective
    assert raced.plan.objective == joint_plan(position).plan.objective == expected


@pytest.mark.parametrize("nodes", [0, 3000])
def test_cpsat_joins_an_advice_solve_only_after_its_nodes_alone(nodes: int) -> None:
    # One search from the first node (no second search from scratch): CP-SAT may join only once it has run
    # ``search_nodes`` nodes. A stand-in CP-SAT notes the node count it joined at and proves nothing.
    opening = Position.from_str("- ELV PPEEECCD - 1 supply=PECUD")  # an opening: thousands of nodes
    polled: list[int] = []
    joined: list[int] = []

    def search(position: Position, **kwargs: Any) -> Solution:
        poll = kwargs["interrupt"]

        def noted(count: int, best_moves: Callable[[], tuple[Move, ...]]) -> bool:
            polled.append(count)
            return bool(poll(count, best_moves))

        return solve_search(position, **{**kwargs, "interrupt": noted})

    def cpsat(position: Position, **kwargs: Any) -> Solution:
        joined.append(polled[-1])
        return solve_search(position, limit=Limit(nodes=1), joint=True)

    team = Team(search=search, cpsat=cpsat, load_ortools=lambda: None)
    raced = race(opening, alternatives=1, budget=Budget(Limit(time=60)), seed=0, joint=True, team=team,
                 search_alone=0.0, search_nodes=nodes)
    assert raced.proven and max(polled) > 3000
    assert joined == [min(c for c in polled if c >= nodes)]
    assert raced.plan.objective == solve_search(opening, joint=True).plan.objective


OPENINGS = ["- ELV PPEEC - 1 supply=PEC", "- ELV PEUTD - 1 supply=PEUT", "- ELV PPEEUU - 1 supply=PEU"]
"""Small openings whose moves tie on their worst (and their roads' losses): the plan's order decides."""


def _advises_as_trying_every_move_fully(position: Position) -> None:
    """The reference tries every move against every reply with fresh solves: the best worst wins, then the move
    whose road would hurt most to lose (the worst opponent counter there while I pass), then the plan's order;
    passing only when it is better than every move."""
    clear_cache()
    advice = place_now(position, solver="search")
    joint = solve(position, solver="search", joint=True).plan
    moves = list(dict.fromkeys(joint.placements))

    def loss(move: Tile) -> tuple[int, int]:
        fills = [solve(after_reply(position, road, counter), solver="search", joint=True).plan.value
                 for road, counter in replies_to(position, joint) if road == move.road and counter is not None]
        worst = min(fills, default=joint.value)
        return -worst[0], -worst[1]

    ranked = sorted(moves, key=lambda m: (_naive_worst(place(position, [m])), loss(m), -moves.index(m)))
    expected = ranked[-1] if ranked else None
    if expected is not None and advice.passing.worst > _naive_worst(place(position, [expected])):
        expected = None
    assert advice.now.placement == expected, str(position)
    assert [c.placement for c in advice.candidates] == [None, *moves]


@pytest.mark.parametrize("notation", OPENINGS)
def test_trying_the_best_bounded_move_first_keeps_the_plans_order_among_ties(notation: str) -> None:
    _advises_as_trying_every_move_fully(Position.from_str(notation))


@given(joint_positions())
@settings(max_examples=strategies.examples(40), deadline=None)
def test_trying_the_best_bounded_move_first_advises_what_trying_every_move_fully_does(position: Position) -> None:
    _advises_as_trying_every_move_fully(position)


@pytest.mark.slow
def test_the_draw_advice_is_the_same_with_its_solves_in_worker_processes() -> None:
    position = Position.from_str("- ELV PPEECTTD - 1 supply=PETD")  # an opening: six solves of some weight
    clear_cache()
    alone = advise_draw(position, solver="search")
    clear_cache()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(processes, "idle_cores", lambda: 2)
        patch.setattr(processes, "workers_for", lambda costs, **kwargs: 2)
        shared = advise_draw(position, solver="search")
    assert [(o.counter, o.score, o.cards) for o in shared.options] == [(o.counter, o.score, o.cards)
                                                                       for o in alone.options]
    for option in shared.options:
        if option.plan is not None:
            verify(option.plan.position, option.plan.steps)


def _fresh_draw_values(position: Position) -> dict[Transport | None, tuple[float, float]]:
    """Each face-up counter's (score, cards) and the blind draw's expectation, every joint plan solved afresh."""
    unseen = unseen_counters(position)

    def value(t: Transport) -> tuple[int, int]:
        drawn = Hand.of([t])  # taken from the display when it lies there (else it would be counted twice)
        display = position.display.without(drawn) if position.display[t] else position.display
        plan = solve(position.replace(supply=position.supply + drawn, display=display), solver="search",
                     joint=True).plan
        return plan.score, plan.cards_spent

    found: dict[Transport | None, tuple[float, float]] = {t: value(t) for t in COUNTER_TRANSPORTS
                                                            if position.display[t]}
    if len(unseen):
        values = {t: value(t) for t in COUNTER_TRANSPORTS if unseen[t]}
        found[None] = (sum(unseen[t] * v[0] for t, v in values.items()) / len(unseen),
                       sum(unseen[t] * v[1] for t, v in values.items()) / len(unseen))
    return found


@given(joint_positions(), st.lists(st.sampled_from(COUNTER_TRANSPORTS), max_size=5))
@settings(max_examples=strategies.examples(40), deadline=None)
def test_each_draw_is_worth_a_fresh_joint_solve_with_that_counter(position: Position,
                                                                  display: list[Transport]) -> None:
    # The draws a counter that does no more than another leaves equal to my plan now are not solved: their
    # values must still be those of their own solves.
    position = position.replace(display=Hand.of(display))
    assume(len(position.supply) < SUPPLY_LIMIT and not position.problems())
    clear_cache()
    advice = advise_draw(position, solver="search")
    assert {o.counter: (o.score, o.cards) for o in advice.options} == _fresh_draw_values(position), str(position)
    for option in advice.options:
        if option.plan is not None:
            verify(option.plan.position, option.plan.steps)


@pytest.mark.parametrize("notation", ["- ELV RR - 1 supply=P,display=PECUT", "- ELV RR - 1 supply=ED,display=PUTD"])
def test_draws_no_card_can_use_are_worth_the_plan_now(notation: str) -> None:
    # Too few cards for a caravan (3) and none of the counters' own: no counter drawn changes the plan, and the
    # counters that only a caravan would pay are settled by those that go everywhere (troll wagon, dragon).
    position = Position.from_str(notation)
    clear_cache()
    advice = advise_draw(position, solver="search")
    assert {o.counter: (o.score, o.cards) for o in advice.options} == _fresh_draw_values(position)
    assert all(o.value == (advice.now.score, -advice.now.cards_spent) for o in advice.options)
