"""Independent work as Ray tasks on a cluster, in order, stoppable: what the optional ``cluster`` extra adds.

:func:`connect` reaches a Ray cluster (``auto``: the one running here or named by ``RAY_ADDRESS``; ``local``: a
new one on this machine for the run; ``HOST:PORT``: a cluster's head; ``ray://HOST:PORT``: through Ray Client,
which needs ``ray[client]``), and :meth:`Cluster.map` runs ``fn(item, None)`` for each item as a Ray task and
yields the results in the items' order, like :func:`~planner.common.processes.ordered_map` does with processes.
So work whose result depends only on its item (a seeded game) gives the same results on a cluster as here.

Ray is imported only inside :func:`connect`: without the extra, every other path works and this one says how to
install it. Everything that can go wrong before the work starts (Ray missing, an address that is no address or at
which nothing answers) is an :class:`~planner.errors.UnsupportedError` with a hint, raised by :func:`connect`
before any work, so a command fails at once and writes nothing.
"""

from __future__ import annotations

import logging
import re
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

from planner.common.limits import StopLike
from planner.common.threads import POLL
from planner.errors import PlannerError, UnsupportedError

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["CLUSTER_INSTALL_HINT", "CONNECT_SECONDS", "Cluster", "check_address", "connect"]

CLUSTER_INSTALL_HINT = "pip install 'elfenland-planner[cluster]'"
CONNECT_SECONDS = 5.0
"""How long a cluster's head may take to accept a connection before its address counts as dead (Ray itself would
try for minutes)."""

AHEAD = 2
"""Tasks submitted per CPU of the cluster ahead of the one awaited: enough to keep every CPU busy, few enough that
a stop has little to cancel and the results waiting in order stay few."""

_ADDRESS = re.compile(r"(?P<scheme>ray://)?(?P<host>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):(?P<port>\d{1,5})")


def check_address(address: str) -> tuple[str, int] | None:
    """The host and port that ``address`` names (``None`` for ``auto`` and ``local``, which name none).

    Raises:
        UnsupportedError: ``address`` is none of ``auto``, ``local``, ``HOST:PORT``, ``ray://HOST:PORT``.
    """
    if address in ("auto", "local"):
        return None
    found = _ADDRESS.fullmatch(address)
    if found is None or not 0 < int(found["port"]) < 65536:
        raise UnsupportedError(f"{address!r} is no Ray address; give 'auto' (the cluster running here), 'local' "
                               "(start one for this run), HOST:PORT of the head, or ray://HOST:PORT")
    return found["host"].strip("[]"), int(found["port"])


def _answers(address: str, host: str, port: int) -> None:
    """Raise unless something accepts a connection at ``host:port`` within :data:`CONNECT_SECONDS`."""
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            pass
    except OSError as error:
        reason = "no answer" if isinstance(error, TimeoutError) else (error.strerror or str(error)).lower()
        raise UnsupportedError(f"no Ray cluster answers at {address!r} ({reason}); start one with 'ray start "
                               "--head' and give the address it prints, or use --ray local") from error


def connect(address: str) -> Cluster:
    """A connection to the Ray cluster at ``address`` (see the module docstring); a Ray this process is already
    connected to is used as it is, and left connected.

    Raises:
        UnsupportedError: Ray is not installed (the message gives :data:`CLUSTER_INSTALL_HINT`), the address is
            malformed, nothing answers there, or Ray refuses the connection.
    """
    target = check_address(address)
    try:
        import ray
    except ImportError as error:
        raise UnsupportedError(f"--ray needs the optional Ray package: {CLUSTER_INSTALL_HINT}") from error
    if ray.is_initialized():
        return Cluster(ray, owned=False)
    if target is not None:
        _answers(address, *target)
    try:
        ray.init(address=address, include_dashboard=False if address == "local" else None,
                 logging_level=logging.WARNING)
    except ConnectionError as error:
        if address != "auto":
            raise UnsupportedError(f"cannot connect to the Ray cluster at {address!r}: {error}") from error
        raise UnsupportedError("no Ray cluster runs here for --ray auto to find; start one with 'ray start --head' "
                               "(or set RAY_ADDRESS to a cluster's address), or use --ray local") from error
    except (ValueError, RuntimeError) as error:
        raise UnsupportedError(f"cannot connect to the Ray cluster at {address!r}: {error}") from error
    return Cluster(ray, owned=True)


def _result(ray: Any, ref: Any) -> Any:
    """The task's result; a task that failed on the cluster (most often a node without the planner, or another
    version of it) is an :class:`~planner.errors.UnsupportedError` naming the cause, not Ray's traceback."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayError as error:
        cause = getattr(error, "cause", None)  # what the task raised, if Ray could carry it back
        if isinstance(cause, PlannerError):
            raise cause from None  # the planner's own error (a bot's, say), as it would be raised here
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        cause = lines[-1] if lines else type(error).__name__
        raise UnsupportedError(f"a game failed on the Ray cluster ({cause}); every node needs this same planner "
                               "installed (pip install 'elfenland-planner[cluster]' of this version)") from error


class Cluster:
    """A connected Ray: :meth:`map` runs work on it; :meth:`close` (or leaving a ``with`` block) disconnects,
    and shuts down a ``local`` cluster, if :func:`connect` connected."""

    def __init__(self, ray: Any, *, owned: bool) -> None:
        self._ray = ray
        self._owned = owned

    @property
    def cpus(self) -> int:
        """The cluster's CPUs (at least 1)."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def map(self, fn: Callable[[T, StopLike | None], R], items: Iterable[T], *,
            stop: StopLike | None = None) -> Iterator[R]:
        """``fn(item, None)`` for each item as a Ray task, the results in the items' order; when ``stop`` is set
        the tasks not finished are cancelled and nothing more is yielded. ``fn`` must be a module-level function
        of a module every node can import, the items picklable."""
        ray = self._ray
        task = ray.remote(fn)
        todo = iter(items)
        pending: deque[Any] = deque()
        ahead = AHEAD * self.cpus
        try:
            while True:
                while len(pending) < ahead and (item := next(todo, _END)) is not _END:
                    pending.append(task.remote(item, None))
                if not pending:
                    return
                while not ray.wait([pending[0]], timeout=POLL * 5)[0]:
                    if stop is not None and stop.is_set():
                        return
                if stop is not None and stop.is_set():
                    return
                yield _result(ray, pending.popleft())
        finally:
            for ref in pending:  # stopped, or the caller closed the iterator early
                ray.cancel(ref)

    def close(self) -> None:
        """Disconnect if :func:`connect` connected (a ``local`` cluster ends with it)."""
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
        self._owned = False

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


_END: Any = object()
