"""``elfenland explain`` and ``elfenland puzzle``: why the best route is best, and a graded puzzle trainer."""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    EXIT_INPUT,
    EXIT_STOPPED,
    Pictures,
    PositionCommand,
    WholeNumber,
    answer,
    err,
    fail,
    handle_errors,
    json_option,
    out,
    picture_options,
    seed_option,
    stop_on_ctrl_c,
    writing,
)
from planner.cli.positions import overrides_from, picture_of, position_options, solve_limit_options
from planner.common import i18n
from planner.common.i18n import gettext
from planner.common.limits import Limit, Status
from planner.elfenland.inputs import read_position
from planner.elfenland.plan import parse_route
from planner.elfenland.teach.themes import THEMES
from planner.errors import PlannerError, UnsupportedError

if TYPE_CHECKING:  # the teaching library loads when a teaching command runs, not for every command
    from planner.elfenland.teach.puzzles import Puzzle
    from planner.elfenland.teach.trainer import Trainer

__all__ = ["explain", "puzzle"]

PROGRESS_AFTER = 1.0
"""Seconds of work before a progress line appears on a terminal."""


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[str], None]]:
    """A callback showing what is being worked on, on standard error, once it has taken a second (terminals only,
    never with --json)."""
    console = err()
    started = time.perf_counter()
    status: Any = None

    def say(text: str) -> None:
        nonlocal status
        if not enabled or not console.is_terminal:
            return
        if status is None and time.perf_counter() - started >= PROGRESS_AFTER:
            status = console.status(Text(text))
            status.start()
        elif status is not None:
            status.update(Text(text))

    try:
        yield say
    finally:
        if status is not None:
            status.stop()


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@click.option("--route", "route_text", metavar="STEPS",
              help='Your own route to compare with the best: TOWN/CARDS per step, e.g. "thr/E jac/D".')
@click.option("--no-what-if", is_flag=True, help="Skip the what-if solves (one per extra card and counter).")
@solve_limit_options(" per solve")
@json_option
@picture_options("the position and the best route")
@handle_errors
def explain(source: str | None, route_text: str | None, no_what_if: bool, limit: Limit, as_json: bool,
            pictures: Pictures, **kwargs: Any) -> None:
    """Explain the best route: why each step is paid so, the fewest cards to every town, what one more card or
    counter would add, the last round's end towns, and your own route beside the best.

    \b
    Examples:
      elfenland explain scenarios/02-caravan.toml
      elfenland explain scenarios/06-dead-end.toml --route "dag/U mah/D gra/D"
      elfenland explain scenarios/07-last-round-home.toml --json
    """
    from planner.elfenland.teach import render as teach_render
    from planner.elfenland.teach import report as teach_report
    from planner.elfenland.teach.explanation import explain as explain_position

    position = read_position(source, overrides_from(kwargs))
    steps = parse_route(position, route_text) if route_text is not None else None
    with stop_on_ctrl_c() as stop, _progress(not as_json) as say:
        found = explain_position(position, route=steps, with_what_if=not no_what_if, limit=limit, stop=stop,
                                 progress=say)
    answer(teach_report.explanation_dict(found, source=source), teach_render.explanation_view(found),
           as_json=as_json, pictures=pictures, picture=picture_of(position, (found.solution.plan,)),
           stopped=found.solution.status is Status.STOPPED or stop.is_set(),
           stopped_note=gettext("stopped (Ctrl-C): what is shown is the best found so far, not proven"),
           code=EXIT_INPUT if found.comparison is not None and found.comparison.error is not None else 0)


@click.command(context_settings=CONTEXT)
@seed_option(help="The first puzzle's seed (the next ones count up) [random, printed].", default=None)
@click.option("--theme", "themes", type=click.Choice(THEMES), multiple=True,
              help="What the puzzles teach; repeat to mix [any].")
@click.option("--difficulty", "difficulties", type=WholeNumber(1, 5), multiple=True,
              help="1 (a few steps) to 5 (long routes, near-misses, several lessons); repeat to mix [2].")
