"""Starts and stops on a real server: it listens while its problems are prepared (held here by the lock a judge
making the same cases takes), names the pages' address, and a SIGTERM lets a judging finish within its grace or
queues it again, and exits 0.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import time
from pathlib import Path

import httpx
from conftest import PROBLEMS
from serving import Client, Server, write_site

from judge.core.data_lock import producing
from judge.problem.formats import load

# an accepted aplusb that sleeps on each case (wall time, not CPU: well within the limits), so a SIGTERM finds it
SLEEPY_AC = """import sys, time
time.sleep({pause})
for line in sys.stdin:
    a, b = line.split()
    print(int(a) + int(b))
"""


def _site(root: Path) -> Path:
    shutil.copytree(PROBLEMS / "aplusb", root / "aplusb")  # its answers are missing: a start generates them
    return write_site(root / "site", f"problems:\n  - problem: {root / 'aplusb'}\nlanguages: [python3]\n")


def _running(client: Client, sid: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.http.get(f"/submissions/{sid}").json()["state"] == "running":
            return
        time.sleep(0.05)
    raise AssertionError(f"submission {sid} never ran")


def _terminated(server: Server) -> int:
    """SIGTERM to the server alone (not its group), as systemd's stop sends it; its exit status."""
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGTERM)
    return server.proc.wait(timeout=60)


def _stored(site: Path, sid: int) -> tuple[str, int]:
    with sqlite3.connect(site / "site.sqlite") as db:
        state = db.execute("SELECT state FROM submissions WHERE id = ?", (sid,)).fetchone()[0]
        results = db.execute("SELECT COUNT(*) FROM results WHERE submission_id = ?", (sid,)).fetchone()[0]
    return state, results


def test_listens_while_preparing_then_a_sigterm_past_the_grace_queues_again(tmp_path: Path) -> None:
    folder = _site(tmp_path)
    server = Server(folder, workers=1, jobs=1, extra=["--stop-grace", "0.3"], admin_password=False)
    problem = load(tmp_path / "aplusb", "aplusb")
    try:
        with producing(problem):  # another judge is making these cases: the server waits, listening
            server.launch(timeout=30)  # it listens at once, long before the cases could be made
            token = server.admin_token()  # staff may submit too: no account to make, no time spent
            api = httpx.get(server.url + "/api/v1")
            assert api.status_code == 503 and api.json()["error"]["code"] == "preparing"
            assert int(api.headers["retry-after"]) > 0
            posted = httpx.post(
                server.url + "/api/v1/submissions",
                headers={"Authorization": f"Bearer {token}"},
                json={"problem": "aplusb", "files": [{"name": "a.py", "content": "print(1)"}]},
            )
            assert posted.status_code == 503 and "retry-after" in posted.headers
            page = httpx.get(server.url + "/login")
            assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
            assert "being prepared" in page.text and "retry-after" in page.headers
            health = httpx.get(server.url + "/healthz")
            assert health.status_code == 503 and health.json()["status"] == "preparing"
            assert "tilejudge_preparing 1.0" in httpx.get(server.url + "/metrics").text
            started = server.log.read_text()
            assert f"{server.url}/login" in started and f"{server.url}/api/v1" in started
        deadline = time.monotonic() + 120
        while httpx.get(server.url + "/api/v1").status_code != 200:  # the lock is free: the cases are made
            assert time.monotonic() < deadline, server.log.read_text()
            time.sleep(0.1)
        assert httpx.get(server.url + "/healthz").json()["status"] == "ok"
        assert "http GET /api/v1 503" in server.log.read_text()  # the text log, on stderr by default
        sam = Client(server, token)
        sid = sam.submit("aplusb", "slow.py", SLEEPY_AC.format(pause=1.0))["id"]
        _running(sam, sid)
        assert _terminated(server) == 0  # the grace (0.3 s) ends before the judging (4 × 1 s)
        assert _stored(folder, sid) == ("queued", 0)  # queued again now, nothing half-stored
    finally:
        server.stop()


def test_a_sigterm_lets_the_judging_in_flight_finish_and_ends_open_streams_whole(tmp_path: Path) -> None:
    """The staff's event stream, open when the SIGTERM comes, is ended by the server as a finished answer (its
    chunked body complete): a stream left open would hold the stop for uvicorn's graceful timeout, then be cut, and
    reading it would fail with httpx's RemoteProtocolError."""
    folder = _site(tmp_path)
    server = Server(folder, workers=1, jobs=1, admin_password=False).start()  # the default grace, 10 s
    try:
        sam = Client(server, server.admin_token())
        sid = sam.submit("aplusb", "slow.py", SLEEPY_AC.format(pause=0.25))["id"]
        _running(sam, sid)
        with sam.http.stream("GET", "/events") as stream:
            lines = stream.iter_lines()
            assert next(lines).startswith("retry:")  # the stream is open
            assert server.proc is not None
            os.kill(server.proc.pid, signal.SIGTERM)
            list(lines)  # read to the stream's end, which the stopping server sends whole
        assert server.proc.wait(timeout=60) == 0
        assert _stored(folder, sid) == ("done", 1)
        with sqlite3.connect(folder / "site.sqlite") as db:
            assert db.execute("SELECT verdict FROM results WHERE submission_id = ?", (sid,)).fetchone()[0] == "AC"
    finally:
        server.stop()
