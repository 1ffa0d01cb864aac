"""``expedition``: the assistant for Kramer's *Expeditions* (reach table, best move, token setup).

Thin glue: read a position (file, ``-``, or one-line notation), one library call, a rich table or JSON. Bad input
exits 2 with a message (with ``--json`` also a JSON document naming the error and its problems); Ctrl-C during a
move search prints the best move so far and exits 130.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    Pictures,
    PlannerCliError,
    PositionCommand,
    SecondsType,
    SpeakingGroup,
    WholeNumber,
    answer,
    err,
    fail,
    json_option,
    limit_from,
    limit_options,
    picture_options,
    speaking,
    stop_on_ctrl_c,
)
from planner.common.i18n import gettext, ngettext
from planner.common.limits import Limit
from planner.common.problems import Problem, error_text
from planner.errors import PlannerError
from planner.expedition.advice import hopeless, reach_change, reach_targets, setup_advice
from planner.expedition.notation import Action
from planner.expedition.position import Position
from planner.expedition.position_file import read_position
from planner.expedition.reach import reach as reach_table
from planner.expedition.render import move_view, reach_view, setup_view
from planner.expedition.report import SCHEMA, move_dict, reach_dict, setup_dict
from planner.expedition.search import ANSWER_SECONDS, DEFAULT_ANSWER_LIMIT, DEFAULT_MOVE_LIMIT, best_moves

__all__ = ["cli"]

SOURCE = click.argument("source", metavar="POSITION_FILE|NOTATION|-")
MOVE_SECONDS = DEFAULT_MOVE_LIMIT.time or 1.0
"""The move search's default --time-limit."""
PICTURE = "the world map with the paths and targets"


def move_limit_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--time-limit`` and ``--nodes`` as both games spell them (:func:`limit_options`), given as ``limit``."""
    return limit_options(default=MOVE_SECONDS,
                         time_help="Search this long in all: an answer first, then the proof that it is the best.",
                         nodes_help="Budget in worlds searched instead of seconds: N for each beam (one per "
                                    "ticket count up to --tickets; with 1 ticket, 1.5 N and N more for the beams "
                                    "that start by removing an arrow) and N for the proof in all (the same answer "
                                    "on every machine).")(func)


def handle_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """A planner error ends the command with its message and exit code; with ``--json`` a JSON document
    ``{"schema", "error", "problems"}`` goes to standard output first, so a tool reading it gets JSON either way."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except PlannerError as error:
            if kwargs.get("as_json"):
                answer(error_dict(error), as_json=True, last=False)
            fail(error)
        except PlannerCliError as error:  # a shared option's check (a bad picture path) ended the command first
            if kwargs.get("as_json"):
                answer({"schema": SCHEMA, "error": error.message}, as_json=True, last=False)
            raise

    return wrapper


def error_dict(error: PlannerError) -> dict[str, Any]:
    """The JSON document of a command that failed: the message and, when the error lists them, its problems."""
    document: dict[str, Any] = {"schema": SCHEMA, "error": error_text(error)}
    problems: list[Problem] | None = getattr(error, "problems", None)
    if problems:
        document["problems"] = [p.as_dict() for p in problems]
    return document


def _picture(position: Position, actions: tuple[Action, ...] = (), title: str | None = None) -> Callable[[], str]:
    """The world map to draw, made only when a picture is asked for."""
    def draw() -> str:
        from planner.expedition.svg import render_svg  # only a command that draws pays for the drawing code

        return render_svg(position, move=actions, title=title)

    return draw


@click.group(cls=SpeakingGroup, context_settings=CONTEXT)
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
@handle_errors
@SOURCE
@click.option("--all", "every_green", is_flag=True, help="Every green location, not only my cards, the common "
              "objectives and the opponents' tokens.")
@picture_options(PICTURE)
@json_option
def reach(source: str, every_green: bool, pictures: Pictures, as_json: bool) -> None:
    """Fewest arrows and turns for each expedition to each location, and which gets there first."""
    position = read_position(source)
    table = reach_table(position, reach_targets(position, every_green=every_green))
    lost = hopeless(position, table)
    answer(reach_dict(position, table, lost) if as_json else None,
           None if as_json else reach_view(position, table, lost), as_json=as_json, pictures=pictures,
           picture=_picture(position, title=position.title))


