"""A problem's grades as ``grade`` writes them (CSV, JSON, JUnit, the class report), from the service's results.

Each student's graded submission is their best current score on the
problem (the latest of equal ones), the rule the class scoreboard uses; a
submission being rejudged counts with its last finished result
(``standing.py``), and a download made meanwhile says whose rows may still
change: a ``rejudging`` column in the CSV, a field in the JSON, a property in
the JUnit file, a note atop the report. It
becomes a row of ``grade``'s own ``Grading`` so the files are written by
``grade/reports.py``, ``streamed.py`` and ``report_html.py`` themselves:
a teacher's spreadsheet or CI job reads a download exactly as it reads a
``grade`` folder. The similarity hints are ``grade/similarity.py``'s, run on
those same submissions written to a temporary folder (sources are kept by
hash, and the fingerprints need a file's extension for its language).
"""

from __future__ import annotations

import csv
import html
import io
import json
import tempfile
from pathlib import Path
from typing import Any

from ..grade.discovery import Student
from ..grade.report_html import to_html
from ..grade.reports import to_junit
from ..grade.similarity import similar_pairs
from ..grade.store import Entry, Key
from ..grade.streamed import write_csv, write_json
from ..grade.view import Grading, Row
from .names import disk_name, shown
from .service import Service, iso
from .standing import UNDECIDED, rejudging
from .store_submissions import graded_rows

FORMATS = {"csv": "text/csv", "json": "application/json", "xml": "application/xml", "html": "text/html"}


def graded(service: Service, problem: str) -> list[Any]:
    """Each student's (or team's) graded submission of ``problem`` with its current result, by name."""
    rows = graded_rows(service.store, problem, UNDECIDED)
    best: dict[str, Any] = {}
    for row in rows:
        if row["user_name"] not in best or row["score"] >= best[row["user_name"]]["score"]:
            best[row["user_name"]] = row
    return [best[name] for name in sorted(best)]


def _files(service: Service, row: Any) -> list[dict[str, Any]]:
    return json.loads(row["files"])


def similarity(service: Service, rows: list[Any]) -> dict[str, Any]:
    """``grade``'s similarity hints on these submissions, keyed by student name."""
    with tempfile.TemporaryDirectory(prefix="tilejudge-similar-") as folder:
        students = []
        for number, row in enumerate(rows):
            files = _files(service, row)
            place = Path(folder) / str(number)
            place.mkdir()
            names = [disk_name(entry["name"], n) for n, entry in enumerate(files)]  # an earlier version's names too
            for name, entry in zip(names, files):
                (place / name).write_bytes(service.sources.get(entry["sha256"]))
            source = place / names[0] if len(files) == 1 else place
            students.append(Student(row["user_name"], source))
        return similar_pairs(students)


def grading(service: Service, problem: str, with_similarity: bool = True) -> Grading:
    rows = graded(service, problem)
    again = rejudging(service.store, problem)
    out = []
    for row in rows:
        files = _files(service, row)
        report = json.loads(row["report"]) | {"language": row["language"]}
        key = Key(row["user_name"], "", files[0]["sha256"] if len(files) == 1 else "", "")
        info = {"name": row["display"], "submitted": iso(row["submitted"]), "late_minutes": row["late_minutes"]}
        info["rejudging"] = row["user_name"] in again  # their row may change when the rejudge ends
        out.append(Row(Entry(key, ", ".join(f["name"] for f in files)), report, "serve", info))
    model = service.problems[problem]
    groups = [{"name": g.name, "points": g.points, "cases": [c.name for c in g.cases]} for g in model.groups]
    meta = {"problem": problem, "problem_name": problem}
    return Grading(out, meta, groups, [], similarity(service, rows) if with_similarity and rows else {})


def document(service: Service, problem: str, fmt: str) -> str:
    """The file ``grade`` would write: grades.csv, grades.json, junit.xml or report.html; the CSV with a last column
    ``rejudging`` (``yes`` on a row whose student has a submission being judged again), the report with a note on
    top while any is."""
    data = grading(service, problem)
    if fmt == "xml":
        return shown(to_junit(data))
    if fmt == "html":
        return shown(_noted(to_html(data), [row.id for row in data.rows if row.info.get("rejudging")]))
    out = io.StringIO()
    (write_csv if fmt == "csv" else write_json)(data, data.rows, out)
    text = _with_rejudging(out.getvalue(), data) if fmt == "csv" else out.getvalue()
    return shown(text)  # a file name an earlier version stored with a lone surrogate, with U+FFFD


def _with_rejudging(text: str, data: Grading) -> str:
    """grades.csv with the ``rejudging`` column after grade's own: a spreadsheet or script reading grade's columns by
    name reads this file unchanged."""
    lines = list(csv.reader(io.StringIO(text)))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*lines[0], "rejudging"])
    for line, row in zip(lines[1:], data.rows):
        writer.writerow([*line, "yes" if row.info.get("rejudging") else ""])
    return out.getvalue()


def _noted(page: str, names: list[str]) -> str:
    """The report with a note under its heading naming the students whose rows are their last finished results."""
    if not names:
        return page
    note = (
        '<p style="background:#fdf1d6;padding:.5rem">Being rejudged: '
        + html.escape(", ".join(names))
        + ". Their rows show the last finished result until the new one comes.</p>"
    )
    head, sep, rest = page.partition("</h1>")
    return head + sep + note + rest if sep else note + page
