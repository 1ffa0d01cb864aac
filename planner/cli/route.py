"""``elfenland route``: the best route of each position, as tables, JSON or a picture; folders on every core."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    EXIT_STOPPED,
    PositionCommand,
    err,
    exit_code,
    fail,
    json_option,
    out,
    stop_on_ctrl_c,
)
from planner.cli.positions import limit_from, overrides_from, position_options, solver_options
from planner.common.limits import Limit, Status, StopLike
from planner.common.threads import cores
from planner.elfenland import render, report
from planner.elfenland.inputs import Overrides, expand_sources, read_position
from planner.elfenland.position import Position
from planner.elfenland.solvers import Solution, solve
from planner.errors import NotationError, PlannerError

if TYPE_CHECKING:
    from planner.elfenland.advice.keeping import KeepAdvice

__all__ = ["check_pictures", "draw", "route"]

#: Plans solved for the keep advice: the routes as good as the best are its choices of end town.
KEEP_CHOICES = 6


@dataclass(frozen=True, slots=True)
class _Job:
    """One position to solve, as a worker process receives it."""

    source: str | None
    overrides: Overrides
    solver: str
    alternatives: int
    limit: Limit
    seed: int


_Outcome = tuple[Position, Solution] | PlannerError


def _solve_one(job: _Job, stop: StopLike | None) -> _Outcome:
    try:
        position = read_position(job.source, job.overrides)
        return position, solve(position, solver=job.solver, alternatives=job.alternatives, limit=job.limit,
                               stop=stop, seed=job.seed)
    except PlannerError as error:
        return error


def _outcomes(jobs: list[_Job], workers: int, stop: threading.Event) -> Iterator[_Outcome]:
    """Each job's outcome, in the jobs' order; with more than one worker, solved in that many processes (the
    caller's stop, Ctrl-C, reaches them; what has not started is cancelled)."""
    from planner.common.processes import ordered_map  # multiprocessing: for a batch only

    return ordered_map(_solve_one, jobs, jobs=workers, stop=stop)


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("sources", nargs=-1, metavar="[POSITION_FILE|FOLDER|NOTATION|-]...")
@position_options
@solver_options
@click.option("-k", "--alternatives", type=click.IntRange(1, 50), default=1, show_default=True,
              help="Also show runners-up with other towns or another end town.")
@click.option("-j", "--jobs", type=click.IntRange(1), default=None,
              help="Positions solved at once, each in a process of its own [every core].")
@json_option
@click.option("--svg", type=click.Path(dir_okay=False), help="Also draw the position and route to this SVG file.")
@click.option("--png", type=click.Path(dir_okay=False), help="Also draw the position and route to this PNG file.")
@click.option("--keep", is_flag=True, help="Also advise the end town and the cards to keep for the next round "
              "(sampled next rounds; a few tenths of a second).")
def route(sources: tuple[str, ...], solver: str, time_limit: float, nodes: int | None, seed: int,
          alternatives: int, jobs: int | None, as_json: bool, svg: str | None, png: str | None, keep: bool,
          **kwargs: Any) -> None:
    """Find the best route: most new towns, then fewest cards.

    The position comes from files (a folder means its *.toml files; - reads stdin), from a whole position in
    compact notation (as the planner prints it), from flags, or from both (flags override the file). Ctrl-C
    answers the best route found so far, marked unproven.

    \b
    Examples:
      elfenland route scenarios/02-caravan.toml -k 3
      elfenland route --at elv --hand "DDCURRPT" --tile "lap-riv D" --tile "elv-erg U+X" \\
          --visited riv,tic --home virst --round 4
      elfenland route "- RIV EDR - 1"
      elfenland route scenarios/ --json --jobs 2
    """
    overrides = overrides_from(kwargs)
    try:
        paths: list[str | None] = [*expand_sources(sources)] or [None]
    except PlannerError as error:
        fail(error)
    if (svg or png) and len(paths) > 1:
        fail(NotationError("--svg/--png draw one position; give a single position file"))
    check_pictures(svg, png)
    limit = limit_from(time_limit, nodes)
    todo = [_Job(source, overrides, solver, alternatives, limit, seed) for source in paths]
    console, diagnostics = out(), err()
    several = len(paths) > 1
    worst = 0
    with stop_on_ctrl_c() as stop:
        for index, (source, outcome) in enumerate(zip(paths, _outcomes(todo, jobs or cores(), stop), strict=True)):
            if isinstance(outcome, PlannerError):
                if as_json:
                    click.echo(json.dumps(report.error_dict(outcome, source=source), ensure_ascii=False))
                if not several:
                    fail(outcome)
                diagnostics.print(Text(f"{source}: {outcome}", style="red"))
                worst = max(worst, exit_code(outcome))
                continue
            position, solution = outcome
            keeping = _keep(position, solution, solver, limit, seed) if keep else None
            if as_json:
                document = report.solution_dict(position, solution, source=source)
                if keep:
                    document["keep"] = None if keeping is None else report.keep_dict(position, keeping)
                click.echo(json.dumps(document, ensure_ascii=False, indent=None if several else 2))
            else:
                if index:
                    console.print()
                warnings = position.warnings()
                if warnings:
                    diagnostics.print(render.notes_view(warnings))
                console.print(render.solution_view(position, solution, source=source if several else None))
                if keeping is not None:
                    console.print(render.keep_line(position, keeping))
                console.print(render.position_line(position), soft_wrap=True)
            if svg or png:
                draw(position, solution.plans, svg, png)
            if solution.status is Status.STOPPED:
                worst = EXIT_STOPPED
            if stop.is_set():
                break
    if stop.is_set():
        diagnostics.print(Text("stopped (Ctrl-C): the answers above are the best found so far", style="yellow"))
        sys.exit(EXIT_STOPPED)
    if worst:
        sys.exit(worst)


def _keep(position: Position, solution: Solution, solver: str, limit: Limit, seed: int) -> KeepAdvice | None:
    """What to keep for the next round, from the routes as good as the best (some more runners-up are solved)."""
    from planner.elfenland.advice.keeping import advise_keep

    plans = solution.plans if len(solution.plans) >= KEEP_CHOICES else solve(
        position, solver=solver, alternatives=KEEP_CHOICES, limit=limit, seed=seed).plans
    return advise_keep(position, plans, seed=seed)


def check_pictures(*paths: str | None) -> None:
    """Refuse a bad picture path before any solving, so the user does not wait for an error."""
    if not any(paths):
        return
    from planner.common.svg import check_picture_path

    try:
        for path in paths:
            if path:
                check_picture_path(path)
    except PlannerError as error:
        fail(error)


def draw(position: Position, plans: Any, svg: str | None, png: str | None) -> None:
    from planner.common.svg import write_picture
    from planner.elfenland.svg import render_svg  # only drawing pays for it

    try:
        picture = render_svg(position, plans)
        for path in (svg, png):
            if path:
                write_picture(picture, path)
                err().print(Text(f"drew {path}"))
    except PlannerError as error:
        fail(error)
