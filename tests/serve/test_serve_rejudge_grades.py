"""While a graded submission is being rejudged, its last finished result stands in every export, board and count.

A real server judges first; the site is then served with ``--workers 0``
(submissions taken, none judged), so a rejudge stays queued for as long as
the test looks, with no sleep and no race: the grades (CSV, JSON, JUnit, the
report), both scoreboards (the API's, the page's, the ICPC API's) and the
staff page's counts keep each student's row and score, and the downloads
say who is being rejudged. A server with a worker then judges the rejudge,
and its new result replaces the old one everywhere. Between the two
judgings the problem's points change, so the new result differs from the
one that stood.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import PROBLEMS, PROGRAMS, REPO_ROOT, require
from serving import Client, Server, add_user, write_site

pytestmark = pytest.mark.slow

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()
# right on every case but big1 (the one with three lines): the small group (40 points) only
PART_PY = """import sys
lines = sys.stdin.read().splitlines()
if len(lines) != 3:
    print("\\n".join(str(int(a) + int(b)) for a, b in (line.split() for line in lines if line.strip())))
"""
SECRET = "a-long-pass-1"


def _package(folder: Path) -> Path:
    package = folder / "aplusb"
    shutil.copytree(PROBLEMS / "aplusb", package, ignore=shutil.ignore_patterns("*.ans"))
    return package


def _pages(server: Server, name: str) -> httpx.Client:
    """A browser's session, without the browser: the API's log-in sets the pages' cookie."""
    http = httpx.Client(base_url=server.url, timeout=60)
    answer = http.post("/api/v1/login", json={"name": name, "password": SECRET})
    assert answer.status_code == 200, answer.text
    return http


def _restart(server: Server, workers: int) -> None:
    server.stop()
    server.workers = workers
    server.start()


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """A class whose two students were judged: alice AC (100), bob the small group (40)."""
    require("g++")
    root = tmp_path_factory.mktemp("rejudge")
    package = _package(root)
    folder = write_site(root / "site", f"problems:\n  - problem: {package}\n    feedback: cases\n")
    tokens = {name: add_user(folder, name, "student") for name in ("alice", "bob")}
    add_user_with_password(folder, "teach", "teacher")
    server = Server(folder, workers=1, jobs=1).start()
    try:
        clients = {name: Client(server, token) for name, token in tokens.items()}
        ids = {
            "alice": clients["alice"].submit("aplusb", "ac.py", AC_PY)["id"],
            "bob": clients["bob"].submit("aplusb", "part.py", PART_PY)["id"],
        }
        assert clients["alice"].done(ids["alice"])["score"] == 100
        bob = clients["bob"].done(ids["bob"])
        assert bob["score"] == 40, json.dumps(bob)
        yield {"server": server, "package": package, "ids": ids, "jury": Client(server, server.admin_token())}
    finally:
        server.stop()


def add_user_with_password(folder: Path, name: str, role: str) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "run_judge.py"), "serve", str(folder), "--add-user", name, "--role", role]
        + ["--password", SECRET],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 0, done.stderr


def _standing(server: Server, jury: Client, teacher: httpx.Client) -> dict:
    """Every export, board and count a teacher reads, as (score by student, who the downloads mark)."""
    rows = list(csv.DictReader(io.StringIO(teacher.get("/staff/grades/aplusb.csv").text)))
    document = teacher.get("/staff/grades/aplusb.json").json()
    junit = teacher.get("/staff/grades/aplusb.xml").text
    report = teacher.get("/staff/grades/aplusb.html").text
    board = jury.http.get("/scoreboard").json()["rows"]
    page_board = teacher.get("/scoreboard").text
    staff = teacher.get("/staff").text
    return {
        "csv": {row["id"]: float(row["score"]) for row in rows},
        "csv_marked": sorted(row["id"] for row in rows if row["rejudging"] == "yes"),
        "json": {s["id"]: s["score"] for s in document["students"]},
        "json_marked": sorted(s["id"] for s in document["students"] if s["rejudging"]),
        "junit": junit,
        "report": report,
        "board": {row["user"]: row["total"] for row in board},
        "page_board": page_board,
        "staff": staff,
    }


