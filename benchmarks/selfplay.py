"""Benchmark self-play: games per minute per core by seat mix, and the advisor's decision latency per kind.

    python benchmarks/selfplay.py                       # 2 seeds of each mix, every rotation, one process
    python benchmarks/selfplay.py -n 5 --mixes greedy,greedy,greedy,greedy advisor,greedy,greedy,greedy

Each mix plays ``-n`` seeds in every rotation of its seats in this process (one core), so games per minute is per
core. Latencies are every decision a router or advisor seat took, by kind (draw, place, obstacle, route, keep):
median, p95 and max in seconds. Nothing here asserts a time: the numbers are for reading, and on a machine shared
with other work they say so much about the machine as about the code.
"""

from __future__ import annotations

import argparse
import time

from solvers import percentile  # benchmarks/solvers.py, beside this script

from planner.elfenland.game.selfplay import jobs_for, selfplay

DEFAULT_MIXES = ("greedy,greedy,greedy,greedy", "router,greedy,greedy,greedy", "advisor,greedy,greedy,greedy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2, help="seeds per mix (each in every rotation)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mixes", nargs="+", default=list(DEFAULT_MIXES), help="seat mixes, comma-separated")
    args = parser.parse_args()
    print(f"{'mix':40} {'games':>5} {'games/min/core':>15}")
    latencies: dict[tuple[str, str], list[float]] = {}
    for mix in args.mixes:
        seats = tuple(mix.split(","))
        jobs = jobs_for(args.n, seats, seed=args.seed)
        started = time.perf_counter()
        games = list(selfplay(jobs))
        minutes = (time.perf_counter() - started) / 60
        print(f"{mix:40} {len(games):>5} {len(games) / minutes:>15.1f}", flush=True)
        for game in games:
            for table_seat, timings in enumerate(game.timings):
                kind = seats[game.job.table[table_seat]]
                if kind in ("router", "advisor"):
                    for decision, seconds in timings.items():
                        latencies.setdefault((kind, decision), []).extend(seconds)
    if latencies:
        print(f"\n{'seat':8} {'decision':9} {'count':>6} {'median s':>9} {'p95 s':>8} {'max s':>8}")
        for (kind, decision), seconds in sorted(latencies.items()):
            ordered = sorted(seconds)
            print(f"{kind:8} {decision:9} {len(ordered):>6} {percentile(ordered, 0.5):>9.3f} "
                  f"{percentile(ordered, 0.95):>8.3f} {ordered[-1]:>8.3f}")


if __name__ == "__main__":
    main()
