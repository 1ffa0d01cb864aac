"""``elfenland``, the :data:`cli` group: each command lives in a module of its own, and what they share (exit
codes, consoles, Ctrl-C, option types, the one way an answer is printed) in :mod:`planner.cli.conventions`.

A command's module is imported when the command runs (or its help is shown), not when the group loads, so that
``elfenland route`` does not pay for the advisor's, the trainer's or the table page's modules.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator, MutableMapping

import click

from planner import __version__
from planner.cli.conventions import CONTEXT, SpeakingGroup, speaking

__all__ = ["cli"]

COMMANDS = {
    "route": "route:route", "check": "check:check", "place": "advise:place", "draw": "advise:draw",
    "obstacle": "advise:obstacle", "explain": "teach:explain", "puzzle": "teach:puzzle", "board": "board:board",
    "show": "board:show", "serve": "serve:serve", "selfplay": "game:selfplay_command", "replay": "game:replay",
    "review": "game:review", "play": "game:play",
}
"""Each command and where it lives: ``module:name`` in :mod:`planner.cli`."""


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's commands by name, each imported from its module on first use (a plain dict to click)."""

    def __init__(self, where: dict[str, str]) -> None:
        self._where = dict(where)
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            module, attribute = self._where[name].split(":")
            self._loaded[name] = getattr(importlib.import_module(f"planner.cli.{module}"), attribute)
            _start_up_done()
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command
        self._where.setdefault(name, "")

    def __delitem__(self, name: str) -> None:
        del self._where[name]
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


_frozen = False


def _start_up_done() -> None:
    """Once a process has loaded its first command: leave what start-up built out of every later garbage collection.

    The modules, classes and tables imported so far live as long as the process, yet each full collection (one
    during a command, and the interpreter's last at exit) walked all of them again: about 26 M instructions of
    ``elfenland route``'s 460 M. :func:`gc.freeze` moves them to the permanent generation; once a process, so that a
    process running many commands (the tests) keeps no more than the garbage of that one moment.
    """
    global _frozen
    if not _frozen:
        _frozen = True
        gc.freeze()


@click.group(cls=SpeakingGroup, context_settings=CONTEXT, commands=LazyCommands(COMMANDS))
@click.version_option(__version__, "-V", "--version", prog_name="elfenland")
def cli() -> None:
    """Elfenland planner: the card-optimal route that collects the most new towns, proven optimal.

    Kramer's Expeditions has a command of its own: expedition --help.

    \b
    Examples:
      elfenland route scenarios/01-first-steps.toml
      elfenland route --at elv --hand "D D C U R R P T" --tile "elv-lap P, lap-vir E" --visited riv
      elfenland check scenarios/01-first-steps.toml --route "lap/P vir/E"
      elfenland board dag
      elfenland serve --save table.toml
      expedition move scenarios/expedition/01-spec-example.toml
    """


speaking(cli)  # elfenland --lang uk route ... as well as elfenland route --lang uk ...
