"""The site's data as the ICPC Contest API (ccs-specs 2023-06) spells it: one builder per kind of object.

Our ids become the API's strings: a submission's id, a team's kept team id
(``team_ids.py``), a problem's site name; a judgement is one attempt at a submission
(``<submission>-<attempt>``), so a rejudge is a new judgement and the old one
stays, as the spec has it; a run is one case's event in the log. Times are
ISO 8601 with milliseconds, contest times ``h:mm:ss.sss`` from the start.
Verdicts map to the spec's judgement types, the judge's RE being its RTE.
A contest's ``freeze`` is the spec's ``scoreboard_freeze_duration``; its
board is frozen from then until the end, when it thaws by itself.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from ..lang import LANGUAGES
from .refusals import NotFound
from .service import Service
from .store import Row, User
from .store_teams import TeamRow, groups_by_user
from .store_teams import groups as stored_groups
from .store_teams import organizations as stored_organizations
from .store_teams import team as stored_team
from .store_teams import teams as stored_teams
from .store_teams import teams_not_logged as stored_teams_not_logged
from .workflow.clarifications import seen

VERSION = "2023-06"
VERSION_URL = "https://ccs-specs.icpc.io/2023-06/contest_api"
# (id, name, penalty, solved): the judge's verdicts, JE included (a judge error costs the team nothing)
JUDGEMENT_TYPES = (
    ("AC", "correct", False, True),
    ("WA", "wrong answer", True, False),
    ("TLE", "time limit exceeded", True, False),
    ("MLE", "memory limit exceeded", True, False),
    ("OLE", "output limit exceeded", True, False),
    ("RTE", "run-time error", True, False),
    ("PE", "presentation error", True, False),
    ("CE", "compiler error", False, False),
    ("JE", "judging error", False, False),
)
TYPE_OF = {
    "AC": "AC",
    "WA": "WA",
    "TLE": "TLE",
    "MLE": "MLE",
    "OLE": "OLE",
    "RE": "RTE",
    "PE": "PE",
    "CE": "CE",
    "JE": "JE",
}


def contest_id(service: Service) -> str:
    """The site's ``id`` (kept from the contest package it was made from), else the site folder's name as an
    identifier the spec allows (letters, digits, _ . -, at most 36)."""
    if service.site.contest_id:
        return service.site.contest_id
    slug = re.sub(r"[^A-Za-z0-9_.-]", "_", service.site.root.name)[:36].strip(".-") or "contest"
    return slug if re.match(r"[A-Za-z0-9_]", slug) else "c" + slug[:35]


def abstime(moment: float | None) -> str | None:
    if moment is None:
        return None
    return datetime.fromtimestamp(moment, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def reltime(seconds: float) -> str:
    sign = "-" if seconds < 0 else ""
    millis = round(abs(seconds) * 1000)
    hours, rest = divmod(millis, 3600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{sign}{hours}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def _start(service: Service) -> float:
    return service.site.start.timestamp() if service.site.start else 0.0


def contest(service: Service) -> dict[str, Any]:
    site = service.site
    assert site.start is not None and site.end is not None  # a contest site has both (site.py)
    found = {
        "id": contest_id(service),
        "name": site.title,
        "formal_name": site.title,
        "start_time": abstime(site.start.timestamp()),
        "duration": reltime((site.end - site.start).total_seconds()),
        "scoreboard_type": "pass-fail",
        "penalty_time": site.penalty,
    }
    if site.freeze:
        found["scoreboard_freeze_duration"] = reltime(site.freeze * 60)
    return found


def moments(service: Service) -> dict[str, float]:
    """When the contest's state changes by the clock alone: it starts, its board freezes (where it has a freeze;
    never before the start) and it ends, when the board thaws and the results are final."""
    site = service.site
    found = {"started": _start(service)}
    if site.frozen_at is not None:
        found["frozen"] = site.frozen_at
    if site.end is not None:
        found["ended"] = site.end.timestamp()
    return found


def state(service: Service, now: float) -> dict[str, Any]:
    passed = {name: abstime(moment) for name, moment in moments(service).items() if now >= moment}
    ended = passed.get("ended")
    return {
        "started": passed.get("started"),
        "ended": ended,
        "frozen": passed.get("frozen"),
        "thawed": ended if "frozen" in moments(service) else None,  # the board thaws at the end
        "finalized": ended,
        "end_of_updates": None,
    }


def judgement_types() -> list[dict[str, Any]]:
    return [{"id": i, "name": n, "penalty": p, "solved": s} for i, n, p, s in JUDGEMENT_TYPES]


def languages(service: Service) -> list[dict[str, Any]]:
    return [
        {
            "id": name,
            "name": LANGUAGES[name].title or name,
            "entry_point_required": False,  # the judge finds the entry point (docs/languages.md)
            "extensions": [ext.lstrip(".") for ext in LANGUAGES[name].extensions],
        }
        for name in service.site.languages
    ]


def problems(service: Service) -> list[dict[str, Any]]:
    return [
        {
            "id": name,
            "label": entry.label,
            "name": service.problems[name].title,
            "ordinal": ordinal,
            "time_limit": round(service.problems[name].limits.time, 3),
            "test_data_count": len(service.problems[name].cases),
        }
        | ({"rgb": entry.rgb} if entry.rgb else {})
        | ({"color": entry.color} if entry.color else {})
        for ordinal, (name, entry) in enumerate(service.site.problems.items())
    ]


def team(row: TeamRow) -> dict[str, Any]:
    """A team: its id is its kept team id (``team_ids.py``), also its label."""
    ident = row.team_id or str(row.user_id)
    found = {
        "id": ident,
        "name": row.name,
        "label": ident,
        "display_name": row.display or None,
        "group_ids": list(row.group_ids),
    }
    if row.organization_id:
        found["organization_id"] = row.organization_id
    return found


def teams(service: Service) -> list[dict[str, Any]]:
    return [team(row) for row in stored_teams(service.store)]


def team_of(service: Service, user_id: int) -> dict[str, Any] | None:
    row = stored_team(service.store, user_id)
    return team(row) if row is not None else None


def teams_not_logged(service: Service) -> list[dict[str, Any]]:
    """The teams the event log does not tell of (``store_teams.teams_not_logged``): a new client of the feed gets
    them with the objects it gets first, so every team of the endpoint is in the feed."""
    return [team(row) for row in stored_teams_not_logged(service.store)]


def team_ids(service: Service) -> dict[int, str]:
    """Every team's id by its account's number."""
    return {row.user_id: row.team_id or str(row.user_id) for row in stored_teams(service.store)}


def user_of_team(service: Service, team_id: str) -> int | None:
    """The account whose team id is ``team_id``, or None."""
    found = [user for user, ident in team_ids(service).items() if ident == team_id]
    return found[0] if found else None


def group_members(service: Service) -> dict[int, list[str]]:
    """Each team's groups by its account's number."""
    return groups_by_user(service.store)


def organizations(service: Service) -> list[dict[str, Any]]:
    return [
        {"id": o.id, "name": o.name, "formal_name": o.formal_name or o.name, "country": o.country}
        for o in stored_organizations(service.store)
    ]


def groups(service: Service) -> list[dict[str, Any]]:
    return [{"id": g.id, "name": g.name} for g in stored_groups(service.store)]


def submission(service: Service, row: Row) -> dict[str, Any]:
    cid = contest_id(service)
    return {
        "id": str(row["id"]),
        "language_id": row["language"],
        "problem_id": row["problem"],
        "team_id": team_ids(service).get(row["user_id"], str(row["user_id"])),
        "time": abstime(row["submitted"]),
        "contest_time": reltime(row["submitted"] - _start(service)),
        "entry_point": None,
        "files": [
            {
                "href": f"contests/{cid}/submissions/{row['id']}/files",
                "filename": "files.zip",
                "mime": "application/zip",
            }
        ],
    }


def judgement(
    service: Service, sid: int, attempt: int, started: float | None, judged: float | None, shown: dict[str, Any] | None
) -> dict[str, Any]:
    """One attempt; finished (a type and an end) when its result is stored. ``shown`` is that result as the viewer
    may see it (``feedback.report_view``): its longest run time is given only where its cases are shown."""
    begin = started if started is not None else (judged if judged is not None else 0.0)
    data: dict[str, Any] = {
        "id": f"{sid}-{attempt}",
        "submission_id": str(sid),
        "start_time": abstime(begin),
        "start_contest_time": reltime(begin - _start(service)),
    }
    if judged is not None and shown is not None:
        data |= {
            "judgement_type_id": TYPE_OF.get(shown.get("verdict") or "", "JE"),
            "end_time": abstime(judged),
            "end_contest_time": reltime(judged - _start(service)),
        }
        if "cases" in shown:
            times = (case.get("time") or 0.0 for case in shown["cases"])
            data["max_run_time"] = round(max(times, default=0.0), 3)
    return data


def run(service: Service, event: Row, shown: dict[str, Any]) -> dict[str, Any] | None:
    """A case's event as a run of its judgement; None for a case not run (skipped) or one the viewer is not shown
    (``shown`` is the event as ``feedback.event_view`` gives it to them: no verdict, no run)."""
    kind = TYPE_OF.get(shown.get("verdict") or "")
    if kind is None:
        return None
    return {
        "id": str(event["id"]),
        "judgement_id": f"{shown['id']}-{shown['attempt']}",
        "ordinal": int(shown.get("index") or 0),
        "judgement_type_id": kind,
        "time": abstime(event["time"]),
        "contest_time": reltime(event["time"] - _start(service)),
        "run_time": round(float(shown.get("time") or 0.0), 3),
    }


def scoreboard(service: Service, board: list[dict[str, Any]], now: float) -> dict[str, Any]:
    rows, ids = [], team_ids(service)
    for row in board:
        cells = []
        for name in service.site.problems:
            cell = row["problems"].get(name, {"solved": False, "judged": 0, "pending": 0, "time": None})
            shown = {
                "problem_id": name,
                "num_judged": cell["judged"],
                "num_pending": cell["pending"],
                "solved": cell["solved"],
            }
            if cell["solved"]:
                shown["time"] = cell["time"]
            cells.append(shown)
        rows.append(
            {
                "rank": row["rank"],
                "team_id": ids.get(row["user_id"], str(row["user_id"])),
                "score": {"num_solved": row["solved"], "total_time": row["penalty"]}
                | ({"time": row["last"]} if row["solved"] else {}),  # the last solve's minute, the tie-breaker
                "problems": cells,
            }
        )
    return {
        "time": abstime(now),
        "contest_time": reltime(now - _start(service)),
        "state": state(service, now),
        "rows": rows,
    }


def clarification(service: Service, user: User, ident: int) -> dict[str, Any] | None:
    """A clarification as ``user`` may see it (``workflow.seen``), None for one that is not theirs: a team's question
    names it as ``from_team_id``, a jury message to one team names it as ``to_team_id`` (both null: to everyone), and
    an answer's ``reply_to_id`` is shown only to those who may read the question."""
    try:
        found = seen(service, user, ident)
    except NotFound:
        return None
    ids = team_ids(service)
    return {
        "id": str(found.id),
        "from_team_id": ids.get(found.from_user, str(found.from_user)) if found.from_user is not None else None,
        "to_team_id": ids.get(found.to_user, str(found.to_user)) if found.from_user is None and found.to_user else None,
        "reply_to_id": str(found.reply_to) if found.reply_to is not None else None,
        "problem_id": found.problem,
        "text": found.text,
        "time": abstime(found.time),
        "contest_time": reltime(found.time - _start(service)),
    }
