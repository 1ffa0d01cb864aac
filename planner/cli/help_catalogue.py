"""The help texts of both console commands, as gettext messages: a Babel extractor (``babel.cfg``) and a list.

A command's help is its docstring (or ``help=``), its options' ``help=`` and its epilog; click renders them, and
:class:`planner.cli.conventions.SpeakingCommand` translates them as it does. They are not calls of ``gettext``
in the source (a docstring cannot be one, and many are built with f-strings from shared option helpers), so
they are extracted the way click sees them: by loading both groups and walking every command, which gives
exactly the text the help looks up (cleaned of the docstring's indentation). Only extraction and the tests
import this module, never a command.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator
from typing import Any

import click

__all__ = ["CLICKS_OWN", "commands", "extract", "help_texts"]

CLICKS_OWN = frozenset({"Show the version and exit.", "Show this message and exit."})
"""Help texts that are click's words (``--version``, ``--help``), in the ``click`` catalogue instead."""


def commands() -> Iterator[tuple[str, click.Command]]:
    """Every command of ``elfenland`` and ``expedition`` (the groups too), as its command line names it."""
    from planner.cli.elfenland import cli as elfenland
    from planner.cli.expedition import cli as expedition

    def walk(name: str, command: click.Command) -> Iterator[tuple[str, click.Command]]:
        yield name, command
        if isinstance(command, click.Group):
            for sub in sorted(command.commands):
                yield from walk(f"{name} {sub}", command.commands[sub])

    yield from walk("elfenland", elfenland)
    yield from walk("expedition", expedition)


def _texts(command: click.Command) -> Iterator[tuple[str, str]]:
    for what, text in (("help", command.help), ("short help", command.short_help), ("epilog", command.epilog)):
        if text:
            yield what, inspect.cleandoc(text)
    for param in command.params:
        if isinstance(param, click.Option) and param.help and not param.hidden:
            yield f"help of {param.opts[-1]}", inspect.cleandoc(param.help)


def help_texts() -> dict[str, list[str]]:
    """Each help text of both commands, and where it shows (``elfenland route: help of --hand``)."""
    found: dict[str, list[str]] = {}
    for name, command in commands():
        for what, text in _texts(command):
            if text not in CLICKS_OWN:
                found.setdefault(text, []).append(f"{name}: {what}")
    return found


def extract(fileobj: Any, keywords: Iterable[str], comment_tags: Iterable[str], options: dict[str, Any]
            ) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction method (``[planner.cli.help_catalogue.extract: planner/cli/help_catalogue.py]``): every
    help text, with where it shows as the translator's comment; the file named is only the map's anchor."""
    for line, (text, places) in enumerate(sorted(help_texts().items()), start=1):
        yield line, None, text, [f"--help: {'; '.join(places)}"]
