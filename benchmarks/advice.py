"""Benchmark the round advisor on seeded real-game positions: joint plans, place now, draw and obstacle advice.

    python benchmarks/advice.py                 # 100 positions, every measurement
    python benchmarks/advice.py -n 300 --only joint,place
    python benchmarks/advice.py --only openings,sparse,scenarios   # what ``elfenland place`` does, keep included

Positions are what a real game produces while counters are drawn and placed: 8 cards in hand, 1 to 5 counters
in the supply, 0 to 27 on the board, a display of 5, one or two opponents with points. The joint plan is solved by
both solvers on a part of them (``--cpsat-every``) to count disagreements. The obstacle advice is run with two seeds
of 200 samples each, and the share of positions where both pick the same road is printed. ``openings`` (round 1,
an empty board, 8 cards, 4 or 5 counters), ``sparse`` (1 to 6 counters on the board), ``round3`` (the first planning
turn of round 3 in seeded games of 3 and 4 greedy seats; the draw row takes their first draw turns too),
``scenarios`` (the bundled
ones with a supply of DDUTE) and ``puzzle`` (scenario 17's 16 cards with DDUTT) time what ``elfenland place`` does:
place now, the risks, and the keep advice with its own 6-plan joint solve, each position once cold (an empty solve
cache) and once with the keep advice off. ``--cpu`` times this process's CPU instead of the wall clock (a busy
machine inflates it less; the obstacle's row with several jobs stays on the wall clock), ``--worst K`` names each
row's K slowest positions. Nothing here asserts a time: the numbers are for reading.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from solvers import percentile  # benchmarks/solvers.py, beside this script

from planner.common.limits import Limit
from planner.common.threads import cores
from planner.elfenland.advice.drawing import advise_draw
from planner.elfenland.advice.keeping import advise_keep
from planner.elfenland.advice.obstacle import advise_obstacle
from planner.elfenland.advice.placing import joint_plan, place_now, risks

try:
    from planner.elfenland.advice.solving import clear_cache
except ImportError:  # a checkout from before the solve cache: measured as it was
    def clear_cache() -> None:
        pass
from planner.elfenland.generate import random_position
from planner.elfenland.inputs import read_position
from planner.elfenland.position import Hand, Opponent, Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, DECK, TRANSPORTS
from planner.errors import Problem

T = TypeVar("T")


def round_position(rng: random.Random) -> Position:
    """A position while counters are drawn and placed: 8 cards, 1-5 in supply, 0-27 on the board."""
    board = rng.randint(0, 27)
    while True:
        position = random_position(rng, cards=8, counters=board, obstacles=rng.randint(0, min(2, board)))
        stock = [t for t in COUNTER_TRANSPORTS
                 for _ in range(COUNTERS[t] - sum(x.transport is t for x in position.tiles))]
        rng.shuffle(stock)
        supply, display = Hand.of(stock[:rng.randint(1, 5)]), Hand.of(stock[5:10])
        towns = sorted(position.board.towns)
        opponents = tuple(Opponent(name, at=rng.choice(towns), visited=frozenset(rng.sample(towns, rng.randint(0, 8))),
                                   points=rng.randint(0, 14)) for name in ("Anna", "Ben")[:rng.randint(1, 2)])
        position = position.replace(supply=supply, display=display if len(supply) < 5 else Hand(),
                                    opponents=opponents)
        if not position.problems():
            return position


def opening(rng: random.Random, counters: int) -> Position:
    """Round 1 at Elvenhold: an empty board, 8 cards, ``counters`` in the supply."""
    stock = [t for t in COUNTER_TRANSPORTS for _ in range(COUNTERS[t])]
    deck = [t for t in TRANSPORTS for _ in range(DECK[t])]
    return Position(at="ELV", hand=Hand.of(rng.sample(deck, 8)), supply=Hand.of(rng.sample(stock, counters)))


def sparse(rng: random.Random) -> Position:
    """A board of 1 to 6 counters, 8 cards, 4 or 5 in the supply."""
    while True:
        position = random_position(rng, cards=8, counters=rng.randint(1, 6), obstacles=0)
        stock = [t for t in COUNTER_TRANSPORTS
                 for _ in range(COUNTERS[t] - sum(x.transport is t for x in position.tiles))]
        position = position.replace(supply=Hand.of(rng.sample(stock, rng.randint(4, 5))))
        if not position.problems():
            return position


def scenarios() -> list[Position]:
    """The bundled scenarios with 8 to 16 cards, a supply of DDUTE."""
    found = []
    for path in sorted(Path(__file__).resolve().parent.parent.glob("scenarios/*.toml")):
        position = read_position(str(path)).replace(supply=Hand.from_str("DDUTE"))
        if 8 <= len(position.hand) <= 16 and not position.problems():
            found.append(position)
    return found


def round_three(seed: int, players: int, phase: str) -> Position:
    """What a player sees at a turn of ``phase`` (``draw`` or ``plan``) in round 3 of a game of ``players`` greedy
    seats (seeded): the phase's turn ``seed % (2 * players)``, so from an empty board to two counters a player."""
    from planner.elfenland.game.engine import apply, position_of, view
    from planner.elfenland.game.seats import make_seat
    from planner.elfenland.game.selfplay import new_seat_game

    kinds = ["greedy"] * players
    state = new_seat_game(seed, kinds)
    seats = [make_seat(kind, f"{seed}/{i}") for i, kind in enumerate(kinds)]
    skip = seed % (2 * players)
    while not state.over:
        if state.round == 3 and state.phase.value == phase:
            if not skip:
                break
            skip -= 1
        after = apply(state, seats[state.turn].choose(view(state, state.turn)))
        assert not isinstance(after, Problem), after
        state = after
    return position_of(view(state, state.turn), advice=True)


