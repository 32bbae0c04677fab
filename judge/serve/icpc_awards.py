"""The ICPC Contest API's awards, as the resolver reads them: winner, medals, first to solve, group winners.

Computed from the board the viewer sees (``board.contest_board``): the
frozen one for teams and the public, the live one for the jury, so an award
never tells a frozen result; the spec asks that an award during the contest
be what it would be if the contest ended now. Medals go by rank, the site's
``medals`` rule (``site.yaml``, the ICPC's usual 4 gold, 4 silver, 4 bronze):
a team whose rank is within the first ``gold`` ranks gets gold, and so on, so
tied teams get the same medal; a team that solved nothing gets none. First
to solve a problem is the team of the earliest accepted submission, and stays
empty while a submission made earlier still waits for its (visible) verdict.
"""

from __future__ import annotations

from typing import Any

from .board import contest_board
from .icpc_objects import group_members, team_ids
from .service import Service
from .standing import stands
from .store_submissions import attempts_at
from .store_teams import groups

MEDALS = (
    ("gold-medal", "Gold medal winner"),
    ("silver-medal", "Silver medal winner"),
    ("bronze-medal", "Bronze medal winner"),
)


def awards(service: Service, frozen_from: float | None) -> list[dict[str, Any]]:
    """Every award the contest gives, with the teams holding it as of now (``[]``: nobody yet)."""
    ids = team_ids(service)
    scored = [row for row in contest_board(service, frozen_from) if row["solved"] > 0]
    found = [_award("winner", "Contest winner", [row for row in scored if row["rank"] == 1], ids)]
    low = 0
    for (ident, citation), count in zip(MEDALS, service.site.medals):
        found.append(_award(ident, citation, [r for r in scored if low < r["rank"] <= low + count], ids))
        low += count
    for name, entry in service.site.problems.items():
        first = _first_to_solve(service, name, frozen_from)
        found.append(
            {"id": f"first-to-solve-{name}", "citation": f"First to solve problem {entry.label}", "team_ids": first}
        )
    members = group_members(service)
    for group in groups(service.store):
        inside = [row for row in scored if group.id in members.get(row["user_id"], ())]
        best = [row for row in inside if row["rank"] == inside[0]["rank"]] if inside else []
        found.append(_award(f"group-winner-{group.id}", f"Winner of {group.name}", best, ids))
    return found


def _award(ident: str, citation: str, rows: list[dict[str, Any]], ids: dict[int, str]) -> dict[str, Any]:
    return {"id": ident, "citation": citation, "team_ids": [ids.get(r["user_id"], str(r["user_id"])) for r in rows]}


def _first_to_solve(service: Service, problem: str, frozen_from: float | None) -> list[str]:
    """The team of the earliest accepted submission of ``problem`` whose verdict the viewer sees; ``[]`` when none
    is, or when one made before it has no verdict the viewer may see yet (it may be the first)."""
    for row in attempts_at(service.store, problem):
        if not stands(row.verdict) or (frozen_from is not None and row.submitted >= frozen_from):
            return []
        if row.verdict == "AC":
            return [team_ids(service).get(row.user_id, str(row.user_id))]
    return []
