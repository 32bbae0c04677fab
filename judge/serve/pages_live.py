"""``/live``: one event stream per open page, the viewer's own submissions' events (everyone's for staff), and the
clarifications that concern the viewer or everyone (``store_clarifications.live_events``).

A page may show many unfinished submissions; a browser keeps at most six
connections to a server, so one stream per submission would stall a busy
list. This stream is the event log after the id the page was rendered at
(``since``; ``Last-Event-ID`` on a reconnect, which browsers send on their
own), narrowed to the viewer's submissions, each frame passed through the
same ``feedback.event_view`` as the API's streams. It does not end when a
submission is judged: a rejudge later shows on a page left open. The page's
script reads each event as "this submission changed" and fetches its state
from the API, so nothing here decides what a student may see.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from .access import service_of
from .event_stream import HEADERS, never, since, stream
from .pages import Redirect, seen
from .service import Service
from .store import User
from .store_clarifications import live_events

BATCH = 200


def _events(service: Service, user: User, after: int) -> list:
    if user.staff:
        return service.store.events_after(after, None, BATCH)
    return live_events(service.store, user.id, after, BATCH)


async def live(request: Request) -> Response:
    try:
        who = seen(request)
    except Redirect:
        return Response("log in first", status_code=401, media_type="text/plain")
    service = service_of(request)
    rows = stream(request, who.user, since(request), lambda after: _events(service, who.user, after), never)
    return StreamingResponse(rows, media_type="text/event-stream", headers=HEADERS)


ROUTES = [Route("/live", live)]
