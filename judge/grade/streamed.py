"""grades.csv and grades.json written one student at a time, straight from the results store.

A class of 5,000 with a large problem makes a grades.json of tens of
megabytes: built whole, it existed three times over (the rows, the
document, its text). Here each student is read, written and forgotten; the
bytes are the same as the whole-document writers gave (``json.dumps`` with
``indent=1``, the same CSV dialect), so nothing reading them changes. Each
file goes to a ``.partial`` sibling renamed over the old one at the end, as
``atomic_write`` does: a reader never sees half a report.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from ..atomic import partial_beside
from ..text import safe_text
from .view import PENDING, Grading, Row

FIXED_FIELDS = ["id", "name", "language", "verdict", "score", "max_score"]
TAIL_FIELDS = [
    "cases_passed",
    "cases_total",
    "cases_skipped",
    "max_cpu_time",
    "peak_memory_kb",
    "first_failing_case",
    "first_failing_verdict",
    "submitted",
    "late_minutes",
    "similar_to",
    "worker",
    "error",
]


@contextmanager
def replaced(path: Path) -> Iterator[TextIO]:
    """A text file written beside ``path`` and renamed over it once complete (removed if the writing fails)."""
    partial = Path(partial_beside(str(path)))
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(partial, "w", encoding="utf-8", newline="") as out:
            yield out
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def write_csv(head: Grading, rows: Iterable[Row], out: TextIO) -> None:
    """One line per student: fixed columns, points per group, then the detail (``Row.csv_row``)."""
    writer = csv.DictWriter(
        out, fieldnames=FIXED_FIELDS + [f"group:{g['name']}" for g in head.groups] + TAIL_FIELDS, lineterminator="\n"
    )
    writer.writeheader()
    similar = head.similar()
    # ids come from file names and messages from programs: a spreadsheet or a `cat` gets no raw control byte
    for row in rows:
        writer.writerow(
            {
                k: safe_text(v, one_line=True) if isinstance(v, str) else v
                for k, v in row.csv_row(head.groups, similar).items()
            }
        )


def student_json(row: Row) -> dict[str, Any]:
    return {
        "id": row.id,
        **row.info,
        "source": row.entry.source,
        "worker": row.worker,
        "error": row.entry.error,
        **(row.report or {"verdict": PENDING, "cases": [], "groups": []}),
    }


def write_json(head: Grading, rows: Iterable[Row], out: TextIO) -> None:
    """The document ``json.dumps(..., indent=1)`` would give, its ``students`` list written one student at a time."""
    document = {
        "problem": head.meta.get("problem", ""),
        "submissions": head.meta.get("submissions", ""),
        "groups": head.groups,
        "ignored": [{"entry": entry, "why": why} for entry, why in head.ignored],
        "similarity": head.similarity,
    }
    out.write(json.dumps(document, indent=1)[:-2] + ',\n "students": [')
    first = True
    for row in rows:
        out.write(
            ("\n" if first else ",\n")
            + "\n".join("  " + line for line in json.dumps(student_json(row), indent=1).split("\n"))
        )
        first = False
    out.write("]\n}\n" if first else "\n ]\n}\n")
