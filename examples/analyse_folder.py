"""Solve every position file in a folder and print one summary line each.

Usage::

    python examples/analyse_folder.py [FOLDER] [--solver auto|search|cpsat] [--time-limit SECONDS]

The folder defaults to ``scenarios/``. Each line gives the file, the score, the cards spent, the end town, whether
the answer is proven optimal, the solver and the time, and, for files with an ``[expect]`` table, whether the
answer matches it. The exit status is 1 when a file cannot be read or solved, or disagrees with its ``[expect]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from planner.elfenland.position_file import load_position
from planner.elfenland.solvers import SOLVERS, Limit, solve
from planner.errors import PlannerError

DEFAULT_FOLDER = Path(__file__).resolve().parents[1] / "scenarios"


def analyse(folder: Path, *, solver: str, time_limit: float) -> int:
    """Print a line per ``*.toml`` file in ``folder``; return how many failed or disagreed."""
    paths = sorted(folder.glob("*.toml"))
    if not paths:
        print(f"no position files in {folder}")
        return 1
    bad = 0
    width = max(len(p.stem) for p in paths)
    for path in paths:
        try:
            position = load_position(str(path))
            expect = position.expect
            # A scenario of the round advisor pins its joint plan (with `placed`), or a draw or an obstacle,
            # which `elfenland draw` and `elfenland obstacle` answer: its route alone is not checked here.
            joint = expect is not None and expect.placed is not None
            checked = expect is not None and expect.score is not None and expect.draw is None
            solution = solve(position, solver=solver, limit=Limit(time=time_limit), joint=joint)
        except PlannerError as error:
            print(f"{path.stem:<{width}}  ERROR {error}")
            bad += 1
            continue
        plan = solution.plan
        end = position.board.towns[plan.end].name
        status = "optimal" if solution.proven else "unproven"
        check = "  advice (see elfenland draw, obstacle)" if expect is not None and not checked else ""
        if expect is not None and checked:
            ok = (plan.score, plan.cards_spent) == (expect.score, expect.cards_spent)
            check = "  expect ok" if ok else f"  expect MISMATCH (wanted {expect.score}/{expect.cards_spent})"
            bad += not ok
        print(
            f"{path.stem:<{width}}  score {plan.score:>2}  cards {plan.cards_spent:>2}  ends {end:<12} "
            f"{status:<8} {solution.solver:<12} {solution.elapsed * 1000:7.0f} ms{check}"
        )
    print(f"{len(paths)} positions, {bad} problem{'s' if bad != 1 else ''}")
    return bad


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and analyse the folder."""
    parser = argparse.ArgumentParser(description="Solve every position file in a folder.")
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--solver", choices=SOLVERS, default="auto")
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args(argv)
    return 1 if analyse(args.folder, solver=args.solver, time_limit=args.time_limit) else 0


if __name__ == "__main__":
    sys.exit(main())
