"""Sessions, password checks and roles against a class that tries things (issue 45, items 1, 3 and 4), over HTTP.

One real ``tilejudge serve`` for the module: a contest (so the ICPC API is
served too) with the fixture problem aplusb, started with ``--proxy
127.0.0.1`` so that each request may say which client address it comes
from (``X-Forwarded-For``), as a reverse proxy would: the throttle's
per-address rules are driven from one machine. Each test uses accounts and
addresses of its own, so the tests do not depend on their order.
"""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from conftest import PROBLEMS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import Client, Server, session_of, write_site

PASSWORD = "right-password-1"


SITE = (
    f"title: Sessions\nkind: contest\nstart: 2020-01-01 00:00\nend: 2099-01-01 00:00\n"
    f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\nlanguages: [python3]\n"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    """The module's server, its passwords argon2 at its cheapest (``serving.Server``): these tests are about what a
    log-in, a password change and a session open and end, not what a check costs (test_parallel_password_checks_are
    _bounded's server has the real cost)."""
    folder = write_site(tmp_path_factory.mktemp("sessions"), SITE)
    # the admin is made before the start, with a token and no password: no argon2 hash of a password never used
    server = Server(folder, workers=1, jobs=1, extra=["--proxy", "127.0.0.1"], admin_password=False).start()
    try:
        admin = Client(server, server.admin_token())
        yield server, admin
    finally:
        server.stop()


def account(served, name: str, role: str = "team", password: str | None = PASSWORD, **extra) -> str:
    """A new account with the module's password (``None``: none, so making it costs no argon2 hash); its API token."""
    _, admin = served
    body = {"name": name, "role": role, **({"password": password} if password else {}), **extra}
    made = admin.http.post("/users", json=body)
    assert made.status_code == 201, made.text
    return made.json()["token"]


def browser_like(served, address: str = "10.9.0.1") -> httpx.Client:
    """A client that keeps cookies, as a browser does, from ``address``."""
    server, _ = served
    return httpx.Client(base_url=server.url, headers={"X-Forwarded-For": address}, timeout=60)


def api_session(served, name: str, password: str = PASSWORD, address: str = "10.9.0.1") -> tuple[httpx.Client, str]:
    """A client logged in through ``POST /api/v1/login``, and its CSRF token."""
    http = browser_like(served, address)
    answer = http.post("/api/v1/login", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    return http, answer.json()["csrf"]


def made_session(served, name: str, address: str = "10.9.0.1") -> tuple[httpx.Client, str]:
    """A client holding a session of ``name`` made beside the server (``serving.session_of``), not by a log-in, and
    its CSRF token: for the tests of what a session opens and what ends it, which are not about the password."""
    server, _ = served
    cookie, csrf = session_of(server.site, name)
    http = browser_like(served, address)
    http.cookies.set("tilejudge_session", cookie)
    return http, csrf


def page_csrf(http: httpx.Client, path: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', http.get(path).text).group(1)


def refused_everywhere(served, cookie: str, csrf: str) -> None:
    """An old session cookie opens nothing: the API, a page, the ICPC API, an event stream, a new token."""
    server, _ = served
    old = httpx.Client(base_url=server.url, cookies={"tilejudge_session": cookie}, timeout=60)
    with old:
        assert old.get("/api/v1/me").status_code == 401
        assert old.get("/api/v1/submissions").status_code == 401
        assert old.get("/api/contests").status_code == 401
        assert old.get("/live").status_code == 401
        page = old.get("/account")
        assert page.status_code == 303 and page.headers["location"].startswith("/login")
        minted = old.post("/api/v1/tokens", json={"label": "after"}, headers={"X-CSRF-Token": csrf})
        assert minted.status_code == 401


def test_log_out_ends_the_session_on_the_server_and_its_open_stream(served) -> None:
    account(served, "lo1")
    http, csrf = api_session(served, "lo1")
    replaced = http.cookies["tilejudge_session"]
    again = http.post("/api/v1/login", json={"name": "lo1", "password": PASSWORD})
    csrf, cookie = again.json()["csrf"], http.cookies["tilejudge_session"]
    refused_everywhere(served, replaced, csrf)  # a log-in replaces the browser's earlier session
    assert http.get("/api/v1/me").json()["user"]["name"] == "lo1"
    opened, ended = threading.Event(), threading.Event()

    def follow() -> None:  # the pages' event stream, open across the log-out: it must end with the session
        with httpx.Client(base_url=http.base_url, cookies={"tilejudge_session": cookie}, timeout=60) as reader:
            with reader.stream("GET", "/live") as stream:
                for _ in stream.iter_lines():
                    opened.set()  # its first frame (retry:) is sent at once
        ended.set()

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    assert opened.wait(30) and not ended.is_set()
    assert http.post("/api/v1/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert ended.wait(20), "the open event stream went on after its session ended"
    reader.join(10)
    refused_everywhere(served, cookie, csrf)

    # the page's own log-out, from the form, of a session made beside the server (the form's log-in is
    # test_a_password_change_ends_every_session_and_the_old_password's)
    page, _ = made_session(served, "lo1")
    cookie, csrf = page.cookies["tilejudge_session"], page_csrf(page, "/account")
    assert page.post("/logout", data={"csrf": csrf}).status_code == 303
    refused_everywhere(served, cookie, csrf)


def test_a_password_change_ends_every_session_and_the_old_password(served) -> None:
    account(served, "pw1")
    one, csrf_one = api_session(served, "pw1")
    two, csrf_two = made_session(served, "pw1", address="10.9.0.2")  # a second session, however it was made
    server, _ = served
    basic = httpx.Client(base_url=server.url, auth=("pw1", PASSWORD), timeout=60)  # remembered for a minute
    assert basic.get("/api/v1/me").status_code == 200
    old_one, old_two = one.cookies["tilejudge_session"], two.cookies["tilejudge_session"]
    wrong = one.post("/api/v1/password", json={"password": "not it", "new_password": "new-password-2"})
    assert wrong.status_code == 403  # no CSRF token: refused before anything
    wrong = one.post(
        "/api/v1/password", json={"password": "not it", "new_password": "x" * 12}, headers={"X-CSRF-Token": csrf_one}
    )
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_password"
    changed = one.post(
        "/api/v1/password",
        json={"password": PASSWORD, "new_password": "new-password-2"},
        headers={"X-CSRF-Token": csrf_one},
    )
    assert changed.status_code == 200 and changed.json()["ended"] == 2, changed.text
    refused_everywhere(served, old_one, csrf_one)
    refused_everywhere(served, old_two, csrf_two)
    assert one.get("/api/v1/me").json()["user"]["name"] == "pw1"  # the browser that changed it has a new session
    assert basic.get("/api/v1/me").status_code == 401
    fresh = browser_like(served, "10.9.0.3")
    assert fresh.post("/api/v1/login", json={"name": "pw1", "password": PASSWORD}).status_code == 401
    assert fresh.post("/api/v1/login", json={"name": "pw1", "password": "new-password-2"}).status_code == 200

    page = browser_like(served, "10.9.0.4")  # the account page's form does the same
    token = page_csrf(page, "/login")
    page.post("/login", data={"csrf": token, "next": "/", "name": "pw1", "password": "new-password-2"})
    other_cookie = fresh.cookies["tilejudge_session"]
    done = page.post(
        "/account/password",
        data={"csrf": page_csrf(page, "/account"), "password": "new-password-2", "new_password": "third-password-3"},
    )
    assert done.status_code == 200 and "every other session" in done.text
    assert fresh.get("/api/v1/me").status_code == 401 and other_cookie != page.cookies["tilejudge_session"]
    assert page.get("/api/v1/me").json()["user"]["name"] == "pw1"


def test_log_out_everywhere_is_the_owners_or_an_admins(served) -> None:
    server, admin = served
    account(served, "ev1", password=None)
    account(served, "ev2", password=None)
    first, csrf = made_session(served, "ev1")
    second, _ = made_session(served, "ev1", address="10.9.1.2")
    other, other_csrf = made_session(served, "ev2")
    assert other.post("/api/v1/users/ev1/logout", headers={"X-CSRF-Token": other_csrf}).status_code == 404
    assert first.get("/api/v1/me").status_code == 200
    assert admin.http.post("/users/ev1/logout").json() == {"ended": 2}
    refused_everywhere(served, first.cookies["tilejudge_session"], csrf)
    assert second.get("/api/v1/me").status_code == 401
    assert other.post("/api/v1/users/ev2/logout", headers={"X-CSRF-Token": other_csrf}).json() == {"ended": 1}
    assert other.get("/api/v1/me").status_code == 401

    account(served, "ev-boss", "admin", password=None)  # the staff page's button, an admin's only
    account(served, "ev-teach", "teacher", password=None)
    victim, _ = made_session(served, "ev2")
    for name, status in (("ev-teach", 404), ("ev-boss", 200)):
        page, _ = made_session(served, name, "10.9.1.9")
        csrf = page_csrf(page, "/staff")
        answer = page.post("/staff/logout-everywhere", data={"csrf": csrf, "name": "ev2"})
        assert answer.status_code == status
        assert victim.get("/api/v1/me").status_code == (200 if status == 404 else 401)
    assert "1 session(s) of ev2 ended." in answer.text


HEADER_BYTES = st.binary(max_size=40).map(
    lambda raw: bytes(b for b in raw if b == 9 or 32 <= b < 127 or b >= 128).strip(b" \t")
)


@pytest.fixture(scope="module")
def bytes_session(served) -> tuple[httpx.Client, str]:
    account(served, "bytes1", password=None)
    return made_session(served, "bytes1")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cookie=HEADER_BYTES, signature=HEADER_BYTES, csrf=HEADER_BYTES)
def test_any_bytes_in_a_cookie_or_a_csrf_token_are_refused_never_an_error(
    served, bytes_session, cookie, signature, csrf
) -> None:
    """A cookie, its signature and the CSRF header made of any bytes a header may hold (non-ASCII included, which
    ``hmac.compare_digest`` refuses as str): 401 or 403 and the page's redirect, never a 500."""
    server, _ = served
    forged = b"tilejudge_session=" + cookie.replace(b";", b"") + b"." + signature.replace(b";", b"")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        assert http.get("/api/v1/me", headers={"Cookie": forged}).status_code == 401
        assert http.get("/problems", headers={"Cookie": forged}).status_code == 303
        assert http.post("/api/v1/tokens", headers={"Cookie": forged, "X-CSRF-Token": csrf}).status_code == 401
    http, real = bytes_session
    if csrf != real.encode():
        answer = http.post("/api/v1/tokens", json={"label": "x"}, headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf"
        field = csrf.decode("latin-1")
        assert http.post("/account/tokens", data={"csrf": field, "label": "x"}).status_code == 403


def test_log_in_and_changes_from_another_site_are_refused(served) -> None:
    """What a page on another origin makes a browser send: its Origin (or Sec-Fetch-Site), and a body as a form
    sends it (text/plain, form-encoded). The browser test drives the same through chromium."""
    server, admin = served
    account(served, "xs1")
    body = '{"name": "xs1", "password": "' + PASSWORD + '"}'
    http = browser_like(served, "10.9.2.1")
    for headers in (
        {"Origin": "http://evil.example", "Content-Type": "application/json"},
        {"Origin": "null", "Content-Type": "application/json"},
        {"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"},
    ):
        refused = http.post("/api/v1/login", content=body, headers=headers)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "cross_site", headers
    plain = http.post("/api/v1/login", content=body, headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415 and "tilejudge_session" not in plain.cookies
    form = http.post("/api/v1/login", data={"name": "xs1", "password": PASSWORD})
    assert form.status_code == 415
    token = page_csrf(http, "/login")
    page = http.post(
        "/login",
        data={"csrf": token, "next": "/", "name": "xs1", "password": PASSWORD},
        headers={"Origin": "http://evil.example"},
    )
    assert page.status_code == 403 and "tilejudge_session" not in page.cookies

    same = {"Origin": server.url, "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"}
    logged = http.post("/api/v1/login", content=body, headers=same)
    assert logged.status_code == 200
    csrf = logged.json()["csrf"]
    evil = {"Origin": "http://evil.example", "X-CSRF-Token": csrf}
    assert http.post("/api/v1/tokens", json={"label": "x"}, headers=evil).status_code == 403
    assert http.post("/account/tokens", data={"csrf": csrf, "label": "x"}, headers=evil).status_code == 403
    assert http.post("/api/v1/tokens", json={"label": "x"}, headers={"X-CSRF-Token": csrf}).status_code == 201
    scripted = admin.http.post(
        "/users", json={"name": "xs2", "role": "team"}, headers={"Origin": "http://evil.example"}
    )
    assert scripted.status_code == 201  # a token's request is no browser's: scripts keep working
    basic = http.post("/api/v1/tokens", json={"label": "x"}, auth=("xs1", PASSWORD), headers={"Origin": "http://e.x"})
    assert basic.status_code == 403  # a browser attaches Basic credentials it once used to another site's forms
    assert http.post("/api/v1/tokens", json={"label": "y"}, auth=("xs1", PASSWORD)).status_code == 201


def test_an_owner_logs_in_from_a_clean_address_whatever_a_guesser_elsewhere_did(served) -> None:
    account(served, "th1")
    guesser = browser_like(served, "10.9.3.1")
    codes = [guesser.post("/api/v1/login", json={"name": "th1", "password": "guess"}).status_code for _ in range(8)]
    assert codes[:5] == [401] * 5 and 429 in codes
    owner = browser_like(served, "10.9.3.2")
    assert owner.post("/api/v1/login", json={"name": "th1", "password": PASSWORD}).status_code == 200


def test_an_overlong_name_is_wrong_at_once_and_never_counted(served) -> None:
    """A name of a MiB is not kept: it is not counted (so never throttled) and not hashed."""
    http = browser_like(served, "10.9.4.1")
    huge = "n" * (1 << 20)
    codes = [http.post("/api/v1/login", json={"name": huge, "password": "x"}).status_code for _ in range(7)]
    assert codes == [401] * 7
    server, _ = served
    basic = httpx.Client(base_url=server.url, auth=(huge[:8000], "x"), headers={"X-Forwarded-For": "10.9.4.2"})
    assert [basic.get("/api/v1/me").status_code for _ in range(7)] == [401] * 7


def _peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_parallel_password_checks_are_bounded(tmp_path: Path) -> None:
    """Twelve wrong log-ins at once: argon2id takes 64 MiB per check, so unbounded they cost the server 640-768 MiB
    at once. The server's peak resident size (VmHWM) may grow by at most a few checks' worth, and by one check's at
    least: a server of its own, started as a user starts one, so its passwords have the real cost (the module's
    server has argon2 at its cheapest), which the lower bound holds it to."""
    folder = write_site(tmp_path, SITE)
    server = Server(folder, workers=0, extra=["--proxy", "127.0.0.1"], admin_password=False, real_passwords=True)
    server.start()
    try:
        pid = server.proc.pid
        before = _rss_kib(pid)

        def attempt(n: int) -> int:
            with httpx.Client(base_url=server.url, headers={"X-Forwarded-For": f"10.9.5.{n}"}, timeout=60) as http:
                return http.post("/api/v1/login", json={"name": f"nobody{n}", "password": "guess"}).status_code

        with ThreadPoolExecutor(12) as pool:
            codes = list(pool.map(attempt, range(12)))
        grown_mib = (_peak_kib(pid) - before) / 1024
    finally:
        server.stop()
    assert set(codes) <= {401, 429} and 401 in codes
    assert grown_mib < 300, f"the server's peak grew by {grown_mib:.0f} MiB for 12 parallel password checks"
    assert grown_mib > 48, f"the server's peak grew by {grown_mib:.0f} MiB: a check took less than argon2's 64 MiB"


def test_a_teachers_roster_import_changes_students_and_teams_only(served) -> None:
    server, admin = served
    teacher = Client(server, account(served, "ro-teach", "teacher", password=None, display="Teacher T"))
    account(served, "ro-jury", "jury", password=None, display="The Jury")
    account(served, "ro-team", "team", password=None, display="Old team name")
    roster = "id,name,deadline\nro-team,New team name,\nadmin,Pwned,2020-01-01 00:00\n"
    refused = teacher.http.post("/users/import?role=team", content=roster, headers={"Content-Type": "text/csv"})
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "roster[1]"
    for other in ("ro-jury", "ro-teach"):
        line = f"id,name\n{other},Pwned\n"
        assert teacher.http.post("/users/import?role=team", content=line).status_code == 403
    shown = {user["name"]: user for user in admin.http.get("/users").json()["users"]}
    assert shown["admin"]["display"] == "" and shown["admin"]["deadline"] is None
    assert shown["ro-jury"]["display"] == "The Jury" and shown["ro-teach"]["display"] == "Teacher T"
    assert shown["ro-team"]["display"] == "Old team name"  # the refused roster stored nothing

    page, _ = made_session(served, "ro-teach", "10.9.6.1")  # the staff page's import is the same function
    answer = page.post("/staff/roster", data={"csrf": page_csrf(page, "/staff/roster"), "csv": roster, "role": "team"})
    assert answer.status_code == 403 and "only an admin changes it" in answer.text
    fine = teacher.http.post("/users/import?role=team", content="id,name\nro-team,New team name\n")
    assert fine.status_code == 200 and fine.json()["updated"] == ["ro-team"]
    by_admin = admin.http.post("/users/import?role=team", content="id,name\nro-jury,Jury renamed\n")
    assert by_admin.status_code == 200 and by_admin.json()["updated"] == ["ro-jury"]


def test_a_store_made_before_sessions_were_kept_opens_and_keeps_them(tmp_path: Path) -> None:
    """A site of the release before this one has no sessions table: opening its store adds it, and nothing else of
    the store changes (its accounts are there)."""
    import sqlite3

    from judge.serve.auth import Sessions
    from judge.serve.migrations import FIRST as before
    from judge.serve.store import Store

    with sqlite3.connect(tmp_path / "site.sqlite") as old:
        old.executescript(before)
        old.execute("INSERT INTO users(name, role, created) VALUES ('old', 'student', 0)")
    old.close()
    store = Store(tmp_path)
    try:
        assert store.one("SELECT name FROM users")["name"] == "old"
        keys = Sessions(b"k" * 32)
        cookie, session = keys.make(store, 1)
        assert keys.read(store, cookie) == session
    finally:
        store.close()
