"""The table page: ``elfenland serve`` puts the board on the phones at a physical table.

- :mod:`planner.table.changes` reads a page's change (JSON) and applies it to a position, and
  :mod:`planner.table.rounds` holds the changes of the drawing and planning phases;
- :mod:`planner.table.state` keeps the table's position, its undo history and the save file;
- :mod:`planner.table.game` is the game mode: the game played at the table, one tap an action, on the engine's
  rules (:mod:`planner.elfenland.game.table`);
- :mod:`planner.table.advising` works out each phase's advice, and :mod:`planner.table.session` does it for every
  change in worker threads and tells every watching page;
- :mod:`planner.table.views` builds the JSON documents the page reads;
- :mod:`planner.table.app` is the web app (Starlette, only imported by ``serve``), with the page in ``static/``.

Everything here but the app is plain library code with no web import, so it is tested without a server.

This package's own namespace holds only the constants ``elfenland serve`` needs for its options, so that the
command line can name them without importing the table (``elfenland route`` must stay quick).
"""

__all__ = ["PAGE_SAMPLES", "PHASES"]

PHASES = ("draw", "plan", "travel")
"""The phases of a round the page advises on, in the order they are played."""
PAGE_SAMPLES = 100
"""Sampled opponent hands for the obstacle advice on the page: half the command line's 200, so that the plan
phase answers within a few tenths of a second (the page says so)."""
