"""What the ICPC Contest API (ccs-specs 2023-06) requires and its clients assume, on a real server (issue 49, item 1).

The ``access`` endpoint; a 401 that challenges for HTTP Basic (a client that
waits for the challenge, as urllib's does, then logs in); ``since_id``
refused as the spec's ``check-api.sh`` expects; every team on the
scoreboard; team ids a roster sets or the account's name gives (and an old
site's numbers kept); organizations and groups from the roster, in their
endpoints and the event feed; and the awards a resolver reads (winner, medals
by ``site.yaml``'s rule, first to solve, group winners). With ``CCS_SPECS``
naming a checkout of the spec, every answer is also validated against its
JSON schemas (``test_serve_icpc.check``).
"""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import PROBLEMS, PROGRAMS, REPO_ROOT, require
from icpc_spec import check_api, validator
from serving import Client, Server, add_user, write_site
from test_serve_icpc import VALIDATE, _zip, check

STRICT = validator(strict=True)  # check-api.sh's default: no property the spec does not define
AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()
WA_PY = (PROGRAMS / "aplusb" / "wa.py").read_text()
ROSTER = (
    "id,name,team_id,organization,country,groups\n"
    "alpha,Team Alpha,,KTH Royal Institute of Technology,SWE,Europe\n"
    "beta,Team Beta,b-07,Lund University,swe,Europe;Students\n"
    "gamma,Team Gamma,,KTH Royal Institute of Technology,,Students\n"
    "kappa,Team Kappa,,東京大学,JPN,\n"
)


def _old_site(folder: Path) -> None:
    """A store as a site made before team ids were kept (schema version 2): one team, known to clients as "1"."""
    from judge.serve.migrations import STEPS, migrate

    db = sqlite3.connect(folder / "site.sqlite", isolation_level=None)
    migrate(db, folder / "site.sqlite", tuple(step for step in STEPS if step.version <= 2))  # sessions: this morning's
    db.execute("INSERT INTO users(name, role, display, created) VALUES ('old timers', 'team', '', 0)")
    db.close()


@pytest.fixture(scope="module")
def contest(tmp_path_factory: pytest.TempPathFactory):
    """A contest (medals: one rank each) with an old team, ``team1`` (made by ``--add-user``), a roster's three
    teams; alpha solves A first, beta after a wrong try, gamma only fails."""
    require("gcc")
    start = datetime.now().astimezone() - timedelta(hours=1)
    folder = write_site(
        tmp_path_factory.mktemp("icpcspec") / "nwerc",
        f"title: Spec rehearsal\nkind: contest\nstart: {start.isoformat()}\n"
        f"end: {(start + timedelta(hours=5)).isoformat()}\nmedals: {{gold: 1, silver: 1, bronze: 1}}\n"
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\n    label: A\n",
    )
    _old_site(folder)
    add_user(folder, "team1", "team")
    server = Server(folder, admin_password=False).start()
    clients: list[httpx.Client] = []
    try:
        jury = Client(server, server.admin_token())
        made = jury.http.post("/users/import", params={"role": "team"}, content=ROSTER.encode())
        assert made.status_code == 201, made.text
        tokens = {entry["name"]: entry["token"] for entry in made.json()["made"]}

        def api(token: str) -> httpx.Client:
            client = httpx.Client(base_url=server.url + "/api/contests/nwerc", timeout=60)
            client.headers["Authorization"] = f"Bearer {token}"
            clients.append(client)
            return client

        teams = {name: api(token) for name, token in tokens.items()}
        made_ids = []
        for team, text in (("alpha", AC_PY), ("beta", WA_PY), ("beta", AC_PY), ("gamma", WA_PY)):
            body = {"problem_id": "aplusb", "language_id": "python3", "files": [{"data": _zip("a.py", text)}]}
            answer = teams[team].post("/submissions", json=body)
            assert answer.status_code == 201, answer.text
            made_ids.append(answer.json()["id"])
            jury.done(int(made_ids[-1]))  # in order: the first to solve is alpha's, whatever the workers do
        yield {"server": server, "jury": api(server.admin_token()), "teams": teams, "submissions": made_ids}
    finally:
        for client in clients:
            client.close()
        server.stop()


