"""The service over HTTP, end to end: a real ``tilejudge serve`` on a loopback port, driven as its users would.

One server for the module (its start-up is paid once): a class with a
fixture problem (aplusb), judging cheap Python programs (no compiler, four
small cases), so the module stays in the fast subset; the verdict matrix in
C++ and Python on a bundled problem too is test_serve_verdicts.py. A
student's events are followed to the verdict; every endpoint is read as a
student (another's work is 404), a teacher and without a token; limits and
bad input get their JSON errors and store nothing. A contest not yet open and
a full queue are answered by the application alone: test_serve_api_in_process.py.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import socket
import stat
import zipfile
from pathlib import Path

import httpx
import pytest
from conftest import PROBLEMS, PROGRAMS, cli, require
from serving import Client, Server, session_of, write_site

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()
CE_PY = "def broken(:\n"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    require("g++")
    folder = write_site(
        tmp_path_factory.mktemp("site"),
        f"title: Test class\nproblems:\n  - problem: {PROBLEMS / 'aplusb'}\n    feedback: cases\n"
        "languages: [cpp, python3]\nlimits: {per_minute: 10}\n",
    )
    server = Server(folder).start()
    try:
        admin = Client(server, server.admin_token())
        tokens = {}
        for name, role in (("teach", "teacher"), ("alice", "student"), ("bob", "student"), ("dave", "student")):
            made = admin.http.post("/users", json={"name": name, "role": role})
            assert made.status_code == 201, made.text
            tokens[name] = made.json()["token"]
        yield server, {name: Client(server, token) for name, token in tokens.items()}, admin
    finally:
        server.stop()


@pytest.fixture(scope="module")
def judged(site):
    """Cheap programs judged once for the module's readers: Python needs no compiler, aplusb has four small cases."""
    server, users, _ = site
    plan = [
        ("alice", "ac.py", AC_PY, "AC"),
        ("alice", "wa.py", (PROGRAMS / "aplusb" / "wa.py").read_text(), "WA"),
        ("bob", "ce.py", CE_PY, "CE"),
        ("bob", "ac.py", AC_PY, "AC"),
    ]
    made = [(who, users[who].submit("aplusb", name, text), want) for who, name, text, want in plan]
    views = [(who, users[who].done(view["id"]), want) for who, view, want in made]
    assert [view["verdict"] for _, view, _ in views] == [want for _, _, want in views]
    return views


def test_events_follow_a_submission_to_its_verdict_and_resume(site) -> None:
    server, users, _ = site
    sid = users["alice"].submit("aplusb", "wa.py", (PROGRAMS / "aplusb" / "wa.py").read_text())["id"]
    events = _events(users["alice"], sid)
    kinds = [kind for _, kind, _ in events]
    assert kinds[0] == "submissions" and "runs" in kinds
    states = [data["state"] for _, kind, data in events if kind == "judgements"]
    assert states[:2] == ["compiling", "running"] and states[-1] == "done"
    assert events[-1][2]["verdict"] == "WA"
    ids = [eid for eid, _, _ in events]
    assert ids == sorted(set(ids))
    resumed = _events(users["alice"], sid, last=ids[1])
    assert resumed == events[2:]


def _events(client: Client, sid: int, last: int | None = None) -> list[tuple[int, str, dict]]:
    headers = {"Last-Event-ID": str(last)} if last is not None else {}
    found, current = [], {}
    with client.http.stream("GET", f"/submissions/{sid}/events", headers=headers) as answer:
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/event-stream")
        for line in answer.iter_lines():
            if not line:
                if "id" in current:
                    found.append((int(current["id"]), current["event"], json.loads(current["data"])))
                current = {}
                continue
            key, _, value = line.partition(": ")
            current[key] = value
    return found


def test_a_student_sees_only_their_own_work(site, judged) -> None:
    _, users, _ = site
    alices = [view["id"] for who, view, _ in judged if who == "alice"]
    bob = users["bob"]
    for sid in alices[:2]:
        for path in ("", "/source", "/results", "/events"):
            answer = bob.http.get(f"/submissions/{sid}{path}")
            assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found", path
        assert bob.http.post(f"/submissions/{sid}/rejudge").status_code == 404
    assert bob.http.get("/submissions/999999").status_code == 404  # the same answer as another's
    listed = bob.http.get("/submissions", params={"limit": 100}).json()["submissions"]
    assert listed and {view["user"] for view in listed} == {"bob"}
    assert bob.http.get("/users").status_code == 404
    own = users["alice"].http.get(f"/submissions/{alices[0]}/source").json()
    assert own["files"][0]["content"] == AC_PY


