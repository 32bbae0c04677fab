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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from conftest import PROBLEMS
from serving import Client, Server, write_site

PASSWORD = "right-password-1"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    folder = write_site(
        tmp_path_factory.mktemp("sessions"),
        f"title: Sessions\nkind: contest\nstart: 2020-01-01 00:00\nend: 2099-01-01 00:00\n"
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\nlanguages: [python3]\n",
    )
    server = Server(folder, workers=1, jobs=1, extra=["--proxy", "127.0.0.1"]).start()
    try:
        admin = Client(server, server.admin_token())
        yield server, admin
    finally:
        server.stop()


def account(served, name: str, role: str = "team", **extra) -> str:
    """A new account with the module's password; its API token."""
    _, admin = served
    made = admin.http.post("/users", json={"name": name, "role": role, "password": PASSWORD, **extra})
    assert made.status_code == 201, made.text
    return made.json()["token"]


def browser_like(served, address: str = "10.9.0.1") -> httpx.Client:
    """A client that keeps cookies, as a browser does, from ``address``."""
    server, _ = served
    return httpx.Client(base_url=server.url, headers={"X-Forwarded-For": address}, timeout=60)


def page_csrf(http: httpx.Client, path: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', http.get(path).text).group(1)


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


def test_parallel_password_checks_are_bounded(served) -> None:
    """Twelve wrong log-ins at once: argon2id takes 64 MiB per check, so unbounded they cost the server 640-768 MiB
    at once. The server's peak resident size (VmHWM) may grow by at most a few checks' worth."""
    server, _ = served
    pid = server.proc.pid
    before = _rss_kib(pid)

    def attempt(n: int) -> int:
        with browser_like(served, f"10.9.5.{n}") as http:
            return http.post("/api/v1/login", json={"name": f"nobody{n}", "password": "guess"}).status_code

    with ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(attempt, range(12)))
    assert set(codes) <= {401, 429} and 401 in codes
    grown_mib = (_peak_kib(pid) - before) / 1024
    assert grown_mib < 300, f"the server's peak grew by {grown_mib:.0f} MiB for 12 parallel password checks"


def test_a_teachers_roster_import_changes_students_and_teams_only(served) -> None:
    server, admin = served
    teacher = Client(server, account(served, "ro-teach", "teacher", display="Teacher T"))
    account(served, "ro-jury", "jury", display="The Jury")
    account(served, "ro-team", "team", display="Old team name")
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

    page = browser_like(served, "10.9.6.1")  # the staff page's import is the same function
    page.post("/login", data={"csrf": page_csrf(page, "/login"), "next": "/", "name": "ro-teach", "password": PASSWORD})
    answer = page.post("/staff/roster", data={"csrf": page_csrf(page, "/staff/roster"), "csv": roster, "role": "team"})
    assert answer.status_code == 403 and "only an admin changes it" in answer.text
    fine = teacher.http.post("/users/import?role=team", content="id,name\nro-team,New team name\n")
    assert fine.status_code == 200 and fine.json()["updated"] == ["ro-team"]
    by_admin = admin.http.post("/users/import?role=team", content="id,name\nro-jury,Jury renamed\n")
    assert by_admin.status_code == 200 and by_admin.json()["updated"] == ["ro-jury"]