def test_access_lists_capabilities_endpoints_and_properties_by_role(contest) -> None:
    jury, alpha = contest["jury"], contest["teams"]["alpha"]
    seen = {}
    for who, client in (("jury", jury), ("team", alpha)):
        answer = client.get("/access")
        assert answer.status_code == 200, answer.text
        seen[who] = answer.json()
        if VALIDATE is not None:
            VALIDATE("access", seen[who])
    assert seen["jury"]["capabilities"] == ["proxy_submit", "admin_clar"]
    assert seen["team"]["capabilities"] == ["team_submit", "team_clar"]
    for found in seen.values():
        endpoints = {e["type"]: set(e["properties"]) for e in found["endpoints"]}
        assert {"contest", "problems", "teams", "organizations", "groups", "awards", "scoreboard"} <= set(endpoints)
        assert "clarifications" in endpoints
        assert all(endpoints.values())  # the spec: never an empty list of properties
        assert {"organization_id", "group_ids"} <= endpoints["teams"] and "id" in endpoints["organizations"]
    jury_sees = {e["type"]: e["properties"] for e in seen["jury"]["endpoints"]}
    team_sees = {e["type"]: e["properties"] for e in seen["team"]["endpoints"]}
    assert "runs" in jury_sees and "max_run_time" in jury_sees["judgements"]
    assert "runs" not in team_sees and "max_run_time" not in team_sees["judgements"]  # a contest's feedback: verdict
    assert httpx.get(contest["server"].url + "/api/contests/nwerc/access").status_code == 401


def test_a_401_challenges_for_basic_and_a_client_that_waits_for_it_logs_in(contest) -> None:
    url = contest["server"].url
    icpc = httpx.get(url + "/api/contests")
    assert icpc.status_code == 401 and icpc.headers["www-authenticate"].startswith("Basic realm=")
    assert icpc.json()["error"]["code"] == "unauthorized"
    assert httpx.get(url + "/api/v1/me").headers["www-authenticate"].startswith("Bearer realm=")  # ours: unchanged
    # a password for team1, then urllib's Basic handler: it sends the credentials only once challenged for Basic
    jury = contest["jury"]
    v1 = {"Authorization": jury.headers["Authorization"]}
    reset = httpx.post(url + "/api/v1/users", headers=v1, json={"name": "delta", "role": "team", "password": "pw" * 6})
    assert reset.status_code == 201, reset.text
    passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
    passwords.add_password(None, url, "delta", "pw" * 6)
    opener = urllib.request.build_opener(urllib.request.HTTPBasicAuthHandler(passwords))
    with opener.open(url + "/api/contests/nwerc/teams/delta", timeout=60) as answer:
        assert json.loads(answer.read())["id"] == "delta"


def test_since_id_is_refused_as_check_api_expects(contest) -> None:
    jury = contest["jury"]
    for path in (
        "doesnt-exist",
        "doesnt-exist/42",
        *(f"submissions/{i}" for i in ("999999", "xyz9999", "XYZ_999", "XYZ-999")),
    ):
        assert jury.get(f"/{path}").status_code == 404, path  # the rest of check-api.sh's ENDPOINTS_TO_FAIL
    for value in ("999999", "xY-99_"):
        answer = jury.get("/event-feed", params={"since_id": value, "stream": "false"})
        assert answer.status_code == 400 and answer.json()["error"]["field"] == "since_id"
    assert jury.get("/event-feed", params={"since_token": "1", "stream": "false"}).status_code == 200


def test_every_team_is_on_the_scoreboard_ranked_then_those_without_a_solve(contest) -> None:
    board = contest["teams"]["gamma"].get("/scoreboard").json()
    check("scoreboard", board)
    rows = [(row["rank"], row["team_id"], row["score"]["num_solved"]) for row in board["rows"]]
    assert rows[:2] == [(1, "alpha", 1), (2, "b-07", 1)]
    unsolved = rows[2:]
    assert {team for _, team, _ in unsolved} >= {"gamma", "team1", "1"}  # no submission at all: still on the board
    assert {(rank, solved) for rank, _, solved in unsolved} == {(3, 0)} and "kappa" in {t for _, t, _ in unsolved}
    teams = {t["id"]: t for t in contest["jury"].get("/teams").json()}
    names = [teams[team]["name"] for _, team, _ in unsolved]
    assert names == sorted(names, key=str.casefold)  # equal ranks: by name
    groups = {g["name"]: g["id"] for g in contest["jury"].get("/groups").json()}
    students = contest["teams"]["gamma"].get("/scoreboard", params={"group_id": groups["Students"]}).json()
    check("scoreboard", students)  # the spec's group scoreboard: ranked among themselves
    assert [(row["rank"], row["team_id"]) for row in students["rows"]] == [(1, "b-07"), (2, "gamma")]
    unknown = contest["jury"].get("/scoreboard", params={"group_id": "nope"})
    assert unknown.status_code == 400 and unknown.json()["error"]["field"] == "group_id"


