"""A stored submission as JSON for one viewer: its state, queue place, progress and the result the policy lets them see.

Names and texts are the stored strings; JSON escapes them, and a page
(issue 36) escapes them again where it renders them.
"""

from __future__ import annotations

import json
from typing import Any

from .feedback import report_view
from .queue import FINAL, State, position
from .refusals import NotFound
from .service import Service, iso
from .store import Row, User
from .store_submissions import Filters, listed, submission_with_author
from .store_submissions import current_result as stored_result


def visible_row(service: Service, sid: int, viewer: User) -> Row:
    """The submission if ``viewer`` may see it; another student's is refused as ``NotFound``, exactly as a missing
    one (a 404 on the API and the pages alike)."""
    row = submission_with_author(service.store, sid)
    if row is None or not (viewer.staff or row["user_id"] == viewer.id):
        raise NotFound("no such submission")
    return row


def listed_rows(service: Service, viewer: User, filters: Filters, limit: int) -> list[Row]:
    """The submissions ``viewer`` may see that pass ``filters``, newest first, at most ``limit``: the API's list
    and the pages' both come here."""
    return listed(service.store, None if viewer.staff else viewer.id, filters, limit)


def current_result(service: Service, sid: int) -> Row | None:
    return stored_result(service.store, sid)


def submission_view(service: Service, row: Row, viewer: User, full: bool = True) -> dict[str, Any]:
    """The submission as ``viewer`` sees it; ``full`` adds the result's groups and cases (a list shows less)."""
    files = json.loads(row["files"])
    view: dict[str, Any] = {
        "id": row["id"],
        "user": row["user_name"],
        "problem": row["problem"],
        "language": row["language"],
        "files": [{"name": f["name"], "size": f["size"], "sha256": f["sha256"]} for f in files],
        "submitted": iso(row["submitted"]),
        "late": row["late_minutes"] is not None,
        "late_minutes": row["late_minutes"],
        "state": row["state"],
        "attempt": row["attempt"],
        "queue_position": position(service.store, row["id"]) if full and row["state"] == State.QUEUED else None,
        "cases_done": row["cases_done"],
        "cases_total": row["cases_total"],
        "verdict": None,
        "score": None,
        "max_score": None,
    }
    if row["state"] == State.ERROR:
        view["error"] = row["error"] if viewer.staff else "a judge error: a teacher can rejudge it"
    result = current_result(service, row["id"]) if row["state"] in FINAL else None
    if result is not None:
        view |= {"verdict": result["verdict"], "score": result["score"], "max_score": result["max_score"]}
        view["judged"] = iso(result["judged"])
        if full:
            report = json.loads(result["report"])
            view["result"] = report_view(
                report, service.policy(row["problem"]), service.sample_keys(row["problem"]), viewer
            )
    return view
