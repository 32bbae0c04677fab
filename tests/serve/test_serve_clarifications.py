"""Clarifications (issue 49, item 2) on a real contest server over loopback: the API, the ICPC API, the pages, live.

Two teams ask; the jury sees the unanswered questions first and answers one to everyone; the other team reads the
answer (the question with it, its asker not named) and never the first team's question itself; the asker's open
page stream (``/live``) brings the answer; bad input is a 4xx JSON error; the ICPC ``clarifications`` endpoint and
event feed give each team only its own and everyone's, in the spec's shapes (and, with ``CCS_SPECS``, valid by its
schemas: ``test_serve_icpc.check``). One server for the module.
"""

from __future__ import annotations

import json
import re
import threading
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest
from conftest import PROBLEMS
from serving import Client, Server, session_of, write_site
from test_serve_icpc import check

pytest.importorskip("argon2", reason="the service's extra is not installed (pip install -r requirements-web.txt)")

PASSWORD = "clarify-pw-1234"


@pytest.fixture(scope="module")
def contest(tmp_path_factory: pytest.TempPathFactory):
    start = datetime.now().astimezone() - timedelta(hours=1)
    folder = write_site(
        tmp_path_factory.mktemp("clar") / "clar",
        f"title: Clarified\nkind: contest\nstart: {start.isoformat()}\n"
        f"end: {(start + timedelta(hours=5)).isoformat()}\n"
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\n    label: A\n",
    )
    server = Server(folder, workers=1, jobs=1, admin_password=False).start()  # the jury's token: no admin password
    clients: list[httpx.Client] = []
    try:
        jury = Client(server, server.admin_token())
        clients.append(jury.http)
        teams, csrf = {}, {}
        for name in ("ta", "tb", "tc", "td"):
            # a password only for the teams that use one (HTTP Basic on the ICPC API): each costs an argon2 hash; the
            # sessions, the browser's too, are made beside the server (serving.session_of), log-ins are other modules'
            password = {"password": PASSWORD} if name in ("ta", "tb") else {}
            made = jury.http.post("/users", json={"name": name, "role": "team", **password})
            assert made.status_code == 201, made.text
            cookie, csrf[name] = session_of(folder, name)
            client = httpx.Client(base_url=server.url, timeout=60, cookies={"tilejudge_session": cookie})
            clients.append(client)
            teams[name] = client
            client.headers["X-CSRF-Token"] = csrf[name]  # the API's changes through a session; a form its own field
        yield {"server": server, "jury": jury.http, "teams": teams, "csrf": csrf}
    finally:
        for client in clients:
            client.close()
        server.stop()


def _ask(client: httpx.Client, text: str, problem: str | None = None) -> int:
    asked = client.post("/api/v1/clarifications", json={"text": text, "problem": problem})
    assert asked.status_code == 201, asked.text
    assert asked.headers["Location"] == f"/api/v1/clarifications/{asked.json()['id']}"
    return int(asked.json()["id"])


def _waiting(listed: list[dict[str, Any]]) -> list[int]:
    """The ids of the unanswered questions the jury's list starts with, and that none comes later."""
    count = next((n for n, c in enumerate(listed) if not (c["kind"] == "question" and not c["answered"])), len(listed))
    assert not [c for c in listed[count:] if c["kind"] == "question" and not c["answered"]], listed
    return [c["id"] for c in listed[:count]]


# each test asks its own questions (the module's tests may run in any order, or split across two servers)
def test_the_jury_sees_unanswered_questions_first_and_a_team_only_its_own(contest) -> None:
    jury, tc, td = contest["jury"], contest["teams"]["tc"], contest["teams"]["td"]
    first = _ask(tc, "May the input\nhave leading zeros?", "aplusb")
    second = _ask(td, "Is there a break at noon?")
    announced = jury.post("/clarifications", json={"text": "The contest runs five hours."})
    assert announced.status_code == 201 and announced.json()["kind"] == "announcement"
    listed = jury.get("/clarifications").json()
    waiting = _waiting(listed)
    assert waiting == sorted(waiting) and {first, second} <= set(waiting)  # oldest first
    assert listed[0]["kind"] == "question" and listed[len(waiting)]["id"] == announced.json()["id"]  # then newest
    found = next(c for c in listed if c["id"] == first)
    assert found["asker"] == "tc" and found["problem"] == "aplusb"
    mine = td.get("/api/v1/clarifications").json()
    assert {second, announced.json()["id"]} <= {c["id"] for c in mine} and first not in {c["id"] for c in mine}
    assert all(c["asker"] in (None, "td") for c in mine)
    assert td.get(f"/api/v1/clarifications/{first}").status_code == 404  # another team's question is not told
    assert jury.get(f"/clarifications/{first}").json()["text"] == "May the input\nhave leading zeros?"


