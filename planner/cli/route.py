"""``elfenland route``: the best route of each position, as tables, JSON or a picture; folders on the cores they are
worth."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import click
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    EXIT_STOPPED,
    Pictures,
    PositionCommand,
    WholeNumber,
    answer,
    err,
    exit_code,
    fail,
    finish,
    json_option,
    picture_options,
    stop_on_ctrl_c,
)
from planner.cli.positions import overrides_from, picture_of, position_options, solver_options
from planner.common.forms import read_stdin
from planner.common.i18n import gettext
from planner.common.limits import Limit, Status, StopLike
from planner.common.problems import error_text
from planner.common.values import frozen
from planner.elfenland.inputs import Overrides, expand_sources, read_position
from planner.elfenland.position import Position
from planner.elfenland.solvers import Solution, solve
from planner.errors import NotationError, PlannerError

if TYPE_CHECKING:
    from planner.elfenland.advice.keeping import KeepAdvice

__all__ = ["route"]

#: Plans solved for the keep advice: the routes as good as the best are its choices of end town.
KEEP_CHOICES = 6

PROBE = 0.01
"""Seconds of solving in this process, after its first position, before a batch decides whether workers are worth
starting."""

FLOOR = 0.0004
"""Seconds of the cheapest position a batch can hold: read, solved and answered (measured: 0.43 ms for each of 50
copies of ``scenarios/09-nothing-affordable.toml``, whose hand pays for no step, against 1.1-1.2 ms for 8-card
positions)."""

HANDOFF = 0.0015
"""Seconds to send a position to a worker and its position and solution back (pickled both ways, with the
processes' messages), as measured on 300 positions: about 1.2-1.9 ms."""

HANDOFF_DOCUMENT = 0.0002
"""The same when the answer comes back as its JSON document, plain data, positions travelling in chunks (measured:
two forked workers on 300 positions cost no more CPU than one process, 0.435 against 0.441 s; through
multiprocessing they cost 0.07 s more)."""


@frozen
class _Job:
    """One position to solve, as a worker process receives it; ``document``: answer with the JSON document."""

    source: str | None
    overrides: Overrides
    solver: str
    alternatives: int
    limit: Limit
    seed: int
    keep: bool
    document: bool
    stdin: str | PlannerError | None
    """Standard input's text (or why it could not be read) for the source ``-``, read by the command: a worker's
    own standard input is empty."""


class _Answer(NamedTuple):
    """A solved position: its JSON ``document``, built where it was solved (plain data crosses between processes
    cheaply), or the position, its solution and the keep advice, for the tables and pictures."""

    stopped: bool
    document: dict[str, Any] | None
    solved: tuple[Position, Solution, KeepAdvice | None] | None


_Outcome = _Answer | PlannerError


def _solve_one(job: _Job, stop: StopLike | None) -> _Outcome:
    if isinstance(job.stdin, PlannerError):
        return job.stdin
    try:
        position = read_position(job.source, job.overrides, stdin=job.stdin)
        solution = solve(position, solver=job.solver, alternatives=job.alternatives, limit=job.limit, stop=stop,
                         seed=job.seed)
        keeping = _keep(position, solution, job.solver, job.limit, job.seed) if job.keep else None
    except PlannerError as error:
        return error
    stopped = solution.status is Status.STOPPED
    if job.document:
        return _Answer(stopped, _document(position, solution, keeping, job.source, keep=job.keep), None)
    return _Answer(stopped, None, (position, solution, keeping))


def _outcomes(jobs: list[_Job], workers: int | None, stop: threading.Event) -> Iterator[_Outcome]:
    """Each job's outcome, in the jobs' order. ``workers`` processes solve them (the caller's stop, Ctrl-C, reaches
    them; what has not started is cancelled); None lets the batch decide. A batch so large that workers would pay
    even if each position cost only :data:`FLOOR` starts them at once (they warm up beside this process). Any other
    solves its first job here (it pays for warming up: lazy imports, methods compiled at their first call), then
    more for :data:`PROBE` seconds, and their times (not the first's) estimate the rest's, so that workers start
    only when they would finish the rest sooner (:func:`~planner.common.processes.workers_for`)."""
    if workers is None and len(jobs) > 1 and (at_once := _workers([FLOOR] * len(jobs), jobs[0].document)) > 1:
        workers = at_once
    if workers is None:
        times: list[float] = []
        while len(times) < len(jobs) and (len(times) < 2 or sum(times[1:]) < PROBE):  # the first warms up
            started = time.perf_counter()
            outcome = _solve_one(jobs[len(times)], stop)
            times.append(time.perf_counter() - started)
            yield outcome
        jobs = jobs[len(times):]
        if len(jobs) <= 1:  # nothing left to share
            yield from (_solve_one(job, stop) for job in jobs)
            return
        sample = sorted(times[1:] or times)  # the upper median: statistics costs a batch 3 ms of imports
        workers = _workers([sample[len(sample) // 2]] * len(jobs), jobs[0].document)
    if workers <= 1:
        yield from (_solve_one(job, stop) for job in jobs)
        return
    from planner.common.processes import ordered_map

    yield from ordered_map(_solve_one, jobs, jobs=workers, stop=stop)


def _workers(costs: list[float], document: bool) -> int:
    """How many processes should share jobs of these estimated ``costs`` (answered as JSON documents or not)."""
    from planner.common.processes import idle_cores, start_seconds, workers_for  # for a batch only

    return workers_for(costs, cores=idle_cores(), start=start_seconds(),
                       handoff=HANDOFF_DOCUMENT if document else HANDOFF)


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("sources", nargs=-1, metavar="[POSITION_FILE|FOLDER|NOTATION|-]...")
@position_options
@solver_options
@click.option("-k", "--alternatives", type=WholeNumber(1, 50), default=1, show_default=True, metavar="K",
              help="How many plans to show: the best, then up to K-1 runners-up (numbered 2..K), each with other "
                   "towns or another end town.")
@click.option("-j", "--jobs", type=WholeNumber(1), default=None,
              help="Positions solved at once, each in a process of its own [as many as the batch is worth, up to "
                   "every core].")
@json_option(help="JSON output on standard output (one object per line with several positions).")
@picture_options("the position and its route")
@click.option("--keep", is_flag=True, help="Also advise the end town and the cards to keep for the next round "
              "(sampled next rounds; a few tenths of a second).")
def route(sources: tuple[str, ...], solver: str, limit: Limit, seed: int, alternatives: int, jobs: int | None,
          as_json: bool, pictures: Pictures, keep: bool, **kwargs: Any) -> None:
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
    if pictures and len(paths) > 1:
        fail(NotationError("--svg/--png draw one position; give a single position file"))
    stdin: str | PlannerError | None = None
    if "-" in paths:
        try:
            stdin = read_stdin()
        except PlannerError as error:  # unreadable: reported in the place of each '-'
            stdin = error
    todo = [_Job(source, overrides, solver, alternatives, limit, seed, keep, as_json and not pictures,
                 stdin if source == "-" else None) for source in paths]
    several, worst = len(paths) > 1, 0
    with stop_on_ctrl_c() as stop:
        for index, (source, outcome) in enumerate(zip(paths, _outcomes(todo, jobs, stop), strict=True)):
            if isinstance(outcome, PlannerError):
                worst = max(worst, _failed(outcome, source, as_json=as_json, several=several))
            elif outcome.solved is None:
                answer(outcome.document, as_json=True, indent=None if several else 2, last=False)
            else:
                _answer(*outcome.solved, source, index=index, several=several, as_json=as_json, keep=keep,
                        pictures=pictures)
            worst = EXIT_STOPPED if isinstance(outcome, _Answer) and outcome.stopped else worst
            if stop.is_set():
                break
    finish(code=worst, stopped=stop.is_set(),
           note=gettext("stopped (Ctrl-C): the answers above are the best found so far"))


def _failed(error: PlannerError, source: str | None, *, as_json: bool, several: bool) -> int:
    """Report a position that could not be solved; alone it ends the command, in a batch the others go on."""
    if as_json:
        from planner.elfenland import report

        answer(report.error_dict(error, source=source), as_json=True, indent=None if several else 2, last=False)
    if not several:
        fail(error)
    err().print(Text(f"{source}: {error_text(error)}", style="red"))
    return exit_code(error)


def _answer(position: Position, solution: Solution, keeping: KeepAdvice | None, source: str | None, *, index: int,
            several: bool, as_json: bool, keep: bool, pictures: Pictures) -> None:
    """One position's answer (a batch's answers one after another, a blank line apart); JSON builds no tables."""
    picture = picture_of(position, solution.plans)
    if as_json:
        answer(_document(position, solution, keeping, source, keep=keep), as_json=True,
               indent=None if several else 2, pictures=pictures, picture=picture, last=False)
        return
    from planner.elfenland import render

    warnings = position.warnings()
    answer(None, Text("") if index else None,
           render.solution_view(position, solution, source=source if several else None),
           None if keeping is None else render.keep_line(position, keeping), as_json=False,
           notes=[render.notes_view(warnings)] if warnings else [], position_line=render.position_line(position),
           pictures=pictures, picture=picture, last=False)


def _document(position: Position, solution: Solution, keeping: KeepAdvice | None, source: str | None, *,
              keep: bool) -> dict[str, Any]:
    """The JSON document of one solved position (``keep``: with the keep advice, null when there is none)."""
    from planner.elfenland import report  # the tables' modules (rich.table, the renderer) stay unloaded

    document = report.solution_dict(position, solution, source=source)
    if keep:
        document["keep"] = None if keeping is None else report.keep_dict(position, keeping)
    return document


def _keep(position: Position, solution: Solution, solver: str, limit: Limit, seed: int) -> KeepAdvice | None:
    """What to keep for the next round, from the routes as good as the best (some more runners-up are solved)."""
    from planner.elfenland.advice.keeping import advise_keep

    plans = solution.plans if len(solution.plans) >= KEEP_CHOICES else solve(
        position, solver=solver, alternatives=KEEP_CHOICES, limit=limit, seed=seed).plans
    return advise_keep(position, plans, seed=seed)