def test_team_ids_come_from_the_roster_or_the_name_and_old_numbers_stay(contest) -> None:
    jury = contest["jury"]
    teams = {t["name"]: t for t in jury.get("/teams").json()}
    check("teams", list(teams.values()), many=True)
    assert {name: t["id"] for name, t in teams.items() if name != "delta"} == {
        "old timers": "1",  # the site's team before ids were kept: the number clients knew
        "team1": "team1",
        "alpha": "alpha",
        "beta": "b-07",  # the roster's team_id
        "gamma": "gamma",
        "kappa": "kappa",
    }
    assert jury.get("/teams/team1").json()["name"] == "team1" and jury.get("/teams/1").json()["name"] == "old timers"
    submissions = {s["id"]: s["team_id"] for s in jury.get("/submissions").json()}
    assert [submissions[sid] for sid in contest["submissions"]] == ["alpha", "b-07", "b-07", "gamma"]
    proxied = {"problem_id": "aplusb", "language_id": "python3", "files": [{"data": _zip("a.py", WA_PY)}]}
    assert jury.post("/submissions", json=proxied | {"team_id": "nobody"}).status_code == 422
    v1 = httpx.Client(
        base_url=contest["server"].url + "/api/v1", headers={"Authorization": jury.headers["Authorization"]}
    )
    with v1:
        spaced = v1.post("/users", json={"name": "Team Seven", "role": "team", "password": "pw" * 6}).json()["user"]
        assert jury.get(f"/teams/{spaced['id']}").json()["name"] == "Team Seven"  # not an identifier: its number
        taken = v1.post("/users/import", params={"role": "team"}, content=b"id,team_id\nepsilon,b-07\n")
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "conflict"
        moved = v1.post(
            "/users/import", params={"role": "team"}, content=b"id,team_id,organization\nbeta,b-08,Nowhere\n"
        )
        assert moved.status_code == 409 and "never changes" in moved.json()["error"]["message"]
        bad = v1.post("/users/import", params={"role": "team"}, content=b"id,team_id\nzeta,-no\n")
        assert bad.status_code == 422 and "roster.csv:2" in bad.json()["error"]["message"]
    assert "epsilon" not in {t["name"] for t in jury.get("/teams").json()}  # a refused roster stores nothing
    assert "Nowhere" not in {o["name"] for o in jury.get("/organizations").json()}


def test_organizations_and_groups_come_from_the_roster_into_their_endpoints_and_the_feed(contest) -> None:
    jury = contest["jury"]
    organizations = {o["id"]: o for o in jury.get("/organizations").json()}
    groups = {g["id"]: g["name"] for g in jury.get("/groups").json()}
    check_many("organizations", list(organizations.values()))
    check_many("groups", [{"id": k, "name": v} for k, v in groups.items()])
    kth = next(o for o in organizations.values() if o["name"] == "KTH Royal Institute of Technology")
    assert kth["country"] == "SWE" and jury.get(f"/organizations/{kth['id']}").json() == kth
    assert set(groups.values()) == {"Europe", "Students"}
    tokyo = next(o for o in organizations.values() if o["name"] == "東京大学")  # no ASCII letter: still an id
    assert re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,34}[A-Za-z0-9_-]", tokyo["id"]) and tokyo["country"] == "JPN"
    by_name = {v: k for k, v in groups.items()}
    teams = {t["name"]: t for t in jury.get("/teams").json()}
    assert teams["alpha"]["organization_id"] == kth["id"] == teams["gamma"]["organization_id"]
    assert sorted(teams["beta"]["group_ids"]) == sorted([by_name["Europe"], by_name["Students"]])
    assert teams["team1"]["group_ids"] == [] and "organization_id" not in teams["team1"]
    lines = [json.loads(line) for line in jury.get("/event-feed", params={"stream": "false"}).text.splitlines()]
    first = {}
    for number, line in enumerate(lines):
        first.setdefault((line["type"], line["id"]), number)
    alpha = first[("teams", "alpha")]
    assert first[("organizations", kth["id"])] < alpha and first[("groups", by_name["Europe"])] < alpha
    for line in lines[first[("awards", "winner")] :]:  # awards come once the log is sent: their teams are known
        assert line["type"] == "awards"
    team_only = contest["teams"]["gamma"].get("/event-feed", params={"stream": "false", "types": "groups"})
    assert {json.loads(line)["id"] for line in team_only.text.splitlines()} == set(groups)


def check_many(kind: str, data: list[dict[str, Any]]) -> None:
    assert all({"id", "name"} <= set(found) for found in data), data
    if VALIDATE is not None:
        VALIDATE(kind, data)


