"""The pages (issue 36): Jinja2 rendering with autoescape, the session a page is seen in, its CSRF check, log in/out.

Pages are a layer over the API's own rules, never a second set: who may see
a submission is ``views.visible_row``, what of a result is
``feedback.report_view``, a submission is taken by the same checks as
``POST /api/v1/submissions``. A page's session is the API's signed cookie;
every form carries the session's CSRF token in a ``csrf`` field (the log-in
form, before any session, a token of its own in a short-lived cookie), and a
form without the right one changes nothing. Every page is served with a
Content-Security-Policy allowing only this server's own scripts, styles and
connections (``data:`` images for checkers' attachments): the pages work on a
machine without internet, and markup that slipped through an escape still
could not run. Templates escape every value (autoescape on), so a name or a
program's output made of markup is shown as text.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote

import jinja2
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartParser
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from .access import client_address, keep_session, service_of, session_of
from .auth import SESSION_COOKIE, Session, end_session
from .http_errors import ApiError, api_error
from .inputs import same_secret
from .limits import MAX_BODY, MAX_FILES, read_body
from .names import shown
from .refusals import Refused
from .store import User
from .store_accounts import user_by_id
from .throttle import checked_login

HERE = Path(__file__).parent
STATIC = HERE / "static"
LOGIN_COOKIE = "tilejudge_login"
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
_env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True)


def _when(moment: float | None) -> str:
    if moment is None:
        return ""
    return datetime.fromtimestamp(moment, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


_env.filters["when"] = _when


@dataclass(frozen=True)
class Seen:
    """Who looks at a page, and the CSRF token their forms carry."""

    user: User
    session: Session


class Redirect(Exception):
    def __init__(self, to: str) -> None:
        self.to = to


def seen(request: Request) -> Seen:
    """The page's viewer from the session cookie; the log-in page for anyone without one."""
    service = service_of(request)
    session = session_of(request)
    user = user_by_id(service.store, session.user) if session else None
    if session is None or user is None:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        raise Redirect(f"/login?next={quote(target)}")
    return Seen(user, session)


def render(request: Request, template: str, status: int = 200, who: Seen | None = None, **context: Any) -> HTMLResponse:
    service = service_of(request)
    text = _env.get_template(template).render(
        site=service.site,
        user=who.user if who else None,
        csrf=who.session.csrf if who else "",
        path=request.url.path,
        **context,
    )
    return HTMLResponse(shown(text), status_code=status, headers=secure_headers())


def secure_headers() -> dict[str, str]:
    return {
        "Content-Security-Policy": CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "Cache-Control": "no-store",
    }


Handler = Callable[[Request, Seen], Awaitable[Response]]