def test_secret_cases_show_a_student_verdict_time_and_memory_only(site, judged) -> None:
    _, users, _ = site
    wa = next(view for who, view, want in judged if who == "alice" and want == "WA")
    mine = users["alice"].http.get(f"/submissions/{wa['id']}").json()["result"]["cases"]
    theirs = users["teach"].http.get(f"/submissions/{wa['id']}").json()["result"]["cases"]
    sample = next(case for case in mine if case.get("name") == "sample")
    secret = [case for case in mine if case.get("name") != "sample"]
    assert secret and all(set(case) == {"index", "group", "verdict", "time", "memory_kb"} for case in secret)
    assert "message" in sample
    assert any(case["message"] for case in theirs if case["name"] != "sample")  # the jury's words, kept for staff


def test_a_teacher_reads_everything(site, judged) -> None:
    _, users, _ = site
    teach = users["teach"]
    listed = teach.http.get("/submissions", params={"limit": 100}).json()["submissions"]
    assert {"alice", "bob"} <= {view["user"] for view in listed}
    for _, view, _ in judged[:3]:
        assert teach.http.get(f"/submissions/{view['id']}/source").status_code == 200
    assert {user["name"] for user in teach.http.get("/users").json()["users"]} >= {"alice", "bob", "teach"}
    board = teach.http.get("/scoreboard").json()
    assert {row["user"] for row in board["rows"]} >= {"alice", "bob"}
    alice_row = next(row for row in board["rows"] if row["user"] == "alice")
    assert alice_row["problems"]["aplusb"] == 100.0
    own = users["alice"].http.get("/scoreboard").json()["rows"]
    assert [row["user"] for row in own] == ["alice"]
    problems = users["alice"].http.get("/problems").json()["problems"]
    assert [p["id"] for p in problems] == ["aplusb"] and problems[0]["statement"]
    languages = {lang["id"] for lang in users["alice"].http.get("/languages").json()["languages"]}
    assert languages == {"cpp", "python3"}


def test_every_endpoint_wants_a_token(site, judged) -> None:
    server, _, _ = site
    sid = judged[0][1]["id"]
    for client in (Client(server, None), Client(server, "tj_not-a-token")):
        for method, path in [
            ("GET", "/languages"),
            ("GET", "/problems"),
            ("GET", "/submissions"),
            ("POST", "/submissions"),
            ("GET", f"/submissions/{sid}"),
            ("GET", f"/submissions/{sid}/source"),
            ("GET", f"/submissions/{sid}/events"),
            ("GET", f"/submissions/{sid}/results"),
            ("POST", f"/submissions/{sid}/rejudge"),
            ("POST", "/problems/aplusb/rejudge"),
            ("GET", "/scoreboard"),
            ("GET", "/users"),
            ("POST", "/users/import"),
            ("GET", "/tokens"),
            ("GET", "/me"),
            ("GET", "/events"),
        ]:
            answer = client.http.request(method, path)
            assert answer.status_code == 401, (method, path, answer.text)
            assert set(answer.json()["error"]) == {"code", "message", "field"}
    assert httpx.get(server.url + "/api/v1").json()["title"] == "Test class"  # the site's name is public


