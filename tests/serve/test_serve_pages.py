"""The pages in a real browser: chromium driven by Playwright against a real ``tilejudge serve`` on a loopback port.

One server and one browser for the module. The server judges with one
worker, so a teacher's slow submission (seconds of sleep per case) keeps
a student's submissions queued while the test watches them: each row is seen
going from queued to its verdict on a page that is never reloaded. Every
test checks that its pages asked nothing of any host but 127.0.0.1 and that
their consoles stayed free of errors. Screenshots are taken only for
``$TILEJUDGE_SCREENSHOTS`` (docs/screenshots/ for the docs): nothing reads
them otherwise, and each costs the browser a tenth to a third of a second of
CPU to paint.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from browser import Watched, launch, sync_playwright
from conftest import PROBLEMS, PROGRAMS, require
from serving import Client, Server, session_of, write_site

pytestmark = pytest.mark.slow

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_bytes()
WA_PY = (PROGRAMS / "aplusb" / "wa.py").read_bytes()
CE_PY = "def broken(:\n    return 1\n"
SLOW_PY = (
    b"import sys, time\ntime.sleep(2.5)\nfor line in sys.stdin:\n    a, b = map(int, line.split())\n    print(a + b)\n"
)
# a teacher's submission that keeps the one worker for seconds (two rounds of sleep: 4 cases at -j 2) and needs no CPU
HOLD_PY = (
    "import sys, time\ntime.sleep(1.5)\nfor line in sys.stdin:\n    a, b = map(int, line.split())\n    print(a + b)\n"
)
JUDGED_TIMEOUT_MS = 300_000  # judgings waited on: a hung one fails here, a slow one on a loaded machine does not
MARKUP = "<img src=x onerror=window.__xss=1>\"'</script>"
MARKUP_OUT = b"print('<img src=x onerror=window.__xss=1></script>\"\\'')\n"
PER_MINUTE = 4
STREAM = re.compile(r"/live\?")  # the pages' event stream (not /static/live.js)
FINAL = re.compile(r"^(AC|WA|PE|TLE|MLE|OLE|RE|CE|JE|judge error)$")
WATCH_ROWS = """() => {
  window.__kept = 'not reloaded';
  window.__seen = {};
  const note = () => document.querySelectorAll('tr[data-sid]').forEach((tr) => {
    const text = tr.querySelector('.status').textContent.trim();
    const seen = (window.__seen[tr.dataset.sid] = window.__seen[tr.dataset.sid] || []);
    if (seen[seen.length - 1] !== text) seen.push(text);
  });
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true});
  note();
}"""


def password(name: str) -> str:
    return f"{name[:8]}-secret-1"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    require("g++")
    folder = write_site(
        tmp_path_factory.mktemp("pages"),
        f"title: Pages class\nproblems:\n  - problem: {PROBLEMS / 'aplusb'}\n    feedback: cases\n"
        f"languages: [cpp, python3]\nlimits: {{per_minute: {PER_MINUTE}}}\n",
    )
    server = Server(folder, workers=1).start()
    try:
        admin = Client(server, server.admin_token())
        tokens = {}
        for name, role in (
            ("teach", "teacher"),
            ("alice", "student"),
            ("bob", "student"),
            ("carol", "student"),
            (MARKUP, "student"),
        ):
            account = {"name": name, "role": role, "display": name}
            if name == "alice":  # the one who logs in by the form (alice_runs); the others' sessions are made
                account["password"] = password(name)
            made = admin.http.post("/users", json=account)
            assert made.status_code == 201, made.text
            tokens[name] = made.json()["token"]
        server.clients = {name: Client(server, token) for name, token in tokens.items()}
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots() -> Callable[..., None]:
    """``shots(page, name, **options)``: the page's screenshot as ``$TILEJUDGE_SCREENSHOTS/name``, if that is set."""
    folder = os.environ.get("TILEJUDGE_SCREENSHOTS")

    def shoot(page, name: str, **options) -> None:
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / name), **options)

    return shoot


