"""Time `elfenland route` from process start to exit on seeded random positions: what a player waits for.

    python benchmarks/cli.py                 # 30 twenty-card positions, every road holding a counter
    python benchmarks/cli.py -n 10 --cards 8
    python benchmarks/cli.py --startup 30   # `elfenland route` on one 8-card scenario against a bare Python

With ``--startup N`` it times, N times in turn (so that a machine loaded by others weighs on each alike), a bare
``python -c "import click, rich.console"`` and ``elfenland route scenarios/01-first-steps.toml`` with and without
``--json``, and prints each one's median wall and CPU time and its ratio to the bare Python.

Each position is written to a temporary TOML file and solved by a fresh `elfenland route` process, so every
run pays Python's start and, when CP-SAT is needed, the OR-Tools import. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import resource
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
    parser.add_argument("--startup", type=int, metavar="N", help="time start-up against a bare Python, N runs")
    args = parser.parse_args(argv)
    command = shutil.which("elfenland")
    if command is None:
        print("elfenland is not on PATH: pip install -e . first", file=sys.stderr)
        return 1
    if args.startup:
        return startup(command, args.startup)
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


def startup(command: str, runs: int) -> int:
    """Median wall and CPU seconds of one-position commands against a bare Python importing click and rich."""
    scenario = str(Path(__file__).resolve().parent.parent / "scenarios" / "01-first-steps.toml")
    commands = {
        "python -c 'import click, rich.console'": [sys.executable, "-c", "import click, rich.console"],
        "elfenland route 01-first-steps.toml": [command, "route", scenario],
        "elfenland route --json 01-first-steps.toml": [command, "route", "--json", scenario],
    }
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, args in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run(args, capture_output=True, check=True)
            wall = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[name].append((wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime))
    base_wall, base_cpu = (statistics.median(t[i] for t in times[next(iter(commands))]) for i in (0, 1))
    for name, runs_of in times.items():
        wall, cpu = (statistics.median(t[i] for t in runs_of) for i in (0, 1))
        print(f"{name:<44} wall {wall * 1000:6.1f} ms ({wall / base_wall:4.2f}x)  "
              f"cpu {cpu * 1000:6.1f} ms ({cpu / base_cpu:4.2f}x)   median of {runs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
