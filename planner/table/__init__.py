"""The table page: ``elfenland serve`` puts the board on the phones at a physical table.

- :mod:`planner.table.changes` reads a page's change (JSON) and applies it to a position;
- :mod:`planner.table.state` keeps the table's position, its undo history and the save file;
- :mod:`planner.table.session` re-solves every change in a worker thread and tells every watching page;
- :mod:`planner.table.views` builds the JSON documents the page reads;
- :mod:`planner.table.app` is the web app (Starlette, only imported by ``serve``), with the page in ``static/``.

Everything here but the app is plain library code with no web import, so it is tested without a server.
"""
