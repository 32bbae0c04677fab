"""Ending sessions for good: a password change, and "log out everywhere" (for oneself, or an admin's for anyone).

A session is a row of the store (``auth.Sessions``), so ending one is
deleting it: the cookie is then refused by every route, the API's, the
pages', the ICPC API's and the event streams' (which end, the bell rung).
A password change ends every session of the account, and the minute for
which HTTP Basic remembers a checked password (``access.forget_basic``), so
the old password opens nothing; the browser that made the change gets a
fresh session, the others must log in with the new password. API tokens are
not sessions: they stay until revoked.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .access import client_address, forget_basic, json_response, keep_session, service_of, viewer
from .api_accounts import password_fits, read_json
from .auth import MAX_PASSWORD, MIN_PASSWORD, end_sessions, hash_password
from .http_errors import ApiError, not_found, unprocessable
from .service import Service
from .store import User
from .throttle import CHECKED, checked_login


def end_all(service: Service, user: int) -> int:
    """Every session of ``user`` over, on every route (its open streams end too); how many there were."""
    with service.store.tx() as db:
        ended = end_sessions(db, user)
    forget_basic(user)
    service.bell.ring()
    return ended


def change_password(service: Service, user: User, current: Any, new: Any, address: str) -> int:
    """Set ``user``'s password after checking the current one (behind the log-in throttle: a stolen session cannot
    guess it faster than a log-in could), and end every session of the account; how many ended. Runs off the
    event loop: two argon2 hashes."""
    if not password_fits(new):
        raise unprocessable(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters", "new_password")
    stored = service.store.one("SELECT password FROM users WHERE id = ?", (user.id,))
    if stored is not None and stored["password"]:
        checked = checked_login(service.store, service.throttle, user.name, str(current or ""), address)
        if checked is None or checked.id != user.id:
            raise ApiError(403, "wrong_password", "the current password is wrong", "password")
    digest = CHECKED.run(hash_password, new)
    with service.store.tx() as db:
        db.execute("UPDATE users SET password = ? WHERE id = ?", (digest, user.id))
        ended = end_sessions(db, user.id)
    forget_basic(user.id)
    service.bell.ring()
    return ended


async def password(request: Request) -> Response:
    """``{"password": current, "new_password": new}``: every session of the account ends; a request made with a
    session cookie gets a new one (and its CSRF token) in the answer."""
    user = viewer(request)
    data = await read_json(request)
    service = service_of(request)
    ended = await run_in_threadpool(
        change_password, service, user, data.get("password"), data.get("new_password"), client_address(request)
    )
    if request.headers.get("authorization") is not None:  # a token's or a password's request: no session to renew
        return json_response({"ok": True, "ended": ended})
    cookie, session = service.sessions.make(service.store, user.id)
    response = json_response({"ok": True, "ended": ended, "csrf": session.csrf})
    keep_session(response, request, cookie)
    return response


async def log_out_everywhere(request: Request) -> Response:
    """``POST /api/v1/users/NAME/logout``: every session of the account ends. One's own account, or any for an
    admin; anyone else's is not found, as elsewhere."""
    user = viewer(request)
    service = service_of(request)
    row = service.store.one("SELECT id FROM users WHERE name = ?", (request.path_params["name"],))
    if row is None or (row["id"] != user.id and user.role != "admin"):
        raise not_found("account")
    return json_response({"ended": end_all(service, row["id"])})


ROUTES = [
    Route("/api/v1/password", password, methods=["POST"]),
    Route("/api/v1/users/{name}/logout", log_out_everywhere, methods=["POST"]),
]
