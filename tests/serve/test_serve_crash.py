"""The service through failures: a judging that fails is a visible error a rejudge clears, and a server killed with
SIGKILL mid-judging loses nothing and judges nothing twice.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from conftest import PROBLEMS, require
from serving import Client, Server, add_user, write_site
from test_fresh_runs import _private_folders_of

# An accepted aplusb that first burns ~50 ms of CPU on each case, so a kill finds work running and work queued.
SLOW_AC = """import time
t = time.process_time()
while time.process_time() - t < 0.05:
    pass
import sys
for line in sys.stdin:
    a, b = line.split()
    print(int(a) + int(b))
"""
SUBMISSIONS = 10  # two running, the rest queued behind them when the kill comes: each is judged once more at most


@pytest.mark.slow
def test_a_judge_error_is_visible_and_a_rejudge_clears_it(tmp_path: Path) -> None:
    require("g++")
    package = tmp_path / "echo"
    shutil.copytree(PROBLEMS / "checker_crash", package)
    folder = write_site(tmp_path / "site", f"problems:\n  - problem: {package}\n")
    student = add_user(folder, "sam", "student")
    server = Server(folder, workers=1, jobs=1).start()
    try:
        sam, jury = Client(server, student), Client(server, server.admin_token())
        sid = sam.submit("echo", "echo.py", "import sys\nsys.stdout.write(sys.stdin.read())\n")["id"]
        failed = sam.done(sid)
        assert failed["state"] == "error" and failed["verdict"] == "JE"
        assert "rejudge" in failed["error"] and "checker" not in failed["error"]  # the details are the jury's
        assert jury.http.get(f"/submissions/{sid}").json()["error"]
        (package / "checker.cpp").write_text("int main() { return 0; }\n")  # the jury mends its checker
        assert jury.http.post(f"/submissions/{sid}/rejudge").status_code == 202
        mended = sam.done(sid)
        assert (mended["state"], mended["verdict"], mended.get("error")) == ("done", "AC", None)
        history = jury.http.get(f"/submissions/{sid}/results").json()["results"]
        assert [(r["verdict"], r["current"]) for r in history] == [("JE", False), ("AC", True)]
    finally:
        server.stop()


def _children(pid: int) -> set[int]:
    """Every process descended from ``pid`` now (launchers run in sessions of their own, still its children)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


@pytest.mark.slow
def test_a_server_killed_mid_judging_loses_nothing_and_judges_nothing_twice(tmp_path: Path) -> None:
    require("g++")
    folder = write_site(
        tmp_path / "site", f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\nlimits: {{per_minute: 100}}\n"
    )
    student = add_user(folder, "kim", "student")
    server = Server(folder, workers=2, jobs=2).start()
    try:
        kim = Client(server, student)
        sids = [kim.submit("aplusb", f"s{n}.py", SLOW_AC + f"# {n}\n")["id"] for n in range(SUBMISSIONS)]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            states = [
                view["state"]
                for view in kim.http.get("/submissions", params={"limit": SUBMISSIONS}).json()["submissions"]
            ]
            if {"compiling", "running"} & set(states) and "queued" in states:
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"never saw work running and queued: {states}")
        runs = _children(server.proc.pid)
        left = _private_folders_of(server.proc.pid)
        assert len(left) >= 2  # the slot pool's and the submissions' scratch
        server.kill()
        with sqlite3.connect(folder / "site.sqlite") as db:
            taken = {row[0] for row in db.execute("SELECT id FROM submissions WHERE state IN ('compiling', 'running')")}
            kept = db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0]
        assert kept == SUBMISSIONS and taken
        end = time.monotonic() + 10
        while _alive(runs) and time.monotonic() < end:
            time.sleep(0.1)
        assert _alive(runs) == set()  # no launcher nor run outlives its server
        server.start()
        assert "queued again" in server.log.read_text()
        assert [folder for folder in left if folder.exists()] == []  # what the killed server kept is removed
        views = {sid: kim.done(sid, timeout=300) for sid in sids}
        assert {view["verdict"] for view in views.values()} == {"AC"}
        for sid in sids:
            results = kim.http.get(f"/submissions/{sid}/results").json()["results"]
            assert len(results) == 1 and results[0]["current"], (sid, results)
        assert all(views[sid]["attempt"] >= 2 for sid in taken)  # what was running was judged again, from the start
    finally:
        server.stop()
