"""``elfenland check``: every problem of a position at once, and a player's route replayed beside the best."""

from __future__ import annotations

from typing import Any

import click
from rich.console import Group, RenderableType
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    EXIT_INPUT,
    PositionCommand,
    answer,
    handle_errors,
    json_option,
    stop_on_ctrl_c,
)
from planner.cli.positions import overrides_from, position_options, solver_options
from planner.common.i18n import gettext, say
from planner.common.limits import Limit, Status
from planner.common.problems import Problem
from planner.elfenland import render, report
from planner.elfenland.checking import RouteCheck, route_check
from planner.elfenland.explain import count, verdict
from planner.elfenland.inputs import read_position
from planner.elfenland.position import Position
from planner.errors import IllegalPositionError, NotationError

__all__ = ["check"]


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@click.option("--route", "route_text", metavar="STEPS",
              help='A route to verify: TOWN/CARDS per step, e.g. "thr/E jac/D" (TOWN:r/R picks the river).')
@solver_options
@json_option
@handle_errors
def check(source: str | None, route_text: str | None, solver: str, limit: Limit, seed: int, as_json: bool,
          **kwargs: Any) -> None:
    """Validate a position (every problem at once) and optionally verify a proposed route.

    \b
    Examples:
      elfenland check scenarios/01-first-steps.toml
      elfenland check scenarios/01-first-steps.toml --route "lap/P vir/E"
      elfenland check --at elv --hand DDC --tile "elv-lap P" --json
    """
    position, problems = _read(source, kwargs)
    if position is None:
        answer(report.check_dict(None, problems), render.problems_view(problems), as_json=as_json, code=EXIT_INPUT)
        return
    if route_text is None:
        answer(report.check_dict(position, []), render.position_summary(position),
               Text(gettext("position is legal"), style="green"), as_json=as_json, notes=_warnings(position),
               position_line=render.position_line(position))
        return
    with stop_on_ctrl_c() as stop:
        judged = route_check(position, route_text, solver=solver, limit=limit, stop=stop, seed=seed)
    assert judged.best is not None
    answer(report.check_dict(position, [], route=(judged.yours, judged.best, judged.error)), _route_view(judged),
           as_json=as_json, stopped=judged.status is Status.STOPPED, code=0 if judged.legal else EXIT_INPUT,
           stopped_note=gettext("stopped (Ctrl-C): the best route above is not proven"))


def _read(source: str | None, kwargs: dict[str, Any]) -> tuple[Position | None, list[Problem]]:
    try:
        return read_position(source, overrides_from(kwargs)), []
    except IllegalPositionError as error:
        return None, error.problems
    except NotationError as error:
        return None, [Problem(error.kind, "position", error.value, str(error))]


def _warnings(position: Position) -> list[RenderableType]:
    warnings = position.warnings()
    return [render.notes_view(warnings)] if warnings else []


def _route_view(judged: RouteCheck) -> RenderableType:
    """The player's route beside the best: where it breaks, or its table, its score and whether it is optimal."""
    best, yours, error = judged.best, judged.yours, judged.error
    assert best is not None
    best_line = Text.assemble((say("the best gets {score} with {cards}: ", score=best.score,
                                   cards=count(best.cards_spent, "card paid")), "yellow"), render.route_line(best))
    if yours is None:
        assert error is not None
        return Group(Text(say("your route breaks at step {step} ({token}): {reason}", step=error.index + 1,
                              token=judged.token, reason=error.reason), style="red"),
                     Text.assemble(say("the best route gets {score} with {cards}: ", score=best.score,
                                       cards=count(best.cards_spent, "card paid")), render.route_line(best)))
    return Group(render.route_table(yours, title=gettext("your route")),
                 Text(say("your route gets {score} ({verdict})", score=yours.score, verdict=verdict(yours))),
                 Text(gettext("that is optimal"), style="green") if judged.optimal else best_line)
