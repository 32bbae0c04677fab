"""The ICPC Contest API (ccs-specs 2023-06) of a contest site, read and driven over HTTP as the contest tools do.

Teams submit with the spec's POST (one base64 zip), log in with HTTP Basic,
see their own submissions, judgements and runs; the jury sees all; the
event feed resumes from a token. Every answer is checked for what the spec
requires here; with ``CCS_SPECS`` naming a checkout of the spec at its
2023-06 tag (``git clone -b 2023-06 https://github.com/icpc/ccs-specs``) and
``jsonschema`` installed, every answer is also validated against the spec's
own JSON schemas (``json-schema/``), which are not copied into this project.
"""

from __future__ import annotations

import base64
import io
import json
import time
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import PROBLEMS, PROGRAMS, require
from icpc_spec import validator
from serving import Client, Server, add_user, write_site

SLOW = pytest.mark.slow  # a server of its own and a dozen judgings: seconds, not the fast subset's

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()
WA_PY = (PROGRAMS / "aplusb" / "wa.py").read_text()
ABSTIME = (
    r"^[12][0-9]{3}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-6][0-9]:[0-6][0-9](\.[0-9]{3})?([+-][0-1][0-9](:[0-5][0-9])?|Z)$"
)
RELTIME = r"^-?([1-9][0-9]*)?[0-9]:[0-5][0-9]:[0-5][0-9](\.[0-9]{3})?$"
REQUIRED = {  # each object's required properties in the 2023-06 spec
    "contest": {"id", "name", "duration", "scoreboard_type", "penalty_time"},
    "state": {"started", "ended", "finalized", "end_of_updates"},
    "languages": {"id", "name", "entry_point_required", "extensions"},
    "problems": {"id", "label", "name", "ordinal", "test_data_count"},
    "teams": {"id", "name", "label"},
    "judgement-types": {"id", "name", "solved"},
    "submissions": {"id", "language_id", "problem_id", "team_id", "time", "contest_time", "files"},
    "judgements": {"id", "submission_id", "start_time", "start_contest_time"},
    "runs": {"id", "judgement_id", "ordinal", "judgement_type_id", "time", "contest_time"},
    "scoreboard": {"time", "contest_time", "state", "rows"},
    "clarifications": {"id", "text", "time", "contest_time"},
}
SCHEMA_OF = {
    "contest": "contest",
    "state": "state",
    "scoreboard": "scoreboard",
    "judgement-types": "judgement-type",
    "languages": "language",
    "problems": "problem",
    "teams": "team",
    "submissions": "submission",
    "judgements": "judgement",
    "runs": "run",
    "clarifications": "clarification",
}


VALIDATE = validator(strict=True)  # the spec's schemas from CCS_SPECS (icpc_spec.py), None without


def check(kind: str, data: Any, many: bool = False) -> None:
    """What the spec requires of ``data`` (one object, or a list of them), and its schema's verdict when we have it."""
    import re

    for found in data if many else [data]:
        assert REQUIRED[kind] <= set(found), (kind, found)
        for key, value in found.items():
            if key in ("time", "start_time", "end_time") and value is not None:
                assert re.match(ABSTIME, value), (kind, key, value)
            if key in ("contest_time", "start_contest_time", "end_contest_time", "duration") and value is not None:
                assert re.match(RELTIME, value), (kind, key, value)
    if VALIDATE is not None:
        name = SCHEMA_OF[kind]
        VALIDATE(f"{name}s" if many and not name.endswith("s") else name, data)


def _zip(name: str, text: str) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, text)
    return base64.b64encode(buffer.getvalue()).decode()


