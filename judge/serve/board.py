"""The scoreboard: a class's points per problem, or a contest's ICPC ranking (solved, then penalty time).

A class counts each student's best current score per problem (a rejudge
changes it once its new result is stored, history does not; while it runs,
the last finished result stands: ``standing.py``). A contest counts, per team and problem, the
first accepted submission: solved, its minute since the start plus
``penalty`` minutes for each rejected try before it (a compile error costs
nothing, as in ICPC); teams are ranked by solved, penalty and their last
solve's minute, and share a rank when all three are equal; every team is on the board, those without a
submission too (ranked with the others that solved nothing). Submissions not
yet judged, or judged JE (a judge error), count for nothing and are shown as
pending (one being rejudged counts by its last finished result), as is
everything made in a contest's last ``freeze`` minutes (``site.yaml``) for
anyone but the jury, until the end. Staff's own submissions are not ranked. In a class a
student sees their own row only; in a contest everyone sees the board.
"""

from __future__ import annotations

import time
from collections import defaultdict
from datetime import datetime, timezone
from typing import Any

from .service import Service
from .standing import stands
from .store import User
from .store_accounts import contestants
from .store_submissions import board_rows

FREE = ("CE",)  # a judged verdict that costs no penalty


def _rows(service: Service) -> list[Any]:
    return board_rows(service.store)


def class_board(service: Service) -> list[dict[str, Any]]:
    best: dict[tuple[str, str], float] = {}
    people: dict[str, str] = {}
    for row in _rows(service):
        people[row["name"]] = row["display"]
        if stands(row["verdict"]):
            key = (row["name"], row["problem"])
            best[key] = max(best.get(key, 0.0), row["score"])
    board = [
        {
            "user": name,
            "display": display,
            "problems": {p: best.get((name, p)) for p in service.site.problems},
            "total": round(sum(best.get((name, p), 0.0) for p in service.site.problems), 6),
        }
        for name, display in people.items()
    ]
    return sorted(board, key=lambda row: (-row["total"], row["user"]))


def contest_board(service: Service, frozen_from: float | None = None) -> list[dict[str, Any]]:
    """The ICPC ranking; a submission made from ``frozen_from`` on counts as pending (a frozen board)."""
    start = service.site.start.timestamp() if service.site.start else 0.0
    cells: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    people: dict[str, str] = {}
    ids: dict[str, int] = {}
    for contestant in contestants(service.store):  # every team, with a submission or not
        people[contestant.name], ids[contestant.name] = contestant.display, contestant.id
    for row in _rows(service):
        people[row["name"]] = row["display"]
        ids[row["name"]] = row["user_id"]
        cell = cells[row["name"]].setdefault(
            row["problem"], {"solved": False, "tries": 0, "judged": 0, "pending": 0, "time": None}
        )
        if cell["solved"]:
            continue
        if not stands(row["verdict"]) or (frozen_from is not None and row["submitted"] >= frozen_from):
            cell["pending"] += 1
            continue
        cell["judged"] += 1  # every judged try up to the first accepted one, compile errors too (ICPC's num_judged)
        if row["verdict"] == "AC":
            cell |= {"solved": True, "time": int((row["submitted"] - start) // 60)}
            cell["tries"] += 1
        elif row["verdict"] not in FREE:
            cell["tries"] += 1
    board = []
    for name, display in people.items():
        mine = cells[name]
        solved = [c for c in mine.values() if c["solved"]]
        penalty = sum(c["time"] + service.site.penalty * (c["tries"] - 1) for c in solved)
        board.append(
            {
                "user": name,
                "user_id": ids[name],
                "display": display,
                "solved": len(solved),
                "penalty": penalty,
                "last": max((c["time"] for c in solved), default=None),
                "problems": mine,
            }
        )
    return ranked(board)


def ranked(board: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """ICPC's order: more solved, then less penalty, then the earlier last solve (the minute of the problem solved
    last); teams equal in all three share a rank and the ranks they fill are skipped (two firsts, then a third),
    and among them the order is by name."""

    def standing(row: dict[str, Any]) -> tuple[int, int, int]:
        return (-row["solved"], row["penalty"], row["last"] if row["last"] is not None else 0)

    board.sort(key=lambda row: (*standing(row), row["user"].casefold(), row["user"]))
    for place, row in enumerate(board, start=1):
        tied = place > 1 and standing(board[place - 2]) == standing(row)
        row["rank"] = board[place - 2]["rank"] if tied else place
    return board


def board_for(service: Service, user: User) -> dict[str, Any]:
    """The board as ``user`` may see it: the API's answer and the scoreboard page's data."""
    frozen = frozen_for(service, user, time.time())
    board = contest_board(service, frozen) if service.site.kind == "contest" else class_board(service)
    if service.site.kind == "class" and not user.staff:
        board = [row for row in board if row["user"] == user.name]
    labels = {name: entry.label for name, entry in service.site.problems.items()}
    since = datetime.fromtimestamp(frozen, timezone.utc).isoformat(timespec="seconds") if frozen else None
    return {"kind": service.site.kind, "problems": labels, "rows": board, "frozen_since": since}


def frozen_from(service: Service, now: float) -> float | None:
    """When a contest's board froze (its last ``freeze`` minutes, until the end), or None when it is not frozen now:
    the jury sees every result throughout, everyone else no result of a submission made in the frozen time."""
    site, since = service.site, service.site.frozen_at
    return since if since is not None and site.end is not None and since <= now < site.end.timestamp() else None


def frozen_for(service: Service, user: User, now: float) -> float | None:
    """When the board ``user`` sees froze: never for staff, who always see every result."""
    return None if user.staff else frozen_from(service, now)
