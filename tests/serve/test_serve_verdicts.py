"""The service judges as the judge does: AC, WA, CE and TLE in C++ and in Python, on a fixture problem and a bundled
one, each followed to its verdict over HTTP; rejudges keep the history.

Slow (C++ compiles, runs to their time limits): the fast subset has the
service's contract in test_serve_api.py. aplusb's copy here has a quarter
second of CPU so that the two TLE programs cost little. Python is accepted
here on aplusb and judged on eight by its WA and CE; eight's own Python
reference (seconds of search on every case) is judged AC by the puzzles'
tests, not again through the service.
"""

from __future__ import annotations

import shutil

import pytest
from conftest import PROBLEMS, PROGRAMS, REPO_ROOT, require
from serving import Client, Server, add_user, write_site

pytestmark = pytest.mark.slow

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()
TLE_CPP = "int main() { volatile unsigned long long n = 0; for (;;) n++; }\n"
WA_CPP = '#include <cstdio>\nint main() { std::puts("0"); }\n'
CE_PY = "def broken(:\n"
EIGHT = REPO_ROOT / "problems" / "eight" / "submissions"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    require("g++")
    root = tmp_path_factory.mktemp("verdicts")
    package = root / "aplusb"
    shutil.copytree(PROBLEMS / "aplusb", package)
    spec = package / "problem.yaml"
    spec.write_text(spec.read_text().replace("time: 0.5", "time: 0.25"))
    folder = write_site(root / "site", f"problems:\n  - problem: {package}\n  - eight\nlimits: {{per_minute: 100}}\n")
    tokens = {name: add_user(folder, name, "student") for name in ("alice", "bob")}
    tokens["teach"] = add_user(folder, "teach", "teacher")
    server = Server(folder).start()
    try:
        yield {name: Client(server, token) for name, token in tokens.items()}
    finally:
        server.stop()


@pytest.fixture(scope="module")
def judged(site):
    """Every program submitted at once, then each one's final view."""
    plan = [
        ("alice", "aplusb", "ac.cpp", (PROGRAMS / "aplusb" / "ac.cpp").read_text(), "AC"),
        ("alice", "aplusb", "ac.py", AC_PY, "AC"),
        ("alice", "aplusb", "wa.py", (PROGRAMS / "aplusb" / "wa.py").read_text(), "WA"),
        ("alice", "aplusb", "ce.cpp", (PROGRAMS / "aplusb" / "ce_syntax.cpp").read_text(), "CE"),
        ("alice", "aplusb", "tle.cpp", TLE_CPP, "TLE"),
        ("bob", "aplusb", "tle.py", (PROGRAMS / "aplusb" / "tle_busy.py").read_text(), "TLE"),
        ("bob", "aplusb", "wa.cpp", WA_CPP, "WA"),
        ("bob", "aplusb", "ce.py", CE_PY, "CE"),
        ("bob", "eight", "ref.cpp", (EIGHT / "accepted" / "ref.cpp").read_text(), "AC"),
        ("bob", "eight", "wa.py", "print(-1)\n", "WA"),
        ("bob", "eight", "ce.cpp", "int main() { return }\n", "CE"),
    ]
    made = [(who, site[who].submit(problem, name, text), want) for who, problem, name, text, want in plan]
    return [(who, site[who].done(view["id"], timeout=300), want) for who, view, want in made]


def test_each_program_gets_its_verdict(judged) -> None:
    got = [(view["problem"], view["files"][0]["name"], view["verdict"]) for _, view, _ in judged]
    assert got == [(view["problem"], view["files"][0]["name"], want) for _, view, want in judged]
    for _, view, _ in judged:
        assert view["state"] == "done" and view["cases_done"] <= view["cases_total"]
    ce = next(view for _, view, want in judged if want == "CE" and view["language"] == "cpp")
    assert ce["result"]["compile"]["ok"] is False and ce["result"]["compile"]["log"]
    tle = next(view for _, view, want in judged if want == "TLE" and view["language"] == "cpp")
    assert any(case["verdict"] == "TLE" and case["time"] >= 0.25 for case in tle["result"]["cases"])


def test_a_rejudge_keeps_the_history_and_one_current_result(site, judged) -> None:
    teach = site["teach"]
    sid = judged[1][1]["id"]
    assert teach.http.post(f"/submissions/{sid}/rejudge").json() == {"rejudged": [sid]}
    view = teach.done(sid)
    assert view["verdict"] == "AC" and view["attempt"] == 2
    history = teach.http.get(f"/submissions/{sid}/results").json()["results"]
    assert len(history) == 2 and [r["current"] for r in history] == [False, True]
    eight_wa = [view["id"] for _, view, want in judged if view["problem"] == "eight" and want == "WA"]
    answer = teach.http.post("/problems/eight/rejudge", params={"verdict": "WA"})
    assert answer.status_code == 202 and answer.json()["rejudged"] == eight_wa
    assert teach.done(eight_wa[0])["verdict"] == "WA"
    board = teach.http.get("/scoreboard").json()["rows"]
    assert next(row for row in board if row["user"] == "bob")["problems"]["eight"] == 100.0


def test_a_student_follows_the_events_of_a_compiled_program(site) -> None:
    from test_serve_api import _events

    # aplusb's C++ (a source judged before gets a line of its own: compiled afresh, its events from "compiling" on);
    # eight's reference was judged in ``judged`` already, its eighteen cases and Python checker are not needed again
    source = (PROGRAMS / "aplusb" / "ac.cpp").read_text() + "// again\n"
    sid = site["alice"].submit("aplusb", "ac.cpp", source)["id"]
    events = _events(site["alice"], sid)
    runs = [data for _, kind, data in events if kind == "runs"]
    states = [data["state"] for _, kind, data in events if kind == "judgements"]
    assert states == ["compiling", "running", "done"] and events[-1][2]["verdict"] == "AC"
    secret = [run for run in runs if not str(run.get("name", "")).startswith("sample")]
    assert secret and all(
        set(run) == {"id", "attempt", "index", "group", "verdict", "time", "memory_kb"} for run in secret
    )
    assert len(runs) == site["teach"].http.get(f"/submissions/{sid}").json()["cases_total"]
