"""The clarifications page: a student or team asks the jury (a class's teacher) and reads the answers; staff read
the questions, the unanswered first, and answer each to its asker or to everyone, or announce.

Plain forms with the session's CSRF token, so it works without JavaScript (a post, then the page again); with it,
the page's event stream (``/live``) brings a new question or answer into an open page at once (``static/live.js``
fetches the page again and swaps its list, unless an answer is being typed in it). What a viewer sees and what is
refused is the workflow's (``workflow/clarifications.py``), as for the API; a problem's page shows that problem's
part of the same list and the same form (``templates/clarifications_part.html``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from .access import service_of
from .event_stream import last_event
from .http_errors import ApiError
from .inputs import path_id
from .pages import Form, Seen, check_csrf, page, page_error, read_form, refused, render
from .refusals import Refused
from .service import Service
from .workflow import MAX_TEXT, announce, answer, ask, listed, open_problems, recipient


def context(service: Service, who: Seen, problem: str | None = None) -> dict[str, Any]:
    """What the list and the form need, on this page or a problem's (``problem``: that problem's part)."""
    shown = [
        {"name": n, "label": service.site.problems[n].label, "title": service.problems[n].title}
        for n in open_problems(service, who.user)
    ]
    return {
        "clars": listed(service, who.user, problem),
        "labels": {p["name"]: p["label"] for p in shown},
        "clar_problems": shown,
        "max_text": MAX_TEXT,
        "since": last_event(service),
    }


def _page(request: Request, who: Seen, status: int = 200, message: str = "", form: Form | None = None) -> Response:
    fields = form.fields if form else {}
    kept = {"text": fields.get("text", ""), "problem": fields.get("problem", ""), "to": fields.get("to", "")}
    service = service_of(request)
    return render(request, "clarifications.html", status, who=who, message=message, kept=kept, **context(service, who))


@page
async def index(request: Request, who: Seen) -> Response:
    return _page(request, who)


@page
async def post(request: Request, who: Seen) -> Response:
    """A question (a student or team) or an announcement (staff), then the page it was sent from."""
    service = service_of(request)
    form = await read_form(request)
    try:
        check_csrf(who, form)
        text, problem = form.fields.get("text", ""), form.fields.get("problem") or None
        if who.user.staff:
            made = announce(service, who.user, text, problem, recipient(service, form.fields.get("to", "").strip()))
        else:
            made = ask(service, who.user, text, problem)
    except (ApiError, Refused) as caught:
        exc = caught if isinstance(caught, ApiError) else page_error(caught)
        return refused(_page(request, who, exc.status, exc.message, form), exc)
    back = (
        f"/problems/{problem}" if problem and form.fields.get("back") == f"/problems/{problem}" else "/clarifications"
    )
    return RedirectResponse(f"{back}#c{made}", status_code=303)


@page
async def reply(request: Request, who: Seen) -> Response:
    """Staff's answer to one question: to its asker, or to everyone (the question shown with it if asked to)."""
    service = service_of(request)
    form = await read_form(request)
    try:
        check_csrf(who, form)
        question = path_id(request.path_params["cid"], "clarification")
        to_all = form.fields.get("to") == "all"
        publish = form.fields.get("publish") == "yes"
        made = answer(service, who.user, question, form.fields.get("text", ""), to_all=to_all, publish=publish)
    except (ApiError, Refused) as caught:
        exc = caught if isinstance(caught, ApiError) else page_error(caught)
        return refused(_page(request, who, exc.status, exc.message), exc)
    return RedirectResponse(f"/clarifications#c{made}", status_code=303)


ROUTES = [
    Route("/clarifications", index, methods=["GET"]),
    Route("/clarifications", post, methods=["POST"]),
    Route("/clarifications/{cid}/answer", reply, methods=["POST"]),
]
