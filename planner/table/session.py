"""One table in a running server: its state, the solver thread that re-solves every change, and who is watching.

- Changes are applied one at a time under a lock, whichever phone sends them.
- Each change wakes the solver thread and stops the solve still running for an older position (it ends within
  a few hundredths of a second); only the newest position's answer is ever shown.
- Every page watching the table gets each new view (the position at once, then its route and map) through a
  listener, which the web app turns into server-sent events.
- At start, after the first solve, the thread imports OR-Tools while nothing else runs, so the first hard position
  a player meets does not pay the half second.

Library code: nothing here knows about HTTP; the app (:mod:`planner.table.app`) and the tests drive it directly.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from planner.common.limits import Limit
from planner.elfenland.position import Position
from planner.elfenland.solvers import solve
from planner.elfenland.svg import render_svg
from planner.errors import PlannerError
from planner.table.state import Applied, TableState
from planner.table.views import position_document, solution_document

__all__ = ["INTERIM_AFTER", "TABLE_LIMIT", "Session"]

logger = logging.getLogger(__name__)

TABLE_LIMIT = Limit(time=20.0)
"""How long one position is solved before its best route so far is shown as unproven."""
INTERIM_AFTER = 0.25
"""Seconds a solve may run before the map is redrawn without a route, so the change shows while it goes on."""

Listener = Callable[[str], None]


class Session:
    """A table: call :meth:`start` once, :meth:`change` per tap, :meth:`close` at the end (or use ``with``)."""

    def __init__(self, state: TableState, *, solver: str = "auto", limit: Limit = TABLE_LIMIT,
                 warm_up: bool = True) -> None:
        self.state = state
        self.solver = solver
        self.limit = limit
        self.warm_up = warm_up
        self._lock = threading.Condition()
        self._listeners: list[Listener] = []
        self._running_stop: threading.Event | None = None
        self._solved = 0  # the version whose final view is out
        self._save_error: str | None = None
        self._view: dict[str, Any] = {}
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="table-solver", daemon=True)
        with self._lock:
            self._publish(self._state_view(svg=None))

    def __enter__(self) -> Session:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the solver thread (it solves the first position at once)."""
        self._thread.start()

    def close(self) -> None:
        """Stop the solve and the thread, and wait for it (a CP-SAT solve must not outlive the process)."""
        with self._lock:
            self._closed = True
            if self._running_stop is not None:
                self._running_stop.set()
            self._lock.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    # -- what pages call ------------------------------------------------------------------------------------------
    def change(self, data: Any) -> tuple[Applied, dict[str, Any]]:
        """Make a page's change (parsed JSON); the outcome and the view right after it (route still to come)."""
        with self._lock:
            before = self.state.version
            try:
                applied = self.state.apply(data)
                self._save_error = None
            except PlannerError as error:  # the save file could not be written; the change itself was made
                self._save_error = str(error)
                applied = Applied(self.state.version)
            if self.state.version != before:
                if self._running_stop is not None:
                    self._running_stop.set()  # an older position's solve: its answer would be stale
                keep_map = self._view.get("svg")
                self._publish(self._state_view(svg=keep_map, stale=True))
                self._lock.notify_all()
            return applied, self._view

    def view(self) -> dict[str, Any]:
        """The latest view: the position, and its route and map once solved."""
        with self._lock:
            return self._view

    def wait_solved(self, version: int, timeout: float) -> dict[str, Any]:
        """The view once ``version`` (or a newer one) is solved, or the latest view after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._solved < version and self.state.version == version and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            return self._view

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with each new view as JSON text (from the solver's thread or a page's)."""
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    # -- views ----------------------------------------------------------------------------------------------------
    def _state_view(self, *, svg: str | None, stale: bool = False, solution: dict[str, Any] | None = None,
                    error: str | None = None) -> dict[str, Any]:
        state = self.state
        return {
            "version": state.version,
            "position": position_document(state.position),
            "can_undo": state.can_undo,
            "can_redo": state.can_redo,
            "alternatives": state.alternatives,
            "solving": solution is None and error is None,
            "solution": solution,
            "error": error,
            "save": str(state.save) if state.save else None,
            "save_error": self._save_error,
            "stale_map": stale,
            "svg": svg,
        }

    def _publish(self, view: dict[str, Any]) -> None:
        """Make ``view`` the latest and send it to every listener (called with the lock held)."""
        self._view = view
        text = json.dumps(view, ensure_ascii=False)
        for listener in list(self._listeners):
            try:
                listener(text)
            except Exception:  # a page that went away must not stop the table
                logger.exception("a table listener failed")
        self._lock.notify_all()

    # -- the solver thread ----------------------------------------------------------------------------------------
    def _run(self) -> None:
        warmed = not self.warm_up
        while True:
            with self._lock:
                while not self._closed and self._solved >= self.state.version and warmed:
                    self._lock.wait()
                if self._closed:
                    return
                version = self.state.version
                if self._solved >= version:
                    position, alternatives, stop = None, 1, None
                else:
                    position, alternatives = self.state.position, self.state.alternatives
                    stop = self._running_stop = threading.Event()
            if position is None:
                self._warm()
                warmed = True
                continue
            assert stop is not None
            view = self._solve(version, position, alternatives, stop)
            with self._lock:
                self._running_stop = None
                if version == self.state.version and view is not None:
                    self._solved = version
                    self._publish(view)

    def _warm(self) -> None:
        started = time.perf_counter()
        try:
            from planner.elfenland.solvers.cpsat import load_ortools

            load_ortools()
            logger.info("OR-Tools loaded in %.2f s", time.perf_counter() - started)
        except Exception:  # without OR-Tools the search still answers; the solve says what is missing
            logger.exception("could not load OR-Tools")

    def _solve(self, version: int, position: Position, alternatives: int,
               stop: threading.Event) -> dict[str, Any] | None:
        """The final view of one position, or None when a newer change stopped the solve."""
        interim = threading.Timer(INTERIM_AFTER, self._interim, (version, position))
        interim.daemon = True
        interim.start()
        try:
            solution = solve(position, solver=self.solver, alternatives=alternatives, limit=self.limit, stop=stop)
            if self._closed or version != self.state.version:
                return None  # stopped for a newer position (or the end): nobody will see this answer
            svg = render_svg(position, solution.plans, board_only=True)  # outside the lock: changes go on
            with self._lock:
                return self._state_view(svg=svg, solution=solution_document(solution))
        except PlannerError as error:
            return self._failed(position, str(error))
        except Exception as error:  # a bug: say so on the page and keep the table running
            logger.exception("solving %s failed", position)
            return self._failed(position, f"internal error while solving ({type(error).__name__}: {error})")
        finally:
            interim.cancel()

    def _failed(self, position: Position, message: str) -> dict[str, Any]:
        try:
            svg: str | None = render_svg(position, board_only=True)
        except PlannerError:
            svg = None
        with self._lock:
            return self._state_view(svg=svg, error=message)

    def _interim(self, version: int, position: Position) -> None:
        """The map of a position whose solve is taking a while: its counters now, its route later."""
        svg = render_svg(position, board_only=True)
        with self._lock:
            if self.state.version == version and self._solved < version:
                self._publish(self._state_view(svg=svg))