def signed_in(
    browser, server: Server, name: str, width: int = 1100, height: int = 900, path: str = "/problems", **options
) -> tuple[Watched, object]:
    """A context of ``name``'s own, signed in and on ``path`` (a test's first page: no other is loaded before it,
    each load costs the browser a fifth of a second of CPU). The session is made beside the server
    (``serving.session_of``), as a log-in makes one: the log-in form itself, and its argon2 (a good part of a second
    on a loaded machine, for each of a dozen contexts here), is alice_runs' and the closed contest's."""
    from judge.serve.auth import SESSION_COOKIE

    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    context.add_cookies([{"name": SESSION_COOKIE, "value": session_of(server.site, name)[0], "url": server.url}])
    watched = Watched(context, server.url)
    return watched, watched.page(path)


@pytest.fixture
def as_user(server, browser):
    """``signed_in`` as the fixture's users; at the end, every context's requests and console are checked."""
    made: list[Watched] = []

    def log_in(name: str, width: int = 1100, path: str = "/problems", **options) -> tuple[Watched, object]:
        watched, page = signed_in(browser, server, name, width, path=path, **options)
        made.append(watched)
        return watched, page

    yield log_in
    for watched in made:
        watched.context.close()
    for watched in made:
        assert watched.foreign() == [], "a page asked another host"
        assert watched.errors == []


def submit_file(page, name: str, data: bytes) -> None:
    page.goto(re.sub(r"^(https?://[^/]+).*", r"\1", page.url) + "/problems/aplusb")
    page.set_input_files("#file", files=[{"name": name, "mimeType": "text/plain", "buffer": data}])
    page.click("#submit-form button[type=submit]")


def new_id(page) -> int:
    page.wait_for_url(re.compile(r"/submissions\?new=\d+"))
    return int(re.search(r"new=(\d+)", page.url).group(1))


def rows(server, who: str) -> int:
    listed = server.clients[who].http.get("/submissions", params={"limit": 500}).json()["submissions"]
    return len(listed)


class _Held:
    """The server's one worker kept from the students' submissions while a test makes them: a teacher's submission of
    HOLD_PY is kept waiting in the queue (a new one sent, from a thread, whenever none is), so that each submission
    made meanwhile queues behind one that has still to run in full, seconds of sleep, however long the browser takes
    to make it (on a loaded machine, a fixed 2.5 s of sleep ran out before the third of alice's submissions was made,
    and that row was judged before its list saw it queued). Entered once a teacher's submission waits; ``release``
    (or the end of the block) stops sending more."""

    def __init__(self, teacher: Client) -> None:
        self._teacher = teacher
        self._waiting = threading.Event()
        self._released = threading.Event()
        self._failed: list[BaseException] = []
        self._thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self) -> None:
        try:
            while not self._released.is_set():
                queued = self._teacher.http.get("/submissions", params={"user": "teach", "state": "queued"})
                if queued.json()["submissions"]:
                    self._waiting.set()
                else:
                    self._teacher.submit("aplusb", "hold.py", HOLD_PY)
                self._released.wait(0.05)
        except BaseException as failed:  # seen by the test, in __exit__
            self._failed.append(failed)
            self._waiting.set()

    def release(self) -> None:
        self._released.set()
        self._thread.join()
        if self._failed:
            raise self._failed[0]

    def __enter__(self) -> _Held:
        self._thread.start()
        self._waiting.wait()
        if self._failed:
            self.release()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@pytest.fixture(scope="module")
