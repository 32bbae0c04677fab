"""Shadowing (``tilejudge shadow``): one of our servers is the primary, a second shadows it with a judge configured
differently on one problem, and exactly the submissions that problem judges differently are shown as differing.

The two sites serve the same contest, but problem B (``sums``, a copy of the aplusb fixture) is checked by tokens on
the primary and line by line on the shadow: a program that prints a blank line after each sum is accepted there and
not here, on every case. Everything else agrees. A submission in a language the shadow does not allow, and one by a
team it does not have, are reported as not judged here. The primary is then restarted: the shadow resumes from its
last token and judges what came since, and nothing twice.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from contextlib import ExitStack
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import Watched, launch, sync_playwright
from conftest import FIXTURES, PROBLEMS, REPO_ROOT, cli, require
from serving import Client, Server, add_user, session_of, write_site

PROGRAMS = FIXTURES / "programs" / "aplusb"
SLOW = pytest.mark.slow  # two servers, a dozen judgings, a restart: a minute, not the fast subset's


def _site(folder: Path, checker: str, languages: list[str]) -> Path:
    """A contest of aplusb (A) and its copy ``sums`` (B) checked by ``checker``."""
    copy = folder / "sums"
    shutil.copytree(PROBLEMS / "aplusb", copy)
    yaml = (copy / "problem.yaml").read_text()
    (copy / "problem.yaml").write_text(yaml.replace("type: lines", f"type: {checker}"))
    start = datetime.now().astimezone() - timedelta(hours=1)
    write_site(
        folder,
        f"title: Shadowed\nkind: contest\nstart: {start.isoformat()}\nend: {(start + timedelta(hours=5)).isoformat()}\n"
        f"languages: [{', '.join(languages)}]\n"
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\n    label: A\n  - problem: sums\n    label: B\n",
    )
    return folder


def _admin_password(server: Server) -> str:
    found = re.search(r"made the admin account: name admin, password (\S+)", server.log.read_text())
    assert found, server.log.read_text()
    return found.group(1)


class ShadowProcess:
    """``tilejudge shadow`` as a process of its own session, its stderr in a file; stopped with SIGTERM."""

    def __init__(self, folder: Path, url: str, site: Path, credentials: Path, report: Path) -> None:
        self.err = folder / "shadow.err"
        argv = [sys.executable, str(REPO_ROOT / "run_judge.py"), "shadow", url, "--site", str(site)]
        argv += ["--credentials", str(credentials), "--report", str(report)]
        with self.err.open("wb") as err:
            self.proc = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=err, cwd=REPO_ROOT, start_new_session=True
            )

    def stop(self) -> tuple[int, str]:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            out, _ = self.proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            out, _ = self.proc.communicate(timeout=30)
        return self.proc.returncode, out.decode()


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory):
    require("gcc")
    root = tmp_path_factory.mktemp("shadow")
    primary_site = _site(root / "primary", "tokens", ["c", "python3"])
    shadow_site = _site(root / "shadow", "lines", ["c"])
    tokens = {name: add_user(primary_site, name, "team") for name in ("t1", "t2", "t3")}
    for name in ("t1", "t2"):  # the same accounts in the same order: the same team ids
        add_user(shadow_site, name, "team")
    primary, shadow = Server(primary_site), Server(shadow_site)
    try:
        primary.spawn(), shadow.spawn()
        primary.ready(), shadow.ready()
        credentials = root / "primary.credentials"
        credentials.write_text(f"admin:{_admin_password(primary)}\n")
        credentials.chmod(0o600)
        yield root, primary, shadow, tokens, credentials
    finally:
        primary.stop()
        shadow.stop()


def _submit(primary: Server, token: str, problem: str, program: str, language: str) -> str:
    client = Client(primary, token)
    made = client.submit(problem, program, (PROGRAMS / program).read_text(), language)
    view = client.done(made["id"], timeout=240)
    assert view["state"] == "done", view
    return str(made["id"])


def _report(path: Path, rows: int, timeout: float = 300) -> dict[str, Any]:
    """The shadow's report once it lists ``rows`` submissions, none of them waiting."""
    deadline = time.monotonic() + timeout
    found: dict[str, Any] = {}
    while time.monotonic() < deadline:
        if path.is_file():
            found = json.loads(path.read_text())
            if len(found["submissions"]) == rows and found["summary"]["waiting"] == 0:
                return found
        time.sleep(0.5)
    raise AssertionError(f"the report did not settle on {rows} submissions: {found}")


