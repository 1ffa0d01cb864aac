"""``expedition``: the assistant for Kramer's *Expeditions* (reach table, best move, token setup).

Thin glue: read a position (file, ``-``, or one-line notation), one library call, a rich table or JSON. Bad input
exits 2 with a message; Ctrl-C during a move search prints the best move so far and exits 130.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    EXIT_STOPPED,
    SecondsType,
    err,
    handle_errors,
    json_option,
    out,
    stop_on_ctrl_c,
)
from planner.common.limits import Limit
from planner.common.svg import check_picture_path, write_picture
from planner.expedition.advice import hopeless, reach_change, reach_targets, setup_advice
from planner.expedition.notation import Action
from planner.expedition.position import Position
from planner.expedition.position_file import read_position
from planner.expedition.reach import reach as reach_table
from planner.expedition.render import move_view, reach_view, setup_view
from planner.expedition.report import move_dict, reach_dict, setup_dict
from planner.expedition.search import DEFAULT_MOVE_LIMIT, best_moves

__all__ = ["cli"]

SOURCE = click.argument("source", metavar="POSITION_FILE|NOTATION|-")
SVG = click.option("--svg", "picture", metavar="FILE", default=None,
                   help="Also draw the world map with the paths and targets (.svg, or .png with cairosvg).")


def _echo(document: dict[str, Any]) -> None:
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))


def _read(source: str, picture: str | None = None) -> Position:
    if picture is not None:
        check_picture_path(picture)  # before any work: a bad picture path is bad input
    return read_position(source)


def _draw(position: Position, picture: str | None, actions: tuple[Action, ...] = (), title: str | None = None
          ) -> None:
    if picture is None:
        return
    from planner.expedition.svg import render_svg  # only a command that draws pays for the drawing code

    path = write_picture(render_svg(position, move=actions, title=title), picture)
    err().print(Text(f"drew {path}"))


@click.group(context_settings=CONTEXT)
def cli() -> None:
    """Expeditions (Kramer, 2023): reach table, best move and token setup for a position file (expedition/1).

    \b
    Examples:
      expedition reach scenarios/expedition/01-spec-example.toml
      expedition reach scenarios/expedition/01-spec-example.toml --all --json
      expedition move scenarios/expedition/02-ticket-pays.toml --tickets 1
      expedition setup scenarios/expedition/04-setup.toml
      expedition move scenarios/expedition/01-spec-example.toml --svg move.svg
    """


@cli.command(context_settings=CONTEXT)
@SOURCE
@click.option("--all", "every_green", is_flag=True, help="Every green location, not only my cards, the common "
              "objectives and the opponents' tokens.")
@SVG
@json_option
@handle_errors
def reach(source: str, every_green: bool, picture: str | None, as_json: bool) -> None:
    """Fewest arrows and turns for each expedition to each location, and which gets there first."""
    position = _read(source, picture)
    table = reach_table(position, reach_targets(position, every_green=every_green))
    lost = hopeless(position, table)
    if as_json:
        _echo(reach_dict(position, table, lost))
    else:
        out().print(reach_view(position, table, lost))
    _draw(position, picture, title=position.title)


@cli.command(context_settings=CONTEXT)
@SOURCE
@click.option("--tickets", type=click.IntRange(0, 2), default=2, show_default=True,
              help="Most tickets the move may spend.")
@click.option("--alternatives", type=click.IntRange(0, 20), default=4, show_default=True,
              help="How many alternatives (best moves of other first actions) to show.")
@click.option("--time", "time_limit", type=SecondsType(), default=DEFAULT_MOVE_LIMIT.time, show_default=True,
              help="Stop the search after this long and show the best move so far (marked not proven).")
@click.option("--nodes", type=click.IntRange(min=1), default=None,
              help="Stop after this many search nodes instead (the same answer on every machine).")
@SVG
@json_option
@handle_errors
def move(source: str, tickets: int, alternatives: int, time_limit: float, nodes: int | None, picture: str | None,
         as_json: bool) -> None:
    """The best move of this turn: most points for me, then fewest for opponents, tickets and arrows."""
    position = _read(source, picture)
    limit = Limit(nodes=nodes) if nodes else Limit(time=time_limit)
    plural = "" if tickets == 1 else "s"
    with stop_on_ctrl_c() as stop, err().status(f"searching the turn's moves (at most {tickets} ticket{plural})…"):
        search = best_moves(position, tickets=tickets, alternatives=alternatives, limit=limit, stop=stop)
    mine = reach_table(position, position.hand)
    changes = reach_change(position, search.best, before=mine)
    lost = hopeless(position, mine)
    if as_json:
        _echo(move_dict(position, search, changes, lost))
    else:
        out().print(move_view(search, changes, lost))
    _draw(position, picture, search.best.actions, title=f"best move: {search.best.points:+d}")
    if stop.is_set():
        sys.exit(EXIT_STOPPED)


@cli.command(context_settings=CONTEXT)
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
