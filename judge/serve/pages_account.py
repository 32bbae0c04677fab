"""The account page: who you are, your API tokens (made here, shown once, revoked here), your password and sessions.

A token is made by ``auth.new_token`` exactly as ``POST /api/v1/tokens``
makes it: the page shows it once, right after the form, and the store keeps
only its hash, so the list shows labels and dates, never a token. A password
is changed by ``session_ends.change_password``, as ``POST /api/v1/password``
changes it: every session of the account ends, this browser gets a new one.
"Log out everywhere" ends every session of the account, this one too.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from .access import client_address, keep_session, service_of
from .auth import new_token
from .http_errors import ApiError
from .inputs import path_id
from .pages import Seen, check_csrf, page, read_form, render
from .session_ends import change_password, end_all
from .store_accounts import Token, delete_token, tokens_of
from .workflow import NAME_MAX


def _tokens(request: Request, who: Seen) -> list[Token]:
    return tokens_of(service_of(request).store, who.user.id)


@page
async def account(request: Request, who: Seen) -> Response:
    return _page(request, who)


def _page(request: Request, who: Seen, status: int = 200, **shown: object) -> Response:
    context = {"made": None, "message": "", "notice": "", "password_message": "", **shown}
    return render(request, "account.html", status, who=who, tokens=_tokens(request, who), **context)


@page
async def make(request: Request, who: Seen) -> Response:
    form = await read_form(request)
    check_csrf(who, form)
    label = form.fields.get("label", "").strip()
    if len(label) > NAME_MAX or any(c in label for c in "\0\r\n"):
        return _page(request, who, 422, message=f"A label is one line of at most {NAME_MAX} characters.")
    with service_of(request).store.tx() as db:
        _, token = new_token(db, who.user.id, label)
    return _page(request, who, 201, made=token)


@page
async def drop(request: Request, who: Seen) -> Response:
    check_csrf(who, await read_form(request))
    tid = path_id(request.path_params["tid"], "token")
    with service_of(request).store.tx() as db:
        gone = delete_token(db, tid, who.user.id)
    if not gone:
        raise ApiError(404, "not_found", "no such token")
    return RedirectResponse("/account", status_code=303)


@page
async def password(request: Request, who: Seen) -> Response:
    form = await read_form(request)
    check_csrf(who, form)
    service = service_of(request)
    try:
        await run_in_threadpool(
            change_password,
            service,
            who.user,
            form.fields.get("password", ""),
            form.fields.get("new_password", ""),
            client_address(request),
        )
    except ApiError as exc:
        return _page(request, who, exc.status, password_message=exc.message[:1].upper() + exc.message[1:] + ".")
    cookie, session = service.sessions.make(service.store, who.user.id)
    notice = "The password is changed; every other session of this account has ended."
    response = _page(request, Seen(who.user, session), notice=notice)
    keep_session(response, request, cookie)
    return response


@page
async def everywhere(request: Request, who: Seen) -> Response:
    check_csrf(who, await read_form(request))
    end_all(service_of(request), who.user.id)
    return RedirectResponse("/login", status_code=303)


ROUTES = [
    Route("/account", account),
    Route("/account/tokens", make, methods=["POST"]),
    Route("/account/tokens/{tid}/delete", drop, methods=["POST"]),
    Route("/account/password", password, methods=["POST"]),
    Route("/account/logout-everywhere", everywhere, methods=["POST"]),
]