def test_the_list_filters_and_pages(site, judged) -> None:
    _, users, _ = site
    teach = users["teach"]
    seen, cursor = [], None
    while True:
        page = teach.http.get("/submissions", params={"limit": 3, **({"cursor": cursor} if cursor else {})}).json()
        seen += [view["id"] for view in page["submissions"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == sorted(set(seen), reverse=True) and {view["id"] for _, view, _ in judged} <= set(seen)
    wrong = teach.http.get("/submissions", params={"problem": "aplusb", "verdict": "WA"}).json()["submissions"]
    assert {(view["user"], view["files"][0]["name"]) for view in wrong} == {("alice", "wa.py")}
    bobs = teach.http.get("/submissions", params={"user": "bob", "language": "python3"}).json()["submissions"]
    assert {view["user"] for view in bobs} == {"bob"} and len(bobs) >= 2
    assert teach.http.get("/submissions", params={"state": "nonsense"}).status_code == 422


def test_the_pages_list_and_the_api_list_filter_alike(site, judged) -> None:
    server, users, admin = site
    staff, _ = _page_session(server, "admin")
    made = admin.http.post("/users", json={"name": "ines", "role": "student"})
    assert made.status_code == 201
    student, _ = _page_session(server, "ines")
    ines = Client(server, made.json()["token"])
    ines.done(ines.submit("aplusb", "ac.py", AC_PY)["id"])
    for who, api, asked in (
        (staff, admin, {"problem": "aplusb", "verdict": "WA"}),
        (staff, admin, {"user": "bob", "state": "done"}),
        (student, ines, {"user": "bob"}),  # a student's list is their own, whatever it asks
        (student, ines, {"problem": "aplusb", "verdict": "AC"}),
    ):
        listed = api.http.get("/submissions", params={**asked, "limit": 100}).json()["submissions"]
        shown = [int(sid) for sid in re.findall(r'data-sid="(\d+)"', who.get("/submissions", params=asked).text)]
        assert shown == [view["id"] for view in listed] and shown, asked


def test_roster_import_makes_accounts_and_late_work_is_flagged(site) -> None:
    _, users, admin = site
    teach = users["teach"]
    roster = "id,name,deadline\nerin,Erin E.,2020-01-01 10:00\nfrank,Frank F.,\n"
    answer = teach.http.post("/users/import", content=roster, headers={"Content-Type": "text/csv"})
    assert answer.status_code == 201, answer.text
    made = {entry["name"]: entry["token"] for entry in answer.json()["made"]}
    assert set(made) == {"erin", "frank"}
    erin = Client(site[0], made["erin"])
    view = erin.submit("aplusb", "ce.py", CE_PY)
    assert view["late"] is True and view["late_minutes"] > 0
    again = teach.http.post("/users/import", content=roster)
    assert again.status_code == 200 and again.json()["updated"] == ["erin", "frank"]
    bad = teach.http.post("/users/import", content="name\nx\n")
    assert bad.status_code == 422 and "roster.csv:1" in bad.json()["error"]["message"]
    assert users["alice"].http.post("/users/import", content=roster).status_code == 404
    assert teach.http.post("/users", json={"name": "t2", "role": "teacher"}).status_code == 403
    erin.done(view["id"])


def test_tokens_are_made_listed_and_revoked(site) -> None:
    server, users, _ = site
    alice = users["alice"]
    made = alice.http.post("/tokens", json={"label": "laptop"}).json()
    second = Client(server, made["token"])
    assert second.http.get("/me").json()["user"]["name"] == "alice"
    assert "laptop" in [t["label"] for t in alice.http.get("/tokens").json()["tokens"]]
    assert users["bob"].http.delete(f"/tokens/{made['id']}").status_code == 404  # not bob's
    assert alice.http.delete(f"/tokens/{made['id']}").status_code == 204
    assert second.http.get("/me").status_code == 401


def test_a_password_login_gives_a_session_whose_changes_need_the_csrf_token(site) -> None:
    server, _, admin = site
    made = admin.http.post("/users", json={"name": "gwen", "role": "student", "password": "correct horse"})
    assert made.status_code == 201
    browser = httpx.Client(base_url=server.url + "/api/v1", timeout=60)
    assert browser.post("/login", json={"name": "gwen", "password": "wrong one"}).status_code == 401
    answer = browser.post("/login", json={"name": "gwen", "password": "correct horse"})
    assert answer.status_code == 200 and "httponly" in answer.headers["set-cookie"].lower()
    csrf = answer.json()["csrf"]
    assert browser.get("/me").json()["user"]["name"] == "gwen"  # reading needs the cookie only
    refused = browser.post("/tokens", json={"label": "x"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf"
    assert browser.post("/tokens", json={"label": "x"}, headers={"X-CSRF-Token": csrf + "x"}).status_code == 403
    assert browser.post("/tokens", json={"label": "x"}, headers={"X-CSRF-Token": csrf}).status_code == 201
    forged = httpx.Client(base_url=server.url + "/api/v1", cookies={"tilejudge_session": "e30.abc"})
    assert forged.get("/me").status_code == 401


def _zip(entries: list[tuple[str, bytes]], link: str | None = None) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
        if link:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return base64.b64encode(buffer.getvalue()).decode()


def test_limits_and_bad_input_are_json_errors_and_store_nothing(site) -> None:
    _, users, _ = site
    alice, teach = users["alice"], users["teach"]
    before = len(teach.http.get("/submissions", params={"limit": 500}).json()["submissions"])

    def post(body: object, **kw: object) -> httpx.Response:
        return (
            alice.http.post("/submissions", json=body, **kw)
            if not isinstance(body, bytes)
            else alice.http.post("/submissions", content=body, headers={"Content-Type": "application/json"}, **kw)
        )

    one = {"problem": "aplusb", "language": "python3"}
    cases = [
        (post({**one, "files": [{"name": "a.py", "content": "#" * (256 << 10 | 1)}]}), 413, "files[0]"),
        (post({**one, "files": [{"name": f"f{n}.py", "content": "x"} for n in range(21)]}), 413, "files"),
        (post(b"{" + b" " * (2 << 20) + b"}"), 413, None),
        (post(b"{not json"), 400, None),
        (post({**one, "files": [{"name": "a.zip", "content_b64": _zip([("../up.py", b"x")])}]}), 422, "files[0]"),
        (post({**one, "files": [{"name": "a.zip", "content_b64": _zip([("a.py", b"x")], "b.py")}]}), 422, "files[0]"),
        (
            post(
                {
                    **one,
                    "files": [
                        {"name": "a.zip", "content_b64": _zip([(f"f{n}.py", bytes(250 << 10)) for n in range(18)])}
                    ],
                }
            ),
            413,
            "files[0]",
        ),
        (post({**one, "problem": "nosuch", "files": [{"name": "a.py", "content": AC_PY}]}), 404, "problem"),
        (post({**one, "language": "cobol", "files": [{"name": "a.py", "content": AC_PY}]}), 422, "language"),
        (post({**one, "language": "java", "files": [{"name": "A.java", "content": "x"}]}), 422, "language"),
        (post({**one, "files": [{"name": "../a.py", "content": AC_PY}]}), 422, "files[0].name"),
        (post({**one, "files": [{"name": "a.py", "content": AC_PY}]}, params={"wait": 11}), 422, "wait"),
    ]
    for number, (answer, status, field) in enumerate(cases):
        assert answer.status_code == status, (number, answer.text)
        assert answer.json()["error"]["field"] == field, (number, answer.text)
    after = len(teach.http.get("/submissions", params={"limit": 500}).json()["submissions"])
    assert after == before


def _page_session(server: Server, name: str) -> tuple[httpx.Client, str]:
    """A browser's session on the pages, over plain HTTP, and the CSRF token of its forms. The session is made beside
    the server (``serving.session_of``), not by a log-in: these tests are about lists and forms, and a password's
    log-in is test_a_password_login_gives_a_session_whose_changes_need_the_csrf_token's."""
    cookie, _ = session_of(server.site, name)
    http = httpx.Client(base_url=server.url, timeout=60, cookies={"tilejudge_session": cookie})
    return http, re.search(r'name="csrf" value="([^"]+)"', http.get("/problems/aplusb").text).group(1)


def test_an_oversized_form_is_read_and_told_on_its_page_and_a_huge_one_cut_off(site) -> None:
    server, users, admin = site
    made = admin.http.post("/users", json={"name": "hugo", "role": "student"})
    assert made.status_code == 201
    http, csrf = _page_session(server, "hugo")
    big = b"#" * (3 << 20) + b"\n"  # over the 2 MiB body, under the 8 MiB the server reads of a page's form
    answer = http.post(
        "/problems/aplusb/submit", data={"csrf": csrf, "language": "python3"}, files={"file": ("big.py", big)}
    )
    assert answer.status_code == 413 and answer.headers["content-type"].startswith("text/html")
    assert re.search(r'id="form-error"[^>]*>[^<]*over 2 MiB', answer.text), answer.text
    assert answer.headers.get("connection") != "close"  # the body was read whole: the connection goes on
    assert http.get("/problems/aplusb").status_code == 200
    api = users["teach"].http.post("/submissions", content=big, headers={"Content-Type": "application/json"})
    assert api.status_code == 413 and api.json()["error"]["code"] == "too_large"
    assert api.headers["connection"] == "close"  # the API reads none of it
    head = (
        "POST /problems/aplusb/submit HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Cookie: tilejudge_session={http.cookies['tilejudge_session']}\r\n"
        f"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {100 << 20}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as raw:
        raw.sendall(head.encode() + bytes(1 << 16))
        said = b""
        while chunk := raw.recv(1 << 16):  # to the end: the server closes the connection after its answer
            said += chunk
    assert said.startswith(b"HTTP/1.1 413") and b"connection: close" in said.lower() and b"over 2 MiB" in said
    assert users["teach"].http.get("/submissions", params={"user": "hugo"}).json()["submissions"] == []


def test_zip_multipart_and_odd_names_are_judged_and_kept_as_sent(site) -> None:
    _, users, _ = site
    alice = users["alice"]
    zipped = {
        "problem": "aplusb",
        "files": [{"name": "sol.zip", "content_b64": _zip([("src/sol.py", AC_PY.encode())])}],
    }
    answer = alice.http.post("/submissions", json=zipped, params={"wait": 10})
    view = answer.json() if answer.status_code == 200 else alice.done(answer.json()["id"])
    assert view["verdict"] == "AC" and view["files"][0]["name"] == "sol.py" and view["language"] == "python3"
    form = alice.http.post(
        "/submissions", data={"problem": "aplusb", "language": "python3"}, files={"files": ("up.py", AC_PY.encode())}
    )
    assert form.status_code in (200, 202), form.text
    odd = "so l<b>\u00e9&.py"  # no compiler's name, yet text: kept as sent (a control character is refused)
    sid = alice.submit("aplusb", odd, AC_PY, "python3")["id"]
    assert alice.done(sid)["verdict"] == "AC" and alice.done(form.json()["id"])["verdict"] == "AC"
    assert alice.http.get(f"/submissions/{sid}/source").json()["files"][0]["name"] == odd


def test_a_wait_that_runs_out_answers_202_and_the_staff_follow_the_whole_log(site) -> None:
    server, users, _ = site
    # compiled afresh (a comment no build in the cache has): its compile alone takes longer than the wait
    source = (PROGRAMS / "aplusb" / "ac.cpp").read_text() + f"// {os.urandom(8).hex()}\n"
    answer = users["bob"].http.post(
        "/submissions",
        params={"wait": 0.05},
        json={"problem": "aplusb", "files": [{"name": "z.cpp", "content": source}]},
    )
    assert answer.status_code == 202 and answer.json()["state"] in ("queued", "compiling", "running")
    assert answer.headers["Location"] == f"/api/v1/submissions/{answer.json()['id']}"
    assert users["bob"].done(answer.json()["id"])["verdict"] == "AC"
    assert users["bob"].http.get("/events").status_code == 404  # the whole log is the staff's
    with users["teach"].http.stream("GET", "/events", params={"since": 0}) as stream:
        for line in stream.iter_lines():
            if line.startswith("id: "):
                break
    assert line == "id: 1"


def test_too_many_submissions_are_429_with_retry_after(site) -> None:
    _, users, _ = site
    dave = users["dave"]
    sids = [dave.submit("aplusb", "c.py", CE_PY)["id"] for _ in range(10)]
    answer = dave.http.post("/submissions", json={"problem": "aplusb", "files": [{"name": "c.py", "content": CE_PY}]})
    assert answer.status_code == 429 and 1 <= int(answer.headers["Retry-After"]) <= 60
    assert answer.json()["error"]["code"] == "rate_limited"
    assert dave.done(sids[-1])["verdict"] == "CE"


def test_a_second_server_on_the_same_site_is_refused(site) -> None:
    """Run in this process (``cli``): the refusal comes before anything is started, as a subprocess's would."""
    server, _, _ = site
    done = cli("serve", str(server.site), "--port", "1", timeout=60)
    assert done.returncode == 2 and "another server is serving this site" in done.stderr


def test_a_bad_site_file_names_its_line(tmp_path: Path) -> None:
    folder = write_site(tmp_path / "bad", "title: x\nproblems:\n  - nosuch-problem\n")
    done = cli("serve", str(folder), timeout=60)
    assert done.returncode == 2 and "site.yaml:3:" in done.stderr and "nosuch-problem" in done.stderr
    assert "Traceback" not in done.stderr
