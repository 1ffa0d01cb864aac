"""The planner's command lines: thin glue between the terminal and the library (parse, one call, render).

``elfenland`` is :mod:`planner.cli.elfenland`, ``expedition`` :mod:`planner.cli.expedition`. This package imports
neither, so that one game's command does not load the other's (``from planner.cli import cli`` still gives
``elfenland``'s group, loaded on first use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click

__all__ = ["cli"]


def __getattr__(name: str) -> click.Group:
    if name == "cli":
        from planner.cli.elfenland import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
