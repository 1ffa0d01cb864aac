"""Golden scenarios: every ``scenarios/*.toml`` is solved by both solvers and must match its ``[expect]`` table.

Each scenario derives its expected score and cards spent by reasoning in its ``notes``; this file checks that both
solvers agree with that reasoning (STYLE.md §7). On failure the message gives the scenario id, the position in
compact notation, expected against actual, and the route step by step, so a failure can be replayed with
``elfenland route "<position>"`` or ``elfenland check FILE --route ...``.

One case is not a plain comparison: the CP-SAT solver does not model the strict caravan rule (it depends on the
step order), so for a scenario with ``caravan_when = "strict"`` where the rule matters it must refuse with an
:class:`UnsupportedError` naming the rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planner.common.limits import Limit
from planner.elfenland.advice.drawing import advise_draw
from planner.elfenland.advice.obstacle import advise_obstacle
from planner.elfenland.advice.placing import joint_plan, place_now
from planner.elfenland.explain import step_records
from planner.elfenland.plan import Plan, verify
from planner.elfenland.position import Position
from planner.elfenland.position_file import load_position
from planner.elfenland.solvers import solve
from planner.errors import UnsupportedError

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "scenarios"
SCENARIOS = sorted(SCENARIO_DIR.glob("*.toml"))
SOLVERS = ("search", "cpsat")


def _id(path: Path) -> str:
    return path.stem


def _breakdown(plan: Plan) -> str:
    """The route one step per line, as a player reads it."""
    if not plan.steps:
        return "    (empty route: the boot stays put)"
    lines = []
    for r in step_records(plan):
        how = f"{r.pay} on {r.counter}" if r.counter else r.pay
        extra = " + obstacle" if r.obstacle and r.via == "road" else ""
        lines.append(
            f"    {r.number:>2}. {r.frm} -> {r.to} by {r.via} ({r.terrain}{extra}), {how}, pays {r.letters}"
            f"{', new town' if r.new_town else ''}; left {r.cards_left}"
        )
    return "\n".join(lines)


def _report(name: str, solver: str, position: Position, plan: Plan, note: str = "") -> str:
    expect = position.expect
    assert expect is not None
    return (
        f"\nscenario {name} with solver {solver}{note}\n"
        f"  position: {position}\n"
        f"  expected: score {expect.score}, cards spent {expect.cards_spent}\n"
        f"  actual:   score {plan.score}, cards spent {plan.cards_spent}, route {plan}"
        f" ({'proven' if plan.proven else 'not proven'})\n"
        f"{_breakdown(plan)}"
    )


def _check_plan(name: str, solver: str, position: Position, plan: Plan) -> None:
    """The plan replays legally and its claimed outcome is the replayed one."""
    outcome = verify(position, plan.steps)
    assert (outcome.score, outcome.cards_spent) == (plan.score, plan.cards_spent), _report(
        name, solver, position, plan, ": the plan's outcome differs from its replay"
    )


def _advice(path: Path) -> bool:
    """Whether the scenario's answer is advice (draw, place, obstacle) rather than a route."""
    expect = load_position(str(path)).expect
    return expect is not None and any((expect.now, expect.draw, expect.obstacle, expect.target, expect.placed))


ROUTES = [p for p in SCENARIOS if not _advice(p)]
ADVICE = [p for p in SCENARIOS if _advice(p)]


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("path", ROUTES, ids=_id)
def test_scenario(path: Path, solver: str) -> None:
    name = path.stem
    position = load_position(str(path))
    expect = position.expect
    assert expect is not None, f"{name} has no [expect] table"
    if solver == "cpsat" and position.rules.strict:
        with pytest.raises(UnsupportedError, match="strict caravan rule"):
            solve(position, solver=solver)
        return
    solution = solve(position, solver=solver, limit=Limit(time=60.0))
    plan = solution.plan
    _check_plan(name, solver, position, plan)
    actual = (plan.score, plan.cards_spent)
    wanted = (expect.score, expect.cards_spent)
    assert solution.proven, _report(name, solver, position, plan, ": not proven optimal")
    assert actual == wanted, _report(name, solver, position, plan)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("path", ADVICE, ids=_id)
def test_advice_scenario(path: Path, solver: str) -> None:
    """The round advisor's scenarios: the joint plan (both solvers), the counter to draw, the placement to make
    now, the obstacle's road and target, each as the scenario's notes derive it."""
    position = load_position(str(path))
    expect = position.expect
    assert expect is not None
    if expect.draw is not None:
        advice = advise_draw(position, solver=solver)
        assert (advice.best.counter.title if advice.best.counter else "blind") == expect.draw, path.stem
        plan = advice.best.plan
        assert plan is not None and (plan.score, plan.cards_spent) == (expect.score, expect.cards_spent)
    if expect.placed is not None or expect.now is not None:
        joint = joint_plan(position, solver=solver)
        plan = joint.plan
        assert joint.proven, _report(path.stem, solver, position, plan, ": not proven optimal")
        assert (plan.score, plan.cards_spent, len(plan.placements)) == (
            expect.score, expect.cards_spent, expect.placed), _report(path.stem, solver, position, plan)
        if expect.now is not None:
            now = place_now(position, solver=solver).now.placement
            assert (str(now) if now is not None else "pass") == expect.now, path.stem
    if expect.obstacle is not None or expect.target is not None:
        obstacle = advise_obstacle(position, samples=100, seed=1)
        road = "hold" if obstacle.hold or obstacle.effect is None else obstacle.effect.road
        assert road == expect.obstacle, path.stem
        assert obstacle.target is not None and obstacle.target.opponent.name == expect.target, path.stem


def test_there_are_enough_scenarios() -> None:
    assert len(ROUTES) >= 16 and len(ADVICE) >= 3, [p.name for p in SCENARIOS]


@pytest.mark.parametrize("path", SCENARIOS, ids=_id)
def test_scenario_is_documented(path: Path) -> None:
    """Every golden file has a title, notes explaining the answer, an [expect] table and a leading comment."""
    assert re.fullmatch(r"\d\d-[a-z0-9]+(-[a-z0-9]+)*\.toml", path.name), f"{path.name}: name it NN-short-name.toml"
    position = load_position(str(path))
    assert position.title, f"{path.name}: missing title"
    assert position.notes and len(position.notes.split()) >= 30, f"{path.name}: notes must explain the answer"
    assert position.expect is not None, f"{path.name}: missing [expect]"
    assert (position.expect.score is not None and position.expect.cards_spent is not None) or _advice(path), (
        f"{path.name}: [expect] needs score and cards_spent"
    )
    assert path.read_text(encoding="utf-8").startswith("#"), f"{path.name}: start with a comment block"


def test_scenario_numbers_are_unique() -> None:
    numbers = [p.name[:2] for p in SCENARIOS]
    assert len(numbers) == len(set(numbers)), numbers


def test_first_steps_is_a_real_round_one() -> None:
    """The README demo: a position a real game can produce in round 1 (8 cards, from Elvenhold, nothing collected)."""
    position = load_position(str(SCENARIO_DIR / "01-first-steps.toml"))
    assert (position.round, position.at, len(position.hand)) == (1, "ELV", 8)
    assert position.visited == {"ELV"}
    assert not position.warnings()
