"""The scoreboard page: ICPC style for a contest (solved, penalty, tries, first solves), points per problem for a
class; the page refreshes its board every few seconds (static/live.js), so it follows the contest live.

Its data is ``scoreboard.board_for``, the API's own board with the API's
rule on who sees which rows (in a class, a student sees their own row only).
A first solve is the earliest accepted minute on a problem; every team that
solved it in that minute is marked, as ICPC boards do.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .access import service_of
from .board import board_for
from .pages import Seen, page, render


def first_solves(rows: list[dict[str, Any]], problems: list[str]) -> dict[str, int]:
    """Each problem's earliest minute of an accepted submission (contest boards only)."""
    firsts: dict[str, int] = {}
    for row in rows:
        for name, cell in row["problems"].items():
            if cell.get("solved") and (name not in firsts or cell["time"] < firsts[name]):
                firsts[name] = cell["time"]
    return {name: firsts[name] for name in problems if name in firsts}


@page
async def scoreboard(request: Request, who: Seen) -> Response:
    service = service_of(request)
    board = board_for(service, who.user)
    firsts = first_solves(board["rows"], list(board["problems"])) if board["kind"] == "contest" else {}
    titles = {name: service.problems[name].title for name in board["problems"]}
    return render(request, "scoreboard.html", who=who, board=board, firsts=firsts, titles=titles)


ROUTES = [Route("/scoreboard", scoreboard)]