def round_threes(count: int, phase: str) -> list[Position]:
    """``count`` round-3 positions of 3- and 4-player games, in turn (seeds 0, 1, ...)."""
    return [round_three(seed, 3 + seed % 2, phase) for seed in range(count)]


def puzzle() -> list[Position]:
    """The issue's puzzle: scenario 17 (16 cards, 23 counters on the board) with a supply of DDUTT."""
    path = Path(__file__).resolve().parent.parent / "scenarios" / "17-puzzle-16-cards.toml"
    return [read_position(str(path)).replace(supply=Hand.from_str("DDUTT"))]


def place_command(position: Position, *, keep: bool) -> None:
    """What ``elfenland place`` works out (``--no-keep``: without the keep advice)."""
    advice = place_now(position)
    risks(advice)
    if keep:
        advise_keep(position, joint_plan(position, alternatives=6).plans)


def cold(fn: Callable[[], T]) -> Callable[[], T]:
    """``fn`` from an empty solve cache, as a fresh ``elfenland`` process runs it."""
    def run() -> T:
        clear_cache()
        return fn()
    return run


#: The clock of every row: wall time, or with ``--cpu`` this process's CPU time (all its threads; not the obstacle's
#: worker processes), which a busy machine inflates less.
CLOCK = time.perf_counter


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    started = CLOCK()
    result = fn()
    return CLOCK() - started, result


#: How many of the slowest positions each row names (``--worst``).
WORST = 0