@cli.command(cls=PositionCommand, context_settings=CONTEXT)
@handle_errors
@SOURCE
@click.option("--tickets", type=WholeNumber(0, 2), default=2, show_default=True,
              help="Most tickets the move may spend.")
@click.option("--alternatives", type=WholeNumber(0, 20), default=4, show_default=True,
              help="How many alternatives (best moves of other first actions) to show.")
@move_limit_options
@click.option("--time", "old_time", type=SecondsType(), default=None, hidden=True,
              help="Deprecated name of --time-limit.")
@click.option("--answer-time", type=SecondsType(), default=None,
              help="Time for the first answer (widening beams), before the exhaustive search tries to prove it "
                   f"[default: a fixed count of worlds per beam, about {ANSWER_SECONDS:g} s, so that more tickets "
                   "never answer fewer points].")
@picture_options(PICTURE)
@json_option
def move(source: str, tickets: int, alternatives: int, limit: Limit, old_time: float | None,
         answer_time: float | None, pictures: Pictures, as_json: bool) -> None:
    """The best move of this turn: most points for me, then fewest for opponents, tickets and arrows.

    Beams over the turn's worlds answer first (--answer-time); the exhaustive search then runs for the rest of
    --time-limit, and its move, when it finishes, is the proven best.
    """
    notes: list[Text] = []
    if old_time is not None:
        notes.append(Text(gettext("note: --time is deprecated; say --time-limit"), style="yellow"))
        limit = limit_from(old_time, limit.nodes, default=MOVE_SECONDS)
    position = read_position(source)
    first = _answer_limit(limit, answer_time)
    searching = ngettext("searching the turn's moves (at most {n} ticket)…",
                         "searching the turn's moves (at most {n} tickets)…", tickets).format(n=tickets)
    with stop_on_ctrl_c() as stop, err().status(searching):
        search = best_moves(position, tickets=tickets, alternatives=alternatives, answer=first, limit=limit,
                            stop=stop)
    if search.cut_short:
        notes.append(Text(gettext("note: the machine was too slow for the answer's worlds; the clock ended the answer "
                                  "early (more tickets may then answer fewer points)"), style="yellow"))
    mine = reach_table(position, position.hand)
    changes = reach_change(position, search.best, before=mine)
    lost = hopeless(position, mine)
    answer(move_dict(position, search, changes, lost) if as_json else None,
           None if as_json else move_view(search, changes, lost), as_json=as_json, notes=notes, pictures=pictures,
           picture=_picture(position, search.best.actions, title=f"best move: {search.best.points:+d}"),
           stopped=stop.is_set())


def _answer_limit(limit: Limit, answer_time: float | None) -> Limit:
    """The beams' budget: ``--nodes`` budgets them in worlds too; ``--answer-time`` in seconds (at most the
    time limit); else the default count of worlds per beam, its safety clock at most the time limit."""
    if limit.nodes is not None or limit.time is None:
        return Limit(nodes=limit.nodes)
    if answer_time is not None:
        return Limit(time=min(answer_time, limit.time))
    safety = DEFAULT_ANSWER_LIMIT.time or limit.time
    return Limit(time=min(safety, limit.time), nodes=DEFAULT_ANSWER_LIMIT.nodes)


@cli.command(cls=PositionCommand, context_settings=CONTEXT)
@SOURCE
@json_option
@handle_errors
def setup(source: str, as_json: bool) -> None:
    """Where to put my tokens: the cards of my hand that most routes from the start pass through."""
    position = read_position(source)
    choices, to_place = setup_advice(position)
    answer(setup_dict(position, choices, to_place) if as_json else None,
           None if as_json else setup_view(choices, to_place), as_json=as_json)


speaking(cli)  # expedition --lang ru move ... as well as expedition move --lang ru ...