@click.option("--route", "route_text", metavar="STEPS", help="Grade this answer to the puzzle and stop (no prompt).")
@click.option("--export", "export_dir", type=click.Path(file_okay=False),
              help="Write the puzzles as scenario files (with [expect] and the lesson) to this folder.")
@click.option("-n", "--count", "how_many", type=WholeNumber(1, 10_000), default=None,
              help="Puzzles to export [20], to print with --json [1], or to play [no end].")
@click.option("--stats", is_flag=True, help="Show the score file's streak and solved puzzles, and stop.")
@click.option("--scores", "scores_file", type=click.Path(dir_okay=False),
              help="The score file [in the user's data directory; ELFENLAND_DATA_DIR moves it].")
@click.option("--no-scores", is_flag=True, help="Neither read nor write the score file.")
@picture_options("each puzzle (a map to look at)")
@json_option
@handle_errors
def puzzle(seed: int | None, themes: tuple[str, ...], difficulties: tuple[int, ...], route_text: str | None,
           export_dir: str | None, how_many: int | None, stats: bool, scores_file: str | None, no_scores: bool,
           pictures: Pictures, as_json: bool) -> None:
    """Train with seeded puzzles: type your route, get it graded, see the best route and why.

    \b
    Examples:
      elfenland puzzle --theme caravan --difficulty 2
      elfenland puzzle --seed 7 --theme home --route "lap/U vir/E"
      elfenland puzzle --export puzzles/ -n 50 --theme any --difficulty 1 --difficulty 3
      elfenland puzzle --stats
    """
    import secrets

    from planner.elfenland.teach import report as teach_report
    from planner.elfenland.teach.trainer import Trainer

    chosen_seed = secrets.randbelow(100_000) if seed is None else seed
    trainer = Trainer(seed=chosen_seed, themes=themes, difficulties=difficulties, scores=scores_file,
                      record=not no_scores)
    if trainer.warning:
        err().print(Text(i18n.say("note: {note}", note=trainer.warning), style="yellow"))
    if stats:
        answer(trainer.scores.as_dict(), Text(f"{trainer.stats_line()}  ({trainer.path})"), as_json=as_json)
        return
    if export_dir is not None:
        _export(trainer, export_dir, how_many or 20, as_json)
        return
    if route_text is not None:
        pictures.draw(picture_of(trainer.puzzle.position))
        _grade_once(trainer, route_text, as_json)
        return
    if as_json:
        for i in range(how_many or 1):
            answer(teach_report.puzzle_dict(trainer.puzzle if i == 0 else trainer.next()), as_json=True,
                   indent=None if how_many else 2, last=False)
        return
    _check_stdin()
    if seed is None:
        err().print(Text(i18n.say("seed {seed} (replay these puzzles with --seed {seed})", seed=chosen_seed),
                         style="dim"))
    _play(trainer, how_many, lambda current: pictures.draw(picture_of(current.position)))


def _export(trainer: Trainer, folder: str, how_many: int, as_json: bool) -> None:
    from planner.elfenland.teach.lesson import check_export, export_puzzles

    check_export(folder, trainer.names(how_many))  # before the puzzles are generated: that takes a while
    puzzles: list[Puzzle] = []
    with _progress(not as_json) as say:
        for i in range(how_many):
            say(i18n.say("puzzle {n}/{total}", n=i + 1, total=how_many))
            puzzles.append(trainer.puzzle if i == 0 else trainer.next())
    paths = export_puzzles(folder, puzzles)
    wrote = i18n.ngettext("wrote {n} puzzle to {folder}", "wrote {n} puzzles to {folder}", len(paths))
    answer([str(p) for p in paths], as_json=as_json, notes=[Text(wrote.format(n=len(paths), folder=folder))])


