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

from . import api_accounts, api_sessions, api_submissions, contest_clock, events, icpc, pages_routes, scoreboard
from .access import BasicCredentials, json_response, service_of
from .http_errors import ApiError
from .origin import SameOrigin
from .service import Service


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    headers = exc.headers()
    if exc.status == 401:  # the ICPC Contest API's clients log in with HTTP Basic once challenged for it
        headers["WWW-Authenticate"] = (
            'Basic realm="tilejudge"' if _icpc(request.url.path) else 'Bearer realm="tilejudge"'
        )
    return json_response(exc.body(), exc.status, headers)


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
        *api_submissions.ROUTES,
        *events.ROUTES,
        *api_accounts.ROUTES,
        *api_sessions.ROUTES,
        *scoreboard.ROUTES,
        *icpc.ROUTES,
        *pages_routes.page_routes(),
    ]


def make_app(service: Service) -> Starlette:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        import asyncio

        service.bell.bind(asyncio.get_running_loop())
        service.workers.start()
        clock = asyncio.create_task(contest_clock.keep(service)) if service.site.kind == "contest" else None
        yield
        if clock is not None:
            clock.cancel()
        service.workers.stop()

    app = Starlette(
        routes=routes(),
        lifespan=lifespan,
        middleware=[Middleware(SameOrigin), Middleware(BasicCredentials)],  # another site's changes first
        exception_handlers={
            ApiError: _api_error,
            HTTPException: _http_error,
            ClientDisconnect: _gone,
            Exception: _crash,
        },
    )
    app.state.service = service
    return app
