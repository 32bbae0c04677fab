"""The pages as a student and a teacher saw them (issue 50, item 7), on a real server and, where layout matters, in
Debian's chromium.

A problem's setters' notes are the staff's (page and API); a statement with
its own samples shows them once; a teacher's view of a submission gives the
checker's column a readable width at 1280 px and calls the output "the
program's output"; without JavaScript a list or a submission being judged
reloads itself and says so; skipped cases say so instead of "0.00 s 0.0 MiB";
a submission judged again after a crash says what happened, not "attempt 2"
beside one result; a freeze longer than the contest is a one-line error.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browser import Watched, launch, sync_playwright
from conftest import PROBLEMS, PROGRAMS, REPO_ROOT, require
from serving import Client, Server, session_of, write_site

pytestmark = pytest.mark.slow

WA_PY = (PROGRAMS / "aplusb" / "wa.py").read_text()
# accepted, after a second's sleep per case: it holds the one worker without spending CPU
SLOW_PY = (
    "import sys, time\ntime.sleep(1.0)\nfor line in sys.stdin:\n    a, b = map(int, line.split())\n    print(a + b)\n"
)
# accepted, after two seconds' sleep on the sample (judged first, one case at a time): a judging under way when its
# "running" event comes, as long as the kill takes, and only that long again when it is judged afresh
SLOW_SAMPLE_PY = (
    "import sys, time\ndata = sys.stdin.read()\nif data == '1 2\\n3 4\\n':\n    time.sleep(2.0)\n"
    "for line in data.splitlines():\n    a, b = map(int, line.split())\n    print(a + b)\n"
)
SETTERS_SECRET = "big1 holds the overflow trap"
STATEMENT = f"""# A plus B with notes

Add the two numbers of each line.

## Sample

```
1 2
3 4
```

gives `3` and `7`.

## Notes for setters

- {SETTERS_SECRET}; mixed_signs catches a wrong sign.

### How the data was made

By hand, nested under the notes: also the staff's.

## Scoring

Group small is 40 points.
"""
WIDTH = 1280


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    require("g++")
    root = tmp_path_factory.mktemp("round2")
    notes = root / "notes"
    shutil.copytree(PROBLEMS / "aplusb", notes)
    (notes / "statement.md").write_text(STATEMENT)
    folder = write_site(
        root / "site",
        f"problems:\n  - problem: {notes}\n    feedback: cases\n  - problem: {PROBLEMS / 'aplusb'}\n"
        "languages: [python3, cpp]\n",
    )
    server = Server(folder, workers=1, jobs=1).start()
    try:
        admin = Client(server, server.admin_token())
        server.clients = {}
        for name, role in (("teach", "teacher"), ("alice", "student")):
            made = admin.http.post("/users", json={"name": name, "role": role})  # no password: sessions are made
            assert made.status_code == 201, made.text
            server.clients[name] = Client(server, made.json()["token"])
        yield server
    finally:
        server.stop()


def _pages(server: Server, name: str) -> httpx.Client:
    """A client holding a session of ``name``'s, made beside the server (``serving.session_of``), as a log-in makes
    one: these tests are about what the pages show, the log-in and its argon2 (a fifth of a second of the server's
    CPU for each) are test_serve_sessions' and the other page tests'."""
    from judge.serve.auth import SESSION_COOKIE

    return httpx.Client(base_url=server.url, timeout=60, cookies={SESSION_COOKIE: session_of(server.site, name)[0]})


@pytest.fixture(scope="module")
def wrong(server: Server) -> int:
    """Alice's WA on the notes problem, judged case by case on one slot: its second cases are skipped."""
    alice = server.clients["alice"]
    sid = alice.submit("notes", "wa.py", WA_PY)["id"]
    assert alice.done(sid)["verdict"] == "WA"
    return sid


def test_setters_notes_are_the_staffs(server: Server) -> None:
    student, teacher = _pages(server, "alice"), _pages(server, "teach")
    seen = student.get("/problems/notes").text
    assert SETTERS_SECRET not in seen and "nested under the notes" not in seen
    assert "Group small is 40 points" in seen  # the section after the notes is everyone's again
    staff = teacher.get("/problems/notes").text
    assert SETTERS_SECRET in staff and "nested under the notes" in staff and "Staff only" in staff
    by_api = {p["id"]: p["statement"] for p in server.clients["alice"].http.get("/problems").json()["problems"]}
    assert SETTERS_SECRET not in by_api["notes"] and "Group small" in by_api["notes"]
    by_staff = {p["id"]: p["statement"] for p in server.clients["teach"].http.get("/problems").json()["problems"]}
    assert SETTERS_SECRET in by_staff["notes"]


def test_the_samples_are_shown_once(server: Server) -> None:
    student = _pages(server, "alice")
    with_own = student.get("/problems/notes").text  # the statement shows its sample: no second copy below
    assert with_own.count("<h2>Sample") == 1 and 'class="sample"' not in with_own
    without = student.get("/problems/aplusb").text  # no sample in the statement: the page shows the data's
    assert without.count("<h2>Samples</h2>") == 1 and 'class="sample"' in without


def test_skipped_cases_say_so(server: Server, wrong: int) -> None:
    page = _pages(server, "alice").get(f"/submissions/{wrong}").text
    rows = re.findall(r"<tr>\s*<td>\d+</td>.*?</tr>", page, re.DOTALL)
    skipped = [row for row in rows if "SKIPPED" in row]
    assert skipped, page
    for row in skipped:
        assert "not run" in row and "0.00 s" not in row and "0.0 MiB" not in row


