"""Benchmark self-play: games per minute per core by seat mix, and the advisor's decision latency per kind.

    python benchmarks/selfplay.py                       # 2 seeds of each mix, every rotation, one process
    python benchmarks/selfplay.py -n 5 --mixes greedy,greedy,greedy,greedy advisor,greedy,greedy,greedy
    python benchmarks/selfplay.py -n 6 --home --clock cpu --mixes advisor,greedy,greedy,greedy advisor,greedy,greedy

Each mix plays ``-n`` seeds in every rotation of its seats in this process (one core), so games per minute is per
core. Latencies are every decision a router or advisor seat took, by kind (draw, place, obstacle, route, keep):
median, p90, p95, p99 and max in seconds (wall time, as the seats time themselves: on a loaded machine it counts
the waits for a core too; ``--clock cpu`` times them in this process's CPU time instead, which leaves those waits
out). ``--home`` plays the home-town variant, as the issue's strength targets do. Nothing here asserts a time: the
numbers are for reading, and on a machine shared with other work they say so much about the machine as about the
code.
"""

from __future__ import annotations

import argparse
import time
from types import SimpleNamespace

from solvers import percentile  # benchmarks/solvers.py, beside this script

from planner.elfenland.game import seats as seat_module
from planner.elfenland.game.selfplay import jobs_for, selfplay
from planner.elfenland.game.state import GameRules

DEFAULT_MIXES = ("greedy,greedy,greedy,greedy", "router,greedy,greedy,greedy", "advisor,greedy,greedy,greedy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2, help="seeds per mix (each in every rotation)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mixes", nargs="+", default=list(DEFAULT_MIXES), help="seat mixes, comma-separated")
    parser.add_argument("--home", action="store_true", help="play the home-town variant")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="how decisions are timed")
    args = parser.parse_args()
    if args.clock == "cpu":  # the seats time themselves with their module's time.perf_counter: give them CPU time
        seat_module.time = SimpleNamespace(perf_counter=time.process_time)
    rules = GameRules(home_towns=args.home)
    print(f"{'mix':40} {'games':>5} {'games/min/core':>15}")
    latencies: dict[tuple[str, str], list[float]] = {}
    for mix in args.mixes:
        seats = tuple(mix.split(","))
        jobs = jobs_for(args.n, seats, seed=args.seed, rules=rules)
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
        print(f"\n{'seat':8} {'decision':9} {'count':>6} {'median s':>9} {'p90 s':>8} {'p95 s':>8} {'p99 s':>8} "
              f"{'max s':>8}")
        for (kind, decision), seconds in sorted(latencies.items()):
            ordered = sorted(seconds)
            shown = " ".join(f"{percentile(ordered, q):>8.3f}" for q in (0.9, 0.95, 0.99))
            print(f"{kind:8} {decision:9} {len(ordered):>6} {percentile(ordered, 0.5):>9.3f} {shown} "
                  f"{ordered[-1]:>8.3f}")


if __name__ == "__main__":
    main()