def report(name: str, times: list[float], extra: str = "", positions: list[Position] | None = None) -> None:
    print(f"{name:<28} n={len(times):<4} median {statistics.median(times) * 1000:8.1f} ms  "
          f"p95 {percentile(times, 0.95) * 1000:8.1f} ms  max {max(times) * 1000:8.1f} ms  {extra}", flush=True)
    if positions is not None and WORST:
        for seconds, position in sorted(zip(times, positions, strict=True), key=lambda x: -x[0])[:WORST]:
            print(f"    {seconds * 1000:8.1f} ms  {position}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100, help="positions")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", default="joint,place,draw,obstacle,openings,sparse,round3,scenarios,puzzle",
                        help="measurements, comma-separated")
    parser.add_argument("--commands", type=int, default=20, help="positions of each kind for the place command")
    parser.add_argument("--cpsat-every", type=int, default=5, help="cross-check every k-th joint plan with CP-SAT")
    parser.add_argument("--samples", type=int, default=200, help="sampled hands per opponent for the obstacle")
    parser.add_argument("--obstacles", type=int, default=20, help="positions for the obstacle advice")
    parser.add_argument("--worst", type=int, default=0, help="name the K slowest positions of each row")
    parser.add_argument("--cpu", action="store_true", help="time by this process's CPU time, not the wall clock")
    args = parser.parse_args(argv)
    global WORST, CLOCK
    WORST = args.worst
    CLOCK = time.process_time if args.cpu else time.perf_counter
    rng = random.Random(args.seed)
    positions = [round_position(rng) for _ in range(args.n)]
    only = set(args.only.split(","))
    kinds = {"openings": [opening(rng, 4 + i % 2) for i in range(args.commands)],
             "sparse": [sparse(rng) for _ in range(args.commands)],
             "round3": round_threes(args.commands, "plan"), "scenarios": scenarios(), "puzzle": puzzle()}
    drawable = [p for p in positions if len(p.supply) < 5]
    drawable += [opening(rng, 4) for _ in range(args.commands)]
    drawable += [p for p in round_threes(args.commands, "draw") if len(p.supply) < 5]
    disagreements = 0
    if "draw" in only:
        # first, as in a fresh ``elfenland draw``: its solves fork workers only while OR-Tools is not loaded, and
        # the rows below load it (CP-SAT cross-checks and joins)
        report("draw", [timed(cold(lambda p=p: advise_draw(p)))[0] for p in drawable], positions=drawable)
    if "joint" in only:
        times, proven = [], 0
        for i, position in enumerate(positions):
            seconds, solution = timed(lambda p=position: joint_plan(p, limit=Limit(time=30)))
            times.append(seconds)
            proven += solution.proven
            if args.cpsat_every and i % args.cpsat_every == 0:
                other = joint_plan(position, solver="cpsat", limit=Limit(time=120))
                if other.proven and other.plan.objective != solution.plan.objective:
                    disagreements += 1
                    print(f"DISAGREE {position}", file=sys.stderr)
        report("joint plan (auto)", times, f"proven {proven / len(positions):.0%}, cross-checked "
               f"{len(range(0, len(positions), args.cpsat_every or len(positions) + 1))} with CP-SAT, "
               f"{disagreements} disagree")
    if "place" in only:
        report("place now (1 reply)", [timed(cold(lambda p=p: place_now(p)))[0] for p in positions],
               positions=positions)
    for kind, chosen in kinds.items():
        if kind in only:
            report(f"place {kind}", [timed(cold(lambda p=p: place_command(p, keep=True)))[0] for p in chosen],
                   positions=chosen)
            report(f"place {kind} --no-keep", [timed(cold(lambda p=p: place_command(p, keep=False)))[0]
                                              for p in chosen], positions=chosen)
    if "obstacle" in only:
        single, parallel, same = [], [], 0
        chosen = [p.replace(opponents=p.opponents[:1]) for p in positions[:args.obstacles]]
        for position in chosen:
            seconds, first = timed(lambda p=position: advise_obstacle(p, samples=args.samples, seed=1))
            single.append(seconds)
            started = time.perf_counter()  # wall time always: the workers' CPU is not this process's
            second = advise_obstacle(position, samples=args.samples, seed=2, jobs=cores())
            parallel.append(time.perf_counter() - started)
            same += (first.effect.road if first.effect else None) == (second.effect.road if second.effect else None)
        report(f"obstacle, {args.samples} samples, 1 job", single, positions=chosen)
        report(f"obstacle, {args.samples} samples, {cores()} jobs", parallel,
               f"(wall) same road for seeds 1 and 2: {same}/{len(chosen)}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
