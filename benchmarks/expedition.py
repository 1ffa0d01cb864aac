"""Benchmark the Expeditions assistant on seeded random mid-game positions (random legal play from the start).

    python benchmarks/expedition.py              # 40 positions, 5-35 random turns each
    python benchmarks/expedition.py -n 100 --time-limit 1 --long 10

For each position:

- the reach table of my cards, commons and opponents' tokens (what ``expedition reach`` shows) and of all 80 greens
  (``--all``), each from a cold row cache;
- per ticket limit 0, 1, 2: the *answer* (the beams alone: by default :data:`BEAM_WORLDS` worlds per beam, or
  ``--answer`` seconds shared out) with its latency in wall-clock and CPU time; the default search (answer, then
  proof within ``--time-limit``) and whether it proved its move; a long exhaustive run (``--long`` seconds, with a
  one-world beam, so the optimum never rests on the beams) for the proven optimum;
- agreement: the answer's points against every proven optimum; monotonicity: the answer with more tickets never
  has fewer points (answers and the default search's moves).

Nothing here asserts a time: the numbers are for reading, on a shared, noisy machine.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from planner.common.limits import Limit
from planner.expedition.advice import reach_targets
from planner.expedition.generate import random_position
from planner.expedition.reach import clear_cache, reach
from planner.expedition.search import BEAM_WORLDS, DEFAULT_ANSWER_LIMIT, best_moves

T = TypeVar("T")
TICKETS = (0, 1, 2)


def _timed(work: Callable[[], T]) -> tuple[T, float]:
    return _clocked(work)[:2]


def _clocked(work: Callable[[], T]) -> tuple[T, float, float]:
    """The result, wall-clock seconds and CPU seconds of this process (what other load on the machine inflates
    less)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - start, time.process_time() - cpu


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _line(name: str, values: list[float]) -> str:
    return (f"{name:<30} median {statistics.median(values) * 1000:8.1f}  p95 {_percentile(values, 0.95) * 1000:8.1f}"
            f"  max {max(values) * 1000:8.1f} ms")


def _cold(work: Callable[[], T]) -> tuple[float, float]:
    clear_cache()
    return _clocked(work)[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--answer", type=float, default=None,
                        help="answer budget, seconds [default: the library's, a count of worlds per beam]")
    parser.add_argument("--time-limit", type=float, default=1.0, help="answer + proof budget, seconds")
    parser.add_argument("--long", type=float, default=10.0, help="the long exhaustive run for the optimum, seconds")
    args = parser.parse_args()
    first = DEFAULT_ANSWER_LIMIT if args.answer is None else Limit(time=args.answer)
    only = Limit(time=1e-6)  # the clock of the whole call: over before the beams end, so no proof stage runs
    loads = [_load()]
    rng = random.Random(args.seed)
    positions = [random_position(rng, turns=rng.randint(5, 35)) for _ in range(args.positions)]
    reach_times: dict[str, list[float]] = {f"{name}{cpu}": [] for name in ("reach (shown locations)",
                                                                         "reach --all (80 greens)")
                                           for cpu in ("", " CPU")}
    latency: dict[int, list[float]] = {k: [] for k in TICKETS}
    cpu: dict[int, list[float]] = {k: [] for k in TICKETS}
    proofs = dict.fromkeys(TICKETS, 0)
    cpu_proofs = dict.fromkeys(TICKETS, 0)
    cut = dict.fromkeys(TICKETS, 0)
    agree = dict.fromkeys(TICKETS, 0)
    optima = dict.fromkeys(TICKETS, 0)
    worse = {"answers": 0, "default search": 0}
    for position in positions:
        for every, name in ((False, "reach (shown locations)"), (True, "reach --all (80 greens)")):
            targets = reach_targets(position, every_green=every)
            wall, used = _cold(functools.partial(reach, position, targets))
            reach_times[name].append(wall)
            reach_times[name + " CPU"].append(used)
        answers, defaults = [], []
        for k in TICKETS:
            quick, seconds, used = _clocked(functools.partial(best_moves, position, tickets=k, answer=first,
                                                              limit=only))
            cut[k] += quick.cut_short
            latency[k].append(seconds)
            cpu[k].append(used)
            answers.append(quick.best.points)
            full = best_moves(position, tickets=k, answer=first, limit=Limit(time=args.time_limit))
            defaults.append(full.best.points)
            proofs[k] += full.proven
            # the optimum from the exhaustive search alone (a one-world beam), whatever the default search did
            optimum, _, long_cpu = _clocked(functools.partial(best_moves, position, tickets=k, answer=Limit(nodes=1),
                                                              limit=Limit(time=args.long)))
            # a CPU-time view of the proof rate, less inflated by other load: the answer's CPU plus the
            # exhaustive search's (its stages from scratch) within the time limit
            cpu_proofs[k] += optimum.proven and used + long_cpu <= args.time_limit
            if optimum.proven:
                optima[k] += 1
                agree[k] += quick.best.points == optimum.best.points
        worse["answers"] += any(a > b for a, b in zip(answers, answers[1:], strict=False))
        worse["default search"] += any(a > b for a, b in zip(defaults, defaults[1:], strict=False))
    n = args.positions
    print(f"load average (1, 5, 15 min) at the start {loads[0]}, at the end {_load()}")
    budget = f"{BEAM_WORLDS} worlds a beam" if args.answer is None else f"{args.answer:g} s"
    print(f"{n} positions (seed {args.seed}, 5-35 random turns); answer {budget}, time limit "
          f"{args.time_limit:g} s, long run {args.long:g} s")
    for name, values in reach_times.items():
        print(_line(name, values))
    for k in TICKETS:
        print(_line(f"move answer, {k} ticket{'s' * (k != 1)}", latency[k]))
    for k in TICKETS:
        print(_line(f"answer CPU, {k} ticket{'s' * (k != 1)}", cpu[k]))
    for k in TICKETS:
        print(f"{k} ticket{'s' * (k != 1)}: proven within {args.time_limit:g} s {proofs[k]}/{n} "
              f"({100 * proofs[k] / n:.0f} %), within {args.time_limit:g} s of CPU {cpu_proofs[k]}/{n} "
              f"({100 * cpu_proofs[k] / n:.0f} %); answer = proven optimum {agree[k]}/{optima[k]} "
              f"({100 * agree[k] / max(1, optima[k]):.0f} %); answer cut short by its clock {cut[k]}/{n}")
    print(f"fewer points with more tickets: answers {worse['answers']}/{n}, default search "
          f"{worse['default search']}/{n}")


if __name__ == "__main__":
    main()
