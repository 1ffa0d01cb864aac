"""The two solvers agree on the optimum, every plan replays legally, and tricky golden cases hold.

Values are compared, never routes: ties are legal.
"""

from __future__ import annotations

import random

import pytest
import strategies
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.elfenland.generate import random_position
from planner.elfenland.plan import verify
from planner.elfenland.position import Position
from planner.elfenland.rules import Rules
from planner.elfenland.solvers import solve
from planner.errors import NotationError

SOLVERS = ("search", "cpsat")

GOLDEN = [
    # (why, position in compact notation, rule options, expected score, expected cards spent)
    ("a caravan of pigs pays the first forest road, so both dragon roads are travelled",
     "D@ELV-ERG:f,D@ERG-TIC:f ELV PPPDD - 1", {}, 2, 5),
    ("downstream rafts cost 1: Jxara to Mah'Davikia to Grangor beats one upstream step",
     "- JXA RR - 1", {}, 2, 2),
    ("upstream costs 2 and the lake 2: from Grangor two rafts buy one town",
     "- GRA RR - 1", {}, 1, 2),
    ("a ferry is the only way out of Strykhaven",
     "- STR RR - 1", {}, 1, 2),
    ("Kihromah is a dead end: go there and come back over the same road, paying twice",
     "C@DAG-KIH:f,P@DAG-JXA:f DAG CCCCP - 1", {}, 2, 5),
    ("round 1: two towns for two cards",
     "E@LAP-VIR:p,E@DAG-LAP:f,E@DAG-KIH:f LAP EE - 1 VIR", {}, 2, 2),
    ("last round: stepping home to Virst beats two towns three links away",
     "E@LAP-VIR:p,E@DAG-LAP:f,E@DAG-KIH:f LAP EE - 4 VIR", {}, 1, 1),
    ("nothing affordable: stay",
     "- ELV D - 1", {}, 0, 0),
    ("nothing affordable in the last round: stay, one link from home",
     "- ELV D - 4 BEA", {}, -1, 0),
    ("an obstacle adds a matching card: three elfcycles on a mountain road",
     "E+X@STR-VIR:m STR EEE - 1", {}, 1, 3),
    ("scaled caravans cost 2 + the counter's cost: 4 cards on a forest dragon road",
     "D@ELV-ERG:f ELV PPPP - 1", {"caravan": "scaled"}, 1, 4),
    ("Elvenhold gives no marker: passing through it is only a way",
     "P@BEA-ELV:p,P@ELV-LAP:p BEA PP - 1", {}, 1, 2),
]


def _position(text: str, options: dict[str, object]) -> Position:
    position = Position.from_str(text)
    return position.replace(rules=Rules(**options)) if options else position


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize(("why", "text", "options", "score", "cards"), GOLDEN, ids=[g[0][:40] for g in GOLDEN])
def test_golden(solver: str, why: str, text: str, options: dict[str, object], score: int, cards: int) -> None:
    position = _position(text, options)
    solution = solve(position, solver=solver)
    plan = solution.plan
    assert solution.proven
    assert (plan.score, plan.cards_spent) == (score, cards), f"{why}: {position} -> {plan}"
    assert verify(position, plan.steps).score == score


def test_strict_caravan_is_search_only() -> None:
    # Strict rule: a caravan only when the matching cards cannot be paid. With DD in hand the first dragon road
    # must be paid with dragons, and then the second can be a caravan of pigs: the same 2 towns, 5 cards.
    position = _position("D@ELV-ERG:f,D@ERG-TIC:f ELV PPPDD - 1", {"caravan_when": "strict"})
    plan = solve(position).plan
    assert (plan.score, plan.cards_spent) == (2, 5)
    assert [str(s.pay) for s in plan.steps] == ["counter", "caravan"]
    # With one dragon only, the first road can go by caravan at once.
    position = _position("D@ELV-ERG:f ELV PPPD - 1", {"caravan_when": "strict"})
    assert solve(position).plan.cards_spent == 3


def test_unknown_solver_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="unknown solver 'fast'"):
        solve(Position(at="ELV"), solver="fast")


def test_alternatives_differ_in_towns_or_end() -> None:
    position = Position.from_str("E@RIV-THR:f,D@JAC-THR:m,P@ELV-LAP:p RIV EDRP - 1")
    for solver in SOLVERS:
        plans = solve(position, solver=solver, alternatives=4).plans
        keys = {(frozenset(p.new_towns), p.end) for p in plans}
        assert len(keys) == len(plans) == 4
        assert [p.value for p in plans] == sorted((p.value for p in plans), reverse=True)


def test_alternatives_agree_between_solvers() -> None:
    rng = random.Random(11)
    for _ in range(15):
        position = random_position(rng, cards=rng.randint(3, 8))
        values = [[p.value for p in solve(position, solver=s, alternatives=3).plans] for s in SOLVERS]
        assert values[0] == values[1], str(position)


def test_search_time_limit_returns_unproven_legal_plan() -> None:
    position = random_position(random.Random(5), cards=20, counters=35)
    solution = solve(position, solver="search", time_limit=0.1)
    assert not solution.proven
    verify(position, solution.plan.steps)


def _agree(position: Position) -> None:
    results = {}
    for solver in SOLVERS:
        solution = solve(position, solver=solver)
        plan = solution.plan
        outcome = verify(position, plan.steps)
        assert outcome.score == plan.score and outcome.cards_spent == plan.cards_spent
        assert solution.proven, f"{solver} did not prove {position}"
        results[solver] = plan.value
    assert results["search"] == results["cpsat"], f"{position}: {results}"


@given(strategies.positions(rules=st.builds(Rules, caravan=st.sampled_from(["flat", "scaled"]),
                                                          rounds=st.sampled_from([3, 4]),
                                                          home_distance=st.sampled_from(["all", "roads"]),
                                                          home_variant=st.booleans()), max_cards=12))
@settings(max_examples=100)
def test_solvers_agree_on_random_positions(position: Position) -> None:
    _agree(position)


@pytest.mark.parametrize("seed", range(6))
def test_solvers_agree_on_dense_boards(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        _agree(random_position(rng, cards=rng.randint(0, 12), counters=35))


def test_auto_races_cpsat_on_a_hard_position_and_proves() -> None:
    # A 20-card hand with every road holding a counter: the search alone needs seconds here, so CP-SAT joins.
    position = random_position(random.Random(2), cards=20, counters=35)
    auto = solve(position, time_limit=30)
    assert auto.proven
    assert "race" in auto.stats
    verify(position, auto.plan.steps)
    assert auto.plan.value == solve(position, solver="cpsat", time_limit=30).plan.value


def test_search_agrees_with_brute_force_under_the_strict_caravan_rule() -> None:
    # CP-SAT cannot model the strict rule where it matters, so the brute force is the second opinion here.
    from brute import brute_force

    rng = random.Random(7)
    strict = Rules(caravan_when="strict")
    for _ in range(150):
        position = random_position(rng, cards=rng.randint(0, 7), rules=strict)
        plan = solve(position, solver="search").plan
        verify(position, plan.steps)
        assert plan.value == brute_force(position)[0], str(position)