def _by_status(report: dict[str, Any]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for row in report["submissions"]:
        out.setdefault(row["status"], set()).add(row["primary_id"])
    return out


def _shadow_frame(http: httpx.Client, since: str, primary_id: str) -> bool:
    """Whether the pages' event stream (``/live``) after ``since`` has a ``shadow`` event of ``primary_id``."""
    kind = ""
    with http.stream("GET", f"/live?since={since}") as frames:
        for line in frames.iter_lines():
            if line.startswith("event: "):
                kind = line[len("event: ") :]
            elif line.startswith("data: ") and kind == "shadow" and json.loads(line[6:]).get("id") == primary_id:
                return True
            elif line.startswith(": keep-alive"):  # the log after ``since`` has been sent: it was not there
                return False
    return False


@SLOW
def test_the_shadow_lists_exactly_the_differing_verdicts_and_resumes_after_the_primary_restarts(pair) -> None:
    root, primary, shadow, tokens, credentials = pair
    agree = {
        _submit(primary, tokens["t1"], "aplusb", "ac.c", "c"),
        _submit(primary, tokens["t2"], "sums", "ac.c", "c"),
        _submit(primary, tokens["t2"], "aplusb", "wa.c", "c"),
    }
    differ = _submit(primary, tokens["t1"], "sums", "pe.c", "c")  # AC by tokens there, not by lines here
    no_language = _submit(primary, tokens["t1"], "aplusb", "ac.py", "python3")
    no_team = _submit(primary, tokens["t3"], "aplusb", "ac.c", "c")
    report_file = root / "report.json"
    url = f"{primary.url}/api/contests/primary"  # the contest's id: the site folder's name
    process = ShadowProcess(root, url, shadow.site, credentials, report_file)
    browser = ExitStack()
    try:
        report = _report(report_file, 6)
        assert _by_status(report) == {"agree": agree, "differ": {differ}, "unmapped": {no_language, no_team}}
        shown = {row["primary_id"]: row for row in report["submissions"]}
        assert shown[differ]["primary"] == "AC" and shown[differ]["shadow"] not in (None, "AC")
        assert [c["ordinal"] for c in shown[differ]["cases"]] == [1, 2, 3, 4]
        assert {c["primary"] for c in shown[differ]["cases"]} == {"AC"}
        assert "language" in shown[no_language]["reason"] and "team" in shown[no_team]["reason"]
        assert all(shown[sid]["primary"] == shown[sid]["shadow"] for sid in agree)

        # the jury's page shows it too, and its download is the same comparison
        # (the jury's sessions are made beside the server, ``session_of``: the log-in form is other tests')
        from judge.serve.auth import SESSION_COOKIE

        http = httpx.Client(
            base_url=shadow.url, timeout=60, cookies={SESSION_COOKIE: session_of(shadow.site, "admin")[0]}
        )
        page = http.get("/staff/shadow")
        assert page.status_code == 200 and f'data-primary="{differ}"' in page.text
        assert re.search(rf'class="shadow-differ" data-primary="{differ}"', page.text)
        assert http.get("/staff/shadow.json").json()["summary"] == report["summary"]
        table = list(csv.DictReader(io.StringIO(http.get("/staff/shadow.csv").text)))
        assert [row["primary_id"] for row in table if row["status"] == "differ"] == [differ]
        # each case the primary ran, as primary/here ("-": not run here: the judge may stop a group at its first
        # failure, so which of a group's later cases ran depends on what ran in parallel)
        here = {c["ordinal"]: c["shadow"] or "-" for c in shown[differ]["cases"]}
        cases = next(r for r in table if r["status"] == "differ")["cases"]
        assert cases == " ".join(f"{n}:AC/{here[n]}" for n in range(1, 5)) and here[1] == shown[differ]["shadow"]
        since = re.search(r'data-live="(\d+)"', page.text).group(1)  # where the page's event stream starts

        # a jury member's page, open in a browser while the rest happens: its rows come by the pages' event stream
        playwright = browser.enter_context(sync_playwright())
        chromium = launch(playwright)
        browser.callback(chromium.close)
        context = chromium.new_context()
        context.add_cookies([{"name": SESSION_COOKIE, "value": session_of(shadow.site, "admin")[0], "url": shadow.url}])
        jury = Watched(context, shadow.url)
        live = jury.page("/staff/shadow")
        live.wait_for_selector(f'tr.shadow-differ[data-primary="{differ}"]')

        # the primary goes away and comes back: the shadow resumes from its token, and judges nothing twice
        primary.stop()
        deadline = time.monotonic() + 60
        while "unreachable" not in process.err.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "unreachable" in process.err.read_text()
        primary.start()
        later = _submit(primary, tokens["t2"], "sums", "pe.c", "c")
        report = _report(report_file, 7)
        assert _by_status(report)["differ"] == {differ, later}
        copies = [row["submission_id"] for row in report["submissions"] if row["submission_id"] is not None]
        assert len(copies) == len(set(copies)) == 5
        assert _shadow_frame(http, since, later)  # the page's event stream tells the jury's page of it
        live.wait_for_selector(f'tr.shadow-differ[data-primary="{later}"]', timeout=60_000)  # with no reload
        assert "2 differ" in live.inner_text("#shadow-totals") and jury.errors == [] and jury.foreign() == []
    finally:
        browser.close()
        code, out = process.stop()
    assert code == 0, process.err.read_text()
    told = process.err.read_text()
    assert "2 differ" in out and "resumed from the token" in told and "refused the token" not in told


# --- the primary as hostile input: a feed and zips made by hand, served over loopback by the standard library ----

CONTEST = "/api/contests/c"
LOGIN = "Basic " + base64.b64encode(b"jury:secret").decode()


def _zip(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, data)
    return buffer.getvalue()


def _submission(ident: str, href: str, team: str = "t1") -> dict[str, Any]:
    files = [{"href": href, "filename": "files.zip", "mime": "application/zip"}]
    data = {"id": ident, "team_id": team, "problem_id": "aplusb", "language_id": "c", "files": files}
    return {"type": "submissions", "id": ident, "data": data}


def _hostile_feed() -> bytes:
    lines = [
        b"this is not JSON",
        json.dumps({"type": "state", "data": "x" * (1 << 20) + "y"}).encode(),  # over a MiB: skipped whole
        b"[1, 2]",
        json.dumps(_submission("climbs", "contests/c/submissions/climbs/files")).encode(),
        json.dumps(_submission("elsewhere", "http://127.0.0.2:9/steal")).encode(),
        json.dumps(_submission("huge", "contests/c/submissions/huge/files")).encode(),
        json.dumps(_submission("garbage", "contests/c/submissions/garbage/files")).encode(),
        json.dumps(
            {"type": "runs", "id": "r1", "data": {"judgement_id": "j4", "ordinal": 2, "judgement_type_id": "WA"}}
        ).encode(),
        json.dumps(_submission("good", "contests/c/submissions/good/files")).encode(),
        json.dumps(
            {"type": "judgements", "id": "j4", "data": {"id": "j4", "submission_id": "good", "judgement_type_id": "WA"}}
        ).encode(),
        json.dumps({"type": "runs", "id": "r2", "data": {"judgement_id": "j4", "ordinal": "one"}}).encode(),
        json.dumps({"type": "judgements", "id": "jg", "data": {"id": "jg", "submission_id": "ghost"}}).encode(),
        b"",
    ]
    return b"\n".join(lines) + b"\n"


FILES = {
    "climbs": _zip("../../escape.c", b"int main(void){return 0;}\n"),
    "huge": b"PK" + b"\0" * (3 << 20),
    "garbage": b"this is no zip",
    "good": _zip("ac.c", (PROGRAMS / "ac.c").read_bytes()),
}


class _Primary(BaseHTTPRequestHandler):
    asked: list[str] = []

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        self.asked.append(self.path)
        if self.headers.get("Authorization") != LOGIN:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="api"')
            self.end_headers()
            return
        path = self.path.split("?")[0]
        if path == CONTEST + "/event-feed":
            body = _hostile_feed()
        elif path == CONTEST:
            body = b'{"id": "c"}'
        elif path.startswith(CONTEST + "/submissions/") and path.endswith("/files"):
            body = FILES.get(path.split("/")[-2], b"")
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Primary)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    folder = tmp_path_factory.mktemp("hostile")
    site = folder / "site"
    site.mkdir()
    write_site(
        site,
        "title: Shadow\nkind: contest\nstart: 2020-01-01T00:00:00+00:00\nend: 2020-01-02T00:00:00+00:00\n"
        f"languages: [c]\nproblems:\n  - problem: {PROBLEMS / 'aplusb'}\n",
    )
    add_user(site, "t1", "team")
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{CONTEST}", site, folder
    finally:
        server.shutdown()
        server.server_close()


