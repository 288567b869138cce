"""The HTTP layer of ``chunk-explorer serve``: the page, the websocket of each visitor's
app, downloads, and the files the page needs.

Routes (nothing else answers):

- ``GET /?token=T[&open=FILE][&fontsize=N]``: the page. The token must match (when one is
  set); ``open`` names a file under PATH to show first (refused with 403 otherwise). The
  page carries a ticket for its websocket: random, used once, valid for a minute.
- ``GET /ws/{ticket}``: the websocket; it starts the visitor's explorer process (through
  textual-serve's ``AppService``) and relays it. Refused without a valid ticket, from a
  page of another origin, or when the visitors' cap is reached.
- ``GET /download/{key}``: a file an app sends to its browser (a screenshot); the key is
  random and known only to that app's page.
- ``GET /static/...``: textual-serve's script, style sheet and fonts (no listing, no links).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from ..workspace.confine import PathRefused
from .visitors import ServeConfig, Visitors, app_command

log = logging.getLogger("chunk-explorer.serve")

#: How long a page's ticket stays valid before its websocket opens (seconds).
TICKET_SECONDS = 60.0
#: How long a leaving visitor's app has to quit before the server stops waiting (seconds).
STOP_SECONDS = 10.0



@dataclass(slots=True)
class Ticket:
    """What a page load asked for: the file to open first, and until when it may connect."""

    open_file: str | None
    expires: float


class ServerState:
    """The server's live state: tickets handed out, visitors, downloads."""

    def __init__(self, config: ServeConfig):
        self.visitors = Visitors(config.max_visitors)
        self.tickets: dict[str, Ticket] = {}
        self.downloads = DownloadManager()
        self.apps: set[AppService] = set()

    def issue(self, open_file: str | None) -> str:
        now = time.monotonic()
        for key in [k for k, t in self.tickets.items() if t.expires < now]:
            del self.tickets[key]
        ticket = secrets.token_urlsafe(24)
        self.tickets[ticket] = Ticket(open_file, now + TICKET_SECONDS)
        return ticket

    def redeem(self, ticket: str) -> Ticket | None:
        found = self.tickets.pop(ticket, None)
        return found if found is not None and found.expires >= time.monotonic() else None


CONFIG_KEY = web.AppKey("config", ServeConfig)
STATE_KEY = web.AppKey("state", ServerState)
TEMPLATE_KEY = web.AppKey("template", jinja2.Template)


def static_folder() -> Path:
    """textual-serve's own script, style sheet and fonts."""
    return Path(str(files("textual_serve") / "static"))


def _page_template() -> jinja2.Template:
    environment = jinja2.Environment(loader=jinja2.PackageLoader("explorer.serve", "templates"),
                                     autoescape=True)
    return environment.get_template("page.html")


def refused(status: type[web.HTTPException], text: str) -> web.HTTPException:
    return status(text=text + "\n", content_type="text/plain")


def _token_ok(config: ServeConfig, request: web.Request) -> bool:
    if config.token is None:
        return True
    return secrets.compare_digest(request.query.get("token", ""), config.token)


def _font_size(request: web.Request) -> int:
    try:
        return max(8, min(40, int(request.query.get("fontsize", "16"))))
    except ValueError:
        return 16


@web.middleware
async def security_headers(request: web.Request, handler):
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")  # the token stays in this page
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


