"""Who sends a request (a bearer token, or a session cookie with its CSRF token) and the JSON every answer is."""

from __future__ import annotations

import base64
import binascii
import hashlib
import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from .auth import SESSION_COOKIE, SESSION_SECONDS, Session, user_for_token
from .http_errors import ApiError
from .inputs import same_secret
from .names import ShownJSON
from .service import Service
from .store import User
from .store_accounts import user_by_id
from .throttle import checked_login

_BASIC: dict[str, tuple[float, int]] = {}  # sha256 of Basic credentials -> (valid until, user id)
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def service_of(request: Request) -> Service:
    return request.app.state.service


def keep_session(response: Response, request: Request, cookie: str) -> None:
    """The session cookie a log-in sets, the same for the API and the pages: never readable by a script, not sent
    with another site's requests that change something, and only over HTTPS where the site is served so."""
    response.set_cookie(
        SESSION_COOKIE,
        cookie,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def client_address(request: Request) -> str:
    """The client's address as uvicorn gives it: behind a proxy on this machine, the ``X-Forwarded-For`` it sends."""
    return request.client.host if request.client else ""


def viewer(request: Request) -> User:
    """Who sends the request: a bearer token (the API) or a session cookie with its CSRF token (pages); else 401."""
    service = service_of(request)
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() == "basic" and token.strip():
            checked: User | ApiError = request.state.basic
            if isinstance(checked, ApiError):
                raise checked
            return checked
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "unauthorized", "the Authorization header must be: Bearer TOKEN")
        user = user_for_token(service.store, token.strip())
        if user is None:
            raise ApiError(401, "unauthorized", "unknown or revoked token")
        return user
    session = session_of(request)
    if session is not None:
        if request.method not in SAFE_METHODS and not same_secret(
            request.headers.get("x-csrf-token", ""), session.csrf
        ):
            raise ApiError(403, "csrf", "a change made with a session cookie needs its X-CSRF-Token header")
        user = user_by_id(service.store, session.user)
        if user is not None:
            return user
    raise ApiError(401, "unauthorized", "no credentials: send Authorization: Bearer TOKEN")


def session_of(request: Request) -> Session | None:
    """The live session the request's cookie names, or None: no cookie, a forged or garbled one, or a session that
    has ended (logged out, expired, ended by a password change or "log out everywhere")."""
    cookie = request.cookies.get(SESSION_COOKIE)
    return service_of(request).sessions.read(service_of(request).store, cookie) if cookie else None


def still_allowed(request: Request) -> bool:
    """Whether a long answer (an event stream) may go on: a request its cookie let in stops once that session ends;
    one a token or a password let in goes on (a revoked token ends no stream already open)."""
    if request.headers.get("authorization") is not None or SESSION_COOKIE not in request.cookies:
        return True
    return session_of(request) is not None


class BasicCredentials:
    """ASGI middleware: checks a request's HTTP Basic credentials in a worker thread before its handler runs, and
    leaves the user (or the error to answer with) in ``request.state.basic`` for ``viewer``.

    Why before the handler: ``viewer`` is called synchronously from every handler, and an argon2 check there would
    hold the event loop, and with it every other client's requests and event streams, for the hash's whole cost; a
    client sending wrong passwords (until the throttle stops it) could stall the service that way.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request = Request(scope)
            scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
            if scheme.lower() == "basic" and credentials.strip():
                try:
                    checked: User | ApiError = await run_in_threadpool(
                        _basic, service_of(request), credentials.strip(), client_address(request)
                    )
                except ApiError as error:
                    checked = error
                request.state.basic = checked
        await self.app(scope, receive, send)


def _basic(service: Service, credentials: str, address: str) -> User:
    """HTTP Basic, as the ICPC tools log in: the password is checked with argon2 once (behind the log-in throttle),
    then remembered (by the header's hash, for a minute) so a client polling every second does not pay a
    memory-hard hash each time."""
    key = hashlib.sha256(credentials.encode()).hexdigest()
    known = _BASIC.get(key)
    if known is not None and known[0] > time.monotonic():
        user = user_by_id(service.store, known[1])
        if user is not None:
            return user
    try:
        name, _, password = base64.b64decode(credentials, validate=True).decode("utf-8").partition(":")
    except (binascii.Error, ValueError):
        raise ApiError(401, "unauthorized", "the Basic credentials are not base64 of name:password") from None
    user = checked_login(service.store, service.throttle, name, password, address)
    if user is None:
        raise ApiError(401, "unauthorized", "wrong name or password")
    if len(_BASIC) > 1000:
        _BASIC.clear()
    _BASIC[key] = (time.monotonic() + 60, user.id)
    return user


def forget_basic(user: int) -> None:
    """HTTP Basic's remembered checks of ``user`` dropped (a password changed, sessions ended): the next request
    checks its password again."""
    for key in [key for key, (_, known) in _BASIC.items() if known == user]:
        _BASIC.pop(key, None)


def staff(request: Request) -> User:
    """A teacher, jury member or admin; anyone else is told the thing does not exist."""
    user = viewer(request)
    if not user.staff:
        raise ApiError(404, "not_found", "no such resource")
    return user


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return ShownJSON(data, status_code=status, headers=headers)
