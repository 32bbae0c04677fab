"""The feedback policy holds in every channel (issue 45, item 5): what a team gets is what the policy allows.

One contest server for the module, with the fixture problem aplusb served
three times, once per feedback setting (``verdict``, ``cases``, ``full``), and
one team's wrong answer judged on each. For every setting, each channel is
read as that team and as the jury and compared with what ``/api/v1`` shows
them (``feedback.report_view``, the policy's one decision): the ICPC API's
``runs`` and ``judgements`` (and each by id), its event feed (from the
start, from a ``since_token`` and narrowed by ``types``), ``/api/v1``'s
result history and event stream, and the submission's page. Under ``verdict`` a team gets no run, no run
time and no count of cases passed anywhere; the jury gets everything.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from conftest import PROBLEMS, PROGRAMS
from serving import Client, Server, session_of, write_site

POLICIES = ("verdict", "cases", "full")
WA_PY = (PROGRAMS / "aplusb" / "wa.py").read_text()
TYPE_OF = {"RE": "RTE"}  # the ICPC name of a verdict, where it differs from the judge's


@pytest.fixture(scope="module")
def contest(tmp_path_factory: pytest.TempPathFactory):
    """The server, the jury's and the team's clients (``/api/v1`` and the ICPC API), and the team's submission per
    policy, judged."""
    start = datetime.now().astimezone() - timedelta(hours=1)
    entries = "".join(
        f"  - problem: {PROBLEMS / 'aplusb'}\n    name: {policy}\n    feedback: {policy}\n" for policy in POLICIES
    )
    folder = write_site(
        tmp_path_factory.mktemp("channels") / "wf",
        f"title: Channels\nkind: contest\nstart: {start.isoformat()}\nend: {(start + timedelta(hours=5)).isoformat()}\n"
        f"languages: [python3]\nproblems:\n{entries}",
    )
    server = Server(folder, admin_password=False).start()
    try:
        jury = Client(server, server.admin_token())
        made = jury.http.post("/users", json={"name": "t1", "role": "team"})
        assert made.status_code == 201, made.text
        team = Client(server, made.json()["token"])
        sids = {policy: team.submit(policy, "wa.py", WA_PY)["id"] for policy in POLICIES}
        for sid in sids.values():
            assert team.done(sid)["verdict"] == "WA"
        cid = jury.http.get(server.url + "/api/contests").json()[0]["id"]
        icpc = {
            "jury": httpx.Client(base_url=f"{server.url}/api/contests/{cid}", headers=jury.http.headers, timeout=60),
            "team": httpx.Client(base_url=f"{server.url}/api/contests/{cid}", headers=team.http.headers, timeout=60),
        }
        yield server, {"jury": jury, "team": team}, icpc, sids
    finally:
        server.stop()


def _expected_runs(view: dict[str, Any]) -> set[tuple[int, str, float]]:
    """The runs the ICPC API may give of an ``/api/v1`` view: one per case it shows, none where it shows none."""
    return {
        (case["index"], TYPE_OF.get(case["verdict"], case["verdict"]), round(case["time"], 3))
        for case in view["result"].get("cases", [])
        if case["verdict"] != "SKIPPED"
    }


def _runs_of(runs: list[dict[str, Any]], sid: int) -> set[tuple[int, str, float]]:
    return {
        (run["ordinal"], run["judgement_type_id"], run["run_time"])
        for run in runs
        if run["judgement_id"].split("-")[0] == str(sid)
    }


def _feed(client: httpx.Client, **params: str) -> list[dict[str, Any]]:
    text = client.get("/event-feed", params={"stream": "false", **params}).text
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _sse_runs(lines: Any, most: int | None = None, within: float = 60.0) -> list[dict[str, Any]]:
    """The data of a server-sent stream's ``runs`` events, to its end or its first ``most``; a stream that never ends
    (the pages' ``/live``) is read for ``within`` seconds at most (its keep-alive comments come every 15 s, so the
    bound is checked even when no event comes), and the caller's assertion then says what was missing."""
    found: list[dict[str, Any]] = []
    kind = ""
    deadline = time.monotonic() + within
    for line in lines:
        if time.monotonic() > deadline:
            break
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: ") and kind == "runs":
            found.append(json.loads(line[6:]))
            if len(found) == most:
                break
    return found


