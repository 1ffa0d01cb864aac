"""The table's web app (Starlette): the page, its script and style, a JSON API and a stream of views.

Routes (no route reads a path, a file name or anything but JSON from the request):

- ``GET /`` the page; ``GET /texts.js``, ``/app.js``, ``/round.js``,
  ``/game.js``, ``/explain.js``, ``/app.css``, ``/icon.svg`` its parts,
  served from the package (no CDN: a table works offline);
- ``GET /api/texts`` the page's own texts in the request's language (:func:`~planner.table.texts.page_texts`);
- ``GET /api/board`` the board's shapes, cards and rule options; ``GET /api/view`` the latest view;
- ``GET /api/join`` the join link (the table's URL with its token, as this phone reached it) and
  ``GET /api/join.svg`` its QR code, so a friend's phone joins from this one;
- ``POST /api/change`` one change as a small JSON object (:mod:`planner.table.changes`): the answer is the
  refusal's structured problems (``ok`` false), or the new view, solved if that took less than ``ANSWER_WAIT`` seconds;
- ``GET /api/events`` server-sent events: every new view of the table, to every page watching it.

Access: the server prints a URL carrying a random token; opening it sets a cookie (HttpOnly, SameSite=Strict)
and every other request without that cookie is refused (403). Every answer carries a strict content-security
policy: scripts, styles and connections only from the app itself, no inline script or style.

Languages: each request speaks the phone's choice, else its ``Accept-Language``, else the table's language
(:func:`~planner.table.texts.request_language`): the page's ``<html lang>``, its texts, the refusals below, a
refused change's problems, and the words of every view (its advice, a game's sentences), which the session says
in each request's language (the event stream's: its ``lang`` query parameter, else ``Accept-Language``).

Bad requests: every one is answered with a 4xx and the security headers, its body ``{"ok": false, "problems":
[...]}`` with structured problems (``kind``, ``field``, ``value``, ``message``): no token, an unknown path or
method, a change that is not JSON, too big, nested deeper than :data:`MAX_DEPTH`, or holding ``NaN`` or a lone
surrogate (which no answer could quote back). A client that leaves mid-request is no error of the server's: it is
not logged. A malformed change (an unknown op or key, a missing key, a value of the wrong type, like a rule's
value given as a float) is answered 422 with its problems. A well-formed change the table refuses (a name it does
not know, the rules) is an answer, not a failed request: ``ok`` false with status 200, which the page shows beside
what caused it. Anything else that goes wrong is a bug, answered 500
with a structured problem and logged in one line (the traceback only at DEBUG level).
"""

from __future__ import annotations

import asyncio
import hmac
import io
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from functools import partial
from http.cookies import SimpleCookie
from importlib import resources
from typing import Any
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from planner.common import i18n
from planner.table.session import Session
from planner.table.texts import page_texts, request_language, tt
from planner.table.views import board_document, problems_document

__all__ = ["ANSWER_WAIT", "COOKIE", "MAX_BODY", "MAX_DEPTH", "TableApp", "create_app"]

logger = logging.getLogger(__name__)

COOKIE = "elfenland_table"
MAX_BODY = 8 * 1024
"""Largest request body read: a change is a few dozen bytes, a whole notation a few hundred."""
MAX_DEPTH = 8
"""Deepest nesting of a change's JSON: an ``opponent`` change nests two deep."""
ANSWER_WAIT = 1.5
"""Seconds a change's answer waits for its route; longer solves arrive as events."""
KEEP_ALIVE = 15.0
"""Seconds between comments on an idle event stream, so proxies and phones keep it open."""
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
           "x-frame-options": "DENY", "cache-control": "no-store"}
STATIC = {"/texts.js": "application/javascript", "/app.js": "application/javascript",
          "/round.js": "application/javascript",
          "/game.js": "application/javascript",
          "/explain.js": "application/javascript", "/app.css": "text/css", "/palette.css": "text/css",
          "/icon.svg": "image/svg+xml"}