def test_the_last_finished_result_stands_while_a_rejudge_is_pending(judged: dict) -> None:
    server, package, jury = judged["server"], judged["package"], judged["jury"]
    yaml = package / "problem.yaml"
    yaml.write_text(yaml.read_text().replace("points: 40", "points: 50").replace("points: 60", "points: 50"))
    _restart(server, workers=0)  # takes work, judges none: the rejudge waits as long as the test looks
    teacher = _pages(server, "teach")
    answer = jury.http.post("/problems/aplusb/rejudge")
    assert answer.status_code in (200, 202), answer.text
    for sid in judged["ids"].values():
        assert jury.http.get(f"/submissions/{sid}").json()["state"] == "queued"

    pending = _standing(server, jury, teacher)
    assert pending["csv"] == {"alice": 100.0, "bob": 40.0}
    assert pending["csv_marked"] == ["alice", "bob"]
    assert pending["json"] == {"alice": 100.0, "bob": 40.0} and pending["json_marked"] == ["alice", "bob"]
    assert pending["junit"].count('name="rejudging" value="yes"') == 2
    assert '<testsuite name="alice"' in pending["junit"] and '<testsuite name="bob"' in pending["junit"]
    assert "Being rejudged: alice, bob" in pending["report"]
    assert pending["board"] == {"alice": 100.0, "bob": 40.0}
    assert ">100<" in pending["page_board"] and ">40<" in pending["page_board"]
    assert "2 submissions are being rejudged" in pending["staff"]
    assert "<td>1/2</td>" in pending["staff"]  # solved/graded: alice solved, both graded
    download = teacher.get("/staff/grades/aplusb.csv")
    assert download.headers["X-Tilejudge-Rejudging"] == "2"

    _restart(server, workers=1)
    for sid in judged["ids"].values():
        assert jury.done(sid)["state"] == "done"
    after = _standing(server, jury, _pages(server, "teach"))
    assert after["csv"] == {"alice": 100.0, "bob": 50.0}  # the new result, by the new points
    assert after["csv_marked"] == [] and after["json_marked"] == []
    assert after["json"] == {"alice": 100.0, "bob": 50.0}
    assert 'name="rejudging"' not in after["junit"] and "Being rejudged" not in after["report"]
    assert after["board"] == {"alice": 100.0, "bob": 50.0}
    assert "being rejudged" not in after["staff"]
    history = jury.http.get(f"/submissions/{judged['ids']['bob']}/results").json()["results"]
    assert [(r["score"], r["current"]) for r in history] == [(40.0, False), (50.0, True)]


@pytest.fixture(scope="module")
def contest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    require("g++")
    root = tmp_path_factory.mktemp("contest")
    package = _package(root)
    folder = write_site(
        root / "wf",
        f"kind: contest\nstart: 2020-01-01 10:00\nend: 2999-01-01 10:00\nproblems:\n  - problem: {package}\n",
    )
    team = add_user(folder, "team1", "team")
    server = Server(folder, workers=1, jobs=1).start()
    try:
        client = Client(server, team)
        sid = client.submit("aplusb", "ac.py", AC_PY)["id"]
        assert client.done(sid)["verdict"] == "AC"
        yield {"server": server, "sid": sid, "jury": Client(server, server.admin_token()), "team": client}
    finally:
        server.stop()


def test_a_contest_board_keeps_a_solve_while_it_is_rejudged(contest: dict) -> None:
    server, jury, team = contest["server"], contest["jury"], contest["team"]
    _restart(server, workers=0)
    assert jury.http.post(f"/submissions/{contest['sid']}/rejudge").status_code == 202
    assert jury.http.get(f"/submissions/{contest['sid']}").json()["state"] == "queued"
    row = team.http.get("/scoreboard").json()["rows"][0]
    assert (row["user"], row["solved"], row["problems"]["aplusb"]["pending"]) == ("team1", 1, 0)
    icpc = httpx.get(
        f"{server.url}/api/contests/wf/scoreboard", headers={"Authorization": jury.http.headers["Authorization"]}
    ).json()
    mine = icpc["rows"][0]
    assert mine["score"]["num_solved"] == 1, json.dumps(icpc)
    assert mine["problems"][0]["solved"] is True and mine["problems"][0]["num_pending"] == 0
    _restart(server, workers=1)
    assert jury.done(contest["sid"])["verdict"] == "AC"
    assert team.http.get("/scoreboard").json()["rows"][0]["solved"] == 1
