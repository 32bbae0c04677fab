"""Input no route may answer with a 500, and may not store half of: issue 45, item 2.

One real server for the module: a contest (so the ICPC API is served too)
with the aplusb fixture problem judged in Python (no compiler, four small
cases). Each test sends one class of hostile input to every route that reads
it: JSON nested without end, integers beyond SQLite's 64 bits or not plain
decimals (path ids, cursors, ``limit``, ``before``, ``since``,
``Last-Event-ID``, ICPC ids and tokens), file and user names that are no
text or longer than a file system takes. It checks the answer is the 4xx
the service uses and the store holds what it held before. The last test
writes rows the way an earlier version stored them (a file name with a lone
surrogate, a 400-byte one) straight into the store and reads every list,
page and export that shows them, and has them judged.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import sqlite3
import time
import zipfile

import httpx
import pytest
from conftest import PROBLEMS, PROGRAMS, cli
from serving import Server, session_of, store_rows, write_site

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()
HUGE = "9" * 30
JUST_OVER = str(1 << 63)


class Who:
    """An account: its bearer token for the API, and a session (cookie and CSRF token) for the pages, made beside the
    server (``serving.session_of``): a password's log-in would cost an argon2 hash and is not what is tested here."""

    def __init__(self, server: Server, made: dict) -> None:
        url, name = server.url, made["user"]["name"]
        self.api = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {made['token']}"}, timeout=60)
        cookie, self.csrf = session_of(server.site, name)
        self.pages = httpx.Client(base_url=url, timeout=60, follow_redirects=False)
        self.pages.cookies.set("tilejudge_session", cookie)
        self.id = made["user"]["id"]

    def close(self) -> None:
        self.api.close()
        self.pages.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    start = time.strftime("%Y-%m-%d %H:%M", time.gmtime(time.time() - 3600))
    folder = write_site(
        tmp_path_factory.mktemp("contest"),
        f"title: Hostile input\nkind: contest\nproblems:\n  - problem: {PROBLEMS / 'aplusb'}\n"
        f"languages: [python3]\nstart: {start}+00:00\nend: 2099-01-01 00:00+00:00\nlimits: {{per_minute: 1000}}\n",
    )
    server = Server(folder, workers=1, jobs=1, admin_password=False).start()
    people: list[Who] = []
    try:
        admin = httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {server.admin_token()}"}, timeout=60
        )
        for name, role in (("team1", "team"), ("jury1", "jury")):
            made = admin.post("/api/v1/users", json={"name": name, "role": role})
            assert made.status_code == 201, made.text
            people.append(Who(server, made.json()))
        admin.close()
        yield server, people[0], people[1]
    finally:
        for who in people:
            who.close()
        server.stop()


def _contest(server: Server) -> str:
    return server.site.name


