"""grades.csv and grades.json written one student at a time (issue #30) are byte for byte what the whole-document
writers gave: those writers are kept here as the reference, as they were before the change."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from test_report_scale import make_results

from judge.grade.reports import write_all
from judge.grade.store import Entry, Key, Store
from judge.grade.streamed import FIXED_FIELDS, TAIL_FIELDS
from judge.grade.view import PENDING, Grading, load
from judge.text import safe_text


def csv_before(grading: Grading) -> str:
    buffer = io.StringIO()
    fields = FIXED_FIELDS + [f"group:{g['name']}" for g in grading.groups] + TAIL_FIELDS
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    similar = grading.similar()
    for row in grading.rows:
        writer.writerow(
            {
                k: safe_text(v, one_line=True) if isinstance(v, str) else v
                for k, v in row.csv_row(grading.groups, similar).items()
            }
        )
    return buffer.getvalue()


def json_before(grading: Grading) -> str:
    document: dict[str, Any] = {
        "problem": grading.meta.get("problem", ""),
        "submissions": grading.meta.get("submissions", ""),
        "groups": grading.groups,
        "ignored": [{"entry": entry, "why": why} for entry, why in grading.ignored],
        "similarity": grading.similarity,
        "students": [
            {
                "id": r.id,
                **r.info,
                "source": r.entry.source,
                "worker": r.worker,
                "error": r.entry.error,
                **(r.report or {"verdict": PENDING, "cases": [], "groups": []}),
            }
            for r in grading.rows
        ],
    }
    return json.dumps(document, indent=1) + "\n"


def assert_same_as_before(out: Path) -> None:
    with Store(out) as store:
        grading = load(store)
    assert (out / "grades.csv").read_text(encoding="utf-8") == csv_before(grading)
    assert (out / "grades.json").read_text(encoding="utf-8") == json_before(grading)
    assert not list(out.glob("*.partial"))


def test_a_class_with_pending_and_hostile_rows_streams_the_same_bytes(tmp_path: Path) -> None:
    out = tmp_path / "results"
    make_results(out, 40)
    with Store(out) as store:  # one student more, never judged: PENDING
        entries = [
            Entry(Key(s.entry.key.student, "p", s.entry.key.submission_hash, "s"), s.entry.source)
            for s in store.current()
        ]
        store.set_current(
            entries + [Entry(Key("zz\x1b[2J\n", "p", "h", "s"), "/class/zz.cpp", "never judged")],
            store.meta(),
            {"zz\x1b[2J\n": {"name": 'Zed\u00e9 "quoted", comma', "late_minutes": None}},
        )
        write_all(store, out)
    assert_same_as_before(out)
    students = json.loads((out / "grades.json").read_text())["students"]
    assert len(students) == 41 and students[-1]["verdict"] == PENDING


@pytest.mark.parametrize("students", [0, 1])
def test_an_empty_or_single_class_streams_the_same_bytes(tmp_path: Path, students: int) -> None:
    out = tmp_path / "results"
    with Store(out) as store:
        store.set_current(
            [Entry(Key(f"s{i}", "p", "h", "s"), "/c/s.py") for i in range(students)],
            {"problem": "/p/x", "groups": "[]"},
            {},
        )
        write_all(store, out)
    assert_same_as_before(out)
    assert len(json.loads((out / "grades.json").read_text())["students"]) == students
