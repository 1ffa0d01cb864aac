"""Enable ``python -m planner``."""

from planner.cli import cli

cli()
