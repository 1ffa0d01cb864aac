"""The CP-SAT route optimizer: golden positions with hand-derived answers, and agreement with a brute force.

Every plan is replayed by the independent verifier. CP-SAT runs with one worker and a fixed seed; only objective
values are compared (any optimal route is fine).
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import threading
from typing import Any

import pytest
from brute import best_by_key, brute_force

from planner.common.limits import Limit, Status
from planner.elfenland.board import load_board
from planner.elfenland.plan import Pay, Plan, verify
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, DECK, OBSTACLES, TRANSPORTS, Rules, can_carry
from planner.elfenland.solvers.common import CutPool, Solution, plan_key
from planner.elfenland.solvers.cpsat import solve_cpsat
from planner.elfenland.solvers.network import build_network
from planner.elfenland.solvers.search import solve_search
from planner.errors import IllegalPositionError, UnsupportedError

BOARD = load_board()
HOME_TOWNS = sorted(t.code for t in BOARD.towns.values() if t.home_card)


def solve(position: Position, **options: Any) -> Solution:
    return solve_cpsat(position, limit=Limit(time=20.0), seed=0, workers=1, **options)


def check_plans(position: Position, solution: Solution) -> None:
    """Every plan replays legally and reports what the verifier measures."""
    for plan in solution.plans:
        outcome = verify(position, plan.steps)
        assert (outcome.score, -outcome.cards_spent) == plan.value
        assert plan.solver == "cpsat"


# -- golden positions --------------------------------------------------------------------------------------------
GOLDEN = [
    # Rivinia -> Throtmanni on the elfcycle (forest 1 E) -> Jaccaranda on the dragon (mountain 1 D).
    ("E@RIV-THR:f,D@JAC-THR:m RIV ED - 1", Rules(), (2, 2)),
    # Clouds cost 2 in forest, 1 on mountains: a caravan (3) into Throtmanni keeps a cloud for the mountain,
    # 3 + 1 = 4 cards, against 2 + a caravan = 5 paying the forest with clouds.
    ("C@RIV-THR:f,C@JAC-THR:m RIV CCPPP - 1", Rules(), (2, 4)),
    # Scaled caravans cost 2 + the counter's price: 4 in the forest, 3 on the mountain; so CC pays the forest
    # and a 3-card caravan the mountain: 5 cards.
    ("C@RIV-THR:f,C@JAC-THR:m RIV CCPPP - 1", Rules(caravan="scaled"), (2, 5)),
    # An obstacle adds a matching card: forest elfcycle 1 + 1.
    ("E+X@RIV-THR:f RIV EE - 1", Rules(), (1, 2)),
    # Downstream rafts cost 1: Elvenhold -> Rivinia -> Tichih.
    ("- ELV RR - 1", Rules(), (2, 2)),
    # Upstream costs 2: one raft cannot leave Tichih, three reach Rivinia but not Elvenhold.
    ("- TIC R - 1", Rules(), (0, 0)),
    ("- TIC RRR - 1", Rules(), (1, 2)),
    # The ferry over Mare Magnum (2 rafts) is the only way out of Strykhaven; Elvenhold holds no marker.
    ("- STR RR - 1", Rules(), (1, 2)),
    ("- STR R - 1", Rules(), (0, 0)),
    # Kihromah is a dead end: go in and come back over the same road to collect Lapphalya too.
    ("P@DAG-KIH:f,P@DAG-LAP:f DAG PPP - 1", Rules(), (2, 3)),
    # Last round, home Jaccaranda: going on to Rivinia (2 towns, 2 links from home) scores 0, while going to
    # Throtmanni and back home scores 1.
    ("D@JAC-THR:m,E@RIV-THR:f JAC DDE - 4 JAC", Rules(), (1, 2)),
    ("D@JAC-THR:m,E@RIV-THR:f JAC DDE - 1 JAC", Rules(), (2, 2)),  # not the last round
    ("D@JAC-THR:m,E@RIV-THR:f JAC DDE - 4 JAC", Rules(home_variant=False), (2, 2)),
    ("D@JAC-THR:m,E@RIV-THR:f JAC DDE - 3 JAC", Rules(rounds=3), (1, 2)),  # round 3 of 3 is the last
    # Nothing affordable: a dragon costs 2 in forest, a pig is no dragon, and a caravan needs 3 cards.
    ("D@RIV-THR:f RIV P - 1", Rules(), (0, 0)),
    ("- RIV - - 1", Rules(), (0, 0)),
    # Already collected towns give nothing, so staying put is best.
    ("E@RIV-THR:f,D@JAC-THR:m RIV ED THR,JAC 1", Rules(), (0, 0)),
]


@pytest.mark.parametrize(("text", "rules", "expected"), GOLDEN, ids=[f"{t} {r.to_mapping()}" for t, r, _ in GOLDEN])
def test_golden(text: str, rules: Rules, expected: tuple[int, int]) -> None:
    position = Position.from_str(text).replace(rules=rules)
    solution = solve(position)
    assert solution.proven
    assert solution.stats["status"] == "OPTIMAL"
    assert (solution.plan.score, solution.plan.cards_spent) == expected
    check_plans(position, solution)
    assert brute_force(position)[0] == (expected[0], -expected[1])  # the reference agrees with the hand count


def test_caravan_is_paid_with_spare_cards() -> None:
    position = Position.from_str("C@RIV-THR:f,C@JAC-THR:m RIV CCPPP - 1")
    plan = solve(position).plan
    caravans = [s for s in plan.steps if s.pay is Pay.CARAVAN]
    assert len(caravans) == 1 and len(caravans[0].cards) == 3


def test_home_distance_by_roads_only() -> None:
    # Home Tichih, last round, at Rivinia with nothing to spend: Tichih is one river link away, but by road
    # Rivinia - Throtmanni - Tichih is two.
    position = Position.from_str("- RIV - - 4 TIC")
    assert solve(position).plan.score == -1
    assert solve(position.replace(rules=Rules(home_distance="roads"))).plan.score == -2


def test_alternatives_are_distinct_and_best_first() -> None:
    position = Position.from_str("E@RIV-THR:f,D@JAC-THR:m,P@FEO-RIV:f RIV EDP - 1")
    solution = solve(position, alternatives=4)
    check_plans(position, solution)
    keys = [plan_key(p) for p in solution.plans]
    assert len(set(keys)) == len(keys) == 4
    values = [p.value for p in solution.plans]
    assert values == sorted(values, reverse=True)
    by_key = best_by_key(position)
    assert values == sorted(by_key.values(), reverse=True)[:4]
    assert all(by_key[k] == p.value for k, p in zip(keys, solution.plans, strict=True))


def test_alternatives_stop_when_routes_run_out() -> None:
    position = Position.from_str("E@RIV-THR:f RIV E - 1")
    solution = solve(position, alternatives=5)
    assert [p.value for p in solution.plans] == [(1, -1), (0, 0)]


def test_stats_and_flags() -> None:
    solution = solve(Position.from_str("E@RIV-THR:f,D@JAC-THR:m RIV ED - 1"))
    assert solution.solver == "cpsat" and solution.proven and solution.plan.proven
    assert solution.stats["variables"] > 0 and solution.stats["branches"] >= 0
    assert [s["phase"] for s in solution.stats["solves"]] == ["points", "cards"]
    assert solution.elapsed > 0


def test_strict_caravan_rule_is_refused_where_it_matters() -> None:
    strict = Rules(caravan_when="strict")
    position = Position.from_str("C@RIV-THR:f,C@JAC-THR:m RIV CCPPP - 1").replace(rules=strict)
    with pytest.raises(UnsupportedError, match="strict caravan rule is not supported"):
        solve(position)


def test_strict_caravan_rule_is_solved_where_it_cannot_bite() -> None:
    # No clouds in hand: every caravan is allowed under the strict rule too.
    strict = Rules(caravan_when="strict")
    position = Position.from_str("C@RIV-THR:f,C@JAC-THR:m RIV PPPPPP - 1").replace(rules=strict)
    solution = solve(position)
    assert solution.plan.value == brute_force(position)[0] == (2, -6)


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        solve(Position.from_str("- RIV - - 1"), alternatives=0)
    with pytest.raises(IllegalPositionError):
        solve(Position.from_str("- RIV - - 9"))


def dense_position(seed: int, cards: int = 20) -> Position:
    """A puzzle-sized position: a counter on every road, a big hand, nothing collected yet."""
    rng = random.Random(seed)
    counters = dict(COUNTERS)
    tiles = []
    for road in BOARD.roads:
        transport = rng.choice([t for t in COUNTER_TRANSPORTS if can_carry(t, road.terrain) and counters[t] > 0])
        counters[transport] -= 1
        tiles.append(Tile(road.id, transport))
    pool = [t for t in TRANSPORTS for _ in range(DECK[t])]
    return Position(at=rng.choice(sorted(BOARD.towns)), hand=Hand.of(rng.sample(pool, cards)), tiles=tuple(tiles))


@pytest.mark.slow
def test_dense_puzzle_is_proven_and_agrees_with_the_search() -> None:
    position = dense_position(2)
    solution = solve(position)
    assert solution.proven and solution.status is Status.OPTIMAL and solution.bound == solution.plan.score
    check_plans(position, solution)
    assert solution.plan.value == solve_search(position).plan.value


def test_hint_route_is_a_start_only() -> None:
    position = dense_position(2)
    first = solve(position)
    again = solve(position, hint=first.plan)
    assert again.proven and again.plan.value == first.plan.value
    modest = Plan.of(position, first.plan.steps[:3])
    assert solve(position, hint=modest).plan.value == first.plan.value
    other = Position.from_str("E@RIV-THR:f RIV E - 1")
    assert solve(other, hint=first.plan).plan.value == (1, -1)  # another position's route is ignored


def test_stop_set_before_the_start_answers_the_hint_or_staying_put() -> None:
    position = dense_position(3)
    stop = threading.Event()
    stop.set()
    solution = solve(position, stop=stop)
    assert solution.status is Status.STOPPED and not solution.proven
    check_plans(position, solution)
    assert solution.bound >= solution.plan.score
    hint = Plan.of(position, solve_search(position, limit=Limit(nodes=500)).plan.steps)
    hinted = solve(position, stop=stop, hint=hint)
    assert hinted.status is Status.STOPPED and hinted.plan.value >= hint.value


def test_a_stop_from_the_solvers_own_thread_ends_the_alternatives_early() -> None:
    # Fifty alternatives of a 20-card puzzle: the stop comes with the first bound, so few are listed.
    position = dense_position(9)
    stop = threading.Event()
    solution = solve(position, stop=stop, alternatives=50, on_bound=lambda bound: stop.set())
    check_plans(position, solution)
    assert solution.status is Status.STOPPED
    assert len(solution.plans) < 50


# Ten cards from Feldheim: the relaxation without a flow first collects towns in loops the start cannot reach.
STRAYING = Position.from_str(
    "D@ALB-DAG:d,T@ALB-FEO:d,U@ALB-PAR:d,D@ALB-THR:d,U@ALB-WYL:d,D@BEA-ELV:p,D@BEA-STR:p,T@DAG-FEO:d,P@DAG-JXA:f,"
    "U@DAG-KIH:f,D@DAG-LAP:f,C@DAG-MAH:m,C@ELV-ERG:f,T@ELV-LAP:p,P@ERG-TIC:f,C@FEO-LAP:f,D@FEO-RIV:f,T@FEO-THR:d,"
    "U@GRA-MAH:m,T@GRA-YTT:m,U@JAC-THR:m,T@JAC-TIC:m,U@JAC-WYL:m,C@JXA-LAP:f,T@JXA-MAH:m,E@JXA-VIR:p,C@LAP-RIV:f,"
    "E@LAP-VIR:p,E@PAR-USS:f,C@PAR-WYL:p,D@RIV-THR:f,T@STR-VIR:m,E@THR-TIC:p,E@USS-WYL:p,D@USS-YTT:f "
    "FEO PPEECTTRRR LAP,USS,VIR,WYL 2")


@pytest.mark.slow
def test_the_cut_loop_cuts_off_stray_loops_and_agrees_with_the_flow_model() -> None:
    cuts = solve(STRAYING)
    flow = solve(STRAYING, connectivity="flow")
    assert sum(run.get("cuts", 0) for run in cuts.stats["solves"]) > 0  # the loop really ran
    assert "cuts" not in flow.stats["solves"][0]
    assert cuts.proven and flow.proven
    check_plans(STRAYING, cuts)
    check_plans(STRAYING, flow)
    assert cuts.plan.value == flow.plan.value == solve_search(STRAYING).plan.value


def test_the_wide_cut_loop_adds_every_connected_triple_once_and_agrees() -> None:
    wide = solve(STRAYING, connectivity="cuts-wide")
    widened = [run["widened"] for run in wide.stats["solves"] if "widened" in run]
    assert len(widened) == 1 and widened[0] > 0  # at the first stray solution, and only then
    assert wide.proven
    check_plans(STRAYING, wide)
    assert wide.plan.value == solve_search(STRAYING).plan.value


def test_cut_sets_are_connected_small_and_without_the_start() -> None:
    net = build_network(STRAYING)
    near = {(a.frm, a.to) for a in net.arcs} | {(a.to, a.frm) for a in net.arcs}
    narrow, wider = set(net.cut_sets()), set(net.wide_cut_sets())
    assert narrow and wider and not narrow & wider
    wide = narrow | wider
    for towns in wide:
        assert 2 <= len(towns) <= 4 and net.start not in towns
        links = sum((a, b) in near for a in towns for b in towns if a < b)
        assert links >= len(towns) - 1  # connected
        assert (towns in narrow) == (len(towns) < 4 and links == len(towns) * (len(towns) - 1) // 2)
    others = [t for t in net.towns if t != net.start]
    triples = {frozenset({a, b, c}) for a in others for b in others for c in others
               if len({a, b, c}) == 3 and sum((x, y) in near for x, y in ((a, b), (b, c), (a, c))) >= 2}
    assert {t for t in wide if len(t) == 3} == triples
    rings = {frozenset(ring) for ring in itertools.permutations(others, 4)
             if all((ring[i], ring[(i + 1) % 4]) in near for i in range(4))}
    assert {t for t in wide if len(t) == 4} == rings


def test_a_cut_pool_gives_each_look_what_was_published_since_the_last() -> None:
    pool = CutPool()
    assert pool.since(0) == ([], 0)
    pair, triple = frozenset({"BEA", "ELV"}), frozenset({"DAG", "LAP", "VIR"})
    pool.publish([pair])
    pool.publish([triple])
    assert pool.since(0) == ([pair, triple], 2)
    assert pool.since(1) == ([triple], 2)
    assert pool.since(2) == ([], 2)


def test_a_run_publishes_the_cuts_it_finds_and_the_next_run_on_the_position_takes_them() -> None:
    pool = CutPool()
    first = solve(STRAYING, cuts=pool)
    found, count = pool.since(0)
    assert count == sum(run.get("cuts", 0) for run in first.stats["solves"]) > 0  # every stray, once
    assert first.stats["pooled_cuts"] == 0  # its own come back from the pool, and are not added twice
    assert all(STRAYING.at not in towns for towns in found)
    second = solve_cpsat(STRAYING, limit=Limit(time=20.0), seed=1, workers=1, cuts=pool)
    assert second.stats["pooled_cuts"] == count
    assert first.proven and second.proven
    check_plans(STRAYING, first)
    check_plans(STRAYING, second)
    assert first.plan.value == second.plan.value == solve_search(STRAYING).plan.value


def test_a_pooled_town_set_holding_the_start_is_no_cut_and_is_left_out() -> None:
    # Every town: nothing enters it from outside, so as a cut it would forbid collecting anything.
    pool = CutPool()
    pool.publish([frozenset(build_network(STRAYING).towns)])
    solution = solve(STRAYING, cuts=pool)
    assert solution.proven and solution.stats["pooled_cuts"] == 0
    assert solution.plan.value == solve_search(STRAYING).plan.value


def test_stopped_inside_the_cut_loop_answers_a_legal_route_unproven() -> None:
    stop = threading.Event()
    solution = solve(STRAYING, stop=stop, on_bound=lambda bound: stop.set())
    assert not solution.proven
    check_plans(STRAYING, solution)


def test_unknown_connectivity_is_refused() -> None:
    with pytest.raises(ValueError, match="connectivity"):
        solve(STRAYING, connectivity="magic")


@pytest.mark.parametrize("connectivity", ["flow", "cuts-wide"])
@pytest.mark.slow
@pytest.mark.parametrize("block", range(3))
def test_the_other_connectivity_models_agree_with_brute_force(connectivity: str, block: int) -> None:
    for seed in range(block * 40, block * 40 + 40):
        position = random_position(seed)
        expected, _ = brute_force(position)
        solution = solve(position, connectivity=connectivity)
        check_plans(position, solution)
        assert solution.proven and solution.plan.value == expected, f"seed {seed}: {position}"


@pytest.mark.parametrize("limit", [Limit(time=1e-6), Limit(nodes=1)])
def test_a_limit_too_small_for_any_route_answers_a_legal_one(limit: Limit) -> None:
    position = dense_position(9)
    solution = solve_cpsat(position, limit=limit, workers=1)
    check_plans(position, solution)
    assert solution.status in (Status.FEASIBLE, Status.OPTIMAL)
    assert solution.bound >= solution.plan.score


def test_import_does_not_load_ortools() -> None:
    code = "import sys, planner.elfenland.solvers.cpsat; sys.exit('ortools' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_run_is_the_same_whatever_the_hash_seed() -> None:
    """The order of a cut's terms steers CP-SAT, and a frozenset's order follows PYTHONHASHSEED: cuts are added
    in sorted order, so one run (one worker, one seed) branches alike in every process. A dense 20-card puzzle
    whose proof takes rounds of cuts (the benchmark's #45 of seed 2026, whose time varied 1.5x by the hash seed)."""
    code = """if True:
        import random
        from planner.common.limits import Limit
        from planner.elfenland.generate import random_position
        from planner.elfenland.solvers.cpsat import solve_cpsat
        rng = random.Random(2026 * 1000 + 20)
        position = [random_position(rng, cards=20, counters=35) for _ in range(46)][-1]
        solution = solve_cpsat(position, limit=Limit(time=60), seed=0)
        assert solution.proven and sum(s.get("cuts", 0) for s in solution.stats["solves"]) > 0
        print([(s["branches"], s["conflicts"]) for s in solution.stats["solves"]])
    """
    runs = {subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "1")}
    assert len(runs) == 1, runs