def _judged(client: httpx.Client, sid: int, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = client.get(f"/api/v1/submissions/{sid}")
        assert answer.status_code == 200, answer.text
        if answer.json()["state"] in ("done", "error"):
            return answer.json()
        time.sleep(0.2)
    raise AssertionError(f"submission {sid} not judged in {timeout} s")


def _refused(answer: httpx.Response, *statuses: int) -> None:
    assert answer.status_code in statuses, (answer.request.method, answer.request.url, answer.status_code, answer.text)
    if answer.request.url.path.startswith("/api"):
        error = answer.json()["error"]
        assert set(error) == {"code", "message", "field"} and error["message"]


def test_json_nested_without_end_or_holding_no_text_is_a_400_on_every_json_route(served) -> None:
    server, team, jury = served
    cid = _contest(server)
    before = store_rows(server.site)
    bodies = [
        b'{"problem": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # RecursionError in the parser on main
        b'{"files": ' + b"[" * 30 + b"]" * 30 + b"}",  # parsed, but deeper than any body of the API
        b'{"name": "\\ud800", "password": "\\udfff", "label": "\\ud800", "problem": "\\ud800"}',
        b'{"name": NaN, "label": Infinity}',
        b"\xff\xfe{}",
    ]
    routes = [
        (team.api, "/api/v1/submissions"),
        (team.pages, "/api/v1/login"),
        (jury.api, "/api/v1/users"),
        (team.api, "/api/v1/tokens"),
        (team.api, f"/api/contests/{cid}/submissions"),
    ]
    for client, path in routes:
        for body in bodies:
            answer = client.post(path, content=body, headers={"Content-Type": "application/json"})
            _refused(answer, 400)
    assert store_rows(server.site) == before


def test_integers_beyond_64_bits_or_not_plain_decimals_are_4xx_and_streams_keep_working(served) -> None:
    server, team, jury = served
    cid = _contest(server)
    sid = team.api.post(
        "/api/v1/submissions", json={"problem": "aplusb", "files": [{"name": "ac.py", "content": AC_PY}]}
    ).json()["id"]
    _judged(team.api, sid)
    before = store_rows(server.site)
    asked = []
    for bad in (HUGE, JUST_OVER, "-" + HUGE, "\u00b2", "\u0661\u0662", "1_0", " 7"):
        quoted = httpx.URL("/x/" + bad).raw_path.decode()[3:]
        asked += [
            (team, "api", "GET", f"/api/v1/submissions/{quoted}", None, {}, 404),
            (team, "api", "GET", f"/api/v1/submissions/{quoted}/source", None, {}, 404),
            (team, "api", "GET", f"/api/v1/submissions/{quoted}/results", None, {}, 404),
            (team, "api", "GET", f"/api/v1/submissions/{quoted}/events", None, {}, 404),
            (jury, "api", "POST", f"/api/v1/submissions/{quoted}/rejudge", None, {}, 404),
            (team, "api", "DELETE", f"/api/v1/tokens/{quoted}", None, {}, 404),
            (team, "api", "GET", "/api/v1/submissions", {"cursor": bad}, {}, 400),
            (team, "api", "GET", "/api/v1/submissions", {"limit": bad}, {}, 400),
            (jury, "api", "GET", "/api/v1/events", {"since": bad}, {}, 400),
            (team, "api", "GET", f"/api/v1/submissions/{sid}/events", {"since": bad}, {}, 400),
            (team, "api", "GET", f"/api/v1/submissions/{sid}/events", None, {"Last-Event-ID": quoted}, 400),
            (team, "pages", "GET", "/live", {"since": bad}, {}, 400),
            (team, "pages", "GET", f"/submissions/{quoted}", None, {}, 404),
            (team, "pages", "GET", "/submissions", {"before": bad}, {}, 400),
            (team, "pages", "POST", f"/account/tokens/{quoted}/delete", None, {}, 404),
            (jury, "pages", "POST", f"/submissions/{quoted}/rejudge", None, {}, 404),
            (team, "api", "GET", f"/api/contests/{cid}/submissions/{quoted}/files", None, {}, 404),
            (team, "api", "GET", f"/api/contests/{cid}/event-feed", {"since_token": bad}, {}, 400),
        ]
    for who, kind, method, path, params, headers, status in asked:
        client = who.api if kind == "api" else who.pages
        form = {"csrf": who.csrf} if kind == "pages" and method == "POST" else None
        with client.stream(method, path, params=params, headers=headers, data=form) as answer:
            answer.read()  # a stream that is wrongly open would hang here: the test's own timeout ends it
            _refused(answer, status)
    team_id = jury.api.post(
        f"/api/contests/{cid}/submissions",
        json={"problem_id": "aplusb", "language_id": "python3", "team_id": int(HUGE), "files": [{"data": ""}]},
    )
    _refused(team_id, 422)
    assert store_rows(server.site) == before
    # the streams still work, resumed with a proper id
    with team.api.stream("GET", f"/api/v1/submissions/{sid}/events", headers={"Last-Event-ID": "0"}) as answer:
        assert answer.status_code == 200
        text = "".join(answer.iter_text())
    assert "event: judgements" in text and '"verdict": "AC"' in text
    with team.api.stream("GET", f"/api/contests/{cid}/event-feed", params={"stream": "false", "since_token": "0"}) as f:
        kinds = [json.loads(line)["type"] for line in f.iter_lines() if line.strip()]
    assert "submissions" in kinds and "judgements" in kinds


def _zip(name: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, AC_PY)
    return buffer.getvalue()


BAD_NAMES = [
    "\ud800sol.py",  # a lone surrogate: stored on main, then every list showing it was a 500
    "sol\x1b[31m.py",  # a control character
    "a" * 300 + ".py",  # longer than a file system takes: accepted on main, then every judging a JE
    "\u00e9" * 100 + ".py",  # 100 characters, 203 bytes of UTF-8
]


def test_file_names_that_are_no_text_or_too_long_are_refused_before_anything_is_stored(served) -> None:
    server, team, _ = served
    cid = _contest(server)
    before = store_rows(server.site)
    for name in BAD_NAMES:
        body = json.dumps({"problem": "aplusb", "language": "python3", "files": [{"name": name, "content": AC_PY}]})
        _refused(
            team.api.post("/api/v1/submissions", content=body, headers={"Content-Type": "application/json"}), 400, 422
        )
        if "\ud800" in name:
            continue  # neither a zip's entry nor a form's field can carry a lone surrogate
        archive = base64.b64encode(_zip(name)).decode()
        zipped = {"problem": "aplusb", "language": "python3", "files": [{"name": "s.zip", "content_b64": archive}]}
        _refused(team.api.post("/api/v1/submissions", json=zipped), 422)
        icpc = {"problem_id": "aplusb", "language_id": "python3", "files": [{"data": archive}]}
        _refused(team.api.post(f"/api/contests/{cid}/submissions", json=icpc), 422)
        form = {"problem": "aplusb", "language": "python3"}
        _refused(team.api.post("/api/v1/submissions", data=form, files={"files": (name, AC_PY.encode())}), 422)
        page = team.pages.post(
            "/problems/aplusb/submit",
            data={"csrf": team.csrf, "language": "python3", "code": AC_PY, "filename": name},
        )
        _refused(page, 422)
    assert store_rows(server.site) == before


def test_user_names_that_are_no_text_are_refused(served) -> None:
    server, _, jury = served
    before = store_rows(server.site)
    for name in ("eve\x01", "eve\x1b[2J", "eve\u2028x", "x" * 101):
        _refused(jury.api.post("/api/v1/users", json={"name": name, "role": "team"}), 422)
    _refused(jury.api.post("/api/v1/users", content=b'{"name": "eve\\udc80", "role": "team"}'), 400)
    # the roster's reader (grade's) shows a control character as an escape; bytes that are no UTF-8 it refuses
    _refused(jury.api.post("/api/v1/users/import", params={"role": "team"}, content=b"id\neve\xff\xfe\n"), 422)
    assert store_rows(server.site) == before


def test_rows_an_earlier_version_stored_are_shown_exported_and_judged(served) -> None:
    """Rows written straight into the store as an earlier version took them: a file name with a lone surrogate and a
    400-byte one. Every list, page and export that shows them answers, and each is judged (AC, not a judge error)."""
    server, team, jury = served
    cid = _contest(server)
    digest = hashlib.sha256(AC_PY.encode()).hexdigest()
    stored = server.site / "sources" / digest[:2] / digest
    stored.parent.mkdir(parents=True, exist_ok=True)
    stored.write_text(AC_PY)
    names = ["\ud800sol.py", "b" * 397 + ".py"]
    db = sqlite3.connect(server.site / "site.sqlite", timeout=30)
    try:
        with db:
            ids = [
                db.execute(
                    "INSERT INTO submissions(user_id, problem, language, files, submitted, state, cases_total) "
                    "VALUES (?, 'aplusb', 'python3', ?, ?, 'queued', 4)",
                    (team.id, json.dumps([{"name": name, "sha256": digest, "size": len(AC_PY)}]), time.time()),
                ).lastrowid
                for name in names
            ]
    finally:
        db.close()
    for sid in ids:
        assert _judged(team.api, sid)["verdict"] == "AC"
    for client in (team.api, jury.api):
        listed = client.get("/api/v1/submissions")
        assert listed.status_code == 200, listed.text
        shown = [f["name"] for s in listed.json()["submissions"] if s["id"] in ids for f in s["files"]]
        assert sorted(shown) == sorted(["\ufffdsol.py", names[1]])
        for sid in ids:
            for tail in ("", "/source", "/results"):
                assert client.get(f"/api/v1/submissions/{sid}{tail}").status_code == 200
        assert client.get(f"/api/contests/{cid}/submissions").status_code == 200
        for sid in ids:
            files = client.get(f"/api/contests/{cid}/submissions/{sid}/files")
            assert files.status_code == 200
            archive = zipfile.ZipFile(io.BytesIO(files.content))
            assert [archive.read(name) for name in archive.namelist()] == [AC_PY.encode()]
    for client in (team.pages, jury.pages):
        assert client.get("/submissions").status_code == 200
        page = client.get(f"/submissions/{ids[0]}")
        assert page.status_code == 200 and "\ufffdsol.py" in page.text
        assert client.get(f"/submissions/{ids[1]}").status_code == 200
    for fmt in ("csv", "json", "xml", "html"):
        assert jury.pages.get(f"/staff/grades/aplusb.{fmt}").status_code == 200
    assert jury.pages.get("/staff/similar/aplusb").status_code == 200


def test_add_user_takes_no_name_that_is_no_text(served) -> None:
    """``serve --add-user`` reads the name from the command line, where any bytes may come: one that is not UTF-8 (a
    lone surrogate to Python) or holds a control character is a one-line usage error, and nothing is stored. Run in
    this process (``cli``): the name is given as Python's start-up decodes argv's bytes (``os.fsdecode``)."""
    server, _, _ = served
    before = store_rows(server.site)
    for name in (b"bad\xffname", b"bad\x1bname"):
        done = cli("serve", str(server.site), "--add-user", os.fsdecode(name), timeout=60)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert store_rows(server.site) == before
