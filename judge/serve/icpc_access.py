"""The ICPC Contest API's ``access`` endpoint: what the caller may do and which endpoints and properties it sees.

One of the two endpoints the spec requires. The properties listed are those
our builders (``icpc_objects.py``, ``icpc_awards.py``) may send, so a client
reading this learns what to expect; a team sees the same endpoints as the
jury (only its own submissions, judgements and runs in them, and the frozen
board) but runs and run times only where a problem's feedback shows it its
cases, and the capabilities differ: a team submits as itself
(``team_submit``), the jury for any team (``proxy_submit``); a team asks
(``team_clar``), the jury answers and announces (``admin_clar``). Nothing here
changes the contest's clock (no ``contest_start``, ``contest_thaw``).
"""

from __future__ import annotations

from typing import Any

from .feedback import shows_cases
from .service import Service
from .store import User

PROPERTIES: dict[str, tuple[str, ...]] = {
    "contest": (
        "id",
        "name",
        "formal_name",
        "start_time",
        "duration",
        "scoreboard_type",
        "penalty_time",
        "scoreboard_freeze_duration",
    ),
    "judgement-types": ("id", "name", "penalty", "solved"),
    "languages": ("id", "name", "entry_point_required", "extensions"),
    "problems": ("id", "label", "name", "ordinal", "time_limit", "test_data_count"),
    "groups": ("id", "name"),
    "organizations": ("id", "name", "formal_name", "country"),
    "teams": ("id", "name", "label", "display_name", "organization_id", "group_ids"),
    "state": ("started", "ended", "frozen", "thawed", "finalized", "end_of_updates"),
    "submissions": ("id", "language_id", "problem_id", "team_id", "time", "contest_time", "entry_point", "files"),
    "judgements": (
        "id",
        "submission_id",
        "judgement_type_id",
        "start_time",
        "start_contest_time",
        "end_time",
        "end_contest_time",
        "max_run_time",
    ),
    "runs": ("id", "judgement_id", "ordinal", "judgement_type_id", "time", "contest_time", "run_time"),
    "awards": ("id", "citation", "team_ids"),
    "clarifications": (
        "id",
        "from_team_id",
        "to_team_id",
        "reply_to_id",
        "problem_id",
        "text",
        "time",
        "contest_time",
    ),
    "scoreboard": ("time", "contest_time", "state", "rows"),
    "event-feed": ("type", "id", "data", "token"),
}


def access(service: Service, user: User) -> dict[str, Any]:
    """What ``user`` may do and see. Where no problem shows them their cases (every problem's feedback is
    ``verdict``, a contest's default) a team sees no runs and no judgement's ``max_run_time``, so neither is listed."""
    capabilities = ["proxy_submit", "admin_clar"] if user.staff else ["team_submit", "team_clar"]
    cases = any(shows_cases(service.policy(name), user) for name in service.site.problems)
    endpoints = []
    for kind, names in PROPERTIES.items():
        if kind == "runs" and not cases:
            continue
        shown = [name for name in names if cases or name != "max_run_time"]
        endpoints.append({"type": kind, "properties": shown})
    return {"capabilities": capabilities, "endpoints": endpoints}
