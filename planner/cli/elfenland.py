"""``elfenland``, the :data:`cli` group: each command lives in a module of its own, and what they share (exit
codes, consoles, Ctrl-C, option types) in :mod:`planner.cli.conventions`."""

from __future__ import annotations

import click

from planner import __version__
from planner.cli import advise, board, check, game, route, serve, teach
from planner.cli.conventions import CONTEXT

__all__ = ["cli"]


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, "-V", "--version", prog_name="elfenland")
def cli() -> None:
    """Elfenland planner: the card-optimal route that collects the most new towns, proven optimal.

    \b
    Examples:
      elfenland route scenarios/01-first-steps.toml
      elfenland route --at elv --hand "D D C U R R P T" --tile "elv-lap P, lap-vir E" --visited riv
      elfenland check scenarios/01-first-steps.toml --route "lap/P vir/E"
      elfenland board dag
      elfenland serve --save table.toml
    """


for command in (route.route, check.check, advise.place, advise.draw, advise.obstacle, teach.explain, teach.puzzle,
                board.board, board.show, serve.serve, game.selfplay_command, game.replay,
                game.review, game.play):
    cli.add_command(command)
