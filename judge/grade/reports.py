"""Reports of a grading, all built from the results store so ``report`` can rebuild them at any time.

grades.csv (one row per student, points per group), grades.json (full
per-case detail, the ``judge --json`` case schema, plus groups, ignored
entries and similarity hints), junit.xml (a testsuite per student, a class
per group), report.html (``report_html.py``) and one feedback file per
student (``feedback.py``). Every file is written atomically: a report is
either the old one or the new one, never half of each. Messages, compiler
logs and student ids are untrusted text: every format but JSON shows their
control characters as visible escapes (``judge.text.safe_text``); JSON
escapes them by itself.
"""

from __future__ import annotations

import statistics
import xml.etree.ElementTree as ET
from pathlib import Path

from ..atomic import atomic_write
from ..text import safe_text, table
from .roster import late_text
from .store import Store
from .streamed import replaced, write_csv, write_json
from .view import Grading, Row, each_row, load, load_head


def write_all(store: Store, out: Path) -> list[Path]:
    """Write every report into ``out``; returns their paths (the feedback folder as one)."""
    from .feedback import write_feedback
    from .report_html import to_html

    paths = [out / "grades.csv", out / "grades.json", out / "junit.xml", out / "report.html"]
    head = load_head(store)
    for path, write in ((paths[0], write_csv), (paths[1], write_json)):
        with replaced(path) as stream:
            write(head, each_row(store), stream)
    grading = load(store)
    atomic_write(paths[2], to_junit(grading))
    atomic_write(paths[3], to_html(grading))
    return paths + [write_feedback(grading, out / "feedback")]


def to_junit(grading: Grading) -> str:
    """One testsuite per student, one testcase per case with the group as its class; failures carry the verdict as
    their type, skipped cases are ``<skipped>``, and each suite's properties hold the points per group.

    XML 1.0 forbids most control characters even as character references, so
    every untrusted string passes through ``safe_text`` (attributes on one line).
    """

    def line(text: str) -> str:
        return safe_text(text, one_line=True)

    suites = ET.Element("testsuites", name=line(grading.problem))
    for row in grading.rows:
        student = line(row.id)
        cases = row.cases
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=student,
            tests=str(max(1, len(cases))),
            time=f"{sum(c['time'] for c in cases):.3f}",
        )
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="score", value=f"{row.score:g}")
        for group in grading.groups:
            mine = row.groups.get(group["name"], {})
            ET.SubElement(
                properties,
                "property",
                name=line(f"group:{group['name']}"),
                value=f"{mine.get('earned', 0.0):g}/{group['points']:g}",
            )
        if row.info.get("late_minutes") is not None:
            ET.SubElement(properties, "property", name="late_minutes", value=str(row.info["late_minutes"]))
        if row.info.get("rejudging"):  # serve: the result shown is the last finished one, a new one is coming
            ET.SubElement(properties, "property", name="rejudging", value="yes")
        failures = errors = skipped = 0
        if not cases:
            case = ET.SubElement(suite, "testcase", classname=student, name="submission", time="0")
            built = (row.report or {}).get("compile", {})
            message = row.entry.error or built.get("log", "") or row.verdict
            if row.verdict != "AC":
                errors += 1
                ET.SubElement(
                    case,
                    "error",
                    type=row.verdict,
                    message=line((built.get("error") or message.splitlines()[0])[:200]) if message else row.verdict,
                ).text = safe_text(message)
        for c in cases:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=line(f"{row.id}.{c['group']}"),
                name=line(f"{c['group']}/{c['name']}"),
                time=f"{c['time']:.3f}",
            )
            if c["verdict"] == "SKIPPED":
                skipped += 1
                ET.SubElement(case, "skipped", message=line(c["message"][:200]))
            elif c["verdict"] != "AC":
                failures += 1
                ET.SubElement(
                    case, "failure", type=c["verdict"], message=line(c["message"][:200]) or c["verdict"]
                ).text = safe_text(c["message"])
        suite.set("failures", str(failures))
        suite.set("errors", str(errors))
        suite.set("skipped", str(skipped))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def verdict_counts(data: list[Row]) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for row in data:
        counts[row.verdict] = counts.get(row.verdict, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])


def terminal_summary(grading: Grading) -> str:
    data = grading.rows
    judged = [r for r in data if r.report]
    scores = [r.score for r in judged]
    max_score = max((r.report["max_score"] for r in judged), default=0.0)
    lines = [
        f"{len(data)} students: " + ", ".join(f"{v} {n}" for v, n in verdict_counts(data)),
        f"mean score {statistics.fmean(scores) if scores else 0:.1f}/{max_score:g}",
    ]
    late = [r for r in data if r.info.get("late_minutes") is not None]
    if late:
        shown = [f"{safe_text(r.id, one_line=True)} {late_text(r.info['late_minutes'])}" for r in late[:5]]
        lines.append(f"late: {len(late)} ({', '.join(shown)}{', …' if len(late) > 5 else ''})")
    if grading.ignored:
        lines.append(
            f"ignored {len(grading.ignored)} entr{'y' if len(grading.ignored) == 1 else 'ies'}: "
            + "; ".join(safe_text(f"{entry} ({why})", one_line=True) for entry, why in grading.ignored[:5])
            + ("; …" if len(grading.ignored) > 5 else "")
        )
    pairs = grading.similarity.get("pairs", [])
    if grading.similarity.get("error"):
        lines.append(f"similarity hints: {grading.similarity['error']}")
    elif pairs:
        best = safe_text(f"{pairs[0]['a']} ~ {pairs[0]['b']}", one_line=True)
        lines.append(f"similar pairs: {len(pairs)} (best: {best} {pairs[0]['score']:.2f}; see report.html)")
    slow = sorted(judged, key=lambda r: -max((c["time"] for c in r.cases), default=0.0))[:5]
    if slow:
        lines.append("slowest submissions:")
        lines.append(
            table(
                [[r.id, r.verdict, f"{max((c['time'] for c in r.cases), default=0.0):.3f}s"] for r in slow],
                ["student", "verdict", "max CPU"],
            )
        )
    return "\n".join(lines)