def test_awards_give_the_winner_medals_by_the_rule_first_to_solve_and_group_winners(contest) -> None:
    for client in (contest["jury"], contest["teams"]["gamma"]):
        found = {a["id"]: a for a in client.get("/awards").json()}
        if VALIDATE is not None:
            VALIDATE("awards", list(found.values()))
        groups = {g["name"]: g["id"] for g in client.get("/groups").json()}
        given = {ident: sorted(a["team_ids"]) for ident, a in found.items()}
        assert given == {
            "winner": ["alpha"],
            "gold-medal": ["alpha"],  # medals: {gold: 1, silver: 1, bronze: 1}
            "silver-medal": ["b-07"],
            "bronze-medal": [],  # rank 3 solved nothing: no medal
            "first-to-solve-aplusb": ["alpha"],
            f"group-winner-{groups['Europe']}": ["alpha"],
            f"group-winner-{groups['Students']}": ["b-07"],
        }
        assert found["first-to-solve-aplusb"]["citation"] == "First to solve problem A"
        assert client.get("/awards/winner").json() == found["winner"]
    lines = contest["jury"].get("/event-feed", params={"stream": "false", "types": "awards"}).text.splitlines()
    assert {json.loads(line)["id"] for line in lines} == set(found)


def test_every_endpoint_answers_as_check_api_expects_and_is_valid(contest) -> None:
    """check-api.sh's requests (with ``-e``: those that must fail), and every endpoint the spec defines, as the
    jury and as a team; with ``CCS_SPECS`` each answer is validated in strict mode (no property the spec does not
    define), the event feed as the array the script makes of it. An endpoint we serve with no schema check, or one
    ``access`` lists and we do not serve, fails here."""
    url = contest["server"].url + "/api"

    def checked(client: httpx.Client) -> Any:
        with httpx.Client(base_url=url, headers={"Authorization": client.headers["Authorization"]}, timeout=60) as api:
            return check_api(api, STRICT)

    # the two readers at once: each ends by waiting for its event feed to fall quiet, as check-api.sh's curl does
    with ThreadPoolExecutor(2) as pool:
        readers = {
            "jury": pool.submit(checked, contest["jury"]),
            "team": pool.submit(checked, contest["teams"]["alpha"]),
        }
        seen = {who: reader.result() for who, reader in readers.items()}
    for who, report in seen.items():
        assert report.wrong == [], who
    served = {"contests", "access", "state", "scoreboard", "judgement-types", "languages", "problems", "groups"}
    served |= {"organizations", "teams", "submissions", "judgements", "awards"}
    assert served | {"runs"} <= seen["jury"].served and served <= seen["team"].served
    assert "runs" in seen["team"].empty  # a contest's feedback (verdict) shows a team no runs: access lists none
    assert {"contests", "state", "teams", "submissions", "judgements", "awards"} <= seen["jury"].feed_types
    made = dict(seen["jury"].requests)
    assert made["/contests/nwerc/event-feed?since_id=999999"] == 400 and made["/"] == 200


def test_an_open_feed_sends_an_award_as_it_changes(contest) -> None:
    """Last in the module: gamma's accepted try moves it to the bronze medal, and a follower of the feed is told."""
    jury, gamma = contest["jury"], contest["teams"]["gamma"]
    seen: list[dict[str, Any]] = []
    with jury.stream("GET", "/event-feed", params={"types": "awards"}) as feed:
        lines = feed.iter_lines()
        for line in lines:  # every award once, as a new client gets them
            seen.append(json.loads(line))
            if len(seen) == len(jury.get("/awards").json()):
                break
        before = {a["id"]: a["data"]["team_ids"] for a in seen}
        assert before["bronze-medal"] == [] and "gamma" not in str(before)
        body = {"problem_id": "aplusb", "language_id": "python3", "files": [{"data": _zip("a.py", AC_PY)}]}
        assert gamma.post("/submissions", json=body).status_code == 201
        now = dict(before)
        for line in (
            lines
        ):  # only what changed is sent, until the awards are the endpoint's (gamma's medal: its minute decides which)
            if line.strip():
                changed = json.loads(line)
                assert changed["data"]["team_ids"] != now[changed["id"]], changed
                now[changed["id"]] = changed["data"]["team_ids"]
                if "gamma" in str(now) and now == {a["id"]: a["team_ids"] for a in jury.get("/awards").json()}:
                    break
    assert any("gamma" in held for held in now.values())


def test_a_medal_rule_that_is_not_a_count_is_refused_with_its_line(tmp_path: Path) -> None:
    from judge.errors import SpecError
    from judge.serve.site import load_site

    start = datetime.now().astimezone()
    write_site(
        tmp_path,
        f"kind: contest\nstart: {start.isoformat()}\nend: {(start + timedelta(hours=1)).isoformat()}\n"
        f"problems: [{PROBLEMS / 'aplusb'}]\nmedals:\n  gold: -1\n",
    )
    with pytest.raises(SpecError, match=r"site.yaml.*6.*gold must be a whole number >= 0"):
        load_site(tmp_path, REPO_ROOT / "problems")
    (tmp_path / "site.yaml").write_text((tmp_path / "site.yaml").read_text().replace("gold: -1", "gold: 2"))
    assert load_site(tmp_path, REPO_ROOT / "problems").medals == (2, 4, 4)
