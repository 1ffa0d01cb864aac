"""``elfenland board`` and ``elfenland show``: the map as tables, and a position drawn without solving."""

from __future__ import annotations

import json
from typing import Any

import click

from planner.cli.conventions import CONTEXT, PositionCommand, handle_errors, json_option, out
from planner.cli.positions import overrides_from, position_options
from planner.cli.route import check_pictures, draw
from planner.elfenland import render, report
from planner.elfenland.board import load_board
from planner.elfenland.inputs import read_position
from planner.elfenland.notation import parse_town
from planner.elfenland.rules import Rules

__all__ = ["board", "show"]


@click.command(context_settings=CONTEXT)
@click.argument("town", required=False)
@json_option
@handle_errors
def board(town: str | None, as_json: bool) -> None:
    """List towns (with codes) and connections, or one town's links and what each transport costs there.

    \b
    Examples:
      elfenland board
      elfenland board dag
    """
    the_board = load_board()
    code = parse_town(town) if town else None
    if as_json:
        click.echo(json.dumps(report.board_dict(the_board, code), indent=2, ensure_ascii=False))
        return
    console = out()
    if code is not None:
        console.print(render.town_links_table(the_board, code, Rules()))
        return
    console.print(render.towns_table(the_board))
    console.print()
    console.print(render.connections_table(the_board))


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@click.option("--svg", type=click.Path(dir_okay=False), help="Write the picture to this SVG file.")
@click.option("--png", type=click.Path(dir_okay=False), help="Write the picture to this PNG file.")
@handle_errors
def show(source: str | None, svg: str | None, png: str | None, **kwargs: Any) -> None:
    """Draw the position alone (no solving), to check what was typed.

    \b
    Examples:
      elfenland show scenarios/01-first-steps.toml --svg position.svg
      elfenland show --at elv --hand DDC --tile "elv-lap P" --png position.png
    """
    if not svg and not png:
        raise click.UsageError("say where to draw: --svg FILE or --png FILE")
    check_pictures(svg, png)
    draw(read_position(source, overrides_from(kwargs)), (), svg, png)
