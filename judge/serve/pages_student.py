"""The pages a student works in: the problems with statement, limits, samples and the submit form, and their
submissions, live.

Submitting is a plain multipart form (a file, or code pasted with a file
name), so it works without JavaScript; the script only picks the language
from a chosen file's extension. The form goes through the workflow's
``accept_submission``, the API's own checks in the API's order, so an oversized file, a language the
site does not take, a closed contest or the rate limit is the API's answer,
shown on the form itself, and nothing is stored.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ..core.run_limits import time_limit
from ..lang import LANGUAGES
from ..model import Problem
from .access import service_of
from .event_stream import last_event
from .http_errors import ApiError, not_found
from .inputs import integer
from .intake import Parts, from_form
from .page_shared import NOSCRIPT_REFRESH, samples, status_text
from .pages import Form, Seen, check_csrf, page, page_error, read_form, refused, render
from .queue import FINAL, State, positions
from .refusals import Refused
from .service import Service
from .statement import statement_view
from .store import User
from .store_submissions import current_verdicts_of
from .views import Filters, listed_rows, submission_view
from .workflow import MAX_TEXT, accept_submission, listed, open_problems


def _languages(service: Service) -> list[dict[str, Any]]:
    return [lang for lang in service.languages() if lang["installed"]]


def _limits(service: Service, problem: Problem) -> dict[str, Any]:
    times = {name: time_limit(problem, name) for name in service.site.languages}
    return {"time": problem.limits.time, "memory": problem.limits.memory_mib, "times": times}


def _best(service: Service, user: User) -> dict[str, str]:
    """Each problem's best current verdict of the viewer's own submissions: AC if any, else the latest."""
    best: dict[str, str] = {}
    for problem, verdict in current_verdicts_of(service.store, user.id):
        if best.get(problem) != "AC":
            best[problem] = verdict
    return best


@page
async def problems(request: Request, who: Seen) -> Response:
    service = service_of(request)
    shown = [
        {
            "name": n,
            "label": service.site.problems[n].label,
            "title": service.problems[n].title,
            "limits": _limits(service, service.problems[n]),
        }
        for n in open_problems(service, who.user)
    ]
    return render(request, "problems.html", who=who, problems=shown, best=_best(service, who.user))


def _problem_page(request: Request, who: Seen, name: str, status: int = 200, **form: Any) -> Response:
    service = service_of(request)
    if name not in open_problems(service, who.user):
        raise not_found("problem")
    problem = service.problems[name]
    return render(
        request,
        "problem.html",
        status,
        who=who,
        name=name,
        entry=service.site.problems[name],
        problem=problem,
        statement=statement_view(problem.statement),  # its setters' notes: the template shows them to staff only
        limits=_limits(service, problem),
        samples=samples(service, name, statement=True),
        languages=_languages(service),
        form=form,
        clars=listed(service, who.user, name),  # the problem's clarifications, and the form to ask about it
        labels={name: service.site.problems[name].label},
        clar_problem=name,
        max_text=MAX_TEXT,
        since=last_event(service),
    )


@page
async def problem(request: Request, who: Seen) -> Response:
    return _problem_page(request, who, request.path_params["name"])


@page
async def submit(request: Request, who: Seen) -> Response:
    name = request.path_params["name"]
    service = service_of(request)
    fields: dict[str, str] = {}
    try:
        form = await read_form(request)
        fields = form.fields
        check_csrf(who, form)
        parts = _parts(name, form)
        sid = accept_submission(service, who.user, parts.problem, parts.language, parts.files)
    except (ApiError, Refused) as caught:
        exc = caught if isinstance(caught, ApiError) else page_error(caught)
        shown = _problem_page(
            request,
            who,
            name,
            exc.status,
            message=exc.message,
            language=fields.get("language", ""),
            code=fields.get("code", ""),
            filename=fields.get("filename", ""),
        )
        return refused(shown, exc)  # a 413 of a body left unread ends the connection; a 429 says when to retry
    return RedirectResponse(f"/submissions?new={sid}#s{sid}", status_code=303)


def _parts(name: str, form: Form) -> Parts:
    """The form's file, or its pasted code under the file name given (else ``main`` and the language's extension)."""
    language = form.fields.get("language", "")
    uploads = [(filename, data) for field, filename, data in form.files if field == "file"]
    code = form.fields.get("code", "")
    if not uploads and code.strip():
        filename = form.fields.get("filename", "").strip()
        if not filename:
            if language not in LANGUAGES:
                raise ApiError(422, "unprocessable", "choose the language of the pasted code", "language")
            if not LANGUAGES[language].extensions:
                raise ApiError(422, "unprocessable", "give the pasted code a file name", "filename")
            filename = "main" + LANGUAGES[language].extensions[0]
        uploads = [(filename, code.replace("\r\n", "\n").encode("utf-8"))]
    if not uploads:
        raise ApiError(400, "bad_request", "choose a file or paste your code", "files")
    return from_form({"problem": name, "language": language}, uploads)


def _listed(service: Service, rows: list[Any], user: User) -> list[dict[str, Any]]:
    shown = []
    places = positions(service.store) if any(row["state"] == State.QUEUED for row in rows) else {}
    for row in rows:
        view = submission_view(service, row, user, full=False)
        if row["state"] == State.QUEUED:
            view["queue_position"] = places.get(row["id"])
        view["status"] = status_text(view)
        view["submitted_at"] = row["submitted"]
        shown.append(view)
    return shown


FILTERS = ("problem", "verdict", "user", "state", "late")
PAGE = 100


@page
async def submissions(request: Request, who: Seen) -> Response:
    """The viewer's own submissions; staff see everyone's, with filters (problem, verdict, student, state, late)."""
    service = service_of(request)
    q = request.query_params
    filters = Filters(
        **{key: q.get(key, "") for key in ("problem", "verdict", "user", "state")},
        late=q.get("late") == "yes",
        before=integer(q.get("before"), "before"),
    )
    rows = listed_rows(service, who.user, filters, PAGE + 1)
    shown = _listed(service, rows[:PAGE], who.user)
    more = {k: v for k, v in q.items() if k in FILTERS and v}
    return render(
        request,
        "submissions.html",
        who=who,
        rows=shown,
        since=last_event(service),
        filters=more,
        problems=list(service.site.problems),
        states=[state.value for state in State],
        new=q.get("new", ""),
        older=shown[-1]["id"] if len(rows) > PAGE else None,
        paged=bool(q.get("before")),
        waiting=any(row["state"] not in FINAL for row in shown),
        refresh=NOSCRIPT_REFRESH,
    )


ROUTES = [
    Route("/problems", problems),
    Route("/problems/{name}", problem),
    Route("/problems/{name}/submit", submit, methods=["POST"]),
    Route("/submissions", submissions),
]