def alice_runs(server, browser, shots):
    """Alice submits AC, WA (files) and CE (pasted) while her list is open; what that list saw, without a reload."""
    watched = Watched(browser.new_context(viewport={"width": 1100, "height": 900}), server.url)
    watched.log_in("alice", password("alice"))
    listing = watched.page("/submissions")
    listing.evaluate(WATCH_ROWS)
    form = watched.page("/problems/aplusb")
    shots(form, "problem.png", full_page=True)
    with _Held(server.clients["teach"]):
        form.set_input_files("#file", files=[{"name": "ac.py", "mimeType": "text/plain", "buffer": AC_PY}])
        guessed = form.input_value("#language")
        form.click("#submit-form button[type=submit]")
        ids = {"AC": new_id(form)}
        first_row = form.locator(f"#s{ids['AC']} .status").inner_text()
        submit_file(form, "wa.py", WA_PY)
        ids["WA"] = new_id(form)
        form.goto(server.url + "/problems/aplusb")
        form.click("details summary")
        form.fill("#code", CE_PY)
        form.select_option("#language", "python3")
        form.click("#submit-form button[type=submit]")
        ids["CE"] = new_id(form)
        listing.wait_for_function(  # each row on the list (as it was then: the test says whether queued)
            "ids => ids.every(id => (window.__seen[id] || []).length > 0)",
            arg=list(ids.values()),
            timeout=JUDGED_TIMEOUT_MS,
        )
    listing.wait_for_function(
        "ids => ids.every(id => ['done', 'error'].includes("
        "document.querySelector(`tr[data-sid='${id}']`)?.dataset.state))",
        arg=list(ids.values()),
        timeout=JUDGED_TIMEOUT_MS,
    )
    shots(listing, "submissions.png")
    seen = listing.evaluate("window.__seen")
    kept = listing.evaluate("window.__kept")
    yield {"ids": ids, "seen": seen, "kept": kept, "guessed": guessed, "first_row": first_row, "watched": watched}
    watched.context.close()
    assert watched.foreign() == [] and watched.errors == []


def test_each_row_goes_from_queued_to_its_verdict_without_a_reload(alice_runs) -> None:
    assert alice_runs["guessed"] == "python3"  # the language from the file's extension
    assert alice_runs["first_row"].startswith("queued")
    assert alice_runs["kept"] == "not reloaded"
    for verdict, sid in alice_runs["ids"].items():
        seen = alice_runs["seen"][str(sid)]
        assert seen[0].startswith("queued"), seen
        assert seen[-1] == verdict, seen
        assert all(FINAL.match(s) is None for s in seen[:-1]), seen
    assert any("in line" in s for seen in alice_runs["seen"].values() for s in seen)


def test_the_detail_shows_the_sample_diff_and_no_secret_data(server, alice_runs, as_user, shots) -> None:
    watched, page = as_user("alice", path=f"/submissions/{alice_runs['ids']['WA']}")
    diff = page.locator(".sample-diff")
    assert "sample" in diff.inner_text() and "expected" in diff.inner_text()
    assert "1 2" in diff.locator("pre").first.inner_text()
    text = page.locator("main").inner_text()
    for case in ("mixed_signs", "big1", "big2"):
        lines = (PROBLEMS / "aplusb" / "data" / f"{case}.in").read_text().splitlines()
        assert case not in text
        assert not [line for line in lines if line not in ("1 2", "3 4") and line in text]  # 1 2, 3 4: the sample's
    messages = page.locator("table.cases tbody tr td.message").all_inner_texts()
    assert messages[0].strip() and not any(m.strip() for m in messages[1:])  # the checker speaks on the sample only
    # the program's output beside the expected one (wa.py answers the first line only), the first difference marked
    expected, printed = diff.locator("pre.lines").all()
    assert expected.inner_text().split() == ["3", "7"] and printed.inner_text().split()[0] == "3"
    assert (
        "(no line 2)" in printed.locator(".differs").inner_text() and expected.locator(".differs").inner_text() == "7"
    )
    assert "the output ends before line 2" in diff.locator(".diff-note").inner_text()
    shots(page, "submission-wa.png", full_page=True)
    page.focus(".diff-note a")  # the marked line is a keyboard's Enter away
    page.keyboard.press("Enter")
    assert page.evaluate("document.querySelector(':target').id") == printed.locator(".differs").get_attribute("id")
    shown = server.clients["alice"].http.get(f"/submissions/{alice_runs['ids']['WA']}").json()["result"]["cases"]
    assert shown[0]["output"]["text"] == "3\n" and not any(case.get("output") for case in shown[1:])
    page.goto(f"{server.url}/submissions/{alice_runs['ids']['CE']}")
    assert "SyntaxError" in page.locator("#compile-log").inner_text()


