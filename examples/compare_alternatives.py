"""Build a position in code and compare the three best routes.

A last-round position with a home-town card, built from :class:`Position`, :class:`Hand` and :class:`Tile` rather
than read from a file. ``solve(..., alternatives=3)`` returns the best plan and two runners-up that collect other
towns or end elsewhere: here the winner comes home to Virst, the runner-up collects one town more but ends a link
away from home with no card left, and the third shows what ending in Lapphalya with two cards kept is worth.

Usage::

    python examples/compare_alternatives.py
"""

from __future__ import annotations

from planner.elfenland.explain import verdict
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import Transport
from planner.elfenland.solvers import solve


def build_position() -> Position:
    """Round 4 of 4 in Elvenhold, home card Virst, eight cards, six counters on the board."""
    return Position(
        at="ELV",
        hand=Hand.from_str("giant pig, elfcycle, magic cloud, unicorn, dragon x2, raft x2"),
        tiles=(
            Tile("ELV-LAP:p", Transport.PIG),
            Tile("LAP-VIR:p", Transport.ELFCYCLE),
            Tile("JXA-VIR:p", Transport.DRAGON),
            Tile("DAG-LAP:f", Transport.UNICORN),
            Tile("DAG-MAH:m", Transport.DRAGON),
            Tile("GRA-MAH:m", Transport.CLOUD),
        ),
        visited=frozenset({"BEA", "STR", "RIV", "TIC", "ERG", "THR", "FEO"}),
        home="VIR",
        round=4,
        title="Last round: home to Virst, or one more town?",
    ).check()


def main() -> int:
    """Print the three best routes with their score, towns, end town and the cards kept."""
    position = build_position()
    board = position.board
    solution = solve(position, solver="search", alternatives=3)
    print(position.title)
    print(f"position: {position}")
    for rank, plan in enumerate(solution.plans, 1):
        towns = ", ".join(board.towns[code].name for code in plan.new_towns) or "none"
        print(f"{rank}. score {plan.score}: {plan}")
        print(f"   towns: {towns}")
        print(f"   {verdict(plan)}")
    best, runner_up = solution.plans[0], solution.plans[1]
    if best.score == runner_up.score:
        print(
            f"tie on score {best.score}: the route spending {best.cards_spent} cards beats "
            f"the one spending {runner_up.cards_spent}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
