"""Requests from another site's pages refused: every change a browser could be made to send, log-in included.

A page on another origin can make a student's browser send a form (urlencoded,
multipart or ``text/plain``) to this server, with this server's cookies when
the browser sends them, and read nothing of the answer. The CSRF tokens stop
such a request from changing anything through a session; they cannot stop
one that logs the student into the attacker's account (login CSRF: the
student then submits their work where the attacker reads it), since before a
log-in there is no session. So, before any handler runs, a request that may
change something (any method but GET, HEAD, OPTIONS) and carries no bearer
token is refused (403, ``cross_site``) when its ``Origin``
names another host than the one it was sent to, or is ``null`` (a sandboxed
or privacy-sensitive context), or, without an ``Origin``, when
``Sec-Fetch-Site`` says ``cross-site`` or ``same-site`` (a sibling host is
another site's page too). Browsers send one or the other with every such
request; a script (curl, httpx) sends neither and is let through, as a token
or a password is what it must then show. HTTP Basic is checked like a
cookie: a browser that once logged in with it attaches it to another site's
forms by itself, as it does a cookie; the ICPC tools that use it send no
``Origin``.

Where the API reads a JSON body, a request without ``Authorization`` must say
``Content-Type: application/json`` (``require_json``; else 415): a browser
sends that type from another origin only after a CORS preflight, which this
server never grants. A request with an ``Authorization`` header is exempt
from this (its ``Origin``, where a browser sent one, was checked above), so
scripts keep working as documented.

What "the host it was sent to" is: the ``Host`` header. Behind a reverse proxy
it must pass the browser's ``Host`` on as sent, port included (nginx:
``proxy_set_header Host $http_host``; ``$host`` drops the port, and an
``Origin`` with one then never matches); ``X-Forwarded-Host`` is not believed.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from .access import json_response
from .http_errors import ApiError
from .pages import render

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CROSS = frozenset({"cross-site", "same-site"})


def cross_site(request: Request) -> str | None:
    """Why ``request`` is another site's, or None: a change sent without credentials of its own from a page of
    another origin."""
    scheme = request.headers.get("authorization", "").partition(" ")[0].lower()
    if request.method in SAFE_METHODS or scheme == "bearer":  # a token: no browser attaches one by itself
        return None
    origin = request.headers.get("origin")
    if origin is not None:
        if origin.strip().lower() == "null":
            return "the request comes from a page with no origin (null)"
        try:
            host = _host(urlsplit(origin.strip()).netloc)
        except ValueError:
            host = ""
        if not host or host != _host(request.headers.get("host", "")):
            return "the request comes from a page of another site"
        return None
    if request.headers.get("sec-fetch-site", "").strip().lower() in CROSS:
        return "the request comes from a page of another site"
    return None


def _host(netloc: str) -> str:
    """A host and port as compared: lower case, without the default port a browser leaves out."""
    netloc = netloc.strip().lower()
    for default in (":80", ":443"):
        if netloc.endswith(default):
            return netloc[: -len(default)]
    return netloc


def require_json(request: Request) -> None:
    """A JSON body must be declared so by a request that a browser might have sent on its own (no Authorization)."""
    if "authorization" in request.headers:
        return
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "unsupported_media_type", "send the body as Content-Type: application/json")


class SameOrigin:
    """ASGI middleware: refuses another site's changes before any handler reads a body or a password."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request = Request(scope)
            why = cross_site(request)
            if why is not None:
                error = ApiError(403, "cross_site", f"{why}: nothing is changed from another site", close=True)
                if request.url.path.startswith("/api"):
                    response = json_response(error.body(), 403, error.headers())
                else:
                    response = render(request, "error.html", 403, message=f"Refused: {why}.")
                    response.headers.update(error.headers())
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