# -- agreement with the brute force on random small positions ---------------------------------------------------
def random_position(seed: int) -> Position:
    """A legal position with a small hand: random counters, obstacles, collected towns, round and rules."""
    rng = random.Random(seed)
    counters = dict(COUNTERS)
    tiles: list[Tile] = []
    density = rng.choice([0.2, 0.5, 0.8, 1.0])
    for road in BOARD.roads:
        options = [t for t in COUNTER_TRANSPORTS if can_carry(t, road.terrain) and counters[t] > 0]
        if options and rng.random() < density:
            transport = rng.choice(options)
            counters[transport] -= 1
            tiles.append(Tile(road.id, transport, False))
    for index in rng.sample(range(len(tiles)), min(len(tiles), rng.randint(0, OBSTACLES))):
        tiles[index] = Tile(tiles[index].road, tiles[index].transport, True)
    pool = [t for t in TRANSPORTS for _ in range(DECK[t])]
    hand = Hand.of(rng.sample(pool, rng.randint(0, 7) if rng.random() < 0.3 else rng.randint(4, 7)))
    towns = sorted(BOARD.towns)
    rules = Rules(
        caravan=rng.choice(["flat", "flat", "scaled"]),
        rounds=rng.choice([3, 4]),
        home_distance=rng.choice(["all", "roads"]),
        home_variant=rng.random() < 0.8,
    )
    return Position(
        at=rng.choice(towns),
        hand=hand,
        tiles=tuple(tiles),
        visited=frozenset(rng.sample(towns, rng.randint(0, 10))),
        home=rng.choice(HOME_TOWNS) if rng.random() < 0.6 else None,
        round=rng.choice([1, rules.rounds - 1, rules.rounds, rules.rounds]),
        rules=rules,
    ).check()