def test_an_oversized_file_a_wrong_language_and_the_rate_limit_are_told_on_the_form(
    server, alice_runs, as_user
) -> None:
    watched, page = as_user("alice")
    before = rows(server, "alice")
    submit_file(page, "big.py", b"#" * (300 << 10) + b"\n")
    assert "256 KiB" in page.locator("#form-error").inner_text()
    submit_file(page, "huge.py", b"#" * (3 << 20) + b"\n")  # a body over 2 MiB: read to its end, then told
    assert "over 2 MiB" in page.locator("#form-error").inner_text()
    submit_file(page, "Main.java", b"class Main {}\n")  # a language this site does not take
    assert "not allowed on this site" in page.locator("#form-error").inner_text()
    forged = page.request.post(
        f"{server.url}/problems/aplusb/submit",
        multipart={"csrf": "forged", "file": {"name": "ac.py", "mimeType": "text/plain", "buffer": AC_PY}},
    )
    assert forged.status == 403  # a form without the session's CSRF token changes nothing
    assert rows(server, "alice") == before
    page.wait_for_timeout(0)
    # Submitted until the limit refuses one: alice's three of alice_runs count while they are in the last minute,
    # which on a loaded machine they may have left by now (the window slides). However many that leaves, the limit
    # may take no more than PER_MINUTE in a minute: a submission taken while PER_MINUTE others were made within the
    # minute before it fails the test (``clicked`` before each form is sent, ``taken`` once it is answered).
    clicked: list[float] = []
    taken: list[float] = []
    while True:
        page.goto(server.url + "/problems/aplusb")
        page.set_input_files("#file", files=[{"name": "ac.py", "mimeType": "text/plain", "buffer": AC_PY}])
        stored = rows(server, "alice")
        clicked.append(time.monotonic())
        page.click("#submit-form button[type=submit]")
        page.wait_for_function("() => /[?&]new=\\d+/.test(location.search) || !!document.querySelector('#form-error')")
        if page.locator("#form-error").count():
            break
        taken.append(time.monotonic())
        if len(taken) > PER_MINUTE:
            assert taken[-1] - clicked[-1 - PER_MINUTE] >= 60, f"over {PER_MINUTE} submissions taken in a minute"
    assert f"at most {PER_MINUTE} submissions a minute" in page.locator("#form-error").inner_text()
    assert rows(server, "alice") == stored  # the refused one stored nothing


def test_another_student_gets_404_on_alices_submission(server, alice_runs, as_user) -> None:
    watched, page = as_user("bob")
    sid = alice_runs["ids"]["AC"]
    answer = page.goto(f"{server.url}/submissions/{sid}")
    assert answer.status == 404
    assert "ac.py" not in page.content() and "alice" not in page.locator("main").inner_text()
    answer = page.request.post(f"{server.url}/submissions/{sid}/rejudge", form={"csrf": "x"})
    assert answer.status in (403, 404)
    page.goto(f"{server.url}/account")  # an API token made on the account page works, and is shown once
    page.fill("#label", "laptop")
    page.click("form.inline button[type=submit]")
    token = page.locator("#new-token").inner_text().strip()
    me = Client(server, token).http.get("/me").json()["user"]
    assert me["name"] == "bob"
    page.goto(f"{server.url}/account")
    assert page.locator("#new-token").count() == 0 and "laptop" in page.locator("main").inner_text()


def test_a_teachers_rejudge_changes_the_students_open_page(server, alice_runs, as_user, shots) -> None:
    sid = alice_runs["ids"]["AC"]
    _, student = as_user("alice", path=f"/submissions/{sid}")
    student.evaluate("window.__kept = 'not reloaded'")
    attempt = student.locator(".attempt").inner_text()
    _, teacher = as_user("teach", width=1400, path=f"/submissions/{sid}")
    assert "for line in" in teacher.locator("pre.code").inner_text()  # the source beside the result
    shots(teacher, "teacher-submission.png")
    teacher.click("#rejudge")
    teacher.wait_for_url(f"{server.url}/submissions/{sid}")
    student.wait_for_function(
        "was => document.querySelector('.attempt').textContent !== was && "
        "document.querySelector('#status').textContent.trim().startsWith('AC')",
        arg=attempt,
        timeout=60_000,
    )
    assert student.evaluate("window.__kept") == "not reloaded"
    assert student.locator("#status").inner_text().startswith("AC")


