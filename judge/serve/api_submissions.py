"""``/api/v1`` languages, problems and submissions: submit, read one, list, source, result history, rejudge.

The handlers parse the request and answer; what a submission or a rejudge does is the workflow's
(``workflow/``), whose refusals rise to the app and are answered as ``http_errors.api_error`` says."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.formparsers import MultiPartParser
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..core.run_limits import time_limit
from .access import json_response, service_of, staff, viewer
from .http_errors import ApiError, bad_request, unprocessable
from .inputs import integer, path_id
from .intake import Parts, from_form, from_json
from .limits import MAX_BODY, MAX_FILES, read_body
from .origin import require_json
from .queue import FINAL, State
from .statement_parts import split
from .store_submissions import results_of
from .views import Filters, listed_rows, submission_view, visible_row
from .workflow import accept_submission, open_problems, rejudge_submission
from .workflow import rejudge_problem as rejudge_problem_of

PAGE = 50
MAX_PAGE = 500


async def languages(request: Request) -> Response:
    viewer(request)
    service = service_of(request)
    # the first call probes each compiler's version (a process each): off the event loop
    return json_response({"languages": await run_in_threadpool(service.languages)})


async def problems(request: Request) -> Response:
    user = viewer(request)
    service = service_of(request)
    shown = []
    for name in open_problems(service, user):
        entry, problem = service.site.problems[name], service.problems[name]
        try:
            statement = problem.statement.read_text(encoding="utf-8", errors="replace")
        except OSError:
            statement = ""
        if not user.staff:  # the setters' notes (how the data was made) are the staff's
            statement = split(statement).public
        shown.append(
            {
                "id": name,
                "label": entry.label,
                "title": problem.title,
                "time_limit": problem.limits.time,
                "memory_limit_mib": problem.limits.memory_mib,
                "time_limits": {name: time_limit(problem, name) for name in service.site.languages},
                "max_score": problem.max_score,
                "cases": len(problem.cases),
                "feedback": entry.feedback,
                "statement": statement,
            }
        )
    return json_response({"problems": shown})


async def _parts(request: Request) -> Parts:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    body = await read_body(request.stream(), request.headers.get("content-length"))
    if kind == "multipart/form-data":

        async def once() -> Any:
            yield body

        try:
            form = await MultiPartParser(
                request.headers, once(), max_files=MAX_FILES + 1, max_part_size=MAX_BODY
            ).parse()
        except Exception as exc:  # the parser's own errors: a malformed form is the client's
            raise bad_request(f"a malformed multipart form: {exc}") from None
        fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
        uploads = [
            (v.filename or "", await v.read()) for k, v in form.multi_items() if k == "files" and not isinstance(v, str)
        ]
        return from_form(fields, uploads)
    if kind not in ("application/json", ""):
        raise ApiError(415, "unsupported_media_type", "send application/json or multipart/form-data")
    require_json(request)  # no type at all: only from a script with a token, never a browser's own form
    return from_json(body)


async def submit(request: Request) -> Response:
    user = viewer(request)
    service = service_of(request)
    wait = _wait(request, service.site.limits.wait)
    parts = await _parts(request)
    sid = accept_submission(service, user, parts.problem, parts.language, parts.files)
    if wait > 0:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and not service.bell.closed:  # a stopping server answers at once
            ticket = service.bell.ticket()
            row = visible_row(service, sid, user)
            if row["state"] in FINAL:
                return json_response(submission_view(service, row, user), 200)
            await service.bell.wait(deadline - time.monotonic(), ticket)
    row = visible_row(service, sid, user)
    status = 200 if row["state"] in FINAL else 202
    return json_response(submission_view(service, row, user), status, {"Location": f"/api/v1/submissions/{sid}"})


def _wait(request: Request, most: float) -> float:
    text = request.query_params.get("wait")
    if text is None:
        return 0.0
    try:
        wait = float(text)
    except ValueError:
        raise bad_request("wait must be a number of seconds", "wait") from None
    if not 0 <= wait <= most:
        raise unprocessable(f"wait must be between 0 and {most:g} seconds", "wait")
    return wait


def _id(request: Request) -> int:
    return path_id(request.path_params["sid"], "submission")


async def one(request: Request) -> Response:
    user = viewer(request)
    service = service_of(request)
    return json_response(submission_view(service, visible_row(service, _id(request), user), user))


async def listing(request: Request) -> Response:
    """Newest first, ``limit`` at a time; ``next`` is the cursor of the following page (null at the end)."""
    user = viewer(request)
    service = service_of(request)
    q = request.query_params
    if q.get("state") and q["state"] not in set(State):
        raise unprocessable(f"state must be one of {', '.join(State)}", "state")
    limit = min(integer(q.get("limit"), "limit", PAGE) or 0, MAX_PAGE)
    before = integer(q.get("cursor"), "cursor")
    keys = ("problem", "language", "state", "verdict", "user")
    filters = Filters(**{key: q.get(key, "") for key in keys}, before=before)
    rows = listed_rows(service, user, filters, max(1, limit) + 1)
    page = rows[: max(1, limit)]
    shown = [submission_view(service, row, user, full=False) for row in page]
    return json_response({"submissions": shown, "next": page[-1]["id"] if len(rows) > len(page) else None})


async def source(request: Request) -> Response:
    """The files as sent: ``content`` when it is UTF-8 text, always ``content_b64``; the owner's and staff's only."""
    user = viewer(request)
    service = service_of(request)
    row = visible_row(service, _id(request), user)
    files = []
    for entry in json.loads(row["files"]):
        data = service.sources.get(entry["sha256"])
        try:
            text: str | None = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        files.append({"name": entry["name"], "content": text, "content_b64": base64.b64encode(data).decode()})
    return json_response({"id": row["id"], "files": files})


async def history(request: Request) -> Response:
    """Every result the submission had, oldest first, ``current`` marking the one that stands."""
    user = viewer(request)
    service = service_of(request)
    row = visible_row(service, _id(request), user)
    results = results_of(service.store, row["id"])
    from .feedback import report_view
    from .service import iso

    shown = [
        {
            "attempt": r["attempt"],
            "judged": iso(r["judged"]),
            "current": bool(r["current"]),
            **report_view(
                json.loads(r["report"]), service.policy(row["problem"]), service.sample_keys(row["problem"]), user
            ),
        }
        for r in results
    ]
    return json_response({"id": row["id"], "results": shown})


async def rejudge_one(request: Request) -> Response:
    service = service_of(request)
    who = staff(request)
    row = visible_row(service, _id(request), who)
    return json_response({"rejudged": rejudge_submission(service, who, row["id"])}, 202)


async def rejudge_problem(request: Request) -> Response:
    """Every submission of a problem (``?verdict=`` narrows it to those whose current verdict is that one)."""
    who = staff(request)
    service = service_of(request)
    name, verdict = request.path_params["name"], request.query_params.get("verdict")
    return json_response({"rejudged": rejudge_problem_of(service, who, name, verdict)}, 202)


ROUTES = [
    Route("/api/v1/languages", languages),
    Route("/api/v1/problems", problems),
    Route("/api/v1/problems/{name}/rejudge", rejudge_problem, methods=["POST"]),
    Route("/api/v1/submissions", submit, methods=["POST"]),
    Route("/api/v1/submissions", listing, methods=["GET"]),
    Route("/api/v1/submissions/{sid}", one),
    Route("/api/v1/submissions/{sid}/source", source),
    Route("/api/v1/submissions/{sid}/results", history),
    Route("/api/v1/submissions/{sid}/rejudge", rejudge_one, methods=["POST"]),
]
