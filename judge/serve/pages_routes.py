"""Every page's route and the stylesheet and script they use, for ``app.make_app`` to add beside the API's."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from . import (
    pages_account,
    pages_board,
    pages_clarifications,
    pages_detail,
    pages_live,
    pages_shadow,
    pages_staff,
    pages_student,
)
from .pages import STATIC, home, login_page, login_post, logout, maybe_seen, render


def page_routes() -> list[BaseRoute]:
    return [
        Route("/", home),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login_post, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        *pages_account.ROUTES,
        *pages_student.ROUTES,
        *pages_detail.ROUTES,
        *pages_live.ROUTES,
        *pages_staff.ROUTES,
        *pages_shadow.ROUTES,
        *pages_board.ROUTES,
        *pages_clarifications.ROUTES,
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


async def http_error(request: Request, exc: HTTPException) -> Response:
    """A page's own 404 or 405 (the API answers its JSON)."""
    message = "no such page" if exc.status_code == 404 else str(exc.detail)
    return render(request, "error.html", exc.status_code, who=maybe_seen(request), message=message)