def _shadow(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``shadow --once`` run in this process (``harness.cli``), with ``env`` added to the environment while it
    runs: what it reads, stores and says, not its start-up (a third of a CPU-second each time)."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        return cli("shadow", *argv, timeout=120)


def test_a_hostile_feed_and_its_zips_are_warnings_never_a_crash(hostile) -> None:
    url, site, folder = hostile
    credentials = folder / "login"
    credentials.write_text("jury:secret\n")
    report = folder / "report.json"
    done = _shadow(url, "--site", str(site), "--credentials", str(credentials), "--once", "--report", str(report))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    warned = done.stderr.splitlines()
    assert any("line 1 is not JSON" in line for line in warned), done.stderr
    assert any("line 2 is over 1024 KiB" in line for line in warned), done.stderr
    assert any("line 3 is not an event" in line for line in warned), done.stderr
    assert any("run without a judgement, type or ordinal" in line for line in warned), done.stderr
    rows = {row["primary_id"]: row for row in json.loads(report.read_text())["submissions"]}
    assert set(rows) == {"climbs", "elsewhere", "huge", "garbage", "good", "ghost"}
    assert rows["ghost"]["status"] == "waiting"  # a judgement of a submission the feed has not shown (yet)
    assert "outside itself" in rows["climbs"]["reason"]
    assert "not on the primary" in rows["elsewhere"]["reason"]
    assert "over 2 MiB" in rows["huge"]["reason"]
    assert "not a zip" in rows["garbage"]["reason"]
    assert {rows[k]["status"] for k in ("climbs", "elsewhere", "huge", "garbage")} == {"unmapped"}
    # the good one is queued here (no server judges it in this test) with the primary's verdict kept, and the run that
    # came before its judgement is kept with it
    assert rows["good"]["status"] == "waiting" and rows["good"]["primary"] == "WA" and rows["good"]["submission_id"]
    db = sqlite3.connect(f"file:{site / 'site.sqlite'}?mode=ro", uri=True)
    try:
        runs, copies = (
            db.execute("SELECT runs FROM shadow_submissions WHERE primary_id = 'good'").fetchone()[0],
            [row[0] for row in db.execute("SELECT problem FROM submissions")],
        )
    finally:
        db.close()
    assert json.loads(runs) == {"2": "WA"} and copies == ["aplusb"]
    assert not any("escape" in p.name for p in site.rglob("*"))
    assert all("127.0.0.2" not in asked for asked in _Primary.asked)

    # read again (no token: this feed gives none), logged in from the environment: nothing is submitted twice
    again = _shadow(url, "--site", str(site), "--once", env={"TILEJUDGE_SHADOW_CREDENTIALS": "jury:secret"})
    assert again.returncode == 0, again.stderr
    db = sqlite3.connect(f"file:{site / 'site.sqlite'}?mode=ro", uri=True)
    try:
        assert db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0] == 1
    finally:
        db.close()


