"""``/api/v1`` accounts: log in and out (a session for pages), who am I, users, roster import, API tokens.

Who may make whom is the workflow's (``workflow/accounts.py``): an admin any
role; a teacher or jury member students and teams, never another teacher. An
account made without a password gets a token to hand out instead.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .access import client_address, json_response, keep_session, service_of, session_of, staff, viewer
from .auth import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    SESSION_COOKIE,
    Duplicate,
    add_user,
    end_session,
    new_token,
)
from .http_errors import ApiError, bad_request, not_found, unprocessable
from .inputs import path_id
from .intake import read_json
from .limits import read_body
from .service import iso
from .store import User
from .store_accounts import all_users, delete_token, tokens_of
from .throttle import checked_login
from .workflow import NAME_MAX, check_name, import_roster, may_make, password_fits


def _user_json(user: User) -> dict[str, Any]:
    return {
        "id": user.id,
        "name": user.name,
        "role": user.role,
        "display": user.display,
        "deadline": iso(user.deadline),
    }


async def log_in(request: Request) -> Response:
    data = await read_json(request)
    name, password = data.get("name"), data.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise bad_request("name and password must be strings", "name")
    service = service_of(request)
    user = await run_in_threadpool(  # argon2 takes its time, off the event loop
        checked_login, service.store, service.throttle, name, password, client_address(request)
    )
    if user is None:
        raise ApiError(401, "unauthorized", "wrong name or password")
    earlier = session_of(request)
    if earlier is not None:  # a log-in replaces this browser's session: the old one is not left open in the store
        end_session(service.store, earlier)
    cookie, session = service.sessions.make(service.store, user.id)
    response = json_response({"user": _user_json(user), "csrf": session.csrf})
    keep_session(response, request, cookie)
    return response


async def log_out(request: Request) -> Response:
    """The session ends on the server, not only in this browser: its cookie is refused everywhere from now on."""
    viewer(request)
    session = session_of(request)
    if session is not None and request.headers.get("authorization") is None:
        end_session(service_of(request).store, session)
        service_of(request).bell.ring()  # its open event streams end
    response = json_response({"ok": True})
    response.delete_cookie(SESSION_COOKIE)
    return response


async def me(request: Request) -> Response:
    return json_response({"user": _user_json(viewer(request))})


async def users(request: Request) -> Response:
    staff(request)
    return json_response({"users": [_user_json(user) for user in all_users(service_of(request).store)]})


async def make_user(request: Request) -> Response:
    maker = staff(request)
    data = await read_json(request)
    name = check_name(data.get("name"))
    role = data.get("role", "student")
    may_make(maker, role)
    password = data.get("password")
    if password is not None and not password_fits(password):
        raise unprocessable(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters", "password")
    service = service_of(request)

    def make() -> tuple[User, str]:
        with service.store.tx() as db:
            user = add_user(db, name, role, str(data.get("display", "")), password)
            return user, new_token(db, user.id, "made with the account")[1]

    try:
        user, token = await run_in_threadpool(make)
    except Duplicate as exc:
        raise ApiError(409, "exists", str(exc), "name") from None
    return json_response({"user": _user_json(user), "token": token}, 201)


async def roster(request: Request) -> Response:
    """The CSV ``grade --roster`` reads (``id``, and optional ``name``, ``deadline``): one account per new id, with a
    token each (shown once); ids already there get their name and deadline updated. ``?role=team`` for a contest."""
    maker = staff(request)
    body = await read_body(request.stream(), request.headers.get("content-length"))
    made, updated = import_roster(service_of(request).store, maker, request.query_params.get("role", "student"), body)
    return json_response({"made": made, "updated": updated}, 201 if made else 200)


async def tokens(request: Request) -> Response:
    user = viewer(request)
    shown = [
        {"id": t.id, "label": t.label, "created": iso(t.created), "last_used": iso(t.last_used)}
        for t in tokens_of(service_of(request).store, user.id)
    ]
    return json_response({"tokens": shown})


async def make_token(request: Request) -> Response:
    user = viewer(request)
    data = await read_json(request)
    label = data.get("label", "")
    if not isinstance(label, str) or len(label) > NAME_MAX:
        raise unprocessable(f"a label is a string of at most {NAME_MAX} characters", "label")
    with service_of(request).store.tx() as db:
        token_id, token = new_token(db, user.id, label)
    return json_response({"id": token_id, "label": label, "token": token}, 201)


async def drop_token(request: Request) -> Response:
    user = viewer(request)
    token_id = path_id(request.path_params["tid"], "token")
    with service_of(request).store.tx() as db:
        gone = delete_token(db, token_id, user.id)
    if not gone:
        raise not_found("token")
    return Response(status_code=204)


ROUTES = [
    Route("/api/v1/login", log_in, methods=["POST"]),
    Route("/api/v1/logout", log_out, methods=["POST"]),
    Route("/api/v1/me", me),
    Route("/api/v1/users", users, methods=["GET"]),
    Route("/api/v1/users", make_user, methods=["POST"]),
    Route("/api/v1/users/import", roster, methods=["POST"]),
    Route("/api/v1/tokens", tokens, methods=["GET"]),
    Route("/api/v1/tokens", make_token, methods=["POST"]),
    Route("/api/v1/tokens/{tid}", drop_token, methods=["DELETE"]),
]
