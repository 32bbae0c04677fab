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

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .access import client_address, json_response, keep_session, service_of, viewer
from .http_errors import not_found
from .intake import read_json
from .session_ends import change_password, end_all
from .store_accounts import user_named


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
    account = user_named(service.store, request.path_params["name"])
    if account is None or (account.id != user.id and user.role != "admin"):
        raise not_found("account")
    return json_response({"ended": end_all(service, account.id)})


ROUTES = [
    Route("/api/v1/password", password, methods=["POST"]),
    Route("/api/v1/users/{name}/logout", log_out_everywhere, methods=["POST"]),
]
