"""The table's web app (Starlette): the page, its script and style, a JSON API and a stream of views.

Routes (no route reads a path, a file name or anything but JSON from the request):

- ``GET /`` the page; ``GET /app.js``, ``/round.js``, ``/explain.js``, ``/app.css``, ``/icon.svg`` its parts,
  served from the package (no CDN: a table works offline);
- ``GET /api/board`` the board's shapes, cards and rule options; ``GET /api/view`` the latest view;
- ``POST /api/change`` one change as a small JSON object (:mod:`planner.table.changes`): the answer is the
  refusal's structured problems (``ok`` false), or the new view, solved if that took less than ``ANSWER_WAIT`` seconds;
- ``GET /api/events`` server-sent events: every new view of the table, to every page watching it.

Access: the server prints a URL carrying a random token; opening it sets a cookie (HttpOnly, SameSite=Strict)
and every other request without that cookie is refused (403). Every answer carries a strict content-security
policy: scripts, styles and connections only from the app itself, no inline script or style.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlencode

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from planner.table.session import Session
from planner.table.views import board_document, problems_document

__all__ = ["ANSWER_WAIT", "COOKIE", "MAX_BODY", "TableApp", "create_app"]

COOKIE = "elfenland_table"
MAX_BODY = 8 * 1024
"""Largest request body read: a change is a few dozen bytes, a whole notation a few hundred."""
ANSWER_WAIT = 1.5
"""Seconds a change's answer waits for its route; longer solves arrive as events."""
KEEP_ALIVE = 15.0
"""Seconds between comments on an idle event stream, so proxies and phones keep it open."""
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
           "x-frame-options": "DENY", "cache-control": "no-store"}
STATIC = {"/app.js": "application/javascript", "/round.js": "application/javascript",
          "/explain.js": "application/javascript", "/app.css": "text/css", "/icon.svg": "image/svg+xml"}

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
        self._page = _static("index.html")
        routes = [Route("/", self.page), *(Route(path, self.static) for path in STATIC),
                  Route("/api/board", self.board), Route("/api/view", self.view),
                  Route("/api/change", self.change, methods=["POST"]), Route("/api/events", self.events)]
        self.routes = Starlette(routes=routes)

    # -- the guard ------------------------------------------------------------------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.routes(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.decode().lower() not in HEADERS]
                message["headers"] = headers + [(k.encode(), v.encode()) for k, v in HEADERS.items()]
            await send(message)

        refusal = self._refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, with_headers)
            return
        await self.routes(scope, receive, with_headers)

    def _refusal(self, scope: Scope) -> ASGI | None:
        """The answer to a request without the token, or to the page's URL with it (set the cookie); else None."""
        if self.token is None:
            return None
        request = Request(scope)
        given = request.query_params.get("t")
        if given is not None and scope["path"] == "/" and hmac.compare_digest(given, self.token):
            query = urlencode([(k, v) for k, v in parse_qs(scope["query_string"].decode()).items() if k != "t"],
                              doseq=True)
            answer = RedirectResponse("/" + (f"?{query}" if query else ""), status_code=303)
            answer.set_cookie(COOKIE, self.token, httponly=True, samesite="strict", max_age=30 * 24 * 3600)
            return answer
        cookie = SimpleCookie()
        try:
            cookie.load(request.headers.get("cookie", ""))
        except Exception:  # a malformed cookie header is simply no token
            cookie = SimpleCookie()
        morsel = cookie.get(COOKIE)
        if morsel is not None and hmac.compare_digest(morsel.value, self.token):
            return None
        return PlainTextResponse("this table needs its link: open the URL (or scan the QR code) that "
                                 "'elfenland serve' printed\n", status_code=403)

    # -- pages ----------------------------------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        return Response(self._page, media_type="text/html; charset=utf-8")

    async def static(self, request: Request) -> Response:
        path = request.scope["path"]
        return Response(self._files[path], media_type=STATIC[path])

    async def board(self, request: Request) -> Response:
        return JSONResponse(board_document())

    async def view(self, request: Request) -> Response:
        return JSONResponse(self.session.view())

    # -- changes --------------------------------------------------------------------------------------------------
    async def change(self, request: Request) -> Response:
        origin = request.headers.get("origin")
        if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
            return _refused(403, "bad-origin", "a change must come from the table's own page")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _refused(415, "bad-type", "a change is sent as application/json")
        body = await _read_body(request)
        if body is None:
            return _refused(413, "too-big", f"a change is at most {MAX_BODY} bytes")
        try:
            data = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            return _refused(400, "bad-json", f"the change is not JSON: {error}")
        applied, view = await run_in_threadpool(self.session.change, data)
        if not applied.ok:  # a refusal is an answer, not a failed request: the page shows its problems
            return JSONResponse({"ok": False, "version": applied.version,
                                 "problems": problems_document(applied.problems)})
        if view.get("solving"):
            view = await run_in_threadpool(self.session.wait_solved, applied.version, ANSWER_WAIT)
        return JSONResponse({"ok": True, "version": applied.version, "problems": [], "view": view})

    # -- the event stream -----------------------------------------------------------------------------------------
    async def events(self, request: Request) -> Response:
        loop = asyncio.get_running_loop()
        self._loop = loop
        queue: asyncio.Queue[str | None] = asyncio.Queue()

        def listener(text: str) -> None:
            loop.call_soon_threadsafe(_offer, queue, text)

        async def stream() -> AsyncIterator[str]:
            self._streams.add(queue)
            self.session.subscribe(listener)
            try:
                yield "retry: 1000\n\n"
                yield _event(json.dumps(self.session.view(), ensure_ascii=False))
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
    """The body, or None when it is longer than :data:`MAX_BODY` (read no further than that)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return bytes(body)


def _refused(status: int, kind: str, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "problems": [{"kind": kind, "field": "", "value": None, "message": message}]},
                        status_code=status)


def create_app(session: Session, *, token: str | None) -> TableApp:
    """The app serving ``session``; ``token`` None opens it to anyone who can reach the port."""
    return TableApp(session, token=token)
