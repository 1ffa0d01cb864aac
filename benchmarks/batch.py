"""Time `elfenland route --json FOLDER` on batches of 1, 3, 10, 70 and 300 positions, on one core and on all.

    python benchmarks/batch.py                   # every size, 5 repeats each
    python benchmarks/batch.py --sizes 10 300 -r 3

A batch is the bundled scenarios (all but the 20-card puzzle, a second's solve on its own) followed by seeded
random 8-card positions (:func:`planner.elfenland.generate.random_position`), written to a temporary folder. Each
run is a fresh process, as a player starts it; `--jobs 1` and the default (the planner's own choice of workers)
alternate within each repeat, so a machine loaded by others weighs on both alike. Prints medians and the ratio
of all cores to one; nothing here asserts a time.
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

from planner.common.threads import cores
from planner.elfenland.generate import random_position
from planner.elfenland.position_file import position_to_toml

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SLOW = {"18-puzzle-every-road.toml"}
"""Bundled positions left out of the batches: one of them would be the whole batch's time."""


def write_batch(folder: Path, size: int, seed: int) -> None:
    """``size`` position files in ``folder``: the bundled scenarios first, then seeded random positions."""
    folder.mkdir()
    bundled = [p for p in sorted(SCENARIOS.glob("*.toml")) if p.name not in SLOW][:size]
    for i, path in enumerate(bundled):
        shutil.copy(path, folder / f"{i:03d}-{path.name}")
    rng = random.Random(seed)
    for i in range(len(bundled), size):
        (folder / f"{i:03d}-random.toml").write_text(position_to_toml(random_position(rng, cards=8)))


def run(command: list[str]) -> tuple[float, float]:
    """Seconds from start to exit of one command, and the CPU seconds it and its workers used (its output
    checked, then dropped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr}")
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 3, 10, 70, 300])
    parser.add_argument("-r", "--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, help="time `--jobs N` against `--jobs 1` instead of the default")
    args = parser.parse_args(argv)
    command = shutil.which("elfenland")
    if command is None:
        print("elfenland is not on PATH: pip install -e . first", file=sys.stderr)
        return 1
    print(f"elfenland route --json FOLDER, fresh process, median of {args.repeats}; {cores()} cores")
    print(f"{'positions':>9}  {'--jobs 1':>9}  {'default':>9}  {'default/1':>9}  {'cpu --jobs 1':>12}  "
          f"{'cpu default':>11}")
    forced = [] if args.jobs is None else ["--jobs", str(args.jobs)]
    with tempfile.TemporaryDirectory() as temp:
        for size in args.sizes:
            folder = Path(temp) / f"batch-{size}"
            write_batch(folder, size, args.seed)
            one: list[tuple[float, float]] = []
            every: list[tuple[float, float]] = []
            for _ in range(args.repeats):
                one.append(run([command, "route", "--json", "--jobs", "1", str(folder)]))
                every.append(run([command, "route", "--json", *forced, str(folder)]))
            a, b = (statistics.median(wall for wall, _ in runs) for runs in (one, every))
            ca, cb = (statistics.median(cpu for _, cpu in runs) for runs in (one, every))
            print(f"{size:>9}  {a:>8.2f}s  {b:>8.2f}s  {b / a:>9.2f}  {ca:>11.2f}s  {cb:>10.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
