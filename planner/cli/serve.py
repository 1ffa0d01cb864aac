"""``elfenland serve``: the table page for the phones around a physical table (a web server on the local network).

The web packages (Starlette, uvicorn, segno) are the optional ``table`` extra and are imported only here, when the
command runs, so ``elfenland route`` never pays for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    PositionCommand,
    WholeNumber,
    err,
    fail,
    handle_errors,
    limit_options,
    out,
)
from planner.cli.positions import overrides_from, position_options
from planner.common.limits import Limit
from planner.elfenland.solvers import SOLVERS
from planner.errors import UnsupportedError
from planner.table import PAGE_SAMPLES, PHASES

__all__ = ["serve", "this_machine_only", "where_to_open"]

TABLE_INSTALL_HINT = "pip install 'elfenland-planner[table]'"
DEFAULT_PORT = 8750


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on: 0.0.0.0 for the phones on the local network, 127.0.0.1 for this machine.")
@click.option("--port", type=WholeNumber(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port (0: any free port).")
@click.option("--no-token", is_flag=True, help="Open the table to anyone who can reach the port (no token in the "
                                               "URL).")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the table to this file after every change: a position file, or in game mode the game's "
                   "record (elfenland replay and review read it); an existing one is resumed (its link too: the "
                   "token is kept beside it, FILE.token).")
@click.option("--solver", type=click.Choice(SOLVERS), default="auto", show_default=True, help="Solver.")
@limit_options(default=20.0, time_help="Seconds per position before its best route so far is shown, unproven.",
               nodes_help="Search nodes per solve instead (no time limit unless --time-limit is given too).")
@click.option("--phase", type=click.Choice(PHASES), default="travel", show_default=True,
              help="The phase of the round the page starts in (a tap on the page switches it).")
@click.option("--samples", type=WholeNumber(10, 5000), default=PAGE_SAMPLES, show_default=True,
              help="Sampled hands per opponent for the obstacle advice (elfenland obstacle samples 200).")
@handle_errors
def serve(source: str | None, host: str, port: int, no_token: bool, save: Path | None, solver: str, limit: Limit,
          phase: str, samples: int, **kwargs: Any) -> None:
    """Serve the table page: the board on every phone at the table, the advice redrawn after every tap.

    The page switches between the phases of a round: draw (the counter to take), plan (the placement to make
    now, what each road of the plan risks, where the obstacle goes) and travel (the best route, what to keep).
    Its *game* mode follows a whole game turn by turn: the players in seat order, each one's draw, placement,
    pass and move one or two taps, your own turns advised; with --save the file holds the game's record, which
    elfenland replay and elfenland review read. Prints the page's URL and its QR code; phones on the same
    network open it (the URL carries a random token, so nobody else's phone can change the table). Ctrl-C stops
    the server.

    \b
    Examples:
      elfenland serve
      elfenland serve --save game.jsonl          # then "game" on the page; later: elfenland review game.jsonl
      elfenland serve scenarios/01-first-steps.toml --save table.toml
      elfenland serve "- ELV DDCURRPT - 1" --host 127.0.0.1 --port 0
      elfenland serve scenarios/21-contested-road.toml --phase plan
    """
    try:
        import segno

        from planner.table.server import TableServer, table_token
        from planner.table.session import Session
        from planner.table.state import open_table
    except ImportError as error:
        fail(UnsupportedError(f"the table page needs the optional web packages ({error.name} is missing): "
                              f"{TABLE_INSTALL_HINT}"))
    state, notes = open_table(source, overrides_from(kwargs), save=save, phase=phase)
    for note in notes:
        err().print(Text(note))
    with Session(state, solver=solver, limit=limit, samples=samples) as session:
        server = TableServer(session, host=host, port=port, token=None if no_token else table_token(save))
        url = server.url()
        out().print(Text(where_to_open(url, host)))
        if not this_machine_only(host):
            segno.make(url, error="m").terminal(compact=True)
        server.run()
    err().print(Text("table stopped" + (f"; it is saved in {save}" if save else "")))


def where_to_open(url: str, host: str) -> str:
    """The lines telling where the table page opens: on the phones (by the QR code), or, served on a loopback
    address no phone can reach, only on this machine, with the flag that would let the phones in."""
    if this_machine_only(host):
        return (f"The table is at {url}\nOnly this machine can open it: a phone cannot reach {host}. To open it on "
                "the phones at the table, serve with --host 0.0.0.0. Ctrl-C stops it.")
    return (f"The table is at {url}\nOpen it on a phone on the same network (scan the code), or on this machine. "
            "Ctrl-C stops it.")


def this_machine_only(host: str) -> bool:
    """Whether ``host`` is a loopback address (127.0.0.1, ::1, localhost), which no other device can reach."""
    import ipaddress

    if host.strip().lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