def test_a_cut_event_stream_falls_back_to_polling_and_recovers(server, alice_runs, as_user) -> None:
    watched, page = as_user("carol")
    watched.allowed = ("net::ERR_FAILED",)  # the aborted stream, which the test cut itself
    page.clock.install()  # the page's timers run as ever, and the test may bring the stream's next try forward
    page.route(STREAM, lambda route: route.abort())
    server.clients["teach"].submit("aplusb", "slow.py", SLOW_PY.decode())
    submit_file(page, "ac.py", AC_PY)
    sid = new_id(page)
    page.evaluate("window.__kept = 'not reloaded'")
    page.wait_for_function("() => document.body.dataset.mode === 'polling'", timeout=20_000)
    page.wait_for_function(
        f"() => document.querySelector('tr[data-sid=\"{sid}\"]').dataset.state === 'done'", timeout=60_000
    )
    assert page.locator(f"#s{sid} .status").inner_text() == "AC"
    page.unroute(STREAM)
    page.clock.fast_forward(15_000)  # the longest back-off: its next try comes now, not up to 15 s later
    page.wait_for_function("() => document.body.dataset.mode === 'live'", timeout=30_000)
    later = server.clients["carol"].submit("aplusb", "wa.py", WA_PY.decode())["id"]  # seen through the stream again
    page.wait_for_function(
        f"() => document.querySelector('tr[data-sid=\"{later}\"]')?.dataset.state === 'done'", timeout=60_000
    )
    assert page.locator(f"#s{later} .status").inner_text() == "WA"
    assert page.evaluate("window.__kept") == "not reloaded"


def _no_markup_ran(page, where: str) -> None:
    assert page.evaluate("window.__xss") is None, where
    assert page.evaluate("document.querySelectorAll('img[src=\"x\"], script:not([src])').length") == 0, where


def test_markup_in_names_and_outputs_shows_as_text_on_every_page(server, alice_runs, as_user) -> None:
    watched, page = as_user(MARKUP)
    submit_file(page, "<img src=x onerror=window.__xss=1>.py", MARKUP_OUT)
    wa = new_id(page)
    server.clients[MARKUP].done(wa)
    ce = server.clients[MARKUP].submit("aplusb", "x.py", "print(1)\n" + MARKUP + "\n")["id"]
    server.clients[MARKUP].done(ce)
    for path in ("/problems", "/submissions", f"/submissions/{wa}", f"/submissions/{ce}", "/account", "/scoreboard"):
        page.goto(server.url + path)
        _no_markup_ran(page, path)
        assert MARKUP in page.locator("header").inner_text(), path  # the name, as text
    page.goto(f"{server.url}/submissions/{wa}")
    assert "<img src=x onerror=window.__xss=1>.py" in page.locator("main").inner_text()
    assert "<img src=x onerror=window.__xss=1></script>" in page.locator("table.cases").inner_text()
    printed = page.locator(".sample-diff pre.lines").nth(1)  # what the program printed, beside the expected output
    assert printed.inner_text().splitlines()[0] == "<img src=x onerror=window.__xss=1></script>\"'"
    assert printed.locator("img, script").count() == 0
    page.goto(f"{server.url}/submissions/{ce}")
    assert "</script>" in page.locator("#compile-log").inner_text()
    _, teacher = as_user("teach")
    for path in ("/submissions", f"/submissions/{wa}", f"/submissions/{ce}", "/scoreboard"):
        teacher.goto(server.url + path)
        _no_markup_ran(teacher, path)
        assert MARKUP in teacher.locator("main").inner_text(), path
    for path in ("/staff", "/staff/similar/aplusb", "/staff/roster"):
        teacher.goto(server.url + path)
        _no_markup_ran(teacher, path)


@pytest.fixture(scope="module")
def bob_copy(server, alice_runs) -> int:
    """Bob hands in Alice's AC, copied: a module fixture, since each test that needs it may be the first run on
    its worker (under ``-n`` the tests of this module are spread over workers, each with its own server)."""
    bob = server.clients["bob"]
    sid = bob.submit("aplusb", "copy.py", AC_PY.decode())["id"]
    assert bob.done(sid)["verdict"] == "AC"
    return sid