@pytest.fixture(scope="module")
def contest(tmp_path_factory: pytest.TempPathFactory):
    require("gcc")
    start = datetime.now().astimezone() - timedelta(hours=1)
    folder = write_site(
        tmp_path_factory.mktemp("icpc") / "wf",
        f"title: World Finals rehearsal\nkind: contest\nstart: {start.isoformat()}\n"
        f"end: {(start + timedelta(hours=5)).isoformat()}\n"
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\n    label: A\n",
    )
    teams = {}
    for name in ("t1", "t2"):
        add_user(folder, name, "team")
    server = Server(folder, admin_password=False).start()
    try:
        jury = Client(server, server.admin_token())
        for name in ("t1", "t2"):  # the tools log in with a name and a password
            teams[name] = httpx.Client(base_url=server.url + "/api", auth=(name, "pw-" + name * 4), timeout=60)
        yield server, jury, teams
    finally:
        server.stop()


@SLOW
def test_the_contest_api_is_read_and_driven_as_the_spec_says(contest) -> None:
    server, jury, teams = contest
    # passwords for the teams (made with --add-user, token only): set through the jury's API
    for name in teams:
        made = jury.http.post("/users", json={"name": name + "x", "role": "team", "password": "pw-" + name * 4})
        assert made.status_code == 201
    t1 = httpx.Client(base_url=server.url + "/api", auth=("t1x", "pw-t1t1t1t1"), timeout=60)
    t2 = httpx.Client(base_url=server.url + "/api", auth=("t2x", "pw-t2t2t2t2"), timeout=60)
    api = httpx.Client(base_url=server.url + "/api", headers=jury.http.headers, timeout=60)
    info = httpx.get(server.url + "/api").json()
    assert info["version"] == "2023-06" and info["version_url"].endswith("2023-06/contest_api")
    (listed,) = api.get("/contests").json()
    cid = listed["id"]
    check("contest", listed)
    assert listed["scoreboard_type"] == "pass-fail" and listed["duration"] == "5:00:00.000"
    base = f"/contests/{cid}"

    made = []
    for client, text in ((t1, AC_PY), (t1, WA_PY), (t2, AC_PY)):
        answer = client.post(
            f"{base}/submissions",
            json={"problem_id": "aplusb", "language_id": "python3", "files": [{"data": _zip("sol.py", text)}]},
        )
        assert answer.status_code == 201, answer.text
        assert answer.headers["Location"].endswith(f"/submissions/{answer.json()['id']}")
        check("submissions", answer.json())
        made.append(answer.json()["id"])

    def posted(**extra: str) -> int:
        """The status of a team's submission of an accepted file with ``extra`` fields beside the usual ones."""
        body = {"problem_id": "aplusb", "language_id": "python3", "files": [{"data": _zip("a.py", AC_PY)}], **extra}
        return t1.post(f"{base}/submissions", json=body).status_code

    assert posted(time="x") == 400
    assert posted(team_id="999") == 403
    verdicts = [jury.done(int(sid))["verdict"] for sid in made]
    assert verdicts == ["AC", "WA", "AC"]
    jury.http.post(f"/submissions/{made[1]}/rejudge")
    assert jury.done(int(made[1]))["attempt"] == 2

    for kind in ("languages", "problems", "teams", "judgement-types", "submissions", "judgements", "runs"):
        found = api.get(f"{base}/{kind}").json()
        check(kind, found, many=True)
        if found:
            one = api.get(f"{base}/{kind}/{found[0]['id']}")
            assert one.status_code == 200 and one.json() == found[0]
    check("state", api.get(f"{base}/state").json())
    judgements = api.get(f"{base}/judgements").json()
    assert {j["judgement_type_id"] for j in judgements} == {"AC", "WA"}
    assert sorted(j["id"] for j in judgements if j["submission_id"] == made[1]) == [f"{made[1]}-1", f"{made[1]}-2"]
    runs = api.get(f"{base}/runs").json()
    assert {r["judgement_id"] for r in runs} <= {j["id"] for j in judgements}

    mine = t1.get(f"{base}/submissions").json()
    assert {s["id"] for s in mine} == set(made[:2])
    assert t1.get(f"{base}/submissions/{made[2]}").status_code == 404
    assert t2.get(f"{base}/submissions/{made[0]}/files").status_code == 404
    with zipfile.ZipFile(io.BytesIO(t1.get(f"{base}/submissions/{made[0]}/files").content)) as archive:
        assert archive.read("sol.py").decode() == AC_PY
    assert {j["submission_id"] for j in t2.get(f"{base}/judgements").json()} == {made[2]}

    board = api.get(f"{base}/scoreboard").json()
    check("scoreboard", board)
    solved = {row["team_id"]: row["score"]["num_solved"] for row in board["rows"]}
    assert solved == {"t1x": 1, "t2x": 1, "t1": 0, "t2": 0}  # every team, also those with no submission
    t1_row = next(row for row in board["rows"] if row["team_id"] == mine[0]["team_id"])
    assert t1_row["problems"][0]["num_judged"] == 2 or t1_row["problems"][0]["time"] is not None

    assert httpx.get(server.url + f"/api{base}/submissions").status_code == 401
    assert httpx.get(server.url + f"/api{base}/submissions", auth=("t1x", "wrong")).status_code == 401


