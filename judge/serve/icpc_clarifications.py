"""The ICPC Contest API's ``clarifications`` (ccs-specs 2023-06): listed, one by id, and ``POST`` as each role may.

A team sees its own questions, the jury's answers to it and every message to all teams; the jury sees all
(``workflow.listed``, the same rule as ``/api/v1`` and the pages). The list filters on its ID properties as the
spec asks (``?to_team_id=`` for null). A team posts with ``team_clar``: ``text`` and an optional ``problem_id``,
``from_team_id`` only its own, and never ``id``, ``to_team_id``, ``time``, ``contest_time`` nor a ``reply_to_id``.
The jury posts with ``admin_clar``: ``time`` required, no ``id``; a ``reply_to_id`` answers a question (to its team,
or with no ``to_team_id`` to all), a ``from_team_id`` passes a question on for a team, and neither sends a message
of the jury's own to one team or to all. A refusal of the workflow rises to the app, which answers it as
``http_errors.api_error`` says, as ``icpc._refusal`` does for a submission.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from . import icpc_objects as objects
from .access import service_of, viewer
from .http_errors import ApiError, bad_request, not_found
from .inputs import json_object, path_id
from .limits import read_body
from .names import ShownJSON as JSONResponse
from .origin import require_json
from .service import Service
from .store import User
from .store_clarifications import account_of
from .workflow import announce, answer, ask, ask_for, listed, seen

TIME_SPAN = 366 * 86400.0  # seconds a jury message's given time may be from now
FILTERS = ("from_team_id", "to_team_id", "reply_to_id", "problem_id")


def _contest(request: Request) -> tuple[Service, User]:
    service, user = service_of(request), viewer(request)
    if service.site.kind != "contest" or request.path_params["cid"] != objects.contest_id(service):
        raise not_found("contest")
    return service, user


def _shown(service: Service, user: User) -> list[dict[str, Any]]:
    """Oldest first, as every collection of the API is."""
    found = (objects.clarification(service, user, c.id) for c in sorted(listed(service, user), key=lambda c: c.id))
    return [one for one in found if one is not None]


async def clarifications(request: Request) -> Response:
    service, user = _contest(request)
    found = _shown(service, user)
    for key in FILTERS:
        if key in request.query_params:
            wanted = request.query_params[key] or None  # empty: the property is null
            found = [one for one in found if one[key] == wanted]
    return JSONResponse(found)


async def clarification(request: Request) -> Response:
    service, user = _contest(request)
    found = objects.clarification(service, user, path_id(request.path_params["id"], "clarification"))
    if found is None:
        raise not_found("clarification")
    return JSONResponse(found)


async def post(request: Request) -> Response:
    service, user = _contest(request)
    body = await read_body(request.stream(), request.headers.get("content-length"))
    require_json(request)
    data = json_object(body)
    for key in ("id", "contest_time") if user.staff else ("id", "to_team_id", "time", "contest_time"):
        if key in data:
            raise bad_request(f"{key} is the server's to set", key)
    for key in ("from_team_id", "to_team_id", "reply_to_id", "problem_id"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise bad_request(f"{key} must be an identifier (a string) or null", key)
    text, problem = data.get("text"), data.get("problem_id")
    if not isinstance(text, str):
        raise bad_request("text must be a string", "text")
    ident = _staff_post(service, user, data, text, problem) if user.staff else _team_post(service, user, data, text)
    where = f"/api/contests/{objects.contest_id(service)}/clarifications/{ident}"
    return JSONResponse(objects.clarification(service, user, ident), status_code=201, headers={"Location": where})


def _team_post(service: Service, user: User, data: dict[str, Any], text: str) -> int:
    own = objects.team_ids(service).get(user.id)
    if data.get("from_team_id") not in (None, own):
        raise ApiError(403, "forbidden", "a team asks as itself", "from_team_id")
    if data.get("reply_to_id") is not None:
        raise bad_request("a team's question replies to none", "reply_to_id")
    return ask(service, user, text, data.get("problem_id"))


def _staff_post(service: Service, user: User, data: dict[str, Any], text: str, problem: Any) -> int:
    if not isinstance(data.get("time"), str):
        raise bad_request("time is required of the jury's clarification (admin_clar)", "time")
    try:
        moment = datetime.fromisoformat(data["time"]).timestamp()
    except (ValueError, OverflowError, OSError):
        moment = None
    if moment is None or abs(moment - time.time()) > TIME_SPAN:  # stored, it is shown on every list: a time it can be
        raise bad_request("time must be an ISO 8601 time within a year of now", "time")
    sender, addressee = _team(service, data.get("from_team_id"), "from_team_id"), None
    if data.get("to_team_id") is not None:
        addressee = _team(service, data["to_team_id"], "to_team_id")
    if sender is not None and addressee is not None:
        raise bad_request("a message is from a team or to a team, not both: teams do not write to teams", "to_team_id")
    if data.get("reply_to_id") is not None:
        question = seen(service, user, path_id(data["reply_to_id"], "clarification"))
        if sender is not None or (addressee is not None and addressee.id != question.from_user):
            raise ApiError(422, "unprocessable", "an answer goes to the question's team or to all", "to_team_id")
        return answer(service, user, question.id, text, to_all=addressee is None, at=moment)
    if sender is not None:
        return ask_for(service, user, sender, text, problem, at=moment)
    return announce(service, user, text, problem, addressee, at=moment)


def _team(service: Service, team_id: Any, field: str) -> User | None:
    if team_id is None:
        return None
    found = objects.user_of_team(service, team_id)
    account = account_of(service.store, found) if found is not None else None
    if account is None:
        raise ApiError(422, "unprocessable", "no such team", field)
    return account


ROUTES = [
    Route("/api/contests/{cid}/clarifications", clarifications, methods=["GET"]),
    Route("/api/contests/{cid}/clarifications", post, methods=["POST"]),
    Route("/api/contests/{cid}/clarifications/{id}", clarification),
]
