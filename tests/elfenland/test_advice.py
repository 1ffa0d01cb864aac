"""The round advisor: joint plans against a brute force and between the solvers, the placement to make now against
an exhaustive maximin, draws against re-solving, obstacles against recounting, keeps against their own rules.

Values are compared, never plans (ties are legal). Every independent computation here uses the exhaustive joint
search of ``tests/brute.py`` or the plain route solvers, never the advice code it checks.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
import strategies
from brute import brute_force_joint
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.common.limits import Limit
from planner.elfenland.advice.drawing import advise_draw
from planner.elfenland.advice.keeping import advise_keep
from planner.elfenland.advice.obstacle import advise_obstacle
from planner.elfenland.advice.placing import after_reply, joint_plan, place_now, replies_to, reply_types, risks
from planner.elfenland.generate import random_position
from planner.elfenland.plan import Plan, place, verify
from planner.elfenland.position import Hand, Opponent, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, KEEP_LIMIT, Rules, Terrain, Transport, can_carry
from planner.elfenland.solvers import solve
from planner.errors import IllegalPlacementError, IllegalPositionError

P, E, C, U, T, D = COUNTER_TRANSPORTS


def small_joint(seed: int, *, cards: int = 5, supply: int = 2, rules: Rules | None = None) -> Position:
    """A legal position with a small hand and a small supply (brute force stays within milliseconds)."""
    rng = random.Random(seed)
    while True:
        position = random_position(rng, cards=rng.randint(0, cards), counters=rng.choice([0, 3, 8, 20]),
                                   rules=rules or Rules())
        stock = {t: COUNTERS[t] - sum(x.transport is t for x in position.tiles) for t in COUNTER_TRANSPORTS}
        pool = [t for t in COUNTER_TRANSPORTS for _ in range(stock[t])]
        position = position.replace(supply=Hand.of(rng.sample(pool, rng.randint(0, supply))))
        if not position.problems():
            return position


def placements_are_legal(position: Position, plan: Plan) -> None:
    """Each counter placed on a road that was empty, of a terrain it travels, from the supply, one per road, and
    travelled by the route (a counter not needed stays in hand)."""
    tiles = position.tile_map()
    roads = [t.road for t in plan.placements]
    assert len(roads) == len(set(roads))
    for tile in plan.placements:
        assert tile.transport is not None and not tile.obstacle
        assert tile.road not in tiles
        assert can_carry(tile.transport, position.board.connections[tile.road].terrain)
        assert tile.road in {s.connection for s in plan.steps}
    used = Counter(t.transport for t in plan.placements)
    assert all(used[t] <= position.supply[t] for t in COUNTER_TRANSPORTS)
    verify(place(position, plan.placements), plan.steps)


# -- the joint plan ------------------------------------------------------------------------------------------------
@given(strategies.positions(max_cards=8, round_keys=False))
@settings(max_examples=strategies.examples(40))
def test_with_an_empty_supply_the_joint_plan_is_the_route(position: Position) -> None:
    joint = solve(position, solver="search", joint=True)
    assert joint.plan.placements == ()
    assert joint.plan.value == solve(position, solver="search").plan.value


@given(strategies.positions(max_cards=8))
@settings(max_examples=strategies.examples(40))
def test_route_ignores_the_supply_and_joint_uses_it(position: Position) -> None:
    route = solve(position, solver="search").plan
    assert route.placements == ()
    assert route.value == solve(position.replace(supply=Hand()), solver="search").plan.value
    joint = solve(position, solver="search", joint=True).plan
    assert joint.objective >= (route.score, -route.cards_spent, 0)  # placing more can only help
    placements_are_legal(position, joint)


@pytest.mark.parametrize("seed", range(60))
def test_joint_plans_of_both_solvers_agree_with_brute_force(seed: int) -> None:
    position = small_joint(seed, rules=Rules(caravan=random.Random(seed).choice(["flat", "scaled"])))
    expected, _, _ = brute_force_joint(position)
    for solver in ("search", "cpsat"):
        solution = solve(position, solver=solver, joint=True, limit=Limit(time=30))
        assert solution.proven, (solver, str(position))
        assert solution.plan.objective == expected, (solver, str(position), str(solution.plan))
        placements_are_legal(position, solution.plan)


@pytest.mark.parametrize("seed", range(20))
def test_joint_plans_agree_with_brute_force_under_the_strict_caravan_rule(seed: int) -> None:
    # CP-SAT does not model the strict rule; the search does, placements included.
    position = small_joint(seed + 100, rules=Rules(caravan_when="strict"))
    solution = solve(position, solver="search", joint=True)
    assert solution.plan.objective == brute_force_joint(position)[0], str(position)
    placements_are_legal(position, solution.plan)


@given(strategies.positions(max_cards=8, rules=strategies.any_rules().filter(lambda r: not r.strict)))
@settings(max_examples=12)
def test_search_and_cpsat_agree_on_real_game_joint_plans(position: Position) -> None:
    search = solve(position, solver="search", joint=True)
    cpsat = solve(position, solver="cpsat", joint=True, limit=Limit(time=60))
    assert search.proven and cpsat.proven, str(position)
    assert search.plan.objective == cpsat.plan.objective, str(position)
    placements_are_legal(position, cpsat.plan)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30))
def test_search_and_cpsat_agree_on_busy_joint_plans(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng, cards=8, counters=rng.choice([0, 6, 15, 27]), obstacles=0)
    stock = [t for t in COUNTER_TRANSPORTS for _ in range(COUNTERS[t] - sum(x.transport is t for x in position.tiles))]
    position = position.replace(supply=Hand.of(rng.sample(stock, rng.randint(1, 5))))
    search = solve(position, solver="search", joint=True)
    cpsat = solve(position, solver="cpsat", joint=True, limit=Limit(time=120))
    assert search.plan.objective == cpsat.plan.objective, str(position)
    placements_are_legal(position, cpsat.plan)


@pytest.mark.parametrize(("tiles", "message"), [
    ((Tile("ELV-LAP:p", P),), "road ELV-LAP:p already holds a counter"),
    ((Tile("ALB-DAG:d", P),), "a giant pig counter cannot go on ALB-DAG:d, a desert road"),
    ((Tile("LAP-VIR:p", T),), "no troll wagon counter left in the supply (PD)"),
    ((Tile("LAP-VIR:p", P), Tile("FEO-LAP:f", P)), "no giant pig counter left in the supply (D)"),
    ((Tile("JXA-VIR:r", D),), "JXA-VIR:r is no road: counters go on roads only"),
    ((Tile("LAP-VIR:p", D, True),), "only transport counters are placed with a plan, not an obstacle"),
])
def test_a_placement_the_rules_forbid_is_refused_naming_why(tiles: tuple[Tile, ...], message: str) -> None:
    position = Position(at="ELV", hand=Hand.from_str("PD"), tiles=(Tile("ELV-LAP:p", P),), supply=Hand.from_str("PD"))
    with pytest.raises(IllegalPlacementError, match=re.escape(message)):
        Plan.of(position, (), placements=tiles)


# -- place now --------------------------------------------------------------------------------------------------
def _every_reply(position: Position) -> list[Position]:
    """Every move an opponent could make on the board (a counter of any type they may hold on any empty road the
    terrain allows, an obstacle on any road holding a counter), not only those touching my plan."""
    board = position.board
    tiles = position.tile_map()
    after = []
    for road in board.roads:
        if road.id in tiles:
            if not tiles[road.id].obstacle:
                changed = {**tiles, road.id: Tile(road.id, tiles[road.id].transport, True)}
                after.append(position.replace(tiles=tuple(changed.values())))
            continue
        for transport in reply_types(position):
            if can_carry(transport, road.terrain):
                after.append(position.replace(tiles=(*position.tiles, Tile(road.id, transport))))
    return after


def _brute_worst(position: Position) -> tuple[int, int]:
    """My plan after the worst single reply, by brute force over every reply on the whole board."""
    value = brute_force_joint(position)[0]
    worst = (value[0], value[1])
    for after in _every_reply(position):
        score, neg_spent, _ = brute_force_joint(after)[0]
        worst = min(worst, (score, neg_spent))
    return worst


def _brute_pass_worst(position: Position) -> tuple[int, int]:
    """My plan after the worst reply to a pass: any single reply, or everybody else passing too, which ends planning
    with nothing more placed (RULES.md: the phase ends when everybody passes in a row)."""
    score, neg_spent, _ = brute_force_joint(position.replace(supply=Hand()))[0]
    return min(_brute_worst(position), (score, neg_spent))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_place_now_agrees_with_an_exhaustive_maximin_over_every_reply(seed: int) -> None:
    # Only the plan's roads are tried (a reply elsewhere cannot hurt): the brute force tries every road.
    position = small_joint(seed + 300, cards=4, supply=2)
    advice = place_now(position, solver="search")
    assert advice.passing.worst == _brute_pass_worst(position), str(position)
    for candidate in advice.candidates[1:]:
        if not candidate.refuted:
            assert candidate.placement is not None
            assert candidate.worst == _brute_worst(place(position, [candidate.placement])), str(position)
    assert advice.now.worst == max(c.worst for c in advice.candidates if not c.refuted)


@pytest.mark.parametrize("seed", range(3))
def test_place_now_agrees_with_an_exhaustive_maximin_on_a_few_positions(seed: int) -> None:
    position = small_joint(seed + 500, cards=3, supply=2)
    advice = place_now(position, solver="search")
    assert advice.passing.worst == _brute_pass_worst(position), str(position)


def test_passing_risks_the_end_of_planning_so_a_needed_counter_is_placed() -> None:
    # An empty board and no raft card: no step is possible without a counter. The joint plan puts the pig on a
    # plain road out of Elvenhold (1 town for 1 card). If I pass and everybody else passes, planning is over
    # and I stay: 0 towns. Placing it lets an obstacle reply make that road cost 2 pigs: 1 town for 2 cards,
    # still better, so the advice places (it used to pass, reading a pass as waiting for free).
    position = Position(at="ELV", hand=Hand.from_str("PP"), supply=Hand.from_str("P"))
    advice = place_now(position)
    assert advice.joint.plan.value == (1, -1)
    assert advice.passing.worst == (0, 0)
    assert advice.passing.ended is not None and advice.passing.ended.value == (0, 0)
    placement = advice.now.placement
    assert placement is not None and placement.transport is P
    road = position.board.connections[placement.road]
    assert "ELV" in (road.a, road.b) and road.terrain is Terrain.PLAIN
    assert advice.now.worst == (1, -2) and not advice.passing_is_free



def test_the_counter_for_the_road_with_no_alternative_goes_first() -> None:
    # scenarios/21 in miniature: in Kihromah, a cloud on its only road would leave the boot stuck.
    anna = Opponent("Anna", counters=Hand.from_str("CC"), obstacle=False)
    position = Position(at="KIH", hand=Hand.from_str("EE"), supply=Hand.from_str("EE"), opponents=(anna,),
                        players=2)
    advice = place_now(position)
    assert advice.now.placement == Tile("DAG-KIH:f", E)
    assert advice.now.worst == (2, -2) and advice.passing.worst == (0, 0)
    assert not advice.passing_is_free
    kih = next(r for r in risks(advice) if r.road == "DAG-KIH:f")
    assert kih.filled is not None and kih.filled.counter is C and kih.filled.value == (0, 0)
    assert kih.blocked is None  # Anna has used her obstacle


def test_the_replies_tried_are_what_the_opponents_may_hold() -> None:
    position = Position(at="ELV", opponents=(Opponent("Anna", counters=Hand.from_str("CC")),))
    assert reply_types(position) == (C,)
    secret = position.replace(opponents=(Opponent("Anna", counters=Hand.from_str("C"), secret=1),))
    assert set(reply_types(secret)) == set(COUNTER_TRANSPORTS)
    assert set(reply_types(Position(at="ELV"))) == set(COUNTER_TRANSPORTS)  # nothing known: anything unseen


def test_more_replies_never_leave_a_better_plan() -> None:
    for seed in range(4):
        position = small_joint(seed + 700, cards=5, supply=3)
        one, two = place_now(position, solver="search"), place_now(position, solver="search", replies=2)
        assert two.passing.worst <= one.passing.worst


# -- draw ------------------------------------------------------------------------------------------------------
def test_each_draw_is_worth_the_joint_plan_with_that_counter() -> None:
    position = Position(at="KIH", hand=Hand.from_str("URR"), supply=Hand.from_str("P"),
                        display=Hand.from_str("ECUTD"), round=2)
    advice = advise_draw(position)
    assert advice.best.counter is U
    for option in advice.options:
        if option.counter is not None:
            more = position.replace(supply=position.supply + Hand.of([option.counter]))
            score, neg_spent, _ = brute_force_joint(more)[0]
            assert (option.score, option.cards) == (score, -neg_spent)
    blind = next(o for o in advice.options if o.counter is None)
    # 48 counters less the display (E C U T D) and the supply (P): 7 of each type but P, which has 7 too.
    chances = {t: 7 / 42 for t in COUNTER_TRANSPORTS}
    assert blind.chances == pytest.approx(chances)
    scores = {t: brute_force_joint(position.replace(supply=position.supply + Hand.of([t])))[0][0]
              for t in COUNTER_TRANSPORTS}
    assert blind.score == pytest.approx(sum(chances[t] * scores[t] for t in COUNTER_TRANSPORTS))


def test_a_full_supply_has_nothing_left_to_draw() -> None:
    with pytest.raises(IllegalPositionError, match="the supply holds 5 counters"):
        advise_draw(Position(at="ELV", supply=Hand.from_str("PPEED")))


# -- obstacle --------------------------------------------------------------------------------------------------
LEADER = Position(
    at="STR", hand=Hand.from_str("PCUTRRRR"), round=4, players=3,
    tiles=(Tile("ALB-THR:d", D), Tile("THR-TIC:p", D), Tile("JAC-THR:m", D), Tile("JAC-WYL:m", D),
           Tile("JXA-VIR:p", T)),
    opponents=(Opponent("Anna", at="ALB", points=14, obstacle=False), Opponent("Ben", at="GRA", points=9)))


def test_the_obstacles_effects_are_what_re_solving_each_sample_says() -> None:
    from planner.elfenland.advice.pools import sample_hands, unseen_cards

    advice = advise_obstacle(LEADER, samples=10, seed=3)
    anna = advice.outlooks[0]
    assert anna.opponent.name == "Anna" and advice.target is anna and not advice.hold
    hands = list(sample_hands(unseen_cards(LEADER), 8, 10, seed=3000))
    for effect in anna.effects:
        lost = []
        for hand in hands:
            theirs = Position(at="ALB", hand=hand, tiles=LEADER.tiles, round=4)
            tiles = {t.road: t for t in LEADER.tiles} | {effect.road: Tile(effect.road, LEADER.tile_map()[
                effect.road].transport, True)}
            before = solve(theirs, solver="cpsat").plan.value
            after = solve(theirs.replace(tiles=tuple(tiles.values())), solver="cpsat").plan.value
            lost.append(before[0] - after[0])
        assert effect.towns == pytest.approx(sum(lost) / len(lost)), effect.road
    assert anna.effects[0].road == "ALB-THR:d"


@given(strategies.positions(max_cards=8, round_keys=False))
@settings(max_examples=12)
def test_the_free_roads_score_as_a_ceiling_never_changes_a_blocked_value(position: Position) -> None:
    from planner.elfenland.advice.obstacle import _blocked
    from planner.elfenland.solvers.search import best_value

    free, used = best_value(position)
    for tile in position.tiles:
        if tile.transport is not None and not tile.obstacle and tile.road in used:
            blocked = _blocked(position, tile.road)
            assert best_value(blocked, ceiling=free[0])[0] == best_value(blocked)[0], (str(position), tile.road)


@pytest.mark.slow
def test_the_obstacle_advice_is_the_same_in_one_process_or_two() -> None:
    one = advise_obstacle(LEADER, samples=40, seed=5, jobs=1)
    two = advise_obstacle(LEADER, samples=40, seed=5, jobs=2)
    assert one == two


def test_obstacle_advice_needs_an_obstacle_and_an_opponent() -> None:
    with pytest.raises(IllegalPositionError, match="placed your obstacle"):
        advise_obstacle(LEADER.replace(obstacle=False), samples=10)
    with pytest.raises(IllegalPositionError, match="no opponent given"):
        advise_obstacle(LEADER.replace(opponents=(), players=None), samples=10)


def test_hold_the_obstacle_when_it_takes_little_before_the_last_round() -> None:
    early = LEADER.replace(round=2, tiles=(Tile("JXA-VIR:p", T),))
    advice = advise_obstacle(early, samples=20)
    assert advice.hold


# -- keep --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [3, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(3))])
def test_what_to_keep_follows_the_rules_of_the_round_end(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng, cards=8, counters=20).replace(round=2)
    position = position.replace(supply=Hand.of([rng.choice(COUNTER_TRANSPORTS) for _ in range(3)]))
    if position.problems():
        pytest.skip("the random supply broke a counter limit")
    plans = joint_plan(position, alternatives=6).plans
    keep = advise_keep(position, plans, seed=seed)
    assert keep is not None
    best = keep.best
    equal = [p for p in plans if p.value == plans[0].value]
    assert best.end in {p.end for p in equal}
    chosen = next(p for p in equal if p.end == best.end and p.outcome.cards_left.contains(best.cards))
    assert len(best.cards) <= KEEP_LIMIT and chosen.outcome.cards_left.contains(best.cards)
    left = position.supply.without(Hand.of([t.transport for t in chosen.placements if t.transport]))
    assert best.counter is None or left[best.counter] > 0
    assert advise_keep(position, plans, seed=seed) == keep  # seeded


def test_nothing_is_kept_for_after_the_last_round() -> None:
    position = Position(at="ELV", hand=Hand.from_str("DD"), round=4)
    assert advise_keep(position, (solve(position).plan,)) is None


@given(st.integers(0, 10**6))
@settings(max_examples=10)
def test_a_blind_draws_chances_add_up(seed: int) -> None:
    position = small_joint(seed).replace(display=Hand(), supply=Hand())
    chances = next(o for o in advise_draw(position, solver="search").options if o.counter is None).chances
    assert chances is not None and sum(chances.values()) == pytest.approx(1.0)
    assert all(t in COUNTER_TRANSPORTS for t in chances) and Transport.RAFT not in chances


# -- every position the advisor makes up is legal ----------------------------------------------------------------
@given(strategies.positions(max_cards=6, max_tiles=12).filter(lambda p: p.players is not None or bool(p.opponents)))
@settings(max_examples=strategies.examples(30))
def test_every_reply_keeps_each_counter_and_obstacle_counted_once(position: Position) -> None:
    plan = joint_plan(position, solver="search").plan
    for road, counter in replies_to(position, plan):
        assert after_reply(position, road, counter).problems() == []


def test_an_opponents_obstacle_is_theirs_when_every_obstacle_is_accounted_for() -> None:
    # Two players, both holding their obstacle: Anna's reply on the elfcycle road is her obstacle, not a third.
    position = Position.from_str("E@RIV-THR:f RIV ED - 1 players=2,opponent=Anna:ELV")
    assert ("RIV-THR:f", None) in replies_to(position, joint_plan(position).plan)
    after = after_reply(position, "RIV-THR:f", None)
    assert after.tile_map()["RIV-THR:f"].obstacle and not after.opponents[0].obstacle and after.obstacle
    advice = place_now(position)
    blocked = next(r for r in risks(advice) if r.road == "RIV-THR:f").blocked
    # An obstacle asks for two elfcycle cards or a 4-card caravan; the hand (E D) has neither.
    assert blocked is not None and blocked.score == 0
    spent = advise_obstacle(position, samples=5)
    assert spent.target is not None and spent.target.opponent.name == "Anna"


def test_no_obstacle_reply_once_the_count_says_every_other_one_is_placed() -> None:
    # Two players, nobody named: one obstacle on the board and mine in hand leave none for the other player.
    position = Position(at="RIV", hand=Hand.from_str("EDR"), players=2,
                        tiles=(Tile("RIV-THR:f", E), Tile("ELV-LAP:p", P, True)))
    assert all(counter is not None for _, counter in replies_to(position, joint_plan(position).plan))
    assert [r for r in risks(place_now(position)) if r.blocked is not None] == []
    assert any(counter is None for _, counter in replies_to(position.replace(players=3), joint_plan(position).plan))


def test_a_counter_reply_comes_from_the_opponent_who_holds_it() -> None:
    position = Position(at="ELV", supply=Hand.from_str("P"), tiles=(Tile("ELV-LAP:p", D),),
                        opponents=(Opponent("Anna", counters=Hand.from_str("C")), Opponent("Ben", secret=2)))
    face_up = after_reply(position, "ELV-WYL:f", C).opponents
    assert (face_up[0].counters, face_up[1].secret) == (Hand(), 2)
    face_down = after_reply(position, "ELV-WYL:f", U).opponents
    assert (face_down[0].counters, face_down[1].secret) == (Hand.from_str("C"), 1)


# All 8 dragon counters in view: 2 on the board, 2 in my supply, 2 face up, 2 with Anna.
DRAGONS = Position.from_str("D@ELV-LAP:p,D@JXA-VIR:p KIH URR ELV 2 supply=DD,display=DDE,opponent=Anna:VIR:-:DD:1")


def test_a_face_up_counter_drawn_leaves_the_display_and_a_blind_draw_as_good_ties_exactly() -> None:
    # Kihromah's one road (forest, empty): a dragon or an elfcycle counter there is paid as the 3-card caravan,
    # a unicorn with the one unicorn card. Blind (39 unseen: no dragon, 7 elfcycles, 8 of the rest) it is a
    # unicorn 8 times in 39: the town always, for 8/39 * 1 + 31/39 * 3 cards.
    advice = advise_draw(DRAGONS)
    assert advice.best.counter is None and (advice.best.score, advice.best.cards) == (1, 101 / 39)
    assert {(o.counter, o.score, o.cards) for o in advice.options[1:]} == {(D, 1, 3), (E, 1, 3)}
    assert advise_draw(DRAGONS.replace(hand=Hand.from_str("RRR"))).best.score == 1  # every draw ties at 1 town


def test_a_stop_ends_the_sampling_early_on_the_samples_so_far() -> None:
    import threading

    stop = threading.Event()
    stop.set()
    advice = advise_obstacle(LEADER, samples=50, stop=stop)
    assert all(1 <= o.samples < 50 for o in advice.outlooks)
    rng = random.Random(5)
    position = random_position(rng, cards=8, counters=20).replace(round=2, supply=Hand())
    plans = solve(position, alternatives=6).plans
    keep = advise_keep(position, plans, samples=5, stop=stop)
    assert keep is not None and len(keep.ends) == 1 and len(keep.counters) == 1
