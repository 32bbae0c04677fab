"""``/staff/shadow``: the jury's view of a shadowing (``shadow.py``): where this judge and the primary's differ.

Differences first, with both verdicts and the cases that differ, then what could
not be judged here (no such team, problem or language; files that could not be
taken), what is still waiting and what agrees: ``shadow_compare.compare``, the
one rule the ``shadow --report`` file follows too, downloadable here as JSON or
CSV. The page listens to the pages' event stream (``/live``, staff see the whole
log): a ``shadow`` event (the primary's side) or a local judgement redraws the
table. Anyone but staff is told the page does not exist, as the other staff
pages do.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .access import service_of
from .event_stream import last_event
from .http_errors import not_found
from .pages import Seen, page, render, secure_headers
from .shadow_compare import as_csv, as_json, compare, summary
from .store_shadow import followed

FORMATS = {"json": ("application/json", as_json), "csv": ("text/csv; charset=utf-8", as_csv)}


def _staff(who: Seen) -> None:
    if not who.user.staff:
        raise not_found("page")


@page
async def shadow_page(request: Request, who: Seen) -> Response:
    _staff(who)
    service = service_of(request)
    since = last_event(service)  # before the rows are read: a change after them comes as an event
    rows = await run_in_threadpool(compare, service.store)
    kept = followed(service.store)
    return render(
        request,
        "shadow.html",
        who=who,
        rows=rows,
        totals=summary(rows),
        primary=kept[0] if kept else None,
        since=since,
    )


@page
async def shadow_download(request: Request, who: Seen) -> Response:
    _staff(who)
    fmt = request.path_params["fmt"]
    if fmt not in FORMATS:
        raise not_found("format")
    media, write = FORMATS[fmt]
    rows = await run_in_threadpool(compare, service_of(request).store)
    headers = secure_headers() | {"Content-Disposition": f'attachment; filename="shadow.{fmt}"'}
    return Response(write(rows), media_type=media, headers=headers)


ROUTES = [
    Route("/staff/shadow", shadow_page),
    Route("/staff/shadow.{fmt}", shadow_download),
]