def _grade_once(trainer: Trainer, route_text: str, as_json: bool) -> None:
    from planner.elfenland.teach import render as teach_render
    from planner.elfenland.teach import report as teach_report
    from planner.elfenland.teach.grade import Verdict
    from planner.elfenland.teach.steps import step_notes

    current = trainer.puzzle
    reply = trainer.hear(route_text) if route_text.strip() else trainer.hear("-")
    graded = reply.grade
    assert graded is not None
    answer(teach_report.grade_dict(current, graded, trainer.scores if trainer.record else None),
           teach_render.puzzle_view(current), Text.assemble(gettext("your route: "), route_text),
           teach_render.grade_view(graded), teach_render.answer_view(current, step_notes(current.best)),
           as_json=as_json, code=EXIT_INPUT if graded.verdict in (Verdict.UNREADABLE, Verdict.ILLEGAL) else 0)


def _play(trainer: Trainer, how_many: int | None, show: Callable[[Puzzle], None]) -> None:
    """The trainer's loop at the terminal (or on scripted standard input): one puzzle after another."""
    from planner.elfenland.teach import render as teach_render
    from planner.elfenland.teach.trainer import HELP

    with writing():
        console = out()
        console.print(Text(gettext(HELP), style="dim"))
        played = 0
        try:
            while how_many is None or played < how_many:
                current = trainer.puzzle
                console.print(Rule())
                console.print(teach_render.puzzle_view(current, played + 1))
                show(current)
                if not _ask(console, trainer, current):
                    break
                played += 1
                if how_many is None or played < how_many:
                    trainer.next()
        except KeyboardInterrupt:
            console.print()
            console.print(Text(trainer.stats_line()))
            sys.exit(EXIT_STOPPED)
        except PlannerError as error:
            fail(error)
        console.print(Text(trainer.stats_line()))


def _unreadable(reason: str) -> str:
    return i18n.say("cannot read your routes from standard input: {reason}; type them at a terminal, pipe UTF-8 "
                    "text in, or grade one route with --route STEPS", reason=reason)


def _reason(error: Exception) -> str:
    return gettext("it is not UTF-8 text") if isinstance(error, UnicodeError) else gettext("it is closed") \
        if isinstance(error, RuntimeError) else str(getattr(error, "strerror", None) or error)


def _check_stdin() -> None:
    """Refuse to start the trainer when standard input is closed: it reads the player's routes from there."""
    if sys.stdin is None or sys.stdin.closed:
        fail(UnsupportedError(_unreadable(gettext("it is closed"))))
    try:
        os.fstat(sys.stdin.fileno())
    except (AttributeError, io.UnsupportedOperation):  # not a real file (a test runner's input)
        pass
    except (OSError, ValueError):  # a descriptor closed under Python's feet
        fail(UnsupportedError(_unreadable(gettext("it is closed"))))


def _ask(console: Console, trainer: Trainer, current: Puzzle) -> bool:
    """Hear lines until the puzzle is over (True) or the player quits (False)."""
    from planner.elfenland.teach import render as teach_render
    from planner.elfenland.teach.steps import step_notes
    from planner.elfenland.teach.trainer import NOT_COUNTED, Command

    while True:
        try:
            line = console.input(gettext("your route> "))
            line.encode("utf-8")  # a line of another encoding is read with surrogates, which UTF-8 refuses
        except EOFError:
            console.print()
            return False
        except (UnicodeError, OSError, RuntimeError) as error:  # RuntimeError: input() lost sys.stdin
            fail(UnsupportedError(_unreadable(_reason(error))))
        if not sys.stdin.isatty():
            console.print(Text(line))  # typed lines from a script: show them, so the transcript reads as a session
        reply = trainer.hear(line)
        if reply.command is Command.QUIT:
            return False
        if reply.grade is not None:
            console.print(teach_render.grade_view(reply.grade))
            if not reply.finished:
                console.print(Text(gettext(NOT_COUNTED), style="dim"))
        else:
            console.print(Text(reply.message, style="cyan"))
        if reply.finished:
            console.print(teach_render.answer_view(current, step_notes(current.best)))
            console.print(Text(trainer.stats_line(), style="dim"))
            return True