def test_an_answer_to_all_reaches_the_other_team_and_the_askers_open_stream(contest) -> None:
    jury, ta, tb = contest["jury"], contest["teams"]["ta"], contest["teams"]["tb"]
    asked = {"ta": _ask(ta, "May a be\nnegative?", "aplusb"), "tb": _ask(tb, "Is there a break at noon?")}
    frames: list[str] = []
    opened = threading.Event()

    def follow() -> None:  # the asker's open page: its event stream, from now on
        with ta.stream("GET", "/live", params={"since": _rendered_at(ta)}, timeout=60) as stream:
            opened.set()
            for line in stream.iter_lines():
                frames.append(line)
                if line.startswith("data:") and '"what": "answer"' in line:
                    return

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    assert opened.wait(30)
    reply = jury.post(
        "/clarifications",
        json={"reply_to": asked["ta"], "text": "No, never.", "to": "all", "publish": True},
    )
    assert reply.status_code == 201, reply.text
    reader.join(30)
    assert not reader.is_alive(), frames
    assert "event: clarifications" in frames and f'"id": {reply.json()["id"]}' in frames[-1]
    # the other team reads the answer with the question's text, never who asked nor the question's id
    answer = next(c for c in tb.get("/api/v1/clarifications").json() if c["id"] == reply.json()["id"])
    assert answer["text"] == "No, never." and answer["question"] == "May a be\nnegative?"
    assert answer["reply_to"] is None and answer["asker"] is None and answer["to_name"] is None
    assert tb.get(f"/api/v1/clarifications/{asked['ta']}").status_code == 404
    own = next(c for c in ta.get("/api/v1/clarifications").json() if c["id"] == reply.json()["id"])
    assert own["reply_to"] == asked["ta"]
    listed = jury.get("/clarifications").json()
    assert asked["tb"] in _waiting(listed) and asked["ta"] not in _waiting(listed)  # answered: no longer first
    answered = next(c for c in listed if c["id"] == asked["ta"])
    assert answered["answered"] is True
    # an answer to one team: the other never sees it, on the API or its stream
    private = jury.post("/clarifications", json={"reply_to": asked["tb"], "text": "At noon: no."})
    assert private.status_code == 201
    assert private.json()["id"] not in {c["id"] for c in ta.get("/api/v1/clarifications").json()}
    assert private.json()["id"] in {c["id"] for c in tb.get("/api/v1/clarifications").json()}


def _rendered_at(client: httpx.Client) -> int:
    """The event id an open clarifications page listens after (its ``data-live``), as its script starts from."""
    page = client.get("/clarifications")
    assert page.status_code == 200
    return int(re.search(r'data-live="(\d+)"', page.text).group(1))


@pytest.mark.parametrize(
    ("who", "body", "status", "field"),
    [
        ("ta", {"text": ""}, 422, "text"),
        ("ta", {"text": "x" * 2001}, 422, "text"),
        ("ta", {"text": "bell \x07 here"}, 422, "text"),
        ("ta", {"text": 7}, 422, "text"),
        ("ta", {"text": "which?", "problem": "nosuch"}, 404, "problem"),
        ("ta", {"text": "hi", "reply_to": 1}, 403, None),
        ("ta", {"text": "hi", "to": "tb"}, 400, "to"),
        ("ta", {"text": "hi", "colour": "red"}, 400, "colour"),
        ("jury", {"text": "hi", "to": "nobody-here"}, 404, "to"),
        ("jury", {"text": "hi", "reply_to": 999999}, 404, "reply_to"),
        ("jury", {"text": "hi", "reply_to": "1"}, 400, "reply_to"),
        ("jury", {"text": "hi", "reply_to": 1, "to": "tb"}, 400, "to"),
    ],
)
def test_bad_input_is_a_4xx_json_error(contest, who, body, status, field) -> None:
    client = contest["jury"] if who == "jury" else contest["teams"][who]
    path = "/clarifications" if who == "jury" else "/api/v1/clarifications"
    answer = client.post(path, json=body)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["message"] and (field is None or error["field"] == field)
    raw = contest["teams"]["ta"].post("/api/v1/clarifications", content=b"{", headers={"Content-Type": "text/plain"})
    assert 400 <= raw.status_code < 500 and "error" in raw.json()


