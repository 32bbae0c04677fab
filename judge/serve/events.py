"""Server-sent events: a submission's progress as it happens, resumable with ``Last-Event-ID``.

The stream is the event log itself (``store.events``), read after the id the
client last saw: a client that reconnects with ``Last-Event-ID`` (browsers do
it on their own) gets exactly what it missed, in order, and nothing twice.
A submission's stream ends once its judging ended and everything up to then
was sent; staff may follow the whole site's log at ``/api/v1/events``, which
does not end (the ICPC event feed will be the same log in its own shape).
Every event passes through ``feedback.event_view``: a student's stream shows
what their submission's page would.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from .access import service_of, staff, viewer
from .feedback import event_view
from .http_errors import bad_request, not_found
from .service import Service
from .store import User
from .views import visible_row

KEEPALIVE = 15.0  # seconds between comments on a quiet stream, so proxies keep it open
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _after(request: Request) -> int:
    text = request.headers.get("last-event-id") or request.query_params.get("since") or "0"
    try:
        return max(0, int(text))
    except ValueError:
        raise bad_request("Last-Event-ID (or since) must be an event id", "Last-Event-ID") from None


def _frame(service: Service, row: object, user: User) -> str:
    data = json.loads(row["data"])  # type: ignore[index]
    problem = data.get("problem") or _problem_of(service, row["submission_id"])  # type: ignore[index]
    shown = event_view(row["type"], data, service.policy(problem), service.sample_names(problem), user)  # type: ignore[index]
    return f"id: {row['id']}\nevent: {row['type']}\ndata: {json.dumps(shown)}\n\n"  # type: ignore[index]


def _problem_of(service: Service, sid: int | None) -> str:
    row = service.store.one("SELECT problem FROM submissions WHERE id = ?", (sid,)) if sid else None
    return row["problem"] if row else ""


async def _stream(request: Request, user: User, after: int, submission: int | None) -> AsyncIterator[str]:
    service = service_of(request)
    last_sent = time.monotonic()
    yield "retry: 2000\n\n"
    while True:
        ticket = service.bell.ticket()
        rows = service.store.events_after(after, submission)
        for row in rows:
            yield _frame(service, row, user)
            after = row["id"]
            last_sent = time.monotonic()
        if rows:
            continue
        if submission is not None:
            state = service.store.one("SELECT state FROM submissions WHERE id = ?", (submission,))
            if state is None or state["state"] in ("done", "error"):
                if not service.store.events_after(after, submission, 1):
                    return
                continue
        if await request.is_disconnected():
            return
        if time.monotonic() - last_sent >= KEEPALIVE:
            yield ": keep-alive\n\n"
            last_sent = time.monotonic()
        await service.bell.wait(KEEPALIVE, ticket)


async def submission_events(request: Request) -> Response:
    user = viewer(request)
    service = service_of(request)
    try:
        sid = int(request.path_params["sid"])
    except ValueError:
        raise not_found("submission") from None
    visible_row(service, sid, user)
    return StreamingResponse(
        _stream(request, user, _after(request), sid), media_type="text/event-stream", headers=HEADERS
    )


async def all_events(request: Request) -> Response:
    user = staff(request)
    return StreamingResponse(
        _stream(request, user, _after(request), None), media_type="text/event-stream", headers=HEADERS
    )


ROUTES = [
    Route("/api/v1/submissions/{sid}/events", submission_events),
    Route("/api/v1/events", all_events),
]