@pytest.mark.parametrize("block", [1, *(pytest.param(block, marks=pytest.mark.slow) for block in (0, *range(2, 10)))])
def test_agrees_with_brute_force(block: int) -> None:
    for seed in range(block * 40, block * 40 + 40):
        position = random_position(seed)
        expected, route = brute_force(position)
        outcome = verify(position, route)
        assert (outcome.score, -outcome.cards_spent) == expected, f"brute force route is off on seed {seed}"
        solution = solve(position)
        check_plans(position, solution)
        assert solution.proven, f"seed {seed}: {position}"
        assert solution.plan.value == expected, (
            f"seed {seed}: {position} rules {position.rules.to_mapping()}: cp-sat {solution.plan.value} "
            f"{solution.plan} vs brute force {expected} {' '.join(map(str, route))}"
        )


@pytest.mark.parametrize("seed", range(1000, 1012))
def test_alternatives_agree_with_enumeration(seed: int) -> None:
    position = random_position(seed)
    position = position.replace(hand=Hand.of(position.hand.cards()[:4]))
    by_key = best_by_key(position)
    solution = solve(position, alternatives=3)
    check_plans(position, solution)
    values = [p.value for p in solution.plans]
    assert values == sorted(by_key.values(), reverse=True)[: len(values)]
    assert len(values) == min(3, len(by_key))
    assert all(by_key[plan_key(p)] == p.value for p in solution.plans)