MALFORMED = frozenset({"bad-change", "bad-op", "unknown-key", "missing-key", "bad-type", "bad-mode"})
"""Problem kinds that say a change is malformed (not what the page sends): answered 422, not refused with 200."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]


def _static(name: str) -> bytes:
    return resources.files("planner.table").joinpath("static", name).read_bytes()


class TableApp:
    """The ASGI app of one table: the token guard and security headers around the Starlette routes."""

    def __init__(self, session: Session, *, token: str | None) -> None:
        self.session = session
        self.token = token
        self._streams: set[asyncio.Queue[str | None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._files = {path: _static(path.lstrip("/")) for path in STATIC}
        self._page = _static("index.html").decode("utf-8")
        routes = [Route("/", self.page), *(Route(path, self.static) for path in STATIC),
                  Route("/api/texts", self.texts), Route("/api/board", self.board), Route("/api/view", self.view),
                  Route("/api/join", self.join), Route("/api/join.svg", self.join_code),
                  Route("/api/change", self.change, methods=["POST"]), Route("/api/events", self.events)]
        self.routes = Starlette(routes=routes, exception_handlers={HTTPException: _http_problem})

    # -- the guard ------------------------------------------------------------------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.routes(scope, receive, send)
            return
        started = False
        request = Request(scope)
        i18n.use(request_language(request.headers, request.query_params, self.session.lang))

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [(k, v) for k, v in message.get("headers", []) if k.decode().lower() not in HEADERS]
                message["headers"] = headers + [(k.encode(), v.encode()) for k, v in HEADERS.items()]
            await send(message)

        try:
            refusal = self._refusal(scope)
            await (refusal or self.routes)(scope, receive, with_headers)
        except (ClientDisconnect, OSError):  # the client left (or its connection broke): nobody reads an answer
            return
        except Exception as error:  # a bug: answered and logged in one line, never a traceback at the table
            logger.error("table request %s %s failed: %s: %s", scope.get("method"), scope.get("path"),
                         type(error).__name__, error)
            logger.debug("the failed request's traceback", exc_info=True)
            if not started:
                await _refused(500, "internal", tt("the table failed to answer this request (a bug): try again"))(
                    scope, receive, with_headers)

    def _refusal(self, scope: Scope) -> ASGI | None:
        """The answer to a request without the token, or to the page's URL with it (set the cookie); else None."""
        if self.token is None:
            return None
        request = Request(scope)
        given = request.query_params.get("t")
        if given is not None and scope["path"] == "/" and _same(given, self.token):
            query = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "t"])
            answer = RedirectResponse("/" + (f"?{query}" if query else ""), status_code=303)
            answer.set_cookie(COOKIE, self.token, httponly=True, samesite="strict", max_age=30 * 24 * 3600)
            return answer
        cookie = SimpleCookie()
        try:
            cookie.load(request.headers.get("cookie", ""))
        except Exception:  # a malformed cookie header is simply no token
            cookie = SimpleCookie()
        morsel = cookie.get(COOKIE)
        if morsel is not None and _same(morsel.value, self.token):
            return None
        return _refused(403, "no-token", tt("this table needs its link: open the join link another phone at the "
                                            "table shows (or scan its QR code), or the URL 'elfenland serve' printed"))

    # -- pages ----------------------------------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        """The page, its ``<html lang>`` the request's language (the script then reads its texts)."""
        page = self._page.replace('<html lang="en">', f'<html lang="{i18n.language()}">', 1)
        return Response(page, media_type="text/html; charset=utf-8", headers={"vary": "accept-language"})

    async def texts(self, request: Request) -> Response:
        """The page's own texts in the request's language, as JSON (built once per language)."""
        return Response(page_texts(i18n.language()), media_type="application/json",
                        headers={"vary": "accept-language, x-elfenland-lang"})

    async def static(self, request: Request) -> Response:
        path = request.scope["path"]
        return Response(self._files[path], media_type=STATIC[path])

    async def board(self, request: Request) -> Response:
        return JSONResponse(board_document())

    async def view(self, request: Request) -> Response:
        return JSONResponse(self.session.view(i18n.language()), headers={"vary": "accept-language, x-elfenland-lang"})

    def _join_url(self, request: Request) -> str:
        """The table's URL as this request reached it, with the token: a friend's phone opens it to join."""
        host = request.headers.get("host") or f"{request.url.hostname}:{request.url.port}"
        return f"{request.url.scheme}://{host}/" + (f"?t={self.token}" if self.token else "")

    async def join(self, request: Request) -> Response:
        """The join link (only a phone that has the token is told it): the page shows it and its QR code."""
        return JSONResponse({"url": self._join_url(request)})

    async def join_code(self, request: Request) -> Response:
        """The join link's QR code as SVG, for a friend's phone to scan from this one."""
        import segno  # the table's own extra, imported only when a page asks for the code

        buffer = io.BytesIO()
        segno.make(self._join_url(request), error="m").save(buffer, kind="svg", scale=4, border=2, dark="#000",
                                                            light="#fff")
        return Response(buffer.getvalue(), media_type="image/svg+xml")

    # -- changes --------------------------------------------------------------------------------------------------
    async def change(self, request: Request) -> Response:
        origin = request.headers.get("origin")
        if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
            return _refused(403, "bad-origin", tt("a change must come from the table's own page"))
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _refused(415, "bad-type", tt("a change is sent as application/json"))
        body = await _read_body(request)
        if body is None:
            return _refused(413, "too-big", tt("a change is at most {size} bytes", size=MAX_BODY))
        data = _read_json(body)
        if isinstance(data, Response):
            return data
        lang = i18n.language()
        applied, view = await run_in_threadpool(self.session.change, data, lang)
        if not applied.ok:  # a refusal is an answer, not a failed request: the page shows its problems
            malformed = any(problem.kind in MALFORMED for problem in applied.problems)
            return JSONResponse({"ok": False, "version": applied.version,
                                 "problems": problems_document(applied.problems)},
                                status_code=422 if malformed else 200)
        if view.get("solving"):
            view = await run_in_threadpool(partial(self.session.wait_solved, applied.version, ANSWER_WAIT, lang=lang))
        return JSONResponse({"ok": True, "version": applied.version, "problems": [], "view": view,
                             "said": applied.said})

    # -- the event stream -----------------------------------------------------------------------------------------
    async def events(self, request: Request) -> Response:
        loop = asyncio.get_running_loop()
        self._loop = loop
        lang = i18n.language()
        queue: asyncio.Queue[str | None] = asyncio.Queue()

        def listener(text: str) -> None:
            loop.call_soon_threadsafe(_offer, queue, text)

        async def stream() -> AsyncIterator[str]:
            self._streams.add(queue)
            self.session.subscribe(listener, lang)
            try:
                yield "retry: 1000\n\n"
                yield _event(self.session.view_text(lang))
                while True:
                    try:
                        text = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    if text is None:
                        return
                    yield _event(text)
            finally:
                self.session.unsubscribe(listener)
                self._streams.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    def end_streams(self) -> None:
        """End every open event stream (from any thread), so that a server shutting down need not wait on them."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        for queue in list(self._streams):
            loop.call_soon_threadsafe(queue.put_nowait, None)


def _offer(queue: asyncio.Queue[str | None], text: str) -> None:
    """Queue a view for a page, dropping views it has not read yet: only the newest matters."""
    while queue.qsize() > 1:
        queue.get_nowait()
    queue.put_nowait(text)


def _event(text: str) -> str:
    return f"event: view\ndata: {text}\n\n"


async def _read_body(request: Request) -> bytes | None:
    """The body, or None when it is longer than :data:`MAX_BODY` (read no further than that).

    Raises:
        ClientDisconnect: the client left before sending all of it.
    """
    length = request.headers.get("content-length")
    if length is not None and (not length.isascii() or not length.isdigit() or int(length) > MAX_BODY):
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return bytes(body)


class _NotJson(ValueError):
    """A body that parses but is not JSON an answer can quote back: ``NaN``, ``Infinity``."""


def _no_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON number")


def _read_json(body: bytes) -> Any:
    """The change's JSON value, or the 400 answer that refuses it (not UTF-8 or not JSON, a number JSON does not
    have, too deep, a lone surrogate: nothing that would fail later, where it could not be quoted back)."""
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        return _refused(400, "too-deep", tt("a change nests at most {depth} deep", depth=MAX_DEPTH))
    except (UnicodeDecodeError, ValueError) as error:  # JSONDecodeError, NaN, an integer of 4,300 digits
        return _refused(400, "bad-json", tt("the change is not JSON: {error}", error=error))
    stack: list[tuple[Any, int]] = [(data, 1)]  # a value, and how many arrays and objects hold it and itself
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list) and depth > MAX_DEPTH:
            return _refused(400, "too-deep", tt("a change nests at most {depth} deep", depth=MAX_DEPTH))
        if isinstance(value, str) and not _encodable(value):
            return _refused(400, "bad-text", tt("the change holds a lone surrogate (\\ud800 to \\udfff), "
                                                "which is no character: send UTF-8 text"))
        if isinstance(value, dict):
            stack.extend((key, depth + 1) for key in value)
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
    return data


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _same(given: str, token: str) -> bool:
    """Whether ``given`` is the token, compared in constant time (as bytes: any text may be given)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode("utf-8"))


def _refused(status: int, kind: str, message: str) -> Response:
    """A refused request's answer: one structured problem (in ASCII JSON, so any text the message quotes goes)."""
    problem = {"kind": kind, "field": "", "value": None, "message": message}
    return Response(json.dumps({"ok": False, "problems": [problem]}), status_code=status,
                    media_type="application/json")


async def _http_problem(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (an unknown path, a method a route does not take) as structured problems."""
    assert isinstance(error, HTTPException)
    kind = {404: "not-found", 405: "bad-method"}.get(error.status_code, "bad-request")
    what = {404: tt("no such page {path} at this table", path=repr(request.url.path)),
            405: tt("{method} is not a method {path} takes", method=request.method, path=repr(request.url.path))}
    answer = _refused(error.status_code, kind, what.get(error.status_code, str(error.detail)))
    answer.headers.update(error.headers or {})
    return answer


def create_app(session: Session, *, token: str | None) -> TableApp:
    """The app serving ``session``; ``token`` None opens it to anyone who can reach the port."""
    return TableApp(session, token=token)
