"""Benchmark the solvers on seeded random legal positions: latency percentiles, proof rate, agreement.

    python benchmarks/solvers.py                       # 50 positions per hand size, every solver
    python benchmarks/solvers.py -n 400 --sizes 8,12 --solvers search,cpsat
    python benchmarks/solvers.py --dense               # every road holding a counter
    python benchmarks/solvers.py -n 300 --sizes 8,12 --solvers search --cpu   # CPU time, steadier on a busy machine

Half of the positions have every road holding a counter (the hardest boards), half a random number of
counters, unless --dense. A disagreement is two solvers that both proved optimality but report different
(score, cards spent). With --cpu the times are this process's CPU seconds (every thread's, so CP-SAT's workers
count too) instead of wall-clock ones: the search runs in this thread, so on a machine others load its CPU time is
what it costs. Nothing here asserts a time: the numbers are for reading.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from planner.elfenland.generate import random_position
from planner.elfenland.solvers import Limit, solve


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=50, help="positions per hand size")
    parser.add_argument("--sizes", default="8,10,12,16,20", help="hand sizes, comma-separated")
    parser.add_argument("--solvers", default="search,cpsat,auto", help="solvers, comma-separated")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per solve")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--dense", action="store_true", help="every road holds a counter")
    parser.add_argument("--cpu", action="store_true", help="time in CPU seconds of this process, not wall-clock")
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    solvers = args.solvers.split(",")
    if args.cpu:
        print("times in CPU milliseconds of this process")
    header = ("cards", "solver", "n", "median ms", "p95 ms", "max ms", "proven", "disagree")
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, (5, 7, 5, 10, 9, 9, 7, 8), strict=True)))
    total_disagreements = 0
    for size in (int(s) for s in args.sizes.split(",")):
        rng = random.Random(args.seed * 1000 + size)
        positions = [
            random_position(rng, cards=size, counters=35 if args.dense or i % 2 == 0 else None)
            for i in range(args.n)
        ]
        values: dict[str, list[tuple[int, int] | None]] = {}
        for solver in solvers:
            times, proven, found = [], 0, []
            for position in positions:
                started = clock()
                solution = solve(position, solver=solver, limit=Limit(time=args.time_limit))
                times.append(clock() - started)
                proven += solution.proven
                found.append(solution.plan.value if solution.proven else None)
            values[solver] = found
            disagreements = sum(
                1 for i in range(len(positions))
                if found[i] is not None
                and any(values[other][i] not in (None, found[i]) for other in values if other != solver)
            )
            total_disagreements += disagreements
            print(f"{size:>5} {solver:>7} {len(positions):>5} {statistics.median(times) * 1000:>10.1f} "
                  f"{percentile(times, 0.95) * 1000:>9.1f} {max(times) * 1000:>9.1f} "
                  f"{proven / len(positions):>7.0%} {disagreements:>8}", flush=True)
    print(f"disagreements in total: {total_disagreements}")
    return 1 if total_disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