def test_credentials_come_from_a_file_or_the_environment_and_a_refusal_is_one_line(
    hostile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from judge.errors import UsageError
    from judge.serve.shadow_client import credentials, locate

    url, site, _ = hostile
    monkeypatch.setenv("TILEJUDGE_SHADOW_CREDENTIALS", "")
    with pytest.raises(UsageError, match="no credentials"):
        credentials(None)
    monkeypatch.setenv("TILEJUDGE_SHADOW_CREDENTIALS", "jury:secret")
    assert credentials(None) == LOGIN
    (tmp_path / "login").write_text("no colon here\n")
    with pytest.raises(UsageError, match="NAME:PASSWORD"):
        credentials(tmp_path / "login")
    with pytest.raises(UsageError, match="not an http"):
        locate("ftp://x/y", LOGIN)
    with pytest.raises(UsageError, match="no such contest"):
        locate(url + "x", LOGIN)
    assert locate(url, LOGIN).contest == "c"
    wrong = _shadow(url, "--site", str(site), "--once", env={"TILEJUDGE_SHADOW_CREDENTIALS": "jury:guess"})
    assert wrong.returncode != 0 and "refused the credentials (401)" in wrong.stderr
    assert len(wrong.stderr.strip().splitlines()) <= 2 and "Traceback" not in wrong.stderr


def test_the_server_hears_of_another_process_writing_its_store(tmp_path: Path) -> None:
    """``Store.written_elsewhere``: how the shadow's records reach the server's open streams (``bell.ring_on``)."""
    from judge.serve.store import Store
    from judge.serve.store_shadow import follow

    server, shadow = Store(tmp_path), Store(tmp_path)
    try:
        server.written_elsewhere()  # the first look
        assert not server.written_elsewhere()
        with server.tx() as db:  # its own writes are not another's
            db.execute("INSERT INTO meta(key, value) VALUES ('x', 'y')")
        assert not server.written_elsewhere()
        follow(shadow, "http://primary/api/contests/c")
        assert server.written_elsewhere() and not server.written_elsewhere()
    finally:
        server.close()
        shadow.close()