def test_a_freeze_longer_than_the_contest_names_its_line(tmp_path: Path) -> None:
    folder = write_site(
        tmp_path / "wf",
        "kind: contest\nstart: 2030-01-01 10:00\nend: 2030-01-01 12:00\n"
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\nfreeze: 180\n",
    )
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "run_judge.py"), "serve", str(folder), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "site.yaml:6:" in lines[0] and "freeze" in lines[0] and "120" in lines[0], lines


def test_without_javascript_a_list_being_judged_reloads_itself(server: Server, browser) -> None:
    """Alice's quick program waits behind the teacher's slow one, so her list and its page are being judged while
    they are read; her session is made beside the server (``session_of``: the log-in and its argon2 are other
    tests'), which leaves the reads well inside the seconds the slow program holds the worker."""
    from judge.serve.auth import SESSION_COOKIE

    teach, alice = server.clients["teach"], server.clients["alice"]
    blocker = teach.submit("aplusb", "slow.py", SLOW_PY)["id"]  # holds the one worker
    sid = alice.submit("aplusb", "wa.py", WA_PY)["id"]  # queued behind it
    context = browser.new_context(viewport={"width": WIDTH, "height": 900}, java_script_enabled=False)
    try:
        context.add_cookies([{"name": SESSION_COOKIE, "value": session_of(server.site, "alice")[0], "url": server.url}])
        watched = Watched(context, server.url)
        page = watched.page("/submissions")
        assert page.locator("#refresh-hint").is_visible()
        assert "reloads itself" in page.locator("#refresh-hint").inner_text()
        assert page.locator('noscript meta[http-equiv="refresh"]').count() == 1
        detail = page.request.get(f"{server.url}/submissions/{sid}").text()
        assert '<noscript><meta http-equiv="refresh"' in detail and "reload it" in detail
        alice.done(sid)
        teach.done(blocker)
        page.goto(f"{server.url}/submissions")  # nothing waits: no reloading
        assert page.locator("#refresh-hint").count() == 0
        assert page.locator('noscript meta[http-equiv="refresh"]').count() == 0
    finally:
        context.close()


def test_a_judging_stopped_by_a_crash_is_told_not_counted(server: Server) -> None:
    alice = server.clients["alice"]
    sid = alice.submit("aplusb", "slow.py", SLOW_SAMPLE_PY)["id"]
    with httpx.stream(
        "GET", f"{server.url}/api/v1/submissions/{sid}/events", headers=alice.http.headers, timeout=60
    ) as events:
        for line in events.iter_lines():
            if '"state": "running"' in line or '"state":"running"' in line:
                break
    server.kill()  # as a crash would: the judging under way stores nothing
    server.start()
    view = alice.done(sid)
    detail = server.clients["teach"].http.get(f"/submissions/{sid}").json().get("error")
    assert (view["attempt"], view["verdict"]) == (2, "AC"), detail
    page = _pages(server, "alice").get(f"/submissions/{sid}").text
    judging = re.search(r'<dd class="attempt">(.*?)</dd>', page).group(1)
    assert "attempt 2" not in page
    assert judging.startswith("judged once") and "1 judging stopped before a result" in judging, judging


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def signed_in(browser, server: Server, name: str) -> Watched:
    """A context of ``name``'s, its session made beside the server (``_pages``)."""
    from judge.serve.auth import SESSION_COOKIE

    context = browser.new_context(viewport={"width": WIDTH, "height": 900})
    context.add_cookies([{"name": SESSION_COOKIE, "value": session_of(server.site, name)[0], "url": server.url}])
    return Watched(context, server.url)


def test_a_teachers_view_gives_the_checker_its_room(server: Server, wrong: int, browser) -> None:
    watched = signed_in(browser, server, "teach")
    context = watched.context
    try:
        page = watched.page(f"/submissions/{wrong}")
        assert page.locator("pre.code").count() == 1  # the source is beside (or under) the result
        widths = page.eval_on_selector_all("table.cases td.message", "cells => cells.map(c => c.offsetWidth)")
        assert widths and min(widths) >= 240, widths
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 2500, height
        captions = page.locator(".sample-diff figcaption").all_inner_texts()
        assert "the program's output" in captions and "your program's output" not in captions
        mine = signed_in(browser, server, "alice")
        try:
            own = mine.page(f"/submissions/{wrong}")
            assert "your program's output" in own.locator(".sample-diff figcaption").all_inner_texts()
        finally:
            mine.context.close()
        assert watched.foreign() == [] and watched.errors == []
    finally:
        context.close()


def test_the_setters_section_ends_at_its_level_and_code_is_not_a_heading() -> None:
    from judge.serve.statement_parts import split

    text = (
        "# T\n\n## Examples\n\n```\n## Notes for setters (in code: not a heading)\n```\n\n"
        "## Setters' notes\n\nsecret one\n\n### deeper\n\nsecret two\n\n## Limits\n\npublic\n"
        "\\section*{Notes for setters}\nsecret three\n\\section{Output}\npublic again\n"
    )
    parts = split(text)
    assert parts.shows_samples
    assert "in code: not a heading" in parts.public and "public" in parts.public and "public again" in parts.public
    assert all(f"secret {n}" not in parts.public for n in ("one", "two", "three"))
    assert all(f"secret {n}" in parts.setters for n in ("one", "two", "three"))
    assert not split("# T\n\nNo samples here.\n").shows_samples