def test_an_answer_to_an_announcement_is_refused(contest) -> None:
    jury = contest["jury"]
    own = jury.post("/clarifications", json={"text": "Lunch is served."}).json()["id"]
    answer = jury.post("/clarifications", json={"reply_to": own, "text": "thanks"})
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "reply_to"


def test_the_icpc_clarifications_endpoint_and_feed(contest) -> None:
    server, jury = contest["server"], contest["jury"]
    base = f"{server.url}/api/contests/clar"
    icpc = {name: httpx.Client(base_url=base, auth=(name, PASSWORD), timeout=60) for name in ("ta", "tb")}
    staff = httpx.Client(base_url=base, headers={"Authorization": jury.headers["Authorization"]}, timeout=60)
    try:
        team_ids = {t["name"]: t["id"] for t in staff.get("/teams").json()}
        mine = icpc["ta"].post("/clarifications", json={"text": "Is 0 a valid input?", "problem_id": "aplusb"})
        assert mine.status_code == 201, mine.text
        made = mine.json()
        check("clarifications", made)
        assert made["from_team_id"] == team_ids["ta"] and made["to_team_id"] is None
        assert mine.headers["Location"] == f"/api/contests/clar/clarifications/{made['id']}"
        for extra in ({"id": "x"}, {"to_team_id": team_ids["tb"]}, {"time": "2026-01-01T00:00:00Z"}):
            refused = icpc["ta"].post("/clarifications", json={"text": "hi", **extra})
            assert refused.status_code == 400, refused.text
        assert (
            icpc["ta"].post("/clarifications", json={"text": "hi", "from_team_id": team_ids["tb"]}).status_code == 403
        )
        assert staff.post("/clarifications", json={"text": "no time"}).status_code == 400
        for moment in ("0001-01-01T00:00:00", "9999-12-31T23:59:59+14:00", "noon"):  # no time a list could show
            assert staff.post("/clarifications", json={"text": "x", "time": moment}).status_code == 400, moment
        both = {
            "text": "x",
            "time": "2026-12-06T10:00:00Z",
            "from_team_id": team_ids["ta"],
            "to_team_id": team_ids["tb"],
        }
        assert staff.post("/clarifications", json=both).status_code == 400
        reply = staff.post(
            "/clarifications",
            json={"text": "Yes.", "reply_to_id": made["id"], "to_team_id": team_ids["ta"], "time": _now()},
        )
        assert reply.status_code == 201, reply.text
        check("clarifications", reply.json())
        assert reply.json()["to_team_id"] == team_ids["ta"] and reply.json()["reply_to_id"] == made["id"]

        to_everyone = staff.post("/clarifications", json={"text": "Five minutes left.", "time": _now()})
        assert to_everyone.status_code == 201, to_everyone.text
        assert to_everyone.json()["from_team_id"] is None and to_everyone.json()["to_team_id"] is None
        seen = {name: client.get("/clarifications").json() for name, client in icpc.items()}
        everything = staff.get("/clarifications").json()
        for found in (*seen.values(), everything):
            check("clarifications", found, many=True)
        ids = {name: {c["id"] for c in found} for name, found in seen.items()}
        assert {made["id"], reply.json()["id"], to_everyone.json()["id"]} <= ids["ta"]
        assert to_everyone.json()["id"] in ids["tb"]
        assert not {made["id"], reply.json()["id"]} & ids["tb"]
        assert ids["ta"] | ids["tb"] <= {c["id"] for c in everything}
        assert icpc["tb"].get(f"/clarifications/{made['id']}").status_code == 404
        assert icpc["ta"].get(f"/clarifications/{made['id']}").json() == made
        to_all = staff.get("/clarifications", params={"to_team_id": "", "from_team_id": ""}).json()
        assert to_all and all(c["to_team_id"] is None and c["from_team_id"] is None for c in to_all)

        feed = icpc["tb"].get("/event-feed", params={"stream": "false", "types": "clarifications"})
        assert feed.status_code == 200
        lines = [json.loads(line) for line in feed.text.splitlines() if line.strip()]
        assert lines and {line["type"] for line in lines} == {"clarifications"}
        assert {line["id"] for line in lines} == ids["tb"]
        for line in lines:
            check("clarifications", line["data"])
        access = icpc["ta"].get("/access").json()
        assert "team_clar" in access["capabilities"]
        assert any(e["type"] == "clarifications" for e in access["endpoints"])
    finally:
        for client in (*icpc.values(), staff):
            client.close()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def test_the_pages_ask_answer_and_list_without_javascript(contest) -> None:
    server, ta = contest["server"], contest["teams"]["ta"]
    csrf = contest["csrf"]["ta"]
    problem = ta.get("/problems/aplusb")
    assert problem.status_code == 200 and 'action="/clarifications"' in problem.text
    forged = ta.post("/clarifications", data={"csrf": "forged", "text": "forged?"})
    assert forged.status_code == 403
    sent = ta.post(
        "/clarifications", data={"csrf": csrf, "text": "<b>bold?</b>", "problem": "aplusb", "back": "/problems/aplusb"}
    )
    assert sent.status_code == 303 and re.match(r"/problems/aplusb#c\d+$", sent.headers["location"])
    for path in ("/clarifications", "/problems/aplusb"):  # the problem's page lists that problem's clarifications
        page = ta.get(path).text
        assert "&lt;b&gt;bold?&lt;/b&gt;" in page and "<b>bold?" not in page
    empty = ta.post("/clarifications", data={"csrf": csrf, "text": "   "})
    assert empty.status_code == 422 and 'id="clar-error"' in empty.text
    # the jury's page: the oldest unanswered question first, each with its answer form
    jury_page = httpx.Client(base_url=server.url, timeout=60)
    try:
        made = contest["jury"].post("/users", json={"name": "judge1", "role": "jury"})
        assert made.status_code == 201, made.text
        cookie, judge_csrf = session_of(server.site, "judge1")
        jury_page.cookies.set("tilejudge_session", cookie)
        text = jury_page.get("/clarifications").text
        order = [int(n) for n in re.findall(r'<li class="clar clar-question unanswered" id="c(\d+)"', text)]
        assert order and order == sorted(order)
        first = text.index(f'id="c{order[0]}"')
        assert all(first < text.index(f'id="c{n}"') for n in re.findall(r'id="c(\d+)" data-clar', text)[1:])
        answered = jury_page.post(
            f"/clarifications/{order[0]}/answer",
            data={"csrf": judge_csrf, "text": "Answered from the page.", "to": "asker"},
        )
        assert answered.status_code == 303, answered.text
        staff = jury_page.get("/staff").text
        assert re.search(r"Clarifications \(\d+ unanswered\)", staff)
    finally:
        jury_page.close()


