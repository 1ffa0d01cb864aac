"""Solve one position file with the library and print the route step by step, then the verdict.

Usage::

    python examples/solve_position.py [POSITION_FILE]

The default is ``scenarios/01-first-steps.toml``. The same answer comes from ``elfenland route FILE``; this script
shows the library calls behind it: :func:`load_position`, :func:`solve`, and the explanation records of
:mod:`planner.elfenland.explain`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from planner.elfenland.explain import step_records, verdict
from planner.elfenland.position_file import load_position
from planner.elfenland.solvers import solve

DEFAULT = Path(__file__).resolve().parents[1] / "scenarios" / "01-first-steps.toml"


def main(argv: list[str]) -> int:
    """Solve the file named in ``argv[1]`` (or the default scenario) and print the plan."""
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT
    position = load_position(str(path))
    solution = solve(position)  # solver="auto": the exact search first, CP-SAT if it takes too long
    plan = solution.plan

    print(position.title or path.name)
    print(f"position: {position}")
    for record in step_records(plan):
        counter = f" {record.pay} on {record.counter}" if record.counter else f" {record.pay}"
        new = "  +1 town" if record.new_town else ""
        print(
            f"  {record.number}. {record.frm} -> {record.to} ({record.via}, {record.terrain}),"
            f"{counter}: {' '.join(record.cards)}{new}"
        )
    if not plan.steps:
        print("  (stay put: no step is worth its cards)")
    print(f"route: {plan}")
    status = "optimal" if solution.proven else "not proven optimal"
    print(f"verdict: {verdict(plan)} [{status}, {solution.solver}]")
    if position.expect is not None:
        expected = (position.expect.score, position.expect.cards_spent)
        agree = "agrees" if expected == (plan.score, plan.cards_spent) else "DISAGREES"
        print(f"expected: score {expected[0]}, {expected[1]} cards ({agree})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