def test_teacher_pages_filter_download_grades_show_hints_and_import_a_roster(
    server, alice_runs, bob_copy, as_user, shots
):
    _, teacher = as_user("teach", path="/staff")
    shots(teacher, "teacher.png")
    teacher.goto(f"{server.url}/submissions?verdict=WA")
    shown = teacher.locator("#subs tbody tr .status").all_inner_texts()
    assert shown and set(shown) == {"WA"}
    assert teacher.locator(f"#s{alice_runs['ids']['WA']}").count() == 1
    teacher.goto(f"{server.url}/submissions?user=bob")
    assert set(teacher.locator("#subs tbody tr td:nth-child(2)").all_inner_texts()) == {"bob"}
    csv_text = teacher.request.get(f"{server.url}/staff/grades/aplusb.csv").text()
    lines = {line.split(",")[0]: line.split(",") for line in csv_text.splitlines()}
    assert lines["id"][:4] == ["id", "name", "language", "verdict"]  # grade's own columns
    assert lines["alice"][3] == "AC" and lines["bob"][3] == "AC" and "teach" not in lines
    junit = teacher.request.get(f"{server.url}/staff/grades/aplusb.xml").text()
    assert '<testsuite name="alice"' in junit and '<testsuite name="bob"' in junit
    assert teacher.request.get(f"{server.url}/staff/grades/aplusb.json").json()["students"]
    teacher.goto(f"{server.url}/staff/similar/aplusb")
    pair = teacher.locator("table tbody tr").first.inner_text()
    assert "alice" in pair and "bob" in pair and "identical" in pair
    ac_attempt = server.clients["teach"].http.get(f"/submissions/{alice_runs['ids']['AC']}").json()["attempt"]
    teacher.goto(f"{server.url}/staff")
    teacher.select_option("form.rejudge select", "WA")
    teacher.click("form.rejudge button")  # every current WA of the problem, judged again
    teacher.wait_for_url(re.compile(r"/submissions\?problem=aplusb"))
    wa = alice_runs["ids"]["WA"]
    deadline = time.monotonic() + 60
    while (view := server.clients["teach"].http.get(f"/submissions/{wa}").json())["attempt"] < 2:
        assert time.monotonic() < deadline, view
        time.sleep(0.2)
    assert server.clients["teach"].done(wa)["verdict"] == "WA"
    ac = server.clients["teach"].http.get(f"/submissions/{alice_runs['ids']['AC']}").json()
    assert ac["attempt"] == ac_attempt  # not a WA: left alone
    teacher.goto(f"{server.url}/staff/roster")
    teacher.fill("#csv", "name\nnobody\n")  # no id column: grade --roster's own message, and nothing made
    teacher.click("form.stack button[type=submit]")
    assert "id" in teacher.locator("#form-error").inner_text()
    teacher.fill("#csv", "id,name\nnewkid,New <b>Kid</b>\n")
    teacher.click("form.stack button[type=submit]")
    assert teacher.locator("#made").inner_text().count("tj_") == 1
    assert "newkid" in teacher.locator("#made").inner_text()
    names = [u["name"] for u in server.clients["teach"].http.get("/users").json()["users"]]
    assert "newkid" in names and "nobody" not in names
    _, student = as_user("alice")
    assert student.goto(f"{server.url}/staff").status == 404
    assert student.goto(f"{server.url}/staff/grades/aplusb.csv").status == 404


def test_the_scoreboard_shows_a_class_its_points(server, alice_runs, bob_copy, as_user, shots) -> None:
    _, teacher = as_user("teach", path="/scoreboard")
    board = teacher.locator("#board").inner_text()
    assert "alice" in board and "bob" in board and "teach" not in board
    shots(teacher, "scoreboard.png")
    _, student = as_user("alice", width=390, path="/scoreboard")
    assert "alice" in student.locator("#board").inner_text() and "bob" not in student.locator("#board").inner_text()
    student.goto(f"{server.url}/submissions")
    shots(student, "phone-submissions.png")
    width = student.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the phone's screen: wide tables scroll in their own box
    student.goto(f"{server.url}/submissions/{alice_runs['ids']['WA']}")
    expected, printed = (box.bounding_box() for box in student.locator(".sides figure").all())
    assert printed["y"] >= expected["y"] + expected["height"]  # on a phone the two outputs are stacked
    shots(student, "phone-submission-wa.png", full_page=True)
    assert student.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_closed_contest_is_told_on_the_form_and_stores_nothing_and_keys_alone_log_in(tmp_path, browser) -> None:
    folder = write_site(
        tmp_path / "contest",
        f"title: Over\nkind: contest\nproblems: [{PROBLEMS / 'aplusb'}]\nlanguages: [python3]\n"
        "start: 2020-01-01 10:00\nend: 2020-01-01 15:00\n",
    )
    server = Server(folder, workers=1).start()
    try:
        admin = Client(server, server.admin_token())
        made = admin.http.post("/users", json={"name": "team1", "role": "team", "password": password("team1")})
        assert made.status_code == 201
        watched = Watched(browser.new_context(), server.url)
        page = watched.page("/login")  # by keyboard alone: the name field has the focus, Enter sends
        page.keyboard.type("team1")
        page.keyboard.press("Tab")
        page.keyboard.type(password("team1"))
        page.keyboard.press("Enter")
        page.wait_for_url(server.url + "/problems")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Skip to content"
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")  # past the skip link: the first link of the page's own content
        assert page.evaluate("document.activeElement.closest('main') !== null")
        submit_file(page, "ac.py", AC_PY)
        assert "the contest is over" in page.locator("#form-error").inner_text()
        assert admin.http.get("/submissions").json()["submissions"] == []
        watched.context.close()
        assert watched.foreign() == [] and watched.errors == []
    finally:
        server.stop()


