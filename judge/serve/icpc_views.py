"""The ICPC Contest API's collections as one account sees them: what the endpoints and the event feed of ``icpc.py``
both answer with.

A team sees its own submissions, judgements and runs, everyone the rest; the jury sees everything. Judgements and
runs are built from ``feedback``'s views of results and case events, so the ICPC API never shows more than
``/api/v1`` does: under ``verdict`` feedback no runs and no longest run time.
"""

from __future__ import annotations

import json
import time
from typing import Any

from . import icpc_objects as objects
from . import store_submissions as stored
from .board import frozen_for
from .feedback import event_view, report_view
from .icpc_awards import awards
from .service import Service
from .store import User
from .workflow import open_problems


def _visible_submissions(service: Service, user: User) -> list[Any]:
    return stored.submissions_by(service.store, None if user.staff else user.id)


def judgement_seen(service: Service, user: User, row: Any, attempt: int, started: float | None, result: Any) -> Any:
    """An attempt as ``user`` may see it: built from ``feedback.report_view`` of its result, as ``/api/v1`` shows it."""
    if result is None:
        return objects.judgement(service, row["id"], attempt, started, None, None)
    policy, samples = service.policy(row["problem"]), service.sample_keys(row["problem"])
    shown = report_view(json.loads(result["report"]), policy, samples, user)
    return objects.judgement(service, row["id"], attempt, started, result["judged"], shown)


def run_seen(service: Service, user: User, row: Any, event: Any) -> dict[str, Any] | None:
    """A case's event as a run, built from ``feedback.event_view``: none where the policy hides the cases."""
    policy, samples = service.policy(row["problem"]), service.sample_keys(row["problem"])
    return objects.run(service, event, event_view("runs", json.loads(event["data"]), policy, samples, user))


def _judgements(service: Service, user: User) -> list[dict[str, Any]]:
    rows = {row["id"]: row for row in _visible_submissions(service, user)}
    found = []
    for result in stored.all_results(service.store):
        if result["submission_id"] in rows:
            row = rows[result["submission_id"]]
            found.append(judgement_seen(service, user, row, result["attempt"], result["started"], result))
    for row in rows.values():
        if row["state"] in ("compiling", "running"):  # the attempt under way: started, not yet decided
            found.append(judgement_seen(service, user, row, row["attempt"], row["started"], None))
    return found


def _runs(service: Service, user: User) -> list[dict[str, Any]]:
    rows = {row["id"]: row for row in _visible_submissions(service, user)}
    judgements = {j["id"] for j in _judgements(service, user)}
    found = []
    for event in service.store.events_of_type("runs"):
        row = rows.get(event["submission_id"])
        shown = run_seen(service, user, row, event) if row is not None else None
        if shown is not None and shown["judgement_id"] in judgements:
            found.append(shown)
    return found


def collection(service: Service, user: User, kind: str) -> list[dict[str, Any]] | None:
    """A collection of the API (``teams``, ``judgements``...) as ``user`` sees it; None: the API has no such one."""
    if kind == "languages":
        return objects.languages(service)
    if kind == "problems":
        return [p for p in objects.problems(service) if p["id"] in open_problems(service, user)]
    if kind == "teams":
        return objects.teams(service)
    if kind == "organizations":
        return objects.organizations(service)
    if kind == "groups":
        return objects.groups(service)
    if kind == "awards":
        return awards(service, frozen_for(service, user, time.time()))
    if kind == "judgement-types":
        return objects.judgement_types()
    if kind == "submissions":
        return [objects.submission(service, row) for row in _visible_submissions(service, user)]
    if kind == "judgements":
        return _judgements(service, user)
    if kind == "runs":
        return _runs(service, user)
    return None
