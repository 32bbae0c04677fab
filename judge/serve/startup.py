"""A server that listens at once: the problems' missing cases are made on a thread while every page says so.

A first start may spend a minute or more generating cases. Before this, nothing listened meanwhile, so a
teacher's browser, a load balancer and systemd could not tell a preparing server from a dead one. Now the HTTP
server starts first; ``Startup.run`` prepares the problems and builds the service on a thread of its own, and until
it is done ``Gate`` answers every request but ``/healthz``, ``/metrics`` and the stylesheet with a 503 and
``Retry-After`` (the API its JSON error, the pages a page that says the problems are being prepared).
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.responses import HTMLResponse, JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .service import Service
from .store import Store

RETRY_AFTER = 10  # seconds a client is told to wait while the problems are prepared
OPEN_PATHS = ("/healthz", "/metrics")  # what answers while preparing (they say so themselves)


@dataclass
class Startup:
    """The preparation's state: ``build`` makes the ready service (cases generated, workers made), on a thread."""

    title: str
    store: Store
    build: Callable[[], Service]
    on_failure: Callable[[], None] = lambda: None  # the HTTP server is told to stop
    abort: Callable[[], None] = lambda: None  # what preparation runs (a generator) is stopped
    service: Service | None = None
    error: BaseException | None = None
    stopping: bool = False
    done: threading.Event = field(default_factory=threading.Event)

    @property
    def state(self) -> str:
        if self.service is not None:
            return "ready"
        return "failed" if self.error is not None else "preparing"

    def run(self, on_ready: Callable[[Service], None]) -> threading.Thread:
        """Prepare on a daemon thread (a SIGTERM meanwhile must not wait for a generator); ``on_ready`` gets the
        service once it is built, unless the server is stopping by then."""

        def prepare() -> None:
            try:
                service = self.build()
            except BaseException as exc:  # a failed preparation ends the server, with its error
                self.error = exc  # raised again by ``server.serve`` once the HTTP server has stopped
                if not self.stopping:
                    self.on_failure()
                self.done.set()
                return
            if not self.stopping:
                on_ready(service)
            self.done.set()

        thread = threading.Thread(target=prepare, name="prepare", daemon=True)
        thread.start()
        return thread


class Gate:
    """ASGI middleware: while the problems are prepared, a 503 with ``Retry-After`` for everything but
    ``OPEN_PATHS`` and the static files; once they are ready, nothing."""

    def __init__(self, app: ASGIApp, startup: Startup | None = None) -> None:
        self.app = app
        self.startup = startup

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        startup = self.startup
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or startup is None
            or startup.service is not None
            or path in OPEN_PATHS
            or path.startswith("/static/")
        ):
            await self.app(scope, receive, send)
            return
        headers = {"Retry-After": str(RETRY_AFTER)}
        message = "the problems are being prepared (their test cases generated); try again shortly"
        if path.startswith("/api/"):
            body = {"error": {"code": "preparing", "message": message, "field": None}}
            response: JSONResponse | HTMLResponse = JSONResponse(body, 503, headers)
        else:
            response = HTMLResponse(_page(startup.title), 503, headers)
        await response(scope, receive, send)


def _page(title: str) -> str:
    """A page of its own (the site's templates need the service this server is still making); it reloads itself."""
    shown = html.escape(title)
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        f'<meta http-equiv="refresh" content="{RETRY_AFTER}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{shown}: being prepared</title><link rel="stylesheet" href="/static/style.css"></head>\n'
        f"<body><main><h1>{shown}</h1><p>The problems are being prepared: their test cases are being generated.</p>"
        f'<p>This page reloads itself every {RETRY_AFTER} seconds; <a href="">reload it now</a>.</p></main></body>'
        "</html>\n"
    )