@pytest.mark.slow  # a browser of its own: over 10 s on a loaded machine
def test_an_answer_appears_on_an_open_page_without_a_reload(contest) -> None:
    """A browser (Debian's chromium, ``tests/browser.py``): tb asks on its clarifications page, the jury answers, and
    the answer shows on the page still open, which was not loaded again."""
    from browser import Watched, launch, sync_playwright

    server, jury = contest["server"], contest["jury"]
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        context = chromium.new_context()
        context.add_cookies(
            [{"name": "tilejudge_session", "value": session_of(server.site, "tb")[0], "url": server.url}]
        )
        watched = Watched(context, server.url)
        try:
            page = watched.page("/clarifications")
            page.fill("#clar-text", "Can the answer be negative?")
            page.click("#ask-form button[type=submit]")
            page.wait_for_url(re.compile(r"/clarifications#c\d+$"))
            question = int(page.url.rsplit("#c", 1)[1])
            page.wait_for_function("document.body.getAttribute('data-mode') === 'live'", timeout=30_000)
            page.evaluate("window.stillThisPage = true")
            reply = jury.post("/clarifications", json={"reply_to": question, "text": "Never negative."})
            assert reply.status_code == 201, reply.text
            page.wait_for_selector(f"#c{reply.json()['id']} .text", timeout=30_000)
            assert page.inner_text(f"#c{reply.json()['id']} .text") == "Never negative."
            assert page.evaluate("window.stillThisPage") is True  # shown by the stream, not by a reload
            assert watched.foreign() == [] and watched.errors == []
        finally:
            watched.context.close()
            chromium.close()
