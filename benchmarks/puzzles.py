"""Time puzzle generation per theme and difficulty: what a player waits for between two puzzles.

    python benchmarks/puzzles.py                         # 30 seeds per theme, difficulties 1 to 3
    python benchmarks/puzzles.py -n 10 --difficulties 4,5 --themes caravan,home

Each puzzle is generated from scratch in this process (seeds 0..n-1), proven as the trainer proves it: every
answer listed by the exhaustive atlas, every lesson checked by exploring without it, the effort counted by the
exact search. The target is at most 1 s per puzzle at difficulty 3 or less. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from solvers import percentile  # benchmarks/solvers.py, beside this script

from planner.elfenland.teach.puzzles import THEMES, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=30, help="seeds per theme and difficulty")
    parser.add_argument("--themes", default=",".join(THEMES), help="themes, comma-separated")
    parser.add_argument("--difficulties", default="1,2,3", help="difficulties, comma-separated")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    args = parser.parse_args(argv)
    header = ("theme", "level", "n", "median ms", "p90 ms", "max ms", "candidates", "unique", "cards")
    widths = (9, 5, 4, 10, 9, 9, 10, 7, 5)
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    slowest = 0.0
    for difficulty in (int(d) for d in args.difficulties.split(",")):
        for theme in args.themes.split(","):
            times, attempts, unique, cards = [], [], 0, []
            for seed in range(args.seed, args.seed + args.n):
                started = time.perf_counter()
                puzzle = generate(seed, theme=theme, difficulty=difficulty)
                times.append(time.perf_counter() - started)
                attempts.append(puzzle.attempts)
                unique += puzzle.unique
                cards.append(len(puzzle.position.hand))
            slowest = max(slowest, max(times))
            row = (theme, difficulty, len(times), f"{statistics.median(times) * 1000:.1f}",
                   f"{percentile(times, 0.9) * 1000:.1f}", f"{max(times) * 1000:.1f}",
                   f"{statistics.mean(attempts):.1f}", f"{100 * unique // len(times)}%",
                   f"{statistics.mean(cards):.1f}")
            print(" ".join(f"{str(v):>{w}}" for v, w in zip(row, widths, strict=True)), flush=True)
    print(f"slowest puzzle: {slowest * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
