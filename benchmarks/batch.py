"""Time `elfenland route --json FOLDER` on batches of 1, 3, 10, 70 and 300 positions, on one core and on all.

    python benchmarks/batch.py                   # every size, 5 repeats each
    python benchmarks/batch.py --sizes 10 300 -r 3
    python benchmarks/batch.py -r 1 --jobs 2 --quiet 600   # each repeat waits for no other runnable process
    python benchmarks/batch.py --cheapest --sizes 300 1000  # the positions least worth a worker

A batch is the bundled scenarios (all but the 20-card puzzle, a second's solve on its own) followed by seeded
random 8-card positions (:func:`planner.elfenland.generate.random_position`), written to a temporary folder. Each
run is a fresh process, as a player starts it; `--jobs 1` and the default (the planner's own choice of workers)
alternate within each repeat, so a machine loaded by others weighs on both alike. Prints medians and the ratio
of all cores to one; nothing here asserts a time. With ``--quiet SECONDS`` (Linux) every repeat waits, up to that
long, until no other process is runnable (``/proc/loadavg``), so that on a shared machine the ratio compares the
cores' work rather than the others' load; the default and ``--jobs N`` then both run, beside ``--jobs 1``.
"""

from __future__ import annotations

import argparse
import os
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


CHEAPEST = SCENARIOS / "09-nothing-affordable.toml"
"""The cheapest bundled position to solve (its hand pays for no step): ``--cheapest`` batches are copies of it."""


def write_batch(folder: Path, size: int, seed: int, *, cheapest: bool = False) -> None:
    """``size`` position files in ``folder``: the bundled scenarios first, then seeded random positions; with
    ``cheapest``, copies of :data:`CHEAPEST` (the batch least worth its workers)."""
    folder.mkdir()
    if cheapest:
        for i in range(size):
            shutil.copy(CHEAPEST, folder / f"{i:03d}-{CHEAPEST.name}")
        return
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


def wait_for_quiet(seconds: float) -> bool:
    """Wait until this process is the only runnable one (Linux's ``/proc/loadavg``), at most ``seconds``; whether
    it came."""
    deadline = time.monotonic() + seconds
    while True:
        with open("/proc/loadavg") as loadavg:
            runnable = int(loadavg.read().split()[3].split("/")[0])
        if runnable <= 1:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(1.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 3, 10, 70, 300])
    parser.add_argument("-r", "--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, help="time `--jobs N` against `--jobs 1` instead of the default")
    parser.add_argument("--cheapest", action="store_true",
                        help=f"every batch copies of {CHEAPEST.name}: the least work a worker can be started for")
    parser.add_argument("--quiet", type=float, metavar="SECONDS",
                        help="start each repeat only when no other process is runnable (wait at most SECONDS)")
    args = parser.parse_args(argv)
    command = shutil.which("elfenland")
    if command is None:
        print("elfenland is not on PATH: pip install -e . first", file=sys.stderr)
        return 1
    print(f"elfenland route --json FOLDER, fresh process, median of {args.repeats}; {cores()} cores")
    forced = [] if args.jobs is None else ["--jobs", str(args.jobs)]
    others = {"default": []} if args.jobs is None else {f"--jobs {args.jobs}": forced}
    if args.quiet is not None and args.jobs is not None:
        others["default"] = []
    print(f"{'positions':>9}  {'--jobs 1':>9}  " + "".join(f"{name:>10}  {'ratio':>6}  " for name in others)
          + f"{'cpu --jobs 1':>12}  " + "".join(f"{'cpu ' + name:>14}  " for name in others)
          + ("load" if args.quiet is not None else ""))
    with tempfile.TemporaryDirectory() as temp:
        for size in args.sizes:
            folder = Path(temp) / f"batch-{size}"
            write_batch(folder, size, args.seed, cheapest=args.cheapest)
            one: list[tuple[float, float]] = []
            timed: dict[str, list[tuple[float, float]]] = {name: [] for name in others}
            loads = []
            for _ in range(args.repeats):
                if args.quiet is not None and not wait_for_quiet(args.quiet):
                    print(f"no quiet moment in {args.quiet:g} s: timing anyway", file=sys.stderr)
                loads.append(os.getloadavg()[0])
                one.append(run([command, "route", "--json", "--jobs", "1", str(folder)]))
                for name, extra in others.items():
                    timed[name].append(run([command, "route", "--json", *extra, str(folder)]))
            a, ca = (statistics.median(t[i] for t in one) for i in (0, 1))
            walls = {name: statistics.median(wall for wall, _ in runs) for name, runs in timed.items()}
            cpus = {name: statistics.median(cpu for _, cpu in runs) for name, runs in timed.items()}
            print(f"{size:>9}  {a:>8.3f}s  " + "".join(f"{walls[n]:>9.3f}s  {walls[n] / a:>6.2f}  " for n in others)
                  + f"{ca:>11.3f}s  " + "".join(f"{cpus[n]:>13.3f}s  " for n in others)
                  + (f"{statistics.median(loads):.1f}" if args.quiet is not None else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
