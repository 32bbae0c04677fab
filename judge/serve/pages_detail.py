"""One submission's page: its state live, the result its viewer may see, sample diffs, compile output, the checker's
feedback and attachments; for staff the source beside it, the earlier results and a rejudge button.

What is shown is ``views.submission_view`` (so ``feedback.report_view`` and
the problem's policy): a student's secret cases are a verdict, a time and a
memory, nothing the checker said. A failed sample is shown with its input,
and its expected answer beside what the program printed (the report's
excerpt), the first differing line marked: the student has the sample's
data already (the problem's page shows it), and the checker's words on
where the output differs are shown too.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ..grade.view import case_attachments
from .access import service_of
from .event_stream import last_event
from .feedback import case_key
from .http_errors import ApiError
from .inputs import path_id
from .page_shared import NOSCRIPT_REFRESH, samples, status_text
from .pages import Seen, check_csrf, page, read_form, render
from .queue import FINAL, UNDER_WAY
from .sample_diff import line_diff
from .service import Service
from .store_submissions import result_count, results_of
from .views import submission_view, visible_row
from .workflow import rejudge_submission

SOURCE_SHOWN = 256 << 10  # the most of one file a page shows (the API's limit on a file)


def _sid(request: Request) -> int:
    return path_id(request.path_params["sid"], "submission")


def attachments_view(case: dict[str, Any]) -> list[dict[str, Any]]:
    """A case's attachments, decoded and checked again as the grade reports do (images as data: URLs, text as text)."""
    shown = []
    for item in case_attachments(case):
        entry: dict[str, Any] = {"name": item.name, "media_type": item.media_type, "size": len(item.data)}
        if item.is_image:
            entry["url"] = f"data:{item.media_type};base64,{base64.b64encode(item.data).decode()}"
        else:
            entry["text"] = item.data.decode("utf-8", errors="replace")
        shown.append(entry)
    return shown


def failed_sample(data: dict[str, str], case: dict[str, Any]) -> dict[str, Any]:
    """A failed sample as its page shows it: its input and answer (``data``), the verdict and the checker's words, and
    what the program printed beside the answer (``sample_diff``) when the viewer's report holds it; an interactive
    case shows its exchange instead."""
    output = case.get("output")
    return {
        **data,
        "verdict": case["verdict"],
        "message": case.get("message") or "",
        "diff": line_diff(data["answer"], output) if output else None,
        "transcript": case.get("transcript") or "",
    }


def _sources(service: Service, row: Any) -> list[dict[str, str]]:
    files = []
    for entry in json.loads(row["files"]):
        data = service.sources.get(entry["sha256"])[:SOURCE_SHOWN]
        files.append({"name": entry["name"], "text": data.decode("utf-8", errors="replace")})
    return files


def _history(service: Service, sid: int) -> list[Any]:
    return results_of(service.store, sid)


def _judged(service: Service, sid: int) -> int:
    return result_count(service.store, sid)


def judgings_text(state: str, attempts: int, results: int) -> str:
    """How often a submission was judged, in words: the judgings that stored a result, and those a restart or a
    rejudge stopped before they did (the ``attempt`` counter counts both, so "attempt 2" beside one result said
    nothing true)."""
    under_way = 1 if state in UNDER_WAY else 0  # claimed now: counted, not yet stored
    stopped = max(0, attempts - results - under_way)
    words = {0: "not judged yet", 1: "judged once", 2: "judged twice"}.get(results, f"judged {results} times")
    if state not in FINAL:
        words = "being judged" + (f" again ({words} before)" if results else "")
    if stopped:
        words += f"; {stopped} judging{'s' if stopped > 1 else ''} stopped before a result (a restart or a rejudge)"
    return words


@page
async def detail(request: Request, who: Seen) -> Response:
    service = service_of(request)
    row = visible_row(service, _sid(request), who.user)
    view = submission_view(service, row, who.user)
    view["status"] = status_text(view)
    result = view.get("result") or {}
    cases = result.get("cases", [])
    for case in cases:
        case["shown_attachments"] = attachments_view(case)
    sample_data = {s["key"]: s for s in samples(service, row["problem"])} if row["problem"] in service.problems else {}
    failed_samples = [
        failed_sample(sample_data[case_key(case)], case)
        for case in cases
        if case_key(case) in sample_data and case.get("verdict") not in ("AC", "SKIPPED")
    ]
    return render(
        request,
        "submission.html",
        who=who,
        s=view,
        result=result,
        cases=cases,
        failed_samples=failed_samples,
        final=row["state"] in FINAL,
        since=last_event(service),
        policy=service.policy(row["problem"]),
        sources=_sources(service, row),
        history=_history(service, row["id"]) if who.user.staff else [],
        submitted_at=row["submitted"],
        judgings=judgings_text(row["state"], row["attempt"], _judged(service, row["id"])),
        refresh=NOSCRIPT_REFRESH,
    )


@page
async def rejudge(request: Request, who: Seen) -> Response:
    """Staff only: the submission judged again (its history keeps the earlier result); anyone else gets 404."""
    service = service_of(request)
    check_csrf(who, await read_form(request))
    if not who.user.staff:
        raise ApiError(404, "not_found", "no such submission")
    row = visible_row(service, _sid(request), who.user)
    rejudge_submission(service, who.user, row["id"])
    return RedirectResponse(f"/submissions/{row['id']}", status_code=303)


ROUTES = [
    Route("/submissions/{sid}", detail),
    Route("/submissions/{sid}/rejudge", rejudge, methods=["POST"]),
]
