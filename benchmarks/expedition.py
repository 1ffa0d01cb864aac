"""Benchmark the Expeditions assistant on seeded random mid-game positions (random legal play from the start).

    python benchmarks/expedition.py              # 40 positions, 5-35 random turns each
    python benchmarks/expedition.py -n 100 --time 5

For each position: the reach table of my cards, commons and opponents' tokens (what ``expedition reach`` shows),
the reach table of all 80 greens (``--all``), and the best move with 0, 1 and 2 tickets (``expedition move``), each
with its turn-space size (distinct states searched). A move search stops at ``--time`` seconds (then counted as
stopped, its time capped). Nothing here asserts a time: the numbers are for reading, on a shared, noisy machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from planner.common.limits import Limit, Status
from planner.expedition.advice import reach_targets
from planner.expedition.generate import random_position
from planner.expedition.reach import reach
from planner.expedition.search import best_moves

T = TypeVar("T")


def _timed(work: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _line(name: str, values: list[float], unit: str = "ms") -> str:
    scale = 1000.0 if unit == "ms" else 1.0
    return (f"{name:<28} median {statistics.median(values) * scale:9.1f}  p95 {_percentile(values, 0.95) * scale:9.1f}"
            f"  max {max(values) * scale:9.1f} {unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--time", type=float, default=10.0, help="time limit of one move search, seconds")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = [random_position(rng, turns=rng.randint(5, 35)) for _ in range(args.positions)]
    times: dict[str, list[float]] = {"reach (shown locations)": [], "reach --all (80 greens)": []}
    sizes: dict[int, list[float]] = {0: [], 1: [], 2: []}
    stopped = dict.fromkeys(sizes, 0)
    for position in positions:
        times["reach (shown locations)"].append(_timed(lambda: reach(position, reach_targets(position)))[1])
        times["reach --all (80 greens)"].append(
            _timed(lambda: reach(position, reach_targets(position, every_green=True)))[1])
        for tickets in sizes:
            search, seconds = _timed(lambda: best_moves(position, tickets=tickets, limit=Limit(time=args.time)))
            times.setdefault(f"move --tickets {tickets}", []).append(seconds)
            sizes[tickets].append(float(search.states))
            stopped[tickets] += search.status is not Status.OPTIMAL
    print(f"{args.positions} positions (seed {args.seed}, 5-35 random turns), move time limit {args.time:g} s")
    for name, values in times.items():
        print(_line(name, values))
    for tickets, values in sizes.items():
        print(f"turn space, {tickets} ticket{'s' * (tickets != 1)}:     median {statistics.median(values):9.0f}  "
              f"p95 {_percentile(values, 0.95):9.0f}  max {max(values):9.0f} states; stopped by the limit: "
              f"{stopped[tickets]}/{args.positions}")


if __name__ == "__main__":
    main()
