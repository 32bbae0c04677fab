"""``/api/v1`` server-sent events: one submission's progress as it happens, and the whole log for staff.

The stream itself (resumable with ``Last-Event-ID``, each event shown as ``feedback.event_view`` lets its viewer
see it, ending with the judging) is ``event_stream.py``'s, shared with the pages' ``/live``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from .access import service_of, staff, viewer
from .event_stream import HEADERS, judged, never, since, stream
from .inputs import path_id
from .views import visible_row


async def submission_events(request: Request) -> Response:
    user = viewer(request)
    service = service_of(request)
    sid = path_id(request.path_params["sid"], "submission")
    visible_row(service, sid, user)
    rows = stream(
        request, user, since(request), lambda after: service.store.events_after(after, sid), judged(service, sid)
    )
    return StreamingResponse(rows, media_type="text/event-stream", headers=HEADERS)


async def all_events(request: Request) -> Response:
    user = staff(request)
    service = service_of(request)
    rows = stream(request, user, since(request), lambda after: service.store.events_after(after, None), never)
    return StreamingResponse(rows, media_type="text/event-stream", headers=HEADERS)


ROUTES = [
    Route("/api/v1/submissions/{sid}/events", submission_events),
    Route("/api/v1/events", all_events),
]
