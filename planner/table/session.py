"""One table in a running server: its state, the threads that work out every change's advice, and who is watching.

- Changes are applied one at a time under a lock, whichever phone sends them.
- Each change wakes the solver thread and stops the work still running for an older position (it ends within a
  few hundredths of a second); only the newest position's answer is ever shown.
- The solver thread works out the first stage of the table's phase (:func:`~planner.table.advising.first_stage`:
  the counter to draw, the placement to make now, or the route). The later advice (the obstacle, what to keep,
  then the explanation of the route) goes to a second thread, the advisor thread, which takes only the newest
  request and publishes each part as it comes: a change never waits for it, and a stale answer is dropped.
- Every page watching the table gets each new view (the position at once, then its advice and map, then the
  later advice) through a listener, which the web app turns into server-sent events.
- The advice is worked out once, in no language: its words are said in each phone's own (the language a page's
  request or listener asks for, else the table's), once per language and view (:mod:`planner.table.localized`).
  A change is read and refused in the language of the phone that sent it.
- At start, after the first solve, the solver thread imports OR-Tools while nothing else runs, so the first hard
  position a player meets does not pay the half second.

Library code: nothing here knows about HTTP; the app (:mod:`planner.table.app`) and the tests drive it directly.
"""

from __future__ import annotations

import contextvars
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from planner.common import i18n
from planner.common.limits import Limit
from planner.elfenland.plan import Step
from planner.elfenland.position import Position
from planner.elfenland.svg import render_svg
from planner.errors import PlannerError
from planner.table import PAGE_SAMPLES
from planner.table.advising import TABLE_LIMIT, Later, Settings, Stage, Superseded, first_stage, later_stage
from planner.table.localized import Localized, merged, said_in
from planner.table.state import Applied, TableState
from planner.table.texts import tt
from planner.table.views import position_document

__all__ = ["INTERIM_AFTER", "LATER_KEPT", "TABLE_LIMIT", "Session"]

logger = logging.getLogger(__name__)

INTERIM_AFTER = 0.25
"""Seconds a solve may run before the map is redrawn without a route, so the change shows while it goes on."""
LATER_KEPT = 16
"""Later advice kept per (kind, position, my route): a change that leaves the position as it was (my own route,
the phase, undo back to it) does not sample its keep advice again (the advice is seeded: the same answer)."""

Listener = Callable[[str], None]
Said = tuple[dict[str, Any], str | None]
"""A view said in one language, and its JSON text once asked for."""


