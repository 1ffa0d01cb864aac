"""``elfenland check``: every problem of a position at once, and a player's route replayed beside the best."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    EXIT_INPUT,
    EXIT_STOPPED,
    PositionCommand,
    err,
    handle_errors,
    json_option,
    out,
    stop_on_ctrl_c,
)
from planner.cli.positions import limit_from, overrides_from, position_options, solver_options
from planner.common.limits import Status
from planner.common.problems import Problem
from planner.elfenland import render, report
from planner.elfenland.explain import verdict
from planner.elfenland.inputs import read_position
from planner.elfenland.plan import Plan, parse_route
from planner.elfenland.position import Position
from planner.elfenland.solvers import solve
from planner.errors import IllegalPositionError, IllegalStepError, NotationError

__all__ = ["check"]


def _read(source: str | None, kwargs: dict[str, Any]) -> tuple[Position | None, list[Problem]]:
    try:
        return read_position(source, overrides_from(kwargs)), []
    except IllegalPositionError as error:
        return None, error.problems
    except NotationError as error:
        return None, [Problem(error.kind, "position", error.value, str(error))]


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@click.option("--route", "route_text", metavar="STEPS",
              help='A route to verify: TOWN/CARDS per step, e.g. "thr/E jac/D" (TOWN:r/R picks the river).')
@solver_options
@json_option
@handle_errors
def check(source: str | None, route_text: str | None, solver: str, time_limit: float, nodes: int | None,
          seed: int, as_json: bool, **kwargs: Any) -> None:
    """Validate a position (every problem at once) and optionally verify a proposed route.

    \b
    Examples:
      elfenland check scenarios/01-first-steps.toml
      elfenland check scenarios/01-first-steps.toml --route "lap/P vir/E"
      elfenland check --at elv --hand DDC --tile "elv-lap P" --json
    """
    position, problems = _read(source, kwargs)
    console = out()
    if position is None:
        if as_json:
            click.echo(json.dumps(report.check_dict(None, problems), indent=2, ensure_ascii=False))
        else:
            console.print(render.problems_view(problems))
        sys.exit(EXIT_INPUT)
    if route_text is None:
        if as_json:
            click.echo(json.dumps(report.check_dict(position, []), indent=2, ensure_ascii=False))
            return
        console.print(render.position_summary(position))
        console.print(render.position_line(position), soft_wrap=True)
        if position.warnings():
            err().print(render.notes_view(position.warnings()))
        console.print(Text("position is legal", style="green"))
        return
    steps = parse_route(position, route_text)  # a typo is reported before any solving
    yours: Plan | None = None
    error: IllegalStepError | None = None
    try:
        yours = Plan.of(position, steps)
    except IllegalStepError as illegal:
        error = illegal
    with stop_on_ctrl_c() as stop:
        solution = solve(position, solver=solver, limit=limit_from(time_limit, nodes), stop=stop, seed=seed)
    best = solution.plan
    if as_json:
        click.echo(json.dumps(report.check_dict(position, [], route=(yours, best, error)), indent=2,
                              ensure_ascii=False))
    elif yours is None and error is not None:
        token = route_text.split()[error.index] if error.index < len(route_text.split()) else route_text
        console.print(Text(f"your route breaks at step {error.index + 1} ({token}): {error.reason}", style="red"))
        console.print(Text.assemble(f"the best route gets {best.score} with {best.cards_spent} cards: ",
                                    render.route_line(best)))
    else:
        assert yours is not None
        console.print(render.route_table(yours, title="your route"))
        console.print(Text(f"your route gets {yours.score} ({verdict(yours)})"))
        if yours.value >= best.value:
            console.print(Text("that is optimal", style="green"))
        else:
            console.print(Text.assemble((f"the best gets {best.score} with {best.cards_spent} cards: ", "yellow"),
                                        render.route_line(best)))
    if solution.status is Status.STOPPED:
        err().print(Text("stopped (Ctrl-C): the best route above is not proven", style="yellow"))
        sys.exit(EXIT_STOPPED)
    if error is not None:
        sys.exit(EXIT_INPUT)
