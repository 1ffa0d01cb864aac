"""Time `elfenland route` from process start to exit on seeded random positions: what a player waits for.

    python benchmarks/cli.py                 # 30 twenty-card positions, every road holding a counter
    python benchmarks/cli.py -n 10 --cards 8

Each position is written to a temporary TOML file and solved by a fresh `elfenland route` process, so every
run pays Python's start and, when CP-SAT is needed, the OR-Tools import. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solvers import percentile  # benchmarks/solvers.py, beside this script

from planner.elfenland.generate import random_position
from planner.elfenland.position_file import position_to_toml


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=30, help="positions")
    parser.add_argument("--cards", type=int, default=20, help="hand size")
    parser.add_argument("--seed", type=int, default=424242)
    args = parser.parse_args(argv)
    command = shutil.which("elfenland")
    if command is None:
        print("elfenland is not on PATH: pip install -e . first", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for i in range(args.n):
            path = Path(folder) / f"p{i:02d}.toml"
            path.write_text(position_to_toml(random_position(rng, cards=args.cards, counters=35)))
            started = time.perf_counter()
            done = subprocess.run([command, "route", str(path)], capture_output=True, text=True, check=False)
            times.append(time.perf_counter() - started)
            if done.returncode != 0:
                print(f"{path.name}: exit {done.returncode}\n{done.stderr}", file=sys.stderr)
                return 1
    print(f"elfenland route, fresh process, {args.cards} cards, every road a counter, n={args.n}: "
          f"median {statistics.median(times):.2f} s, p90 {percentile(times, 0.9):.2f} s, max {max(times):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