class Session:
    """A table: call :meth:`start` once, :meth:`change` per tap, :meth:`close` at the end (or use ``with``).

    ``samples`` is the obstacle advice's sampled hands per opponent. ``lang`` is the table's language (default: the
    one spoken where the session is made, ``serve --lang``): the words of a view asked for in no language. The
    advice of every view is worked out once, in the session's own threads, whichever phone's request set it off,
    and said in the language each phone asks for.
    """

    def __init__(self, state: TableState, *, solver: str = "auto", limit: Limit = TABLE_LIMIT,
                 warm_up: bool = True, samples: int = PAGE_SAMPLES, lang: str | None = None) -> None:
        self.state = state
        self.lang = i18n.choose(lang) if lang is not None else i18n.language()
        self.settings = Settings(solver=solver, limit=limit, samples=samples)
        self.warm_up = warm_up
        self._lock = threading.Condition()
        self._listeners: list[tuple[Listener, str]] = []
        self._running_stop: threading.Event | None = None
        self._later: tuple[int, tuple[Later, ...]] | None = None  # the advisor thread's next jobs
        self._later_stop: threading.Event | None = None
        self._later_kept: OrderedDict[tuple[str, Position, tuple[Step, ...] | None], dict[str, Any]] = OrderedDict()
        self._solved = 0  # the version whose first stage is out
        self._complete = 0  # the version whose later advice is out too
        self._save_error: str | None = None
        self._view: dict[str, Any] = {}  # its words unsaid (Localized parts)
        self._said: dict[str, Said] = {}  # the latest view said in each language asked for
        self._serial = 0  # every published view's number: a page orders views of one version by it
        self.run = secrets.token_hex(6)
        """This session's id in every view: versions and serials count again from 1 in a restarted server, so a
        page that sees a new run takes its views as they come instead of dropping them as old."""
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="table-solver", daemon=True)
        self._advisor = threading.Thread(target=self._run_later, name="table-advisor", daemon=True)
        with self._lock:
            self._publish(self._state_view(svg=None))

    def __enter__(self) -> Session:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the threads (the solver thread works out the first position at once)."""
        self._thread.start()
        self._advisor.start()

    def close(self) -> None:
        """Stop the work and the threads, and wait for them (a CP-SAT solve must not outlive the process)."""
        with self._lock:
            self._closed = True
            self._stop_work()
            self._lock.notify_all()
        for thread in (self._thread, self._advisor):
            if thread.is_alive():
                thread.join(timeout=30)

    def _stop_work(self) -> None:
        """Stop the first stage and the later advice still being worked out (called with the lock held)."""
        for stop in (self._running_stop, self._later_stop):
            if stop is not None:
                stop.set()

    # -- what pages call ------------------------------------------------------------------------------------------
    def change(self, data: Any, lang: str | None = None) -> tuple[Applied, dict[str, Any]]:
        """Make a page's change (parsed JSON); the outcome (its problems and words in ``lang``, default the table's
        language) and the view right after it (advice still to come), said in ``lang`` too."""
        return contextvars.copy_context().run(self._change, data, lang or self.lang)

    def _change(self, data: Any, lang: str) -> tuple[Applied, dict[str, Any]]:
        i18n.use(lang)
        with self._lock:
            before = self.state.version
            try:
                applied = self.state.apply(data)
                self._save_error = None
            except PlannerError as error:  # the save file could not be written; the change itself was made
                self._save_error = str(error)
                applied = Applied(self.state.version)
            if self.state.version != before:
                self._stop_work()  # an older position's work: its answer would be stale
                self._later = None
                keep_map = self._view.get("svg")
                self._publish(self._state_view(svg=keep_map, stale=True))
                self._lock.notify_all()
            return applied, self._say(lang)[0]

    def view(self, lang: str | None = None) -> dict[str, Any]:
        """The latest view: the position, and its advice and map once worked out, said in ``lang`` (default: the
        table's language)."""
        with self._lock:
            return self._say(lang or self.lang)[0]

    def view_text(self, lang: str | None = None) -> str:
        """:meth:`view` as JSON text (made once per language and view)."""
        with self._lock:
            return self._text(lang or self.lang)

    def wait_solved(self, version: int, timeout: float, *, complete: bool = False,
                    lang: str | None = None) -> dict[str, Any]:
        """The view once ``version`` (or a newer one) has its first stage (with ``complete``: its later advice
        too), or the latest view after ``timeout`` seconds; said in ``lang`` (default: the table's language)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while ((self._complete if complete else self._solved) < version and self.state.version == version
                   and not self._closed):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            return self._say(lang or self.lang)[0]

    def subscribe(self, listener: Listener, lang: str | None = None) -> None:
        """Call ``listener`` with each new view as JSON text said in ``lang`` (default: the table's language), from
        the solver's thread or a page's."""
        with self._lock:
            self._listeners.append((listener, lang or self.lang))

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        with self._lock:
            self._listeners = [(heard, lang) for heard, lang in self._listeners if heard is not listener]

    # -- views ----------------------------------------------------------------------------------------------------
    def _state_view(self, *, svg: str | None, stale: bool = False, stage: Stage | None = None,
                    error: str | Localized | None = None, waiting: str | None = None) -> dict[str, Any]:
        state = self.state
        game = state.playing
        return {
            "mode": state.mode,
            "game": game.document() if game is not None else None,
            "has_game": state.game is not None,
            "waiting": waiting,
            "run": self.run,
            "version": state.version,
            "phase": state.phase,
            "position": position_document(state.position),
            "can_undo": state.can_undo,
            "can_redo": state.can_redo,
            "alternatives": state.alternatives,
            "solving": stage is None and error is None and waiting is None,
            "solution": stage.solution if stage else None,
            "advice": stage.advice if stage else None,
            "pending": [later.kind for later in stage.later] if stage else [],
            "yours": state.yours_text,
            "error": error,
            "save": str(state.save) if state.save else None,
            "save_error": self._save_error,
            "stale_map": stale,
            "svg": svg,
        }

    def _publish(self, view: dict[str, Any], said: dict[str, Any] | None = None) -> None:
        """Make ``view`` the latest and send it to every listener in its language (called with the lock held);
        ``said`` is the view already said in the table's language, if it was (to find a bug where it is caught).

        Each view gets the next ``serial``: a change's answer and the events may reach a page in any order, and a
        version's later advice comes in a second view of the same version."""
        self._serial += 1
        view["serial"] = self._serial
        self._view = view
        self._said = {} if said is None else {self.lang: ({**said, "serial": self._serial}, None)}
        for listener, lang in list(self._listeners):
            try:
                listener(self._text(lang))
            except Exception:  # a page that went away (or a language's words failed) must not stop the table
                logger.exception("a table listener failed")
        self._lock.notify_all()

    def _say(self, lang: str) -> Said:
        """The latest view said in ``lang``, said once per view (called with the lock held)."""
        said = self._said.get(lang)
        if said is None:
            said = self._said[lang] = (said_in(self._view, lang), None)
        return said

    def _text(self, lang: str) -> str:
        """The latest view said in ``lang`` as JSON (called with the lock held)."""
        view, text = self._say(lang)
        if text is None:
            text = json.dumps(view, ensure_ascii=False)
            self._said[lang] = (view, text)
        return text

    # -- the solver thread ----------------------------------------------------------------------------------------
    def _run(self) -> None:
        i18n.use(self.lang)  # a thread starts with a fresh context
        warmed = not self.warm_up
        while True:
            with self._lock:
                while not self._closed and self._solved >= self.state.version and warmed:
                    self._lock.wait()
                if self._closed:
                    return
                version = self.state.version
                if self._solved >= version:
                    job = None
                else:
                    state = self.state
                    job = (state.phase, state.position, state.alternatives, state.yours, state.advisable)
                    stop = self._running_stop = threading.Event()
            if job is None:
                self._warm()
                warmed = True
                continue
            view, said, stage = self._work(version, *job, stop)
            with self._lock:
                self._running_stop = None
                if version == self.state.version and view is not None:
                    self._solved = version
                    self._publish(view, said)
                    if stage is not None and stage.later:
                        self._later = (version, stage.later)
                        self._lock.notify_all()
                    else:
                        self._complete = version

    def _warm(self) -> None:
        started = time.perf_counter()
        try:
            from planner.elfenland.solvers.cpsat import load_ortools

            load_ortools()
            logger.info("OR-Tools loaded in %.2f s", time.perf_counter() - started)
        except Exception:  # without OR-Tools the search still answers; the solve says what is missing
            logger.exception("could not load OR-Tools")

    def _work(self, version: int, phase: str, position: Position, alternatives: int,
              route: tuple[Step, ...] | None, waiting: str | None,
              stop: threading.Event) -> tuple[dict[str, Any] | None, dict[str, Any] | None, Stage | None]:
        """The first-stage view of one position and phase (None when a newer change stopped it), the same said in
        the table's language (None: said when asked), and its stage; in game mode, when I am not to be advised
        (``waiting``: another's turn, my hand awaited), only the map."""
        if waiting is not None:
            svg = render_svg(position, board_only=True)
            with self._lock:
                return self._state_view(svg=svg, waiting=waiting), None, None
        interim = threading.Timer(INTERIM_AFTER, self._interim, (version, position))
        interim.daemon = True
        interim.start()
        try:
            stage = first_stage(phase, position, alternatives=alternatives, settings=self.settings, stop=stop,
                                route=route)
            if self._closed or version != self.state.version:
                return None, None, None  # stopped for a newer position (or the end): nobody will see this answer
            svg = render_svg(stage.picture, stage.plans, board_only=True)  # outside the lock: changes go on
            with self._lock:
                view = self._state_view(svg=svg, stage=stage)
            return view, said_in(view, self.lang), stage  # said here, where a bug of the words is caught
        except Superseded:
            return None, None, None
        except PlannerError as error:
            return self._failed(position, str(error)), None, None
        except Exception as error:  # a bug: say so on the page and keep the table running
            logger.exception("working out the %s phase of %s failed", phase, position)
            failure = f"{type(error).__name__}: {error}"
            return self._failed(position, Localized(lambda: tt("internal error while solving ({error})",
                                                               error=failure))), None, None
        finally:
            interim.cancel()

    def _failed(self, position: Position, message: str | Localized) -> dict[str, Any]:
        try:
            svg: str | None = render_svg(position, board_only=True)
        except PlannerError:
            svg = None
        with self._lock:
            return self._state_view(svg=svg, error=message)

    def _interim(self, version: int, position: Position) -> None:
        """The map of a position whose solve is taking a while: its counters now, its advice later."""
        svg = render_svg(position, board_only=True)
        with self._lock:
            if self.state.version == version and self._solved < version:
                self._publish(self._state_view(svg=svg))

    # -- the advisor thread ---------------------------------------------------------------------------------------
    def _run_later(self) -> None:
        i18n.use(self.lang)
        while True:
            with self._lock:
                while not self._closed and self._later is None:
                    self._lock.wait()
                if self._closed:
                    return
                assert self._later is not None
                (version, laters), self._later = self._later, None
                stop = self._later_stop = threading.Event()
            for done, later in enumerate(laters, 1):
                parts = self._later_parts(later, stop)
                with self._lock:
                    if version != self.state.version or self._solved != version or stop.is_set():
                        break  # a newer position: its own jobs are queued, these answers are stale
                    rest = [other.kind for other in laters[done:]]
                    view = {**self._view, "advice": merged(self._view["advice"], parts), "pending": rest}
                    if not rest:
                        self._complete = version
                    self._publish(view)
            with self._lock:
                if self._later_stop is stop:
                    self._later_stop = None

    def _later_parts(self, later: Later, stop: threading.Event) -> dict[str, Any]:
        """One later advice's keys for the advice document; a failure is said beside the advice, not raised.

        Only the advisor thread calls it, so the kept answers need no lock."""
        key = (later.kind, later.position, later.route)
        kept = self._later_kept.get(key)
        if kept is not None:
            self._later_kept.move_to_end(key)
            return kept
        try:
            parts = later_stage(later, settings=self.settings, stop=stop)
            said_in(parts, self.lang)  # a bug of its words is caught here, not where a page asks for them
        except PlannerError as error:
            return {later.kind: {"status": "error", "note": str(error)}}
        except Exception as error:  # a bug: say so beside the advice and keep the table running
            logger.exception("the %s advice of %s failed", later.kind, later.position)
            failure = f"{type(error).__name__}: {error}"
            return {later.kind: {"status": "error", "note": Localized(lambda: tt("internal error ({error})",
                                                                                 error=failure))}}
        if not stop.is_set():  # a stopped answer rests on part of the work: never reuse it
            self._later_kept[key] = parts
            while len(self._later_kept) > LATER_KEPT:
                self._later_kept.popitem(last=False)
        return parts