@SLOW
def test_the_event_feed_resumes_from_a_token(contest) -> None:
    server, jury, _ = contest
    api = httpx.Client(base_url=server.url + "/api", headers=jury.http.headers, timeout=60)
    cid = api.get("/contests").json()[0]["id"]
    jury.done(jury.submit("aplusb", "late.py", AC_PY)["id"])
    lines = [
        json.loads(line)
        for line in api.get(f"/contests/{cid}/event-feed", params={"stream": "false"}).text.splitlines()
        if line.strip()
    ]
    kinds = [line["type"] for line in lines]
    assert kinds[0] == "contest" and {"submissions", "judgements", "runs", "teams", "problems"} <= set(kinds)
    for line in lines:
        assert set(line) <= {"type", "id", "data", "token"}
        if VALIDATE is not None:
            VALIDATE("event-feed", line)
        if line["type"] in REQUIRED and line["data"] is not None:
            check(line["type"], line["data"])
    tokens = [int(line["token"]) for line in lines if "token" in line]
    assert tokens == sorted(tokens) and tokens
    middle = tokens[len(tokens) // 2]
    later = [
        json.loads(line)
        for line in api.get(
            f"/contests/{cid}/event-feed", params={"stream": "false", "since_token": str(middle)}
        ).text.splitlines()
        if line.strip()
    ]
    logged = [line for line in later if "token" in line]  # and the awards, computed (no token), once caught up
    assert logged == [line for line in lines if "token" in line and int(line["token"]) > middle]
    assert {line["type"] for line in later if "token" not in line} <= {"awards"}
    assert api.get(f"/contests/{cid}/event-feed", params={"since_token": "nope"}).status_code == 400


FREEZE = 120  # minutes: the board below froze at minute 120 of 240


@pytest.fixture
def ranked_contest(tmp_path: Path):
    """A contest's service in this process (no server, no judging: results are stored as a judge would), four
    teams whose results make ties; its ICPC API in this process (``in_process``), as a team and as the jury."""
    pytest.importorskip("starlette")
    from in_process import InProcessClient

    from judge.serve.app import make_app
    from judge.serve.auth import Sessions, add_user, new_token
    from judge.serve.service import Service
    from judge.serve.site import Site, SiteLimits, SiteProblem
    from judge.serve.store import Store

    now = time.time()
    start = now - 180 * 60  # three hours in: an hour after the freeze, an hour before the end
    problems = {name: SiteProblem(name, tmp_path, name.upper(), "verdict") for name in ("a", "b")}
    site = Site(
        tmp_path / "wf",
        "Ties",
        "contest",
        problems,
        (),
        datetime.fromtimestamp(start, timezone.utc),
        datetime.fromtimestamp(start + 240 * 60, timezone.utc),
        None,
        SiteLimits(),
        freeze=FREEZE,
    )
    site.root.mkdir()
    store = Store(site.root)
    tokens = {}
    plan = {  # team: (problem, minute, verdict), in the order made
        "t3": [("a", 50, "AC"), ("b", 20, "JE"), ("b", 80, "AC")],  # 130 minutes, last solve at 80; a judge error
        "t1": [("a", 5, "WA"), ("a", 10, "AC"), ("b", 100, "AC")],  # 130 minutes, last solve at 100
        "t2": [("a", 30, "AC"), ("b", 100, "AC")],  # 130 minutes, last solve at 100: tied with t1
        "t4": [("a", 40, "AC"), ("b", 150, "AC")],  # b solved after the freeze: pending on the frozen board
    }
    with store.tx() as db:
        tokens["jury"] = new_token(db, add_user(db, "jury", "jury").id)[1]
        for team, made in plan.items():
            user = add_user(db, team, "team")
            tokens[team] = new_token(db, user.id)[1]
            for problem, minute, verdict in made:
                moment = start + minute * 60 + 5
                sid = db.execute(
                    "INSERT INTO submissions(user_id, problem, language, files, submitted, state, attempt) "
                    "VALUES (?, ?, 'python3', '[]', ?, 'done', 1)",
                    (user.id, problem, moment),
                ).lastrowid
                db.execute(
                    "INSERT INTO results(submission_id, attempt, judged, verdict, score, max_score, report, current)"
                    " VALUES (?, 1, ?, ?, 0, 1, '{}', 1)",
                    (sid, moment + 1, verdict),
                )
    service = Service(site, store, {}, None, Sessions(b"k" * 32))  # type: ignore[arg-type]
    app = make_app(service)

    def client(who: str) -> InProcessClient:
        return InProcessClient(app, headers={"Authorization": f"Bearer {tokens[who]}"})

    yield client, start, service
    store.close()


def _rows(board: dict[str, Any], names: dict[str, str]) -> list[tuple[int, str, int, int, int | None]]:
    return [
        (
            row["rank"],
            names[row["team_id"]],
            row["score"]["num_solved"],
            row["score"]["total_time"],
            row["score"].get("time"),
        )
        for row in board["rows"]
    ]


def test_teams_equal_in_solved_penalty_and_last_solve_share_a_rank(ranked_contest) -> None:
    client, _, _ = ranked_contest
    jury = client("jury")
    names = {team["id"]: team["name"] for team in jury.get("/api/contests/wf/teams").json()}
    board = jury.get("/api/contests/wf/scoreboard").json()
    check("scoreboard", board)
    assert _rows(board, names) == [
        (1, "t3", 2, 130, 80),  # the earlier last solve breaks the tie of solved and penalty
        (2, "t1", 2, 130, 100),
        (2, "t2", 2, 130, 100),  # all three equal: the same rank, in order of name
        (4, "t4", 2, 190, 150),  # the third place was taken by the tie
    ]
    t3_b = board["rows"][0]["problems"][1]
    assert (t3_b["num_judged"], t3_b["num_pending"]) == (1, 1)  # a judge error is a pending judgement, and free


def test_a_frozen_board_for_the_teams_and_the_live_one_for_the_jury(ranked_contest) -> None:
    client, start, _ = ranked_contest
    jury, team = client("jury"), client("t1")
    contest = team.get("/api/contests/wf").json()
    check("contest", contest)
    assert contest["scoreboard_freeze_duration"] == "2:00:00.000"
    frozen = team.get("/api/contests/wf/scoreboard").json()
    live = jury.get("/api/contests/wf/scoreboard").json()
    check("scoreboard", frozen)
    names = {t["id"]: t["name"] for t in jury.get("/api/contests/wf/teams").json()}
    assert _rows(frozen, names)[-1] == (4, "t4", 1, 40, 40)  # a tie for second leaves third empty
    t4_frozen = next(row for row in frozen["rows"] if names[row["team_id"]] == "t4")["problems"][1]
    t4_live = next(row for row in live["rows"] if names[row["team_id"]] == "t4")["problems"][1]
    assert t4_frozen == {"problem_id": "b", "num_judged": 0, "num_pending": 1, "solved": False}
    assert t4_live == {"problem_id": "b", "num_judged": 1, "num_pending": 0, "solved": True, "time": 150}
    froze_at = datetime.fromtimestamp(start + (240 - FREEZE) * 60, timezone.utc)
    for board in (frozen, live):
        assert board["state"]["frozen"] == froze_at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        assert board["state"]["thawed"] is None and board["state"]["ended"] is None
    assert team.get("/api/contests/wf/state").json() == frozen["state"]


def _logged_states(api: Any, since: int = 0) -> list[dict[str, Any]]:
    """The feed's ``state`` events after token ``since`` (the log's, each with its token)."""
    params = {"stream": "false", "since_token": str(since)}
    text = api.get("/api/contests/wf/event-feed", params=params).text
    return [line for line in map(json.loads, filter(str.strip, text.splitlines())) if line["type"] == "state"]


def test_the_contest_clock_logs_each_state_change_once_with_a_token(ranked_contest) -> None:
    """The start, the freeze and the end each become one ``state`` event with a token, showing the state as of that
    moment, so a reader that resumes from a token after the freeze still learns of it."""
    from judge.serve.contest_clock import log_due

    client, start, service = ranked_contest
    team = client("t1")
    assert _logged_states(team) == []
    assert log_due(service, time.time()) == ["started", "frozen"]  # an hour after the freeze: both passed
    assert log_due(service, time.time()) == []  # logged once, however often the clock looks
    states = _logged_states(team)
    for line in states:
        check("state", line["data"])
    assert [(s["data"]["started"] is not None, s["data"]["frozen"] is not None) for s in states] == [
        (True, False),
        (True, True),
    ]
    assert states[1]["data"]["ended"] is None and states[1]["id"] is None
    assert _logged_states(team, int(states[0]["token"])) == [states[1]]
    assert log_due(service, start + 240 * 60 + 1) == ["ended"]
    ended = _logged_states(team, int(states[1]["token"]))
    assert len(ended) == 1 and ended[0]["data"]["ended"] == ended[0]["data"]["thawed"] is not None


def test_a_running_server_logs_the_freeze_when_it_comes(tmp_path: Path) -> None:
    """The clock runs with the application (its lifespan): a freeze a second away is in the log soon after."""
    pytest.importorskip("starlette")
    import asyncio

    from judge.serve.app import make_app
    from judge.serve.auth import Sessions
    from judge.serve.service import Service
    from judge.serve.site import Site, SiteLimits
    from judge.serve.store import Store

    now = time.time()
    site = Site(
        tmp_path / "wf",
        "Soon frozen",
        "contest",
        {},
        (),
        datetime.fromtimestamp(now - 3600, timezone.utc),
        datetime.fromtimestamp(now + 61, timezone.utc),  # the last minute frozen: one second from now
        None,
        SiteLimits(),
        freeze=1,
    )
    site.root.mkdir()
    store = Store(site.root)

    class Idle:  # the judging's workers: nothing to judge here, only the clock is watched
        def start(self) -> None: ...

        def stop(self) -> None: ...

    service = Service(site, store, {}, Idle(), Sessions(b"k" * 32))  # type: ignore[arg-type]
    app = make_app(service)

    async def watch() -> list[str]:
        async with app.router.lifespan_context(app):
            for _ in range(100):
                found = [json.loads(row["data"])["moment"] for row in store.events_after(0) if row["type"] == "state"]
                if "frozen" in found:
                    return found
                await asyncio.sleep(0.1)
        return found

    try:
        assert asyncio.run(watch()) == ["started", "frozen"]
    finally:
        store.close()
