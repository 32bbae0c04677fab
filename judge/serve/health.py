"""``/healthz`` and ``/metrics`` for whoever runs the site, and the log line and latency of every request.

Both answer staff (a token or a session) or a client on this machine (127.0.0.1 or ::1; behind ``--proxy`` the
address the proxy forwarded counts, so a proxy on this machine does not make every visitor local); anyone else is
told they do not exist (404), or is asked for credentials (401), as for any staff resource. ``/healthz`` is 200 when
the store takes a write, every worker thread is alive, the sandbox's slots are usable and the problems are ready,
else 503 with the same JSON saying which part failed; a load balancer or systemd's watchdog reads the status alone.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .access import client_address, json_response, staff
from .http_errors import ApiError
from .startup import RETRY_AFTER, Startup
from .store import Store, note_health
from .store_submissions import queue_length_and_oldest
from .telemetry import Telemetry, head, labels, number

LOCAL = ("127.0.0.1", "::1", "::ffff:127.0.0.1")
TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8"


def _startup(request: Request) -> Startup:
    return request.app.state.startup


def _allowed(request: Request) -> None:
    """From this machine, or staff; a 404 (or 401 without credentials) for anyone else."""
    if client_address(request) in LOCAL:
        return
    if _startup(request).service is None:  # no accounts can be checked before the service is built
        raise ApiError(503, "preparing", "the problems are being prepared; try again shortly", retry_after=RETRY_AFTER)
    staff(request)


def _queue(store: Store) -> tuple[int, float]:
    """How many submissions wait, and how long the oldest has waited (0 when none does)."""
    length, oldest = queue_length_and_oldest(store)
    return length, 0.0 if oldest is None else max(0.0, time.time() - oldest)


def check(startup: Startup) -> dict[str, Any]:
    """Each part's state, and the whole: ok, preparing (the problems are not ready yet) or failing."""
    store = startup.store
    writable, problem = True, ""
    try:
        with store.tx() as db:  # a real write, as a submission's: a full disk or a read-only file fails here
            note_health(db, time.time())
    except Exception as exc:
        writable, problem = False, f"{type(exc).__name__}: {exc}"
    try:
        length, oldest = _queue(store)
    except Exception:  # a store that cannot even be read: its error is already in "store"
        length, oldest = 0, 0.0
    body: dict[str, Any] = {
        "status": "ok",
        "problems": startup.state,
        "store": {"writable": writable, "error": problem},
        "queue": {"length": length, "oldest_seconds": round(oldest, 3)},
    }
    service = startup.service
    if service is None:
        body["status"] = "failing" if startup.error is not None else "preparing"
        body["workers"] = {"configured": None, "alive": 0, "states": {}}
        body["sandbox"] = {"mode": None, "ready": False, "error": "not started"}
        return body
    team = service.workers
    states = team.states()
    alive = sum(1 for state in states if state != "stopped")
    sandbox_error = team.pool.health()
    body["workers"] = {"configured": len(states), "alive": alive, "states": _tally(states)}
    body["sandbox"] = {"mode": team.pool.isolation.mode, "ready": not sandbox_error, "error": sandbox_error}
    if not writable or alive < len(states) or sandbox_error:
        body["status"] = "failing"
    return body


def _tally(states: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(("idle", "compiling", "running", "stopped"), 0)
    for state in states:
        counts[state] = counts.get(state, 0) + 1
    return counts


async def healthz(request: Request) -> Response:
    _allowed(request)
    body = await run_in_threadpool(check, _startup(request))
    return json_response(body, 200 if body["status"] == "ok" else 503, {"Cache-Control": "no-store"})


def exposition(startup: Startup, telemetry: Telemetry) -> str:
    """The whole ``/metrics`` text: what is counted since the start, then the gauges read now."""
    length, oldest = _queue(startup.store)
    out = [*head("tilejudge_queue_length", "gauge", "Submissions waiting to be judged.")]
    out.append(f"tilejudge_queue_length {number(length)}")
    out += head("tilejudge_queue_oldest_age_seconds", "gauge", "How long the oldest queued submission has waited.")
    out.append(f"tilejudge_queue_oldest_age_seconds {number(oldest)}")
    out += head("tilejudge_preparing", "gauge", "1 while the problems' cases are prepared at start, else 0.")
    out.append(f"tilejudge_preparing {number(startup.service is None)}")
    out += head("tilejudge_workers", "gauge", "Judging threads by state (idle, compiling, running, stopped).")
    states = _tally(startup.service.workers.states()) if startup.service is not None else _tally([])
    for state, count in states.items():
        out.append(f"tilejudge_workers{labels(('state',), (state,))} {number(count)}")
    out += telemetry.lines()
    return "\n".join(out) + "\n"


async def metrics(request: Request) -> Response:
    _allowed(request)
    text = await run_in_threadpool(exposition, _startup(request), request.app.state.telemetry)
    return PlainTextResponse(text, headers={"Content-Type": TEXT_FORMAT, "Cache-Control": "no-store"})


ROUTES = [Route("/healthz", healthz, methods=["GET"]), Route("/metrics", metrics, methods=["GET"])]


class Observed:
    """ASGI middleware, outermost: each request's latency by its route's template (``/api/v1/submissions/{sid}``,
    never the id itself, so the series stay few) and one log line once its answer has ended."""

    def __init__(self, app: ASGIApp, telemetry: Telemetry) -> None:
        self.app = app
        self.telemetry = telemetry

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = [500]  # what the client gets when the app fails before it answers

        async def sent(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sent)
        finally:
            route = scope.get("route")
            template = str(getattr(route, "path", "")) or "(none)"
            client = scope.get("client")
            self.telemetry.request(
                scope.get("method", ""),
                scope.get("path", ""),
                template,
                status[0],
                time.perf_counter() - began,
                str(client[0]) if client else "",
            )
