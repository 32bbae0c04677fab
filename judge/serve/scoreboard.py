"""``/api/v1/scoreboard``: the board as its viewer sees it; what it counts and how it ranks is ``board.py``'s."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .access import json_response, service_of, viewer
from .board import board_for


async def scoreboard(request: Request) -> Response:
    return json_response(board_for(service_of(request), viewer(request)))


ROUTES = [Route("/api/v1/scoreboard", scoreboard)]
