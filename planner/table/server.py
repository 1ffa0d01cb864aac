"""The table's HTTP server: uvicorn serving the app on a socket bound before it starts, in this thread or another.

Binding first means a port already in use is a clear error before anything else runs, and port 0 (any free port)
still tells its number for the URL. Shutting down ends the open event streams, which would otherwise hold uvicorn
until its graceful-shutdown timeout.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import signal
import socket
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import uvicorn

from planner.common.files import write_atomically
from planner.errors import UnsupportedError
from planner.table.app import TableApp, create_app
from planner.table.session import Session

__all__ = ["TableServer", "lan_address", "new_token", "table_token", "token_file"]

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")


def new_token() -> str:
    """A random token for the table's URL (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def token_file(save: Path) -> Path:
    """Where a saved table keeps its token: beside the save file, ``table.toml`` -> ``table.toml.token``."""
    return save.with_name(save.name + ".token")


def table_token(save: Path | None) -> str:
    """The token of a table: a new one, or with a save file the one kept beside it (made and kept, 0600, the first
    time), so that a restarted server lets every phone that had the table's link back in.

    Raises:
        UnsupportedError: the token file is not a regular file, or cannot be read or written.
    """
    if save is None:
        return new_token()
    path = token_file(save)
    try:
        if path.exists():
            if not stat.S_ISREG(path.stat().st_mode):
                raise UnsupportedError(f"{path} (the table's token) is not a regular file: remove it or save the "
                                       "table elsewhere")
            kept = path.read_text(encoding="utf-8").strip()
            if _TOKEN.fullmatch(kept):
                return kept
        token = new_token()
        write_atomically(path, token + "\n")
    except (OSError, UnicodeDecodeError) as error:
        raise UnsupportedError(f"cannot keep the table's token in {path}: {getattr(error, 'strerror', None) or error}"
                               ) from None
    return token


def lan_address() -> str | None:
    """This machine's address on the local network as its own name resolves it, if that is not a loopback one.

    Looked up, never probed: no packet leaves the machine.
    """
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    addresses = [str(info[4][0]) for info in infos]
    return next((a for a in addresses if not a.startswith("127.")), None)


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: TableApp) -> None:
        super().__init__(config)
        self.table_app = app

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Ctrl-C and SIGTERM end the server gracefully, and then the command returns (uvicorn's own handler raises
        the signal again after shutting down, which would kill the process before the solver thread is stopped)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.table_app.end_streams()
        super().handle_exit(sig, frame)


class TableServer:
    """One table served on ``host:port`` (port 0: any free port).

    Raises:
        UnsupportedError: the address cannot be bound (in use, or not an address of this machine).
    """

    def __init__(self, session: Session, *, host: str = "127.0.0.1", port: int = 0, token: str | None) -> None:
        self.session = session
        self.host = host
        self.token = token
        self.app = create_app(session, token=token)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.socket.bind((host, port))
            self.socket.listen(128)  # phones that connect before uvicorn has started wait in the backlog
        except OSError as error:
            self.socket.close()
            raise UnsupportedError(f"cannot serve on {host}:{port}: {error.strerror or error}") from None
        self.port: int = self.socket.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=2)
        self.server = _Server(config, self.app)
        self._thread: threading.Thread | None = None

    def url(self, host: str | None = None) -> str:
        """The page's address on ``host`` (default: the bound host, or this machine's LAN address for 0.0.0.0),
        with the token."""
        wildcard = self.host in ("0.0.0.0", "::")
        shown = host or ((lan_address() or "127.0.0.1") if wildcard else self.host)
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{self.port}/" + (f"?t={self.token}" if self.token else "")

    def run(self) -> None:
        """Serve in this thread until Ctrl-C (or :meth:`stop` from another thread)."""
        try:
            self.server.run(sockets=[self.socket])
        finally:
            self.socket.close()

    def start(self) -> TableServer:
        """Serve in a background thread; returns once the server accepts connections."""
        self._thread = threading.Thread(target=self.run, name="table-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise UnsupportedError(f"the table server on port {self.port} did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """End the event streams and the server, and wait for its thread."""
        self.app.end_streams()
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
