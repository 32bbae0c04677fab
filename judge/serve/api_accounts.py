"""``/api/v1`` accounts: log in and out (a session for pages), who am I, users, roster import, API tokens.

Who may make whom: an admin any role; a teacher or jury member students and
teams (a class's roster, a contest's teams), never another teacher. An
account made without a password gets a token to hand out instead.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import UsageError
from ..grade.roster import Roster, load_roster
from . import team_roster
from .access import client_address, json_response, keep_session, service_of, session_of, staff, viewer
from .auth import (
    MAX_NAME,
    MAX_PASSWORD,
    MIN_PASSWORD,
    ROLES,
    SESSION_COOKIE,
    Duplicate,
    add_user,
    end_session,
    new_token,
)
from .http_errors import ApiError, bad_request, not_found, unprocessable
from .inputs import json_object, path_id
from .limits import read_body
from .names import text_fault
from .origin import require_json
from .service import iso
from .store import Store, User
from .team_ids import TakenId
from .throttle import checked_login

STAFF_MAKES = ("student", "team")
NAME_MAX = MAX_NAME


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object; a body sent without a token must be declared JSON (``origin.require_json``)."""
    body = await read_body(request.stream(), request.headers.get("content-length"))
    if not body:
        return {}  # no body: an empty object, for a POST that takes no field
    require_json(request)
    return json_object(body)


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


def may_change(maker: User, role: str) -> bool:
    """Whether ``maker`` may change an account of ``role`` (its name shown, its deadline): an admin any, staff the
    roles they make (students and teams), never an account of their own rank or above."""
    return maker.role == "admin" or role in STAFF_MAKES


def _may_make(maker: User, role: str) -> None:
    if role not in ROLES:
        raise unprocessable(f"role must be one of {', '.join(ROLES)}", "role")
    if maker.role != "admin" and role not in STAFF_MAKES:
        raise ApiError(403, "forbidden", f"only an admin makes a {role} account", "role")


def password_fits(password: Any) -> bool:
    return isinstance(password, str) and MIN_PASSWORD <= len(password) <= MAX_PASSWORD


def _check_name(name: Any, field: str = "name") -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX or text_fault(name) is not None:
        raise unprocessable(f"a name is 1 to {NAME_MAX} characters of text on one line (no control character)", field)
    return name.strip()


async def users(request: Request) -> Response:
    staff(request)
    rows = service_of(request).store.read("SELECT * FROM users ORDER BY id")
    return json_response(
        {"users": [_user_json(User(r["id"], r["name"], r["role"], r["display"], r["deadline"])) for r in rows]}
    )


async def make_user(request: Request) -> Response:
    maker = staff(request)
    data = await read_json(request)
    name = _check_name(data.get("name"))
    role = data.get("role", "student")
    _may_make(maker, role)
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


async def import_roster(request: Request) -> Response:
    """The CSV ``grade --roster`` reads (``id``, and optional ``name``, ``deadline``): one account per new id, with a
    token each (shown once); ids already there get their name and deadline updated. ``?role=team`` for a contest."""
    maker = staff(request)
    body = await read_body(request.stream(), request.headers.get("content-length"))
    made, updated = roster_import(service_of(request).store, maker, request.query_params.get("role", "student"), body)
    return json_response({"made": made, "updated": updated}, 201 if made else 200)


def roster_import(store: Store, maker: User, role: str, body: bytes) -> tuple[list[dict[str, str]], list[str]]:
    """The roster's new accounts with their tokens, and the names updated: the API's import and the teacher's page
    both come here. Checked whole before anything is stored; a known id is updated only if ``maker`` may change its
    account (``may_change``), else nothing of the roster is stored (403)."""
    _may_make(maker, role)
    lines = [
        (sid, line.name, line.deadline.timestamp() if line.deadline else None)
        for sid, line in _roster(body).lines.items()
    ]
    for number, (sid, _, _) in enumerate(lines):
        _check_name(sid, f"roster[{number}]")
    contest = team_roster.read_columns(body)
    made, updated = [], []
    with store.tx() as db:
        team_roster.make_all(store, db, contest.values())  # announced in the feed before the teams that name them
        for number, (sid, display, deadline) in enumerate(lines):
            found = db.execute("SELECT id, role FROM users WHERE name = ?", (sid,)).fetchone()
            if found is not None and not may_change(maker, found["role"]):
                raise ApiError(  # the transaction rolls back: nothing of the roster is stored
                    403,
                    "forbidden",
                    f"'{sid}' is a staff account ({found['role']}): only an admin changes it",
                    f"roster[{number}]",
                )
            if found is not None:
                db.execute("UPDATE users SET display = ?, deadline = ? WHERE id = ?", (display, deadline, found["id"]))
                team_roster.apply(store, db, found["id"], contest.get(sid, team_roster.TeamColumns()))
                updated.append(sid)
                continue
            columns = contest.get(sid, team_roster.TeamColumns())
            try:
                user = add_user(db, sid, role, display, None, deadline, columns.team_id)
            except TakenId as exc:
                raise ApiError(409, "conflict", str(exc), f"roster[{number}]") from None
            team_roster.apply(store, db, user.id, columns)
            made.append({"name": sid, "token": new_token(db, user.id, "roster import")[1]})
    return made, updated


def _roster(body: bytes) -> Roster:
    """The body read by ``grade --roster``'s own reader, so a roster means the same to both; its messages name the
    line as ``roster.csv:N``."""
    with tempfile.TemporaryDirectory(prefix="tilejudge-roster-") as folder:
        path = Path(folder) / "roster.csv"
        path.write_bytes(body)
        try:
            return load_roster(path, None)
        except UsageError as exc:
            raise unprocessable(str(exc).replace(str(path), "roster.csv")) from None


async def tokens(request: Request) -> Response:
    user = viewer(request)
    rows = service_of(request).store.read("SELECT * FROM tokens WHERE user_id = ? ORDER BY id", (user.id,))
    shown = [
        {"id": r["id"], "label": r["label"], "created": iso(r["created"]), "last_used": iso(r["last_used"])}
        for r in rows
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
        gone = db.execute("DELETE FROM tokens WHERE id = ? AND user_id = ?", (token_id, user.id)).rowcount
    if not gone:
        raise not_found("token")
    return Response(status_code=204)


ROUTES = [
    Route("/api/v1/login", log_in, methods=["POST"]),
    Route("/api/v1/logout", log_out, methods=["POST"]),
    Route("/api/v1/me", me),
    Route("/api/v1/users", users, methods=["GET"]),
    Route("/api/v1/users", make_user, methods=["POST"]),
    Route("/api/v1/users/import", import_roster, methods=["POST"]),
    Route("/api/v1/tokens", tokens, methods=["GET"]),
    Route("/api/v1/tokens", make_token, methods=["POST"]),
    Route("/api/v1/tokens/{tid}", drop_token, methods=["DELETE"]),
]