def test_a_contest_board_ranks_teams_icpc_style_freezes_and_updates_live(tmp_path, browser, shots) -> None:
    now = datetime.now(timezone.utc)
    folder = write_site(
        tmp_path / "contest",
        f"title: Open contest\nkind: contest\nproblems: [{PROBLEMS / 'aplusb'}]\nlanguages: [python3]\n"
        f"start: {(now - timedelta(minutes=30)).isoformat()}\nend: {(now + timedelta(hours=4)).isoformat()}\n"
        "freeze: 240\n",  # frozen from now on for the teams, never for the jury
    )
    server = Server(folder, workers=1).start()
    try:
        admin = Client(server, server.admin_token())
        teams = {}
        for name in ("team1", "team2", "team3"):  # no passwords: their pages' sessions are made (signed_in)
            made = admin.http.post("/users", json={"name": name, "role": "team"})
            teams[name] = Client(server, made.json()["token"])
        teams["team1"].done(teams["team1"].submit("aplusb", "wa.py", WA_PY.decode())["id"])
        teams["team1"].done(teams["team1"].submit("aplusb", "ac.py", AC_PY.decode())["id"])
        teams["team2"].done(teams["team2"].submit("aplusb", "ac.py", AC_PY.decode())["id"])
        jury, page = signed_in(browser, server, "admin", 900, 500, path="/scoreboard")
        assert page.locator("#frozen").count() == 0
        ranked = [row.split("\t") for row in page.locator("#board tbody tr").all_inner_texts()]
        assert [row[1] for row in ranked] == ["team2", "team1", "team3"]  # a rejected try costs team1 20 minutes;
        # team3 has no submission yet and is on the board all the same, last
        assert ranked[1][2] == "1" and "(+1)" in ranked[1][4]
        assert int(ranked[1][3]) - int(ranked[0][3]) in (19, 20)  # team1 solved at most a minute before team2
        assert page.locator("#board td.first").count() >= 1  # the first solve is marked
        jury_page = page
        watched, page = signed_in(browser, server, "team2", 900, 500)
        page.clock.install()  # the board's redraw (every 5 s) as ever, and brought forward once the team submits
        page.goto(server.url + "/scoreboard")
        assert "frozen" in page.locator("#frozen").inner_text()
        assert page.locator("#board td.solved").count() == 0 and page.locator("#board td.pending").count() == 2
        page.evaluate("window.__kept = 'not reloaded'")
        third = teams["team3"].submit("aplusb", "ac.py", AC_PY.decode())["id"]
        page.clock.fast_forward(5_000)  # the redraw that would come within 5 s comes now
        page.wait_for_function("() => document.querySelectorAll('#board td.pending').length === 3", timeout=60_000)
        assert page.evaluate("window.__kept") == "not reloaded"
        teams["team3"].done(third)
        jury_page.reload()
        shots(jury_page, "contest-board.png")
        watched.context.close()
        jury.context.close()
        assert watched.foreign() == jury.foreign() == [] and watched.errors == jury.errors == []
    finally:
        server.stop()
