"""``/api/v1`` languages, problems and submissions: submit, read one, list, source, result history, rejudge."""

from __future__ import annotations

import base64
import json
import sqlite3
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.formparsers import MultiPartParser
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..lang import LANGUAGES, by_extension
from .access import json_response, service_of, staff, viewer
from .http_errors import ApiError, bad_request, not_found, unprocessable
from .inputs import integer, path_id
from .intake import Parts, from_form, from_json
from .limits import MAX_BODY, MAX_FILES, check_rate, read_body
from .origin import require_json
from .queue import accept, queued_count, requeue
from .service import Service
from .statement_parts import split
from .store import User
from .views import CURRENT_VERDICT, STATES, Filters, listed_rows, submission_view, visible_row

PAGE = 50
MAX_PAGE = 500


def open_problems(service: Service, user: User) -> list[str]:
    """The problems ``user`` may see: all for staff; in a contest, none before its start."""
    site = service.site
    if not user.staff and site.kind == "contest" and site.start and datetime.now(timezone.utc) < site.start:
        return []
    return list(site.problems)


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
                "time_limits": {name: problem.limits.time_for(name) for name in service.site.languages},
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


def _language(service: Service, parts: Parts) -> str:
    if parts.language is None:
        found = by_extension(Path(parts.files[0][0]))
        if found is None:
            raise unprocessable("no language given and none known for this file's extension", "language")
        name = found.name
    elif parts.language in LANGUAGES:
        name = LANGUAGES[parts.language].name
    else:
        raise unprocessable(f"unknown language '{parts.language}' (GET /api/v1/languages lists them)", "language")
    if name not in service.site.languages:
        raise unprocessable(f"the language '{name}' is not allowed on this site", "language")
    if LANGUAGES[name].missing():
        raise unprocessable(f"the language '{name}' is not installed on this server", "language")
    return name


def _late(service: Service, user: User, now: float) -> float | None:
    """Minutes after the user's deadline (their own, else the site's), or None; 409 outside the site's open times."""
    site = service.site
    moment = datetime.fromtimestamp(now, timezone.utc)
    if not user.staff and not site.open_at(moment):
        when = "not open yet" if site.start and moment < site.start else "over"
        raise ApiError(409, "closed", f"the {site.kind} is {when}: no submissions are taken")
    deadline = user.deadline if user.deadline is not None else site.deadline.timestamp() if site.deadline else None
    if deadline is None or now <= deadline or user.staff:
        return None
    return round((now - deadline) / 60, 1)


async def submit(request: Request) -> Response:
    user = viewer(request)
    service = service_of(request)
    wait = _wait(request, service.site.limits.wait)
    parts = await _parts(request)
    sid = store_submission(service, user, parts)
    if wait > 0:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            ticket = service.bell.ticket()
            row = visible_row(service, sid, user)
            if row["state"] in ("done", "error"):
                return json_response(submission_view(service, row, user), 200)
            await service.bell.wait(deadline - time.monotonic(), ticket)
    row = visible_row(service, sid, user)
    status = 200 if row["state"] in ("done", "error") else 202
    return json_response(submission_view(service, row, user), status, {"Location": f"/api/v1/submissions/{sid}"})


def store_submission(service: Service, user: User, parts: Parts) -> int:
    """Check a submission against the site (open, problem, language, rate, queue) and store it whole, files first;
    its id. Every API that takes submissions comes here."""
    now = time.time()
    late = _late(service, user, now)  # a closed contest first: its problems are not to be probed
    if parts.problem not in open_problems(service, user):
        raise ApiError(404, "not_found", f"no such problem '{parts.problem}'", "problem")
    language = _language(service, parts)
    _check_capacity(service, user)
    cases = len(service.problems[parts.problem].cases)
    try:
        files = [
            {"name": name, "sha256": service.sources.put(data), "size": len(data)} for name, data in parts.files
        ]  # written by hash before the row names them
        with service.store.tx() as db:
            _check_capacity(service, user, db)
            sid = accept(db, service.store, user.id, parts.problem, language, files, late, cases)
    except (OSError, sqlite3.OperationalError) as exc:  # a full disk, a store that cannot write: nothing was taken
        raise ApiError(503, "storage", f"the server cannot store submissions now: {exc}", retry_after=60) from None
    service.workers.poke()
    return sid


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


def _check_capacity(service: Service, user: User, db: Any = None) -> None:
    """The per-user rate (not for staff) and the queue's cap; checked before the files are written and again inside
    the transaction that stores the row."""
    if db is None:
        with service.store.tx() as db:
            return _check_capacity(service, user, db)
    if not user.staff:
        check_rate(db, user.id, service.site.limits.per_minute)
    if queued_count(db) >= service.site.limits.queue:
        raise ApiError(503, "queue_full", "the judging queue is full; try again shortly", retry_after=30)


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
    if q.get("state") and q["state"] not in STATES:
        raise unprocessable(f"state must be one of {', '.join(STATES)}", "state")
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
    results = service.store.read("SELECT * FROM results WHERE submission_id = ? ORDER BY id", (row["id"],))
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
    row = visible_row(service, _id(request), staff(request))
    requeue(service.store, [row["id"]], "rejudge")
    service.workers.poke()
    return json_response({"rejudged": [row["id"]]}, 202)


async def rejudge_problem(request: Request) -> Response:
    """Every submission of a problem (``?verdict=`` narrows it to those whose current verdict is that one)."""
    staff(request)
    service = service_of(request)
    name = request.path_params["name"]
    if name not in service.site.problems:
        raise not_found("problem")
    return json_response({"rejudged": rejudge_all(service, name, request.query_params.get("verdict"))}, 202)


def rejudge_all(service: Service, name: str, verdict: str | None = None) -> list[int]:
    """Queue again a problem's judged submissions (those whose current verdict is ``verdict``, if given); their ids.
    The API and the teacher's page both come here."""
    rows = service.store.read(
        "SELECT id FROM submissions WHERE problem = ? AND state IN ('done', 'error') "
        + (f"AND {CURRENT_VERDICT} " if verdict else "")
        + "ORDER BY id",
        (name, verdict) if verdict else (name,),
    )
    ids = [row["id"] for row in rows]
    requeue(service.store, ids, "rejudge")
    for _ in ids[:8]:
        service.workers.poke()
    return ids


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
