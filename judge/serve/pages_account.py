"""The account page: who you are, and your API tokens (made here, shown once, revoked here).

A token is made by ``auth.new_token`` exactly as ``POST /api/v1/tokens``
makes it: the page shows it once, right after the form, and the store keeps
only its hash, so the list shows labels and dates, never a token.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from .access import service_of
from .api_accounts import NAME_MAX
from .auth import new_token
from .http_errors import ApiError
from .inputs import path_id
from .pages import Seen, check_csrf, page, read_form, render


def _tokens(request: Request, who: Seen) -> list:
    return service_of(request).store.read("SELECT * FROM tokens WHERE user_id = ? ORDER BY id", (who.user.id,))


@page
async def account(request: Request, who: Seen) -> Response:
    return render(request, "account.html", who=who, tokens=_tokens(request, who), made=None, message="")


@page
async def make(request: Request, who: Seen) -> Response:
    form = await read_form(request)
    check_csrf(who, form)
    label = form.fields.get("label", "").strip()
    if len(label) > NAME_MAX or any(c in label for c in "\0\r\n"):
        message = f"A label is one line of at most {NAME_MAX} characters."
        return render(request, "account.html", 422, who=who, tokens=_tokens(request, who), made=None, message=message)
    with service_of(request).store.tx() as db:
        _, token = new_token(db, who.user.id, label)
    return render(request, "account.html", 201, who=who, tokens=_tokens(request, who), made=token, message="")


@page
async def drop(request: Request, who: Seen) -> Response:
    check_csrf(who, await read_form(request))
    tid = path_id(request.path_params["tid"], "token")
    with service_of(request).store.tx() as db:
        gone = db.execute("DELETE FROM tokens WHERE id = ? AND user_id = ?", (tid, who.user.id)).rowcount
    if not gone:
        raise ApiError(404, "not_found", "no such token")
    return RedirectResponse("/account", status_code=303)


ROUTES = [
    Route("/account", account),
    Route("/account/tokens", make, methods=["POST"]),
    Route("/account/tokens/{tid}/delete", drop, methods=["POST"]),
]
