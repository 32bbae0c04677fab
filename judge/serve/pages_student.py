"""The pages a student works in: the problems with statement, limits, samples and the submit form, and their
submissions, live.

Submitting is a plain multipart form (a file, or code pasted with a file
name), so it works without JavaScript; the script only picks the language
from a chosen file's extension. The form goes through ``api_submissions.take``,
the API's own checks in the API's order, so an oversized file, a language the
site does not take, a closed contest or the rate limit is the API's answer,
shown on the form itself, and nothing is stored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ..lang import LANGUAGES
from ..model import Problem, answer_path, input_path
from .access import service_of
from .api_submissions import open_problems, store_submission
from .http_errors import ApiError, not_found
from .inputs import integer
from .intake import Parts, from_form
from .pages import Form, Seen, check_csrf, page, read_form, refused, render
from .pages_live import last_event
from .queue import positions
from .service import Service
from .statement import statement_view
from .store import User
from .views import Filters, listed_rows, submission_view

SAMPLE_SHOWN = 4096  # bytes of a sample's input or answer on its problem's page
FINAL = ("done", "error")
NOSCRIPT_REFRESH = 5  # seconds: without JavaScript a page with work being judged reloads itself this often


def status_text(view: dict[str, Any]) -> str:
    """A submission's state in words, as the page's script writes it too (static/live.js)."""
    state = view["state"]
    if state == "queued":
        place = view.get("queue_position")
        return f"queued (#{place} in line)" if place else "queued"
    if state == "running":
        return f"running {view['cases_done']}/{view['cases_total']}"
    if state == "error":
        return "judge error"
    if state == "done":
        return view["verdict"] or "done"
    return state


def _read_start(path: Path) -> str:
    try:
        with path.open("rb") as f:
            data = f.read(SAMPLE_SHOWN + 1)
    except OSError:
        return ""
    text = data[:SAMPLE_SHOWN].decode("utf-8", errors="replace")
    return text + ("\n…" if len(data) > SAMPLE_SHOWN else "")


def _shown(path: Path, statement: bool) -> Path:
    """What a statement shows of a sample file: its ``.in.statement`` / ``.ans.statement`` beside it when the package
    has one (BAPCtools' way to show a sample other than as it is judged), else the file itself."""
    shown = path.with_name(path.name + ".statement")
    return shown if statement and shown.is_file() else path


def samples(service: Service, name: str, statement: bool = False) -> list[dict[str, str]]:
    """The sample cases' input and answer: the student's already, shown on the problem's page (``statement``: as the
    statement shows them) and beside a failed sample (as judged)."""
    problem = service.problems[name]
    keys = service.sample_keys(name)
    return [
        {
            "key": case.key,
            "name": case.name,
            "input": _read_start(_shown(input_path(problem, case), statement)),
            "answer": _read_start(_shown(answer_path(problem, case), statement)),
        }
        for case in problem.cases
        if case.key in keys
    ]


def _languages(service: Service) -> list[dict[str, Any]]:
    return [lang for lang in service.languages() if lang["installed"]]


def _limits(service: Service, problem: Problem) -> dict[str, Any]:
    times = {name: problem.limits.time_for(name) for name in service.site.languages}
    return {"time": problem.limits.time, "memory": problem.limits.memory_mib, "times": times}


def _best(service: Service, user: User) -> dict[str, str]:
    """Each problem's best current verdict of the viewer's own submissions: AC if any, else the latest."""
    rows = service.store.read(
        "SELECT s.problem, r.verdict FROM submissions s JOIN results r ON r.submission_id = s.id AND r.current = 1 "
        "WHERE s.user_id = ? ORDER BY s.id",
        (user.id,),
    )
    best: dict[str, str] = {}
    for row in rows:
        if best.get(row["problem"]) != "AC":
            best[row["problem"]] = row["verdict"]
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
        sid = store_submission(service, who.user, _parts(name, form))
    except ApiError as exc:
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
    places = positions(service.store) if any(row["state"] == "queued" for row in rows) else {}
    for row in rows:
        view = submission_view(service, row, user, full=False)
        if row["state"] == "queued":
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
