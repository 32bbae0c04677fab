"""The ASGI application: routes under ``/api/v1``, who is asking, and every error as the same JSON shape.

Starlette on uvicorn: a maintained, small ASGI stack whose handlers are
plain coroutines; the judging runs on the workers' threads, never on the
event loop, and what a handler reads of the store takes a millisecond.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from . import (
    api_accounts,
    api_clarifications,
    api_sessions,
    api_submissions,
    contest_clock,
    events,
    health,
    icpc,
    icpc_clarifications,
    pages_routes,
    scoreboard,
)
from .access import BasicCredentials, json_response, service_of
from .bell import ring_on
from .http_errors import ApiError, api_error
from .origin import SameOrigin
from .refusals import Refused
from .service import Service
from .startup import Gate, Startup
from .telemetry import Telemetry

# seconds a server stopped while preparing waits for the preparing thread after stopping its runs (a thread waiting
# for another judge's lock on the cases would not end by itself; its files are written whole, never half)
PREPARING_STOP = 3.0


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    headers = exc.headers()
    if exc.status == 401:  # the ICPC Contest API's clients log in with HTTP Basic once challenged for it
        headers["WWW-Authenticate"] = (
            'Basic realm="tilejudge"' if _icpc(request.url.path) else 'Bearer realm="tilejudge"'
        )
    return json_response(exc.body(), exc.status, headers)


async def _refused(request: Request, exc: Exception) -> Response:
    """A workflow's refusal that reached the app: the API's handlers let it rise to here (the pages and the ICPC API
    map theirs where they call the workflow), answered as ``http_errors.api_error`` says."""
    assert isinstance(exc, Refused)
    return await _api_error(request, api_error(exc))


def _icpc(path: str) -> bool:
    """Whether ``path`` is the ICPC Contest API's (``/api`` and below), not ``/api/v1``'s."""
    return (path == "/api" or path.startswith("/api/")) and path != "/api/v1" and not path.startswith("/api/v1/")


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if not request.url.path.startswith("/api/"):
        return await pages_routes.http_error(request, exc)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return json_response({"error": {"code": code, "message": str(exc.detail), "field": None}}, exc.status_code)


async def _gone(request: Request, exc: Exception) -> Response:
    """The client went while its body was being read (a half-sent request cut by ``connections.py``, or a tab
    closed mid-upload): nobody reads this answer, and the server did nothing wrong, so no traceback is logged."""
    return Response(status_code=400)


async def _crash(request: Request, exc: Exception) -> Response:
    print(f"serve: {request.method} {request.url.path}: {type(exc).__name__}: {exc}", file=sys.stderr)
    body = {"error": {"code": "internal", "message": "the server failed on this request", "field": None}}
    return json_response(body, 500)


async def index(request: Request) -> Response:
    """What the site is, for anyone: its title, kind and times (no problem, no account)."""
    site = service_of(request).site
    return json_response(
        {
            "title": site.title,
            "kind": site.kind,
            "start": site.start.isoformat() if site.start else None,
            "end": site.end.isoformat() if site.end else None,
            "deadline": site.deadline.isoformat() if site.deadline else None,
            "api": "/api/v1",
        }
    )


def routes() -> list[BaseRoute]:
    """Every route the service answers, the API's, the ICPC API's and the pages': the app's, and the list a test
    that drives every route enumerates."""
    return [
        Route("/api/v1", index),
        *health.ROUTES,
        *api_submissions.ROUTES,
        *events.ROUTES,
        *api_accounts.ROUTES,
        *api_sessions.ROUTES,
        *api_clarifications.ROUTES,
        *scoreboard.ROUTES,
        *icpc_clarifications.ROUTES,  # before icpc's /api/contests/{cid}/{kind}, which would answer it as a 404
        *icpc.ROUTES,
        *pages_routes.page_routes(),
    ]


def make_app(
    service: Service | None = None,
    startup: Startup | None = None,
    telemetry: Telemetry | None = None,
    grace: float = 0.0,
) -> Starlette:
    """The application for a ready ``service``, or for a ``startup`` that makes it while the server already listens
    (``startup.py``); ``grace``: seconds a stopping server lets the judging in flight finish."""
    if startup is None:
        assert service is not None, "make_app needs a service or a startup"
        startup = Startup(service.site.title, service.store, lambda: service, service=service)
    telemetry = telemetry or getattr(service and service.workers, "telemetry", None) or Telemetry()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        import asyncio

        loop = asyncio.get_running_loop()
        clocks: list[asyncio.Task[None]] = []

        def activate(ready: Service, announce: bool = True) -> None:
            if startup.stopping:  # a SIGTERM came while the problems were prepared: nothing is started
                ready.workers.stop()
                return
            app.state.service = ready
            ready.bell.bind(loop)
            ready.workers.start()
            clocks.append(asyncio.create_task(ring_on(ready.store.written_elsewhere, ready.bell)))
            if ready.site.kind == "contest":
                clocks.append(asyncio.create_task(contest_clock.keep(ready)))
            startup.service = ready  # the gate opens last, on a service whose workers run
            if announce:
                print("the problems are ready: judging", file=sys.stderr, flush=True)

        if startup.service is not None:
            ready, startup.service = startup.service, None
            activate(ready, announce=False)
        else:
            startup.run(lambda ready: loop.call_soon_threadsafe(activate, ready))
        yield
        startup.stopping = True
        for clock in clocks:
            clock.cancel()
        if startup.service is not None:
            await asyncio.to_thread(startup.service.workers.stop, *((grace,) if grace else ()))
        else:
            startup.abort()  # the cases' generation stops; the thread is waited for, within a bound
            await asyncio.to_thread(startup.done.wait, PREPARING_STOP)

    app = Starlette(
        routes=routes(),
        lifespan=lifespan,
        middleware=[
            Middleware(health.Observed, telemetry=telemetry),  # every request counted and logged, refused ones too
            Middleware(Gate, startup=startup),  # nothing below runs before the service exists
            Middleware(SameOrigin),  # another site's changes first
            Middleware(BasicCredentials),
        ],
        exception_handlers={
            ApiError: _api_error,
            Refused: _refused,
            HTTPException: _http_error,
            ClientDisconnect: _gone,
            Exception: _crash,
        },
    )
    if service is not None:
        app.state.service = service
    app.state.startup = startup
    app.state.telemetry = telemetry
    return app
