"""Server-sent events, the one loop every stream of the service is: the event log as frames, resumable.

The routes are ``events.py``'s (the API's) and ``pages_live.py``'s (the pages'); both come here.

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
from collections.abc import AsyncIterator, Callable

from starlette.requests import Request

from .access import service_of, still_allowed
from .feedback import event_view
from .inputs import integer
from .queue import FINAL
from .service import Service
from .store import User
from .store_submissions import problem_of, state_of

KEEPALIVE = 15.0  # seconds between comments on a quiet stream, so proxies keep it open
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def since(request: Request) -> int:
    """The id a stream starts after: ``Last-Event-ID`` on a reconnect, else ``since``, else the log's start."""
    header = request.headers.get("last-event-id")
    field = "Last-Event-ID" if header else "since"
    return max(0, integer(header or request.query_params.get("since"), field, 0) or 0)


def frame(service: Service, row: object, user: User) -> str:
    """One event as an SSE frame, shown as ``feedback.event_view`` lets ``user`` see it."""
    data = json.loads(row["data"])  # type: ignore[index]
    problem = data.get("problem") or _problem_of(service, row["submission_id"])  # type: ignore[index]
    shown = event_view(row["type"], data, service.policy(problem), service.sample_keys(problem), user)  # type: ignore[index]
    return f"id: {row['id']}\nevent: {row['type']}\ndata: {json.dumps(shown)}\n\n"  # type: ignore[index]


def _problem_of(service: Service, sid: int | None) -> str:
    return problem_of(service.store, sid) if sid else ""


Rows = Callable[[int], list]  # the events after an id, in order, as many as one read may take


async def stream(
    request: Request, user: User, after: int, rows: Rows, ended: Callable[[int], bool]
) -> AsyncIterator[str]:
    """The frames of ``rows`` after ``after`` as they are logged, a keep-alive comment on a quiet stream; it ends when
    the client goes, ``ended(last id sent)`` says nothing more will come, or the session its cookie named ends (the
    bell rings when one does). Every stream of the service is this loop:
    the API's (one submission, or the whole log for staff) and the pages' (the viewer's own submissions)."""
    service = service_of(request)
    last_sent = time.monotonic()
    yield "retry: 2000\n\n"
    while True:
        ticket = service.bell.ticket()
        if not still_allowed(request) or service.bell.closed:  # its session ended, or the server stops
            return
        batch = rows(after)
        for row in batch:
            yield frame(service, row, user)
            after = row["id"]
            last_sent = time.monotonic()
        if batch:
            continue
        if ended(after) or await request.is_disconnected():
            return
        if time.monotonic() - last_sent >= KEEPALIVE:
            yield ": keep-alive\n\n"
            last_sent = time.monotonic()
        await service.bell.wait(KEEPALIVE, ticket)


def judged(service: Service, submission: int) -> Callable[[int], bool]:
    """A submission's stream ends once its judging ended and no event of it is left after the last one sent."""

    def ended(after: int) -> bool:
        state = state_of(service.store, submission)
        finished = state is None or state in FINAL
        return finished and not service.store.events_after(after, submission, 1)

    return ended


def never(after: int) -> bool:
    """The end rule of a stream that follows the log for as long as its client stays."""
    return False


def last_event(service: Service) -> int:
    """The newest event's id: where a page rendered now starts listening."""
    return service.store.last_event_id()
