"""``/api/v1/clarifications``: questions to the jury or teacher, their answers and announcements, as JSON.

``GET`` lists what the caller sees (``workflow.listed``: staff the unanswered questions first); ``POST`` asks (a
student or team: ``text``, optional ``problem``), answers (staff: ``reply_to``, ``to`` ``asker`` or ``all``,
``publish`` to show the question with an answer to all) or announces (staff, no ``reply_to``: ``to`` a student's or
team's name, or everyone). Refusals rise to the app, which answers them as ``http_errors.api_error`` says.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .access import json_response, service_of, viewer
from .http_errors import bad_request
from .inputs import path_id
from .intake import read_json
from .service import iso
from .workflow import Clarification, announce, answer, ask, listed, recipient, seen

FIELDS = frozenset(("text", "problem", "reply_to", "to", "publish"))


def view(found: Clarification) -> dict[str, Any]:
    shown = asdict(found)
    shown["time"] = iso(found.time)
    return shown


async def clarifications(request: Request) -> Response:
    who = viewer(request)
    problem = request.query_params.get("problem") or None
    return json_response([view(found) for found in listed(service_of(request), who, problem)])


async def clarification(request: Request) -> Response:
    who = viewer(request)
    return json_response(view(seen(service_of(request), who, path_id(request.path_params["cid"], "clarification"))))


async def post(request: Request) -> Response:
    who = viewer(request)
    data = await read_json(request)
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise bad_request(f"unknown field {unknown[0]!r}: a clarification has {', '.join(sorted(FIELDS))}", unknown[0])
    service = service_of(request)
    reply_to, to, publish = data.get("reply_to"), data.get("to"), data.get("publish", False)
    if reply_to is not None and (not isinstance(reply_to, int) or isinstance(reply_to, bool)):
        raise bad_request("reply_to must be a clarification's id (a number)", "reply_to")
    if to is not None and not isinstance(to, str):
        raise bad_request("to must be 'asker', 'all' or a student's or team's name", "to")
    if not isinstance(publish, bool):
        raise bad_request("publish must be true or false", "publish")
    if reply_to is not None:
        if to not in (None, "asker", "all"):
            raise bad_request("an answer goes to its asker or to all", "to")
        made = answer(service, who, reply_to, data.get("text"), to_all=to == "all", publish=publish)
    elif who.staff:
        made = announce(service, who, data.get("text"), data.get("problem"), recipient(service, to))
    else:
        if to is not None:
            raise bad_request("a question goes to the jury: no 'to'", "to")
        made = ask(service, who, data.get("text"), data.get("problem"))
    headers = {"Location": f"/api/v1/clarifications/{made}"}
    return json_response(view(seen(service, who, made)), 201, headers)


ROUTES = [
    Route("/api/v1/clarifications", clarifications, methods=["GET"]),
    Route("/api/v1/clarifications", post, methods=["POST"]),
    Route("/api/v1/clarifications/{cid}", clarification),
]
