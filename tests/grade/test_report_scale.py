"""report.html for a large class (5,000 students × 66 cases in 7 groups, similarity pairs) renders in headless Chromium:
the script draws the rows in view and a page of details, filters from the address, opens a student's details from a
link, and a screenshot is taken.

The scale is the point: the page stays under 12 MB for 5,000 students and its
script draws a few dozen rows of them, so the class stays at 5,000. The
results are made up (no judging: this tests the page, not the judge), stored
through the real store and written by the real page writer (``to_html``);
the other reports at this scale are the benchmark's (``bench --scaling``).
One browser opens the page twice as a link would, bare and with a student's
address (``#s-…``), and changes the address of the open page to filter and to
open details (the page's ``hashchange``, which runs the same reading of the
address as a load): each load parses and draws 12 MB, two seconds of the
browser's CPU, so the other three addresses do not pay one each. How long the
page takes to load is measured, not asserted (no timed assertions).
"""

from __future__ import annotations

import base64
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from browser import launch, sync_playwright

from judge.atomic import atomic_write
from judge.grade.report_html import to_html
from judge.grade.store import Entry, Key, Store
from judge.grade.view import load

pytestmark = pytest.mark.slow

GROUPS = [
    ("sample", 0, 2),
    ("exhaustive", 20, 12),
    ("lines", 10, 6),
    ("traps", 20, 22),
    ("random", 5, 7),
    ("overflow", 15, 8),
    ("max", 30, 9),
]
STUDENTS = 5000
PICTURE = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="red"/></svg>'
)
VERDICTS = ["AC"] * 12 + ["WA", "TLE", "RE", "MLE", "PE"]


def fake_report(rng: random.Random, student: int) -> dict[str, object]:
    cases, groups = [], []
    skill = rng.random()
    for name, points, count in GROUPS:
        lost = False
        for i in range(count):
            verdict = "SKIPPED" if lost else ("AC" if rng.random() < 0.5 + skill / 2 else rng.choice(VERDICTS))
            lost = lost or verdict not in ("AC", "SKIPPED")
            message = "" if verdict in ("AC", "SKIPPED") else f"line {i + 1}: expected 'YES', got 'NO' <b>\x1b[31m"
            cases.append(
                {
                    "name": f"{name}-{i + 1:02d}-{'x' * (i % 4)}",
                    "group": name,
                    "verdict": verdict,
                    "time": round(rng.random(), 3),
                    "wall_time": 0.5,
                    "memory_kb": 2048,
                    "exit_code": 0,
                    "signal": None,
                    "message": message,
                    "score": 1.0 if verdict == "AC" else 0.0,
                }
            )
        passed = sum(1 for c in cases if c["group"] == name and c["verdict"] == "AC")
        groups.append(
            {
                "name": name,
                "points": points,
                "earned": points if passed == count else 0.0,
                "passed": passed,
                "total": count,
            }
        )
    first = next((c["verdict"] for c in cases if c["verdict"] not in ("AC", "SKIPPED")), "AC")
    return {
        "verdict": first,
        "score": sum(g["earned"] for g in groups),
        "max_score": 100.0,
        "problem": "poj2893",
        "submission": f"s{student}.cpp",
        "language": "cpp",
        "compile": {"ok": True, "log": ""},
        "groups": groups,
        "cases": cases,
    }


def make_results(out: Path, students: int = 200) -> tuple[Path, list[str]]:
    """The class's report.html, and each student's verdict as the page shows it."""
    rng = random.Random(15)
    ids = [f"student{i:04d}" for i in range(students)]
    with Store(out) as store:
        entries = [Entry(Key(sid, "p", f"h{sid}", "s"), f"/class/{sid}.cpp") for sid in ids]
        info = {
            sid: {
                "name": f"Name {sid[-3:]}",
                "submitted": "2025-03-01T23:00:00+00:00",
                "deadline": "2025-03-01T23:59:00+00:00",
                "late_minutes": 75.0 if i % 17 == 0 else None,
            }
            for i, sid in enumerate(ids)
        }
        groups = [
            {
                "name": n,
                "points": p,
                "aggregation": "min",
                "cases": [f"{n}-{i + 1:02d}-{'x' * (i % 4)}" for i in range(c)],
            }
            for n, p, c in GROUPS
        ]
        pairs = [
            {
                "a": ids[i],
                "b": ids[i + 1],
                "score": 0.93,
                "shares": [0.93, 0.88],
                "identical": False,
                "regions": [
                    [{"lines": [3, 9], "text": "int main() {\n  <script>alert(1)</script>\n}"}],
                    [{"lines": [4, 10], "text": "int main() {}"}],
                ],
            }
            for i in range(0, 12, 3)
        ]
        store.set_current(
            entries,
            {
                "problem": "/p/poj2893",
                "problem_name": "poj2893",
                "groups": json.dumps(groups),
                "similarity": json.dumps({"tool": "copydetect 0.5.0", "threshold": 0.8, "error": "", "pairs": pairs}),
                "ignored": json.dumps([["__MACOSX", "unzip or file-manager leftover"]]),
            },
            info,
        )
        pictured = False
        for i, entry in enumerate(entries):
            report = fake_report(rng, i)
            failing = next((c for c in report["cases"] if c["verdict"] not in ("AC", "SKIPPED")), None)
            if failing is not None and not pictured:  # the first student with a failure gets a checker's picture of it
                failing["attachments"] = [
                    {
                        "name": "placement.svg",
                        "media_type": "image/svg+xml",
                        "size": len(PICTURE),
                        "base64": base64.b64encode(PICTURE).decode(),
                    }
                ]
                (out / "pictured").write_text(entry.key.student)
                pictured = True
            store.put(entry.key, report, "here")
        grading = load(store)
    atomic_write(out / "report.html", to_html(grading))
    return out / "report.html", [row.verdict for row in grading.rows]