async def page(request: web.Request) -> web.Response:
    config, state = request.app[CONFIG_KEY], request.app[STATE_KEY]
    if not _token_ok(config, request):
        raise refused(web.HTTPForbidden, "This explorer needs the address with its token (?token=...), "
                                         "as the server printed it.")
    open_file = None
    if "open" in request.query:
        try:
            open_file = config.confinement.readable(request.query["open"])
        except PathRefused as exc:
            raise refused(web.HTTPForbidden, f"Refused: {exc}.") from None
    if state.visitors.full:
        raise refused(web.HTTPServiceUnavailable,
                      f"This explorer is full ({state.visitors.limit} visitors); try again later.")
    nonce = secrets.token_urlsafe(16)
    html = request.app[TEMPLATE_KEY].render(title=config.title, ticket=state.issue(open_file), nonce=nonce,
                                            font_size=_font_size(request))
    response = web.Response(text=html, content_type="text/html")
    # Only this server: no font, script or connection elsewhere (the page works offline).
    response.headers["Content-Security-Policy"] = (
        f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'")
    response.headers["Cache-Control"] = "no-store"
    return response


def _same_origin(request: web.Request) -> bool:
    """A websocket opened by our own page (browsers send Origin; a page elsewhere cannot forge it)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser: it needed the ticket all the same
    return origin.split("://", 1)[-1] == request.host


async def websocket(request: web.Request) -> web.StreamResponse:
    config, state = request.app[CONFIG_KEY], request.app[STATE_KEY]
    if not _same_origin(request):
        raise refused(web.HTTPForbidden, "Refused: a page of another site may not open this explorer.")
    ticket = state.redeem(request.match_info["ticket"])
    if ticket is None:
        raise refused(web.HTTPForbidden, "Refused: this page's session has expired or was used; reload the page.")
    if not state.visitors.arrive():
        raise refused(web.HTTPServiceUnavailable, "This explorer is full; try again later.")
    socket = web.WebSocketResponse(heartbeat=15)
    try:
        await socket.prepare(request)
        width = _size(request.query.get("width"), 80)
        height = _size(request.query.get("height"), 24)
        async def close() -> None:
            await socket.close()

        service = AppService(app_command(config, ticket.open_file), write_bytes=socket.send_bytes,
                             write_str=socket.send_str, close=close, download_manager=state.downloads)
        state.apps.add(service)
        try:
            await service.start(width, height)
            await _relay(socket, service)
        finally:
            state.apps.discard(service)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(service.stop(), STOP_SECONDS)
    finally:
        state.visitors.leave()
    return socket


def _size(text: str | None, default: int) -> int:
    try:
        return max(10, min(500, int(text or default)))
    except ValueError:
        return default


async def _relay(socket: web.WebSocketResponse, service: AppService) -> None:
    """What the browser sends, passed to the app (keys, resizes, focus), until it leaves."""
    async for message in socket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            kind, data = message.json()
        except (ValueError, TypeError):
            continue  # not our page's protocol: ignored
        if kind == "stdin" and isinstance(data, str):
            await service.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            await service.set_terminal_size(_size(str(data.get("width")), 80), _size(str(data.get("height")), 24))
        elif kind == "ping":
            await socket.send_json(["pong", data])
        elif kind == "blur":
            await service.blur()
        elif kind == "focus":
            await service.focus()


async def download(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE_KEY]
    key = request.match_info["key"]
    try:
        meta = await state.downloads.get_download_metadata(key)
    except KeyError:
        raise refused(web.HTTPNotFound, "No such download.") from None
    response = web.StreamResponse()
    response.content_type = meta.mime_type
    if meta.encoding:
        response.charset = meta.encoding
    disposition = "inline" if meta.open_method == "browser" else "attachment"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{Path(meta.file_name).name}"'
    await response.prepare(request)
    async for chunk in state.downloads.download(key):
        await response.write(chunk)
    await response.write_eof()
    return response


async def _stop_apps(app: web.Application) -> None:
    """On shutdown: ask every visitor's app to quit (each also ends by itself when the server dies)."""
    services = list(app[STATE_KEY].apps)
    await asyncio.gather(*(asyncio.wait_for(s.stop(), STOP_SECONDS) for s in services), return_exceptions=True)


def build_app(config: ServeConfig) -> web.Application:
    """The aiohttp application of a server."""
    app = web.Application(middlewares=[security_headers])
    app[CONFIG_KEY] = config
    app[STATE_KEY] = ServerState(config)
    app[TEMPLATE_KEY] = _page_template()
    app.add_routes([
        web.get("/", page),
        web.get("/ws/{ticket}", websocket),
        web.get("/download/{key}", download),
        web.static("/static", static_folder(), show_index=False, follow_symlinks=False),
    ])
    app.on_shutdown.append(_stop_apps)
    return app