@pytest.mark.parametrize("who", ["team", "jury"])
@pytest.mark.parametrize("policy", POLICIES)
def test_icpc_runs_and_judgements_show_what_api_v1_shows(contest, policy: str, who: str) -> None:
    _, clients, icpc, sids = contest
    sid = sids[policy]
    view = clients[who].http.get(f"/submissions/{sid}").json()
    hidden = who == "team" and policy == "verdict"
    assert ("cases" not in view["result"]) == hidden
    expected = _expected_runs(view)
    assert bool(expected) != hidden
    runs = icpc[who].get("/runs").json()
    assert _runs_of(runs, sid) == expected
    all_runs = icpc["jury"].get("/runs").json()
    for run in all_runs:  # by id: a run the team may not see is not there, exactly as a missing one
        if run["judgement_id"].startswith(f"{sid}-"):
            assert icpc[who].get(f"/runs/{run['id']}").status_code == (404 if hidden else 200)
    (judgement,) = [j for j in icpc[who].get("/judgements").json() if j["submission_id"] == str(sid)]
    assert judgement["judgement_type_id"] == view["verdict"] == "WA"
    if hidden:
        assert "max_run_time" not in judgement
    else:
        assert judgement["max_run_time"] == max(time for _, _, time in expected)
    assert icpc[who].get(f"/judgements/{judgement['id']}").json() == judgement


@pytest.mark.parametrize("who", ["team", "jury"])
def test_the_event_feed_shows_what_the_runs_and_judgements_endpoints_show(contest, who: str) -> None:
    _, clients, icpc, sids = contest
    lines = _feed(icpc[who])
    runs = [line["data"] for line in lines if line["type"] == "runs"]
    judgements = {line["data"]["id"]: line["data"] for line in lines if line["type"] == "judgements"}
    for policy, sid in sids.items():
        view = clients[who].http.get(f"/submissions/{sid}").json()
        assert _runs_of(runs, sid) == _expected_runs(view), policy
        final = judgements[f"{sid}-1"]  # the last line of a judgement is its finished state
        assert final["judgement_type_id"] == "WA"
        assert ("max_run_time" in final) == ("cases" in view["result"]), policy
    first = next(int(line["token"]) for line in lines if line["type"] == "submissions")
    later = _feed(icpc[who], since_token=str(first))  # resuming is no way around the policy either
    logged = [line for line in later if "token" in line]  # beside the awards, computed (no token), once caught up
    assert logged == [line for line in lines if "token" in line and int(line["token"]) > first]
    for types in ("runs", "runs,judgements", "submissions"):  # nor is asking for some types alone
        assert _feed(icpc[who], types=types) == [line for line in lines if line["type"] in types.split(",")]
    assert icpc[who].get("/event-feed", params={"stream": "false", "types": "runs,cases"}).status_code == 400


def test_api_v1_history_streams_and_pages_hide_the_cases_under_verdict(contest) -> None:
    server, clients, _, sids = contest
    team = clients["team"].http
    for policy, sid in sids.items():
        shown = policy != "verdict"
        (result,) = team.get(f"/submissions/{sid}/results").json()["results"]
        assert ("cases" in result) == shown
        for group in result["groups"]:  # a group's cases passed is a count of cases: not under verdict
            assert ("passed" in group and "total" in group) == shown, policy
            assert {"name", "points", "earned"} <= set(group)
        with team.stream("GET", f"/submissions/{sid}/events") as answer:  # it ends after the verdict
            runs = _sse_runs(answer.iter_lines())
        assert runs, policy
        for run in runs:
            assert (set(run) == {"id", "attempt"}) == (not shown), (policy, run)
    cookie, _ = session_of(server.site, "t1")  # a session as a log-in makes one, without argon2's cost
    with httpx.Client(base_url=server.url, timeout=60, cookies={"tilejudge_session": cookie}) as browser:  # the pages
        for policy, sid in sids.items():
            page = browser.get(f"/submissions/{sid}").text
            assert ("Cases passed" in page) == (policy != "verdict"), policy
            assert ('class="cases"' in page) == (policy != "verdict"), policy
        counted = sum(
            len(_expected_runs(clients["jury"].http.get(f"/submissions/{sid}").json())) for sid in sids.values()
        )
        with browser.stream("GET", "/live", params={"since": "0"}) as answer:  # the pages' stream: it never ends
            runs = _sse_runs(answer.iter_lines(), counted)  # a run event per case that counts (none for a SKIPPED one)
        assert len(runs) == counted, runs
        policy_of = {sid: policy for policy, sid in sids.items()}
        for run in runs:
            assert (set(run) == {"id", "attempt"}) == (policy_of[run["id"]] == "verdict"), run