def dump(context: Any, url: str) -> str:
    """The page's DOM once loaded, opened in a page of its own (as ``chromium --dump-dom URL`` gives it)."""
    page = context.new_page()
    try:
        page.goto(url, timeout=300_000)
        return str(page.content())
    finally:
        page.close()


SHOWN = "n => document.getElementById('shown').textContent === `${n} of 5000 students shown`"
OPENED = "id => document.getElementById(`s-${id}`)?.open === true"


# the page's elements as markup but for its scripts, whose 12 MB of data (the same each time) ``content()`` would copy
WITHOUT_SCRIPTS = "[...document.body.children].filter(e => e.tagName !== 'SCRIPT').map(e => e.outerHTML).join('')"


def moved(page: Any, address: str, drawn: str, arg: object) -> str:
    """The open page's DOM once its address is changed to ``address`` (its ``hashchange``) and ``drawn(arg)`` (a
    script's condition) holds: a filter or a student's details without loading 12 MB again."""
    page.evaluate("address => { location.hash = address; }", address)
    page.wait_for_function(drawn, arg=arg, timeout=60_000)
    return str(page.evaluate(WITHOUT_SCRIPTS))


def drawn_rows(dom: str) -> int:
    """Matrix rows in the page's DOM (the script's own text has the same markup, so only the table body counts)."""
    return dom.split('id="matrix"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0].count('<tr class="r">')


def test_a_class_of_5000_renders_filters_and_opens_details_in_chromium(tmp_path: Path) -> None:
    """The page carries 5,000 students but draws only what is in view: the rows near the top of the matrix and one
    page of details. Filters in the address and a student's link work on all 5,000."""
    page, verdicts = make_results(tmp_path / "results", STUDENTS)
    assert page.stat().st_size < 12_000_000  # the same class written as HTML rows and sections was 38 MB
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            opened = context.new_page()
            opened.goto(page.as_uri(), timeout=300_000)
            dom = str(opened.content())
            shot = tmp_path / "report.png"
            opened.screenshot(path=str(shot))
            assert "5000 of 5000 students shown" in dom  # the script ran over every row
            assert 20 <= drawn_rows(dom) <= 200  # the rows in view (and a margin), not 5,000
            assert dom.count('<details id="s-student') == 50 and "students 1–50 of 5000" in dom
            assert dom.count('class="gh"') == len(GROUPS) and "max (30)" in dom
            assert "&lt;script&gt;alert(1)" in dom and "<script>alert(1)" not in dom
            assert re.search(
                r'<td class="s" style="background:#[0-9a-f]+">[0-2]/2</td>', dom
            )  # the no-points sample group: cases passed
            assert shot.stat().st_size > 20_000

            wrong = verdicts.count("WA")
            assert 0 < wrong < 5000
            assert f"{wrong} of 5000 students shown" in moved(opened, "#verdict=WA", SHOWN, wrong)
            # an address is the whole filter: the verdict filter it does not name goes (it kept WA before)
            one = moved(opened, "#q=student4217", SHOWN, 1)
            assert "1 of 5000 students shown" in one and drawn_rows(one) == 1 and 'id="s-student4217"' in one

            pictured = (page.parent / "pictured").read_text()
            shown = moved(opened, f"#s-{pictured}", OPENED, pictured)  # from a filter it is not in: the filter goes
            assert '<img class="att" alt="placement.svg" title="placement.svg" src="data:image/svg+xml;base64,' in shown
            opened.close()

            last = dump(context, page.as_uri() + "#s-student4999")  # a link to a student far down the list
            assert '<details id="s-student4999" open="">' in last and "students 4951–5000 of 5000" in last
        finally:
            browser.close()