def page(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A page handler with its viewer; an API error (404 for another's work, exactly as the API answers) becomes
    the same status as a page."""

    async def wrapped(request: Request) -> Response:
        try:
            who = seen(request)
            return await handler(request, who)
        except Redirect as go:
            return RedirectResponse(go.to, status_code=303)
        except ApiError as exc:
            return refused(render(request, "error.html", exc.status, who=maybe_seen(request), message=exc.message), exc)
        except Refused as exc:
            error = page_error(exc)
            answer = render(request, "error.html", error.status, who=maybe_seen(request), message=error.message)
            return refused(answer, error)

    return wrapped


def page_error(refusal: Refused) -> ApiError:
    """A workflow's refusal as a page answers it, the pages' one mapping: the status the API gives it (a page and
    the API say the same thing of the same request: 404, 409, 429 with its Retry-After), the message shown on the
    page or its form."""
    return api_error(refusal)


def refused(response: Response, exc: ApiError) -> Response:
    """A page that answers an API error, with the error's headers (``Retry-After``, a connection's end)."""
    response.headers.update(exc.headers())
    return response


def maybe_seen(request: Request) -> Seen | None:
    try:
        return seen(request)
    except Redirect:
        return None


@dataclass(frozen=True)
class Form:
    fields: dict[str, str]
    files: list[tuple[str, str, bytes]]  # (field, filename, bytes) of the file parts that hold a file


async def read_form(request: Request) -> Form:
    """A posted form (urlencoded or multipart) under the API's body limit; a body over it is the API's 413, answered
    once the browser has sent it all (``read_body``'s drain), so that it shows the page's message."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    body = await read_body(request.stream(), request.headers.get("content-length"), drain=True)
    if kind != "multipart/form-data":
        return Form(dict(parse_qsl(body.decode("utf-8", errors="replace"), keep_blank_values=True)), [])

    async def once() -> Any:
        yield body

    try:
        parsed = await MultiPartParser(request.headers, once(), max_files=MAX_FILES + 1, max_part_size=MAX_BODY).parse()
    except Exception as exc:  # the parser's own errors: a malformed form is the client's
        raise ApiError(400, "bad_request", f"a malformed form: {exc}") from None
    fields: dict[str, str] = {}
    files = []
    for key, value in parsed.multi_items():
        if isinstance(value, UploadFile):
            data = await value.read()
            if value.filename:
                files.append((key, value.filename, data))
        else:
            fields[key] = value
    return Form(fields, files)


def check_csrf(who: Seen, form: Form) -> None:
    if not same_secret(form.fields.get("csrf", ""), who.session.csrf):
        raise ApiError(403, "csrf", "this form is out of date (its CSRF token does not match): reload the page")


def _safe_next(target: str) -> str:
    """Only a path of this site: ``//elsewhere`` or a scheme would make the log-in page an open redirect."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/"


async def login_page(request: Request) -> Response:
    token = request.cookies.get(LOGIN_COOKIE) or secrets.token_urlsafe(24)
    nxt = _safe_next(request.query_params.get("next", "/"))
    return _login_form(request, token, nxt, "", 200)


def _login_form(request: Request, token: str, nxt: str, message: str, status: int) -> Response:
    """The log-in form and its token's cookie, ``Secure`` where the site is served over HTTPS (a proxy's
    ``X-Forwarded-Proto`` included), as the session cookie is: the token must not be sent over plain HTTP either."""
    response = render(request, "login.html", status, login_csrf=token, next=nxt, message=message)
    response.set_cookie(
        LOGIN_COOKIE,
        token,
        max_age=3600,
        httponly=True,
        samesite="strict",
        path="/login",
        secure=request.url.scheme == "https",
    )
    return response


async def login_post(request: Request) -> Response:
    try:
        form = await read_form(request)
    except ApiError as exc:
        return refused(render(request, "error.html", exc.status, message=exc.message), exc)
    token = request.cookies.get(LOGIN_COOKIE, "")
    nxt = _safe_next(form.fields.get("next", "/"))
    fresh = secrets.token_urlsafe(24)
    if not token or not same_secret(form.fields.get("csrf", ""), token):
        return _login_form(request, fresh, nxt, "The form was out of date; please log in again.", 403)
    service = service_of(request)
    name, password = form.fields.get("name", ""), form.fields.get("password", "")
    try:
        user = await run_in_threadpool(
            checked_login, service.store, service.throttle, name, password, client_address(request)
        )
    except ApiError as exc:  # too many failed log-ins: the same words whether the account exists or not
        return refused(
            _login_form(request, fresh, nxt, f"Too many failed log-ins: try again in {exc.retry_after} s.", 429), exc
        )
    if user is None:
        return _login_form(request, fresh, nxt, "Wrong name or password.", 401)
    earlier = session_of(request)
    if earlier is not None:  # a log-in replaces this browser's session: the old one is not left open in the store
        end_session(service.store, earlier)
    cookie, _ = service.sessions.make(service.store, user.id)
    response = RedirectResponse(nxt, status_code=303)
    keep_session(response, request, cookie)
    response.delete_cookie(LOGIN_COOKIE, path="/login")
    return response


@page
async def logout(request: Request, who: Seen) -> Response:
    check_csrf(who, await read_form(request))
    end_session(service_of(request).store, who.session)  # on the server: the cookie is refused everywhere from now
    service_of(request).bell.ring()  # the page's open event streams end
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE)
    return response


@page
async def home(request: Request, who: Seen) -> Response:
    return RedirectResponse("/problems", status_code=303)
