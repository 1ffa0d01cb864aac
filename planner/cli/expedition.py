"""``expedition``: the assistant for Kramer's *Expeditions* (reach table, best move, token setup).

Thin glue: read a position (file, ``-``, or one-line notation), one library call, a rich table or JSON. Bad input
exits 2 with a message (with ``--json`` also a JSON document naming the error and its problems); Ctrl-C during a
move search prints the best move so far and exits 130.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    EXIT_STOPPED,
    PositionCommand,
    SecondsType,
    err,
    fail,
    json_option,
    out,
    stop_on_ctrl_c,
)
from planner.common.limits import Limit
from planner.common.problems import Problem
from planner.errors import PlannerError, UnsupportedError
from planner.expedition.advice import hopeless, reach_change, reach_targets, setup_advice
from planner.expedition.notation import Action
from planner.expedition.position import Position
from planner.expedition.position_file import read_position
from planner.expedition.reach import reach as reach_table
from planner.expedition.render import move_view, reach_view, setup_view
from planner.expedition.report import SCHEMA, move_dict, reach_dict, setup_dict
from planner.expedition.search import DEFAULT_ANSWER_LIMIT, DEFAULT_MOVE_LIMIT, best_moves

__all__ = ["cli"]

SOURCE = click.argument("source", metavar="POSITION_FILE|NOTATION|-")


def pictures(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--svg FILE`` and ``--png FILE``: also draw the world map, as SVG text or as a PNG picture."""
    func = click.option("--png", metavar="FILE", default=None, help="Also draw the world map with the paths and "
                        "targets to this PNG file (needs cairosvg).")(func)
    return click.option("--svg", metavar="FILE", default=None, help="Also draw the world map with the paths and "
                        "targets to this SVG file.")(func)


