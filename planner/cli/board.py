"""``elfenland board`` and ``elfenland show``: the map as tables, and a position drawn without solving."""

from __future__ import annotations

from typing import Any

import click
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    Pictures,
    PositionCommand,
    answer,
    handle_errors,
    json_option,
    picture_options,
)
from planner.cli.positions import overrides_from, picture_of, position_options
from planner.common.i18n import gettext
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
    views = [render.town_links_table(the_board, code, Rules())] if code is not None else [
        render.towns_table(the_board), Text(""), render.connections_table(the_board)]
    answer(report.board_dict(the_board, code), *views, as_json=as_json)


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@picture_options("the position")
@handle_errors
def show(source: str | None, pictures: Pictures, **kwargs: Any) -> None:
    """Draw the position alone (no solving), to check what was typed.

    \b
    Examples:
      elfenland show scenarios/01-first-steps.toml --svg position.svg
      elfenland show --at elv --hand DDC --tile "elv-lap P" --png position.png
    """
    if not pictures:
        raise click.UsageError(gettext("say where to draw: --svg FILE or --png FILE"))
    pictures.draw(picture_of(read_position(source, overrides_from(kwargs))))
