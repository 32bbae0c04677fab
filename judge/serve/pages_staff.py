"""The teachers' and jury's pages: each problem's standing, similarity hints, the grades as ``grade`` writes them,
the class report, and roster import. While submissions are being rejudged their last finished results stand in all
of it (``standing.py``), and the page says how many are pending. Anyone else is told these pages do not exist (404),
as the API does.

A problem's submissions are rejudged by the workflow (``workflow.rejudge_problem``), as the API's are. The
grades and the report are the files of ``grade`` (``grades.py``), served as downloads; the report, a page with its
own script and style, is served sandboxed (an opaque origin: its script cannot read this site's cookies or call its
API) and may load nothing. Roster import is the workflow's (``workflow.import_roster``), as the API's is: the same
CSV, the same checks, tokens shown once.
"""

from __future__ import annotations

from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from .access import service_of
from .grades import FORMATS, document, graded, similarity
from .http_errors import ApiError, not_found
from .pages import Seen, check_csrf, page, page_error, read_form, render, secure_headers
from .refusals import Refused
from .session_ends import end_all
from .standing import rejudging
from .store_accounts import user_named
from .store_submissions import counts_by_problem
from .workflow import import_roster, rejudge_problem, unanswered

FILE_NAMES = {"csv": "grades.csv", "json": "grades.json", "xml": "junit.xml", "html": "report.html"}
REPORT_CSP = (
    "sandbox allow-scripts; default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
)


def _staff(who: Seen) -> None:
    if not who.user.staff:
        raise not_found("page")


def _problem(request: Request) -> str:
    name = request.path_params["name"]
    if name not in service_of(request).site.problems:
        raise not_found("problem")
    return name


@page
async def index(request: Request, who: Seen) -> Response:
    _staff(who)
    return _overview(request, who, None)


def _overview(request: Request, who: Seen, ended: str | None) -> Response:
    service = service_of(request)
    counts = counts_by_problem(service.store)
    shown = []
    for name, entry in service.site.problems.items():
        best = graded(service, name)
        shown.append(
            {
                "name": name,
                "label": entry.label,
                "title": service.problems[name].title,
                "counts": counts.get(name),
                "solved": sum(1 for row in best if row["verdict"] == "AC"),
                "graded": len(best),
                "rejudging": sum(rejudging(service.store, name).values()),
            }
        )
    again = sum(p["rejudging"] for p in shown)
    waiting = unanswered(service)
    return render(request, "staff.html", who=who, problems=shown, rejudging=again, ended=ended, unanswered=waiting)


@page
async def similar(request: Request, who: Seen) -> Response:
    _staff(who)
    service = service_of(request)
    name = _problem(request)
    rows = graded(service, name)
    found = await run_in_threadpool(similarity, service, rows) if rows else {"pairs": [], "more": 0}
    ids = {row["user_name"]: row["id"] for row in rows}
    return render(request, "similar.html", who=who, name=name, found=found, ids=ids)


@page
async def grades(request: Request, who: Seen) -> Response:
    _staff(who)
    name, fmt = _problem(request), request.path_params["fmt"]
    if fmt not in FORMATS:
        raise not_found("format")
    text = await run_in_threadpool(document, service_of(request), name, fmt)
    headers = secure_headers()
    headers["X-Tilejudge-Rejudging"] = str(sum(rejudging(service_of(request).store, name).values()))
    if fmt == "html":
        headers["Content-Security-Policy"] = REPORT_CSP
    else:
        headers["Content-Disposition"] = f'attachment; filename="{name}-{FILE_NAMES[fmt]}"'
    return Response(text, media_type=FORMATS[fmt], headers=headers)


@page
async def roster(request: Request, who: Seen) -> Response:
    _staff(who)
    return render(request, "roster.html", who=who, made=[], updated=[], message="")


@page
async def roster_post(request: Request, who: Seen) -> Response:
    _staff(who)
    form = await read_form(request)
    check_csrf(who, form)
    body = next((data for field, _, data in form.files if field == "file"), None)
    if body is None:
        body = form.fields.get("csv", "").replace("\r\n", "\n").encode("utf-8")
    try:
        if not body.strip():
            raise ApiError(400, "bad_request", "choose a roster file or paste its lines")
        made, updated = import_roster(service_of(request).store, who.user, form.fields.get("role", "student"), body)
    except (ApiError, Refused) as exc:
        error = exc if isinstance(exc, ApiError) else page_error(exc)
        return render(request, "roster.html", error.status, who=who, made=[], updated=[], message=error.message)
    return render(request, "roster.html", 201 if made else 200, who=who, made=made, updated=updated, message="")


@page
async def rejudge(request: Request, who: Seen) -> Response:
    """A problem's judged submissions queued again (the form's verdict narrows them), as ``POST
    /api/v1/problems/NAME/rejudge`` does; back to the list of them."""
    _staff(who)
    form = await read_form(request)
    check_csrf(who, form)
    name = _problem(request)
    verdict = form.fields.get("verdict") or None
    rejudge_problem(service_of(request), who.user, name, verdict)
    return RedirectResponse(f"/submissions?problem={quote(name)}", status_code=303)


@page
async def log_out_everywhere(request: Request, who: Seen) -> Response:
    """An admin's "log out everywhere" for an account (``session_ends.end_all``); anyone else is told it does not
    exist."""
    if who.user.role != "admin":
        raise not_found("page")
    form = await read_form(request)
    check_csrf(who, form)
    name = form.fields.get("name", "").strip()
    service = service_of(request)
    account = user_named(service.store, name)
    if account is None:
        raise not_found("account")
    ended = end_all(service, account.id)
    return _overview(request, who, f"{ended} session(s) of {name} ended.")


ROUTES = [
    Route("/staff", index),
    Route("/staff/rejudge/{name}", rejudge, methods=["POST"]),
    Route("/staff/similar/{name}", similar),
    Route("/staff/grades/{name}.{fmt}", grades),
    Route("/staff/roster", roster, methods=["GET"]),
    Route("/staff/roster", roster_post, methods=["POST"]),
    Route("/staff/logout-everywhere", log_out_everywhere, methods=["POST"]),
]