def handle_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """A planner error ends the command with its message and exit code; with ``--json`` a JSON document
    ``{"schema", "error", "problems"}`` goes to standard output first, so a tool reading it gets JSON either way."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except PlannerError as error:
            if kwargs.get("as_json"):
                _echo(error_dict(error))
            fail(error)

    return wrapper


def error_dict(error: PlannerError) -> dict[str, Any]:
    """The JSON document of a command that failed: the message and, when the error lists them, its problems."""
    document: dict[str, Any] = {"schema": SCHEMA, "error": str(error)}
    problems: list[Problem] | None = getattr(error, "problems", None)
    if problems:
        document["problems"] = [p.as_dict() for p in problems]
    return document


def _echo(document: dict[str, Any]) -> None:
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))


def _read(source: str, svg: str | None = None, png: str | None = None) -> Position:
    for path in (svg, png):
        if path is not None:
            _check_folder(path)  # before any work: a bad picture path is bad input
    return read_position(source)


def _check_folder(path: str) -> Path:
    target = Path(path)
    if not target.parent.is_dir():
        raise UnsupportedError(f"cannot write picture {path!r}: folder {str(target.parent)!r} does not exist")
    return target


def _draw(position: Position, svg: str | None, png: str | None, actions: tuple[Action, ...] = (),
          title: str | None = None) -> None:
    if svg is None and png is None:
        return
    from planner.common.svg import to_png
    from planner.expedition.svg import render_svg  # only a command that draws pays for the drawing code

    picture = render_svg(position, move=actions, title=title)
    for path, as_png in ((svg, False), (png, True)):
        if path is None:
            continue
        data = to_png(picture) if as_png else picture.encode("utf-8")
        try:
            _check_folder(path).write_bytes(data)
        except OSError as exc:
            raise UnsupportedError(f"cannot write picture {path!r}: {exc.strerror or exc}") from None
        err().print(Text(f"drew {path}"))


@click.group(context_settings=CONTEXT)
def cli() -> None:
    """Expeditions (Kramer, 2023): reach table, best move and token setup for a position file (expedition/1).

    The position is a file, - (a file on standard input) or its one-line notation as --json prints it. For
    Elfenland, the planner's other game, use the elfenland command.

    \b
    Examples:
      expedition reach scenarios/expedition/01-spec-example.toml
      expedition reach scenarios/expedition/01-spec-example.toml --all --json
      expedition move scenarios/expedition/02-ticket-pays.toml --tickets 1
      expedition setup scenarios/expedition/04-setup.toml
      expedition move scenarios/expedition/01-spec-example.toml --svg move.svg --png move.png
    """


@cli.command(cls=PositionCommand, context_settings=CONTEXT)
@SOURCE
@click.option("--all", "every_green", is_flag=True, help="Every green location, not only my cards, the common "
              "objectives and the opponents' tokens.")
@pictures
@json_option
@handle_errors
def reach(source: str, every_green: bool, svg: str | None, png: str | None, as_json: bool) -> None:
    """Fewest arrows and turns for each expedition to each location, and which gets there first."""
    position = _read(source, svg, png)
    table = reach_table(position, reach_targets(position, every_green=every_green))
    lost = hopeless(position, table)
    if as_json:
        _echo(reach_dict(position, table, lost))
    else:
        out().print(reach_view(position, table, lost))
    _draw(position, svg, png, title=position.title)


@cli.command(cls=PositionCommand, context_settings=CONTEXT)
@SOURCE
@click.option("--tickets", type=click.IntRange(0, 2), default=2, show_default=True,
              help="Most tickets the move may spend.")
@click.option("--alternatives", type=click.IntRange(0, 20), default=4, show_default=True,
              help="How many alternatives (best moves of other first actions) to show.")
@click.option("--time-limit", "time_limit", type=SecondsType(), default=DEFAULT_MOVE_LIMIT.time, show_default=True,
              help="Search this long in all: an answer first, then the proof that it is the best.")
@click.option("--time", "old_time", type=SecondsType(), default=None, hidden=True,
              help="Deprecated name of --time-limit.")
@click.option("--answer-time", type=SecondsType(), default=DEFAULT_ANSWER_LIMIT.time, show_default=True,
              help="Time for the first answer (a widening beam), before the exhaustive search tries to prove it.")
@click.option("--nodes", type=click.IntRange(min=1), default=None,
              help="Budget both stages in worlds searched instead of seconds (the same answer on every machine).")
@pictures
@json_option
@handle_errors
def move(source: str, tickets: int, alternatives: int, time_limit: float, old_time: float | None,
         answer_time: float, nodes: int | None, svg: str | None, png: str | None, as_json: bool) -> None:
    """The best move of this turn: most points for me, then fewest for opponents, tickets and arrows.

    A beam over the turn's worlds answers within --answer-time; the exhaustive search then runs for the rest of
    --time-limit, and its move, when it finishes, is the proven best.
    """
    if old_time is not None:
        err().print(Text("note: --time is deprecated; say --time-limit", style="yellow"))
        time_limit = old_time
    position = _read(source, svg, png)
    if nodes:
        answer, limit = Limit(nodes=nodes), Limit(nodes=nodes)
    else:
        answer, limit = Limit(time=min(answer_time, time_limit)), Limit(time=time_limit)
    plural = "" if tickets == 1 else "s"
    with stop_on_ctrl_c() as stop, err().status(f"searching the turn's moves (at most {tickets} ticket{plural})…"):
        search = best_moves(position, tickets=tickets, alternatives=alternatives, answer=answer, limit=limit,
                            stop=stop)
    mine = reach_table(position, position.hand)
    changes = reach_change(position, search.best, before=mine)
    lost = hopeless(position, mine)
    if as_json:
        _echo(move_dict(position, search, changes, lost))
    else:
        out().print(move_view(search, changes, lost))
    _draw(position, svg, png, search.best.actions, title=f"best move: {search.best.points:+d}")
    if stop.is_set():
        sys.exit(EXIT_STOPPED)


@cli.command(cls=PositionCommand, context_settings=CONTEXT)
@SOURCE
@json_option
@handle_errors
def setup(source: str, as_json: bool) -> None:
    """Where to put my tokens: the cards of my hand that most routes from the start pass through."""
    position = _read(source)
    choices, to_place = setup_advice(position)
    if as_json:
        _echo(setup_dict(position, choices, to_place))
    else:
        out().print(setup_view(choices, to_place))
