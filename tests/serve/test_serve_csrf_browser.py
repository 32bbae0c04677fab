"""Another site's page in a real browser (chromium) tries to log a student in as the attacker, and to change things.

The attacker's pages are served by a second server on loopback, reached as
``http://evil.test:PORT`` (chromium's ``--host-resolver-rules`` maps the name
to 127.0.0.1), so the browser treats them as another site, exactly as it
would one on the internet: it sends the judge's forms with ``Origin:
http://evil.test:PORT``. Each attack is a form that submits itself, as a
real attacker's page does: ``text/plain`` shaped as JSON (the classic way to
post JSON from a form) and form-encoded, to the log-in routes and to a
route that changes something (making an API token). The judge's own pages,
same-origin, must still log in, make a token and log out.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from browser import CHROMIUM_ARGS, chromium_path, sync_playwright
from conftest import PROBLEMS
from serving import Client, Server, free_port, write_site

# A browser and two servers: over the 5 s of a fast test (as the other chromium tests, test_serve_pages*.py). The
# fast subset keeps what the browser sends checked over HTTP: test_serve_sessions.py's log-in and changes from
# another site (Origin, Sec-Fetch-Site, text/plain and form bodies).
pytestmark = pytest.mark.slow

PASSWORDS = {"alice": "alice-secret-1", "mallory": "mallory-secret-1"}


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Client]]]:
    folder = write_site(
        tmp_path_factory.mktemp("csrf"),
        f"title: CSRF class\nproblems:\n  - problem: {PROBLEMS / 'aplusb'}\nlanguages: [python3]\n",
    )
    server = Server(folder, workers=1, jobs=1).start()
    try:
        admin = Client(server, server.admin_token())
        tokens = {}
        for name, password in PASSWORDS.items():
            made = admin.http.post("/users", json={"name": name, "role": "student", "password": password})
            assert made.status_code == 201, made.text
            tokens[name] = made.json()["token"]
        yield server, {name: Client(server, token) for name, token in tokens.items()}
    finally:
        server.stop()


def _form(action: str, enctype: str, fields: list[tuple[str, str]]) -> str:
    inputs = "".join(
        f'<input type="hidden" name="{html.escape(name, quote=True)}" value="{html.escape(value, quote=True)}">'
        for name, value in fields
    )
    return (
        f'<!doctype html><form method="post" action="{action}" enctype="{enctype}">{inputs}</form>'
        "<script>document.forms[0].submit()</script>"
    )


@pytest.fixture(scope="module")
def attacker(judge) -> Iterator[str]:
    """The attacker's site: each path a page whose form posts itself to the judge."""
    server, _ = judge
    as_json = '{"name": "mallory", "password": "' + PASSWORDS["mallory"] + '", "x": "'
    pages = {
        "/plain-api-login": _form(f"{server.url}/api/v1/login", "text/plain", [(as_json, '"}')]),
        "/form-api-login": _form(
            f"{server.url}/api/v1/login",
            "application/x-www-form-urlencoded",
            [("name", "mallory"), ("password", PASSWORDS["mallory"])],
        ),
        "/form-page-login": _form(
            f"{server.url}/login",
            "application/x-www-form-urlencoded",
            [("csrf", "guessed"), ("next", "/"), ("name", "mallory"), ("password", PASSWORDS["mallory"])],
        ),
        "/plain-api-token": _form(f"{server.url}/api/v1/tokens", "text/plain", [('{"label": "evil", "x": "', '"}')]),
        "/form-page-token": _form(
            f"{server.url}/account/tokens",
            "application/x-www-form-urlencoded",
            [("csrf", "guessed"), ("label", "evil")],
        ),
    }

    class Pages(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            body = pages.get(self.path, "no such page").encode()
            self.send_response(200 if self.path in pages else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    port = free_port()
    evil = ThreadingHTTPServer(("127.0.0.1", port), Pages)
    thread = threading.Thread(target=evil.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://evil.test:{port}"
    finally:
        evil.shutdown()
        evil.server_close()
        thread.join(10)


@pytest.fixture(scope="module")
def chromium():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP evil.test 127.0.0.1"]
        )
        yield browser
        browser.close()


def _attack(context, attacker: str, judge_url: str, path: str) -> tuple[int, str]:
    """Open the attacker's page; its form posts itself to the judge; the status and address of the page the browser
    ends on (a redirect followed: a page form without a session goes to the log-in page)."""
    page = context.new_page()
    try:
        with page.expect_navigation(url=lambda url: url.startswith(judge_url)) as sent:
            page.goto(attacker + path)
        return sent.value.status, page.url
    finally:
        page.close()


def _who(context, judge_url: str) -> int | str:
    """Who the browser is logged in as at the judge, by its own cookies: the account's name, or the status."""
    answer = context.request.get(f"{judge_url}/api/v1/me")
    return answer.json()["user"]["name"] if answer.status == 200 else answer.status


def test_another_sites_page_cannot_log_a_student_in_as_the_attacker(judge, attacker, chromium) -> None:
    server, _ = judge
    context = chromium.new_context()
    try:
        for path in ("/plain-api-login", "/form-api-login", "/form-page-login"):
            status, _ = _attack(context, attacker, server.url, path)
            assert status in (403, 415), (path, status)
            assert _who(context, server.url) == 401, path  # not logged in, least of all as mallory
        assert not [c for c in context.cookies() if c["name"] == "tilejudge_session"]
    finally:
        context.close()


def test_another_sites_page_changes_nothing_and_the_judges_own_pages_still_work(judge, attacker, chromium) -> None:
    server, clients = judge
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "/login")
        page.fill("#name", "alice")
        page.fill("#password", PASSWORDS["alice"])
        page.click("form.stack button[type=submit]")
        page.wait_for_url(server.url + "/problems")
        assert _who(context, server.url) == "alice"
        for path in ("/plain-api-token", "/form-page-token"):
            status, landed = _attack(context, attacker, server.url, path)
            assert status in (401, 403, 415) or landed.startswith(server.url + "/login?"), (path, status, landed)
            assert _who(context, server.url) == "alice"
        labels = [t["label"] for t in clients["alice"].http.get("/tokens").json()["tokens"]]
        assert "evil" not in labels

        page.goto(server.url + "/account")  # the same origin's own forms: a token made, then log-out
        page.fill("#label", "laptop")
        page.click("form[action='/account/tokens'] button[type=submit]")
        assert page.locator("#new-token").inner_text().startswith("tj_")
        assert "laptop" in [t["label"] for t in clients["alice"].http.get("/tokens").json()["tokens"]]
        cookie = next(c["value"] for c in context.cookies() if c["name"] == "tilejudge_session")
        page.click("form.logout button[type=submit]")
        page.wait_for_url(server.url + "/login")
        old = httpx.get(server.url + "/api/v1/me", cookies={"tilejudge_session": cookie}, timeout=60)
        assert old.status_code == 401  # the page's log-out ended the session on the server
    finally:
        context.close()
