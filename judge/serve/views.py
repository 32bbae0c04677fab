"""A stored submission as JSON for one viewer: its state, queue place, progress and the result the policy lets them see.

Names and texts are the stored strings; JSON escapes them, and a page
(issue 36) escapes them again where it renders them.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from .feedback import report_view
from .queue import CURRENT_VERDICT, FINAL, State, position
from .refusals import NotFound
from .service import Service, iso
from .store import User


def visible_row(service: Service, sid: int, viewer: User) -> sqlite3.Row:
    """The submission if ``viewer`` may see it; another student's is refused as ``NotFound``, exactly as a missing
    one (a 404 on the API and the pages alike)."""
    row = service.store.one(
        "SELECT submissions.*, users.name AS user_name FROM submissions JOIN users ON users.id = submissions.user_id "
        "WHERE submissions.id = ?",
        (sid,),
    )
    if row is None or not (viewer.staff or row["user_id"] == viewer.id):
        raise NotFound("no such submission")
    return row


@dataclass(frozen=True)
class Filters:
    """What a list of submissions is narrowed to (an empty one: not narrowed). ``user`` and ``late`` are the
    staff's: anyone else's list holds their own submissions only, whatever it asks."""

    problem: str = ""
    language: str = ""
    state: str = ""
    verdict: str = ""  # the current result's
    user: str = ""  # the account's name
    late: bool = False
    before: int | None = None  # ids below this one: the next page


def listed_rows(service: Service, viewer: User, filters: Filters, limit: int) -> list[sqlite3.Row]:
    """The submissions ``viewer`` may see that pass ``filters``, newest first, at most ``limit``: the API's list
    and the pages' both come here."""
    where, args = ["1 = 1"], []
    if not viewer.staff:
        where.append("submissions.user_id = ?")
        args.append(viewer.id)
    else:
        if filters.user:
            where.append("users.name = ?")
            args.append(filters.user)
        if filters.late:
            where.append("submissions.late_minutes IS NOT NULL")
    for column in ("problem", "language", "state"):
        if getattr(filters, column):
            where.append(f"submissions.{column} = ?")
            args.append(getattr(filters, column))
    if filters.verdict:
        where.append(CURRENT_VERDICT)
        args.append(filters.verdict)
    if filters.before is not None:
        where.append("submissions.id < ?")
        args.append(filters.before)
    return service.store.read(
        "SELECT submissions.*, users.name AS user_name FROM submissions JOIN users ON users.id = submissions.user_id "
        f"WHERE {' AND '.join(where)} ORDER BY submissions.id DESC LIMIT ?",
        (*args, limit),
    )


def current_result(service: Service, sid: int) -> sqlite3.Row | None:
    return service.store.one("SELECT * FROM results WHERE submission_id = ? AND current = 1", (sid,))


def submission_view(service: Service, row: sqlite3.Row, viewer: User, full: bool = True) -> dict[str, Any]:
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
