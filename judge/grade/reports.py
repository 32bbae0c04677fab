"""Reports of a grading, all built from the results store so ``report`` can rebuild them at any time.

grades.csv (one row per student), grades.json (full per-case detail, the
``judge --json`` case schema), junit.xml (a testsuite per student) and
report.html (one self-contained page: no scripts, no network, inline SVG).
Every file is written atomically: a report is either the old one or the new
one, never half of each. Messages, compiler logs and student ids are
untrusted text: junit.xml and report.html show their control characters as
visible escapes (``judge.text.safe_text``), so the XML stays well-formed and
the page shows what the program printed; JSON escapes them by itself.
"""
from __future__ import annotations

import csv
import html
import io
import json
import statistics
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import atomic_write
from ..text import safe_text, table
from .store import Entry, Store

PENDING = "PENDING"
CSV_FIELDS = [
    "id", "language", "verdict", "score", "max_score", "cases_passed", "cases_total", "max_cpu_time",
    "peak_memory_kb", "first_failing_case", "first_failing_verdict", "worker", "error",
]
COLOURS = {
    "AC": "#2e7d32", "WA": "#c62828", "PE": "#ef6c00", "TLE": "#6a1b9a", "MLE": "#4527a0", "OLE": "#00838f",
    "RE": "#ad1457", "CE": "#5d4037", "JE": "#000000", "INVALID": "#757575", PENDING: "#9e9e9e",
}


@dataclass(frozen=True)
class Row:
    """One student's result, flattened for the summary formats."""

    entry: Entry
    report: dict[str, Any] | None
    worker: str

    @property
    def verdict(self) -> str:
        return self.report["verdict"] if self.report else PENDING

    @property
    def cases(self) -> list[dict[str, Any]]:
        return self.report["cases"] if self.report else []

    def csv_row(self) -> dict[str, Any]:
        cases = self.cases
        failing = next((c for c in cases if c["verdict"] != "AC"), None)
        report = self.report or {}
        return {
            "id": self.entry.key.student,
            "language": report.get("language", ""),
            "verdict": self.verdict,
            "score": report.get("score", 0.0),
            "max_score": report.get("max_score", 0.0),
            "cases_passed": sum(1 for c in cases if c["verdict"] == "AC"),
            "cases_total": len(cases),
            "max_cpu_time": max((c["time"] for c in cases), default=0.0),
            "peak_memory_kb": max((c["memory_kb"] for c in cases), default=0),
            "first_failing_case": f"{failing['group']}/{failing['name']}" if failing else "",
            "first_failing_verdict": failing["verdict"] if failing else "",
            "worker": self.worker,
            "error": self.entry.error or report.get("message", ""),
        }


def rows(store: Store) -> list[Row]:
    return [Row(entry, report, worker or "") for entry, report, worker in store.current()]


def write_all(store: Store, out: Path) -> list[Path]:
    """Write every report into ``out``; returns their paths."""
    data = rows(store)
    meta = store.meta()
    paths = [out / "grades.csv", out / "grades.json", out / "junit.xml", out / "report.html"]
    atomic_write(paths[0], to_csv(data))
    atomic_write(paths[1], json.dumps(to_json(data, meta), indent=1) + "\n")
    atomic_write(paths[2], to_junit(data, meta))
    atomic_write(paths[3], to_html(data, meta))
    return paths


def to_csv(data: list[Row]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in data:  # ids come from file names and messages from programs: a spreadsheet or a `cat` gets no raw control byte
        writer.writerow({k: safe_text(v, one_line=True) if isinstance(v, str) else v for k, v in row.csv_row().items()})
    return buffer.getvalue()


def to_json(data: list[Row], meta: dict[str, str]) -> dict[str, Any]:
    return {
        "problem": meta.get("problem", ""),
        "submissions": meta.get("submissions", ""),
        "students": [
            {"id": r.entry.key.student, "source": r.entry.source, "worker": r.worker, "error": r.entry.error, **(r.report or {"verdict": PENDING, "cases": []})}
            for r in data
        ],
    }


def to_junit(data: list[Row], meta: dict[str, str]) -> str:
    """One testsuite per student, one testcase per case; failures carry the verdict as their type.

    XML 1.0 forbids most control characters even as character references, so
    every untrusted string passes through ``safe_text`` (attributes on one line).
    """
    line = lambda text: safe_text(text, one_line=True)
    suites = ET.Element("testsuites", name=line(Path(meta.get("problem", "problem")).name))
    for row in data:
        student = line(row.entry.key.student)
        cases = row.cases
        suite = ET.SubElement(suites, "testsuite", name=student, tests=str(max(1, len(cases))), time=f"{sum(c['time'] for c in cases):.3f}")
        failures = errors = 0
        if not cases:
            case = ET.SubElement(suite, "testcase", classname=student, name="submission", time="0")
            message = row.entry.error or (row.report or {}).get("compile", {}).get("log", "") or row.verdict
            if row.verdict != "AC":
                errors += 1
                ET.SubElement(case, "error", type=row.verdict, message=line(message.splitlines()[0][:200]) if message else row.verdict).text = safe_text(message)
        for c in cases:
            case = ET.SubElement(suite, "testcase", classname=student, name=line(f"{c['group']}/{c['name']}"), time=f"{c['time']:.3f}")
            if c["verdict"] != "AC":
                failures += 1
                ET.SubElement(case, "failure", type=c["verdict"], message=line(c["message"][:200]) or c["verdict"]).text = safe_text(c["message"])
        suite.set("failures", str(failures))
        suite.set("errors", str(errors))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _badge(verdict: str) -> str:
    return f'<span class="v" style="background:{COLOURS.get(verdict, "#607d8b")}">{_esc(verdict)}</span>'


def _histogram(scores: list[float], max_score: float) -> str:
    """Scores in ten bins as an inline SVG bar chart."""
    bins = [0] * 10
    for score in scores:
        index = min(9, int(10 * score / max_score)) if max_score > 0 else 0
        bins[index] += 1
    top = max(bins) or 1
    width, height, bar, top_pad = 420, 160, 36, 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + top_pad + 30}" role="img" aria-label="score histogram">']
    for i, count in enumerate(bins):
        h = int(height * count / top)
        x = 10 + i * (bar + 5)
        parts.append(f'<rect x="{x}" y="{height - h + top_pad}" width="{bar}" height="{h}" fill="#1565c0"><title>{count} students</title></rect>')
        parts.append(f'<text x="{x + bar / 2}" y="{height - h + top_pad - 5}" font-size="11" text-anchor="middle">{count}</text>')
        parts.append(f'<text x="{x + bar / 2}" y="{height + top_pad + 18}" font-size="10" text-anchor="middle">{i * 10}–{(i + 1) * 10}%</text>')
    parts.append("</svg>")
    return "".join(parts)


def _esc(text: str) -> str:
    """Untrusted text for HTML: control characters made visible, then HTML-escaped."""
    return html.escape(safe_text(text))


def to_html(data: list[Row], meta: dict[str, str]) -> str:
    esc = _esc
    problem = Path(meta.get("problem", "")).name
    counts: dict[str, int] = {}
    for row in data:
        counts[row.verdict] = counts.get(row.verdict, 0) + 1
    judged = [r for r in data if r.report]
    max_score = max((r.report["max_score"] for r in judged), default=0.0)
    scores = [r.report["score"] for r in judged]
    mean = statistics.fmean(scores) if scores else 0.0
    case_names = []
    for row in data:
        for c in row.cases:
            name = f"{c['group']}/{c['name']}"
            if name not in case_names:
                case_names.append(name)
    slowest = sorted(((c["time"], r.entry.key.student, f"{c['group']}/{c['name']}", c["verdict"]) for r in data for c in r.cases), reverse=True)[:10]
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Grades: {esc(problem)}</title>",
        "<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:3px 6px;font-size:13px}th{background:#f0f0f0}.v{color:#fff;border-radius:3px;padding:1px 5px;font-weight:600;font-size:12px}"
        ".m td{width:2.2em;text-align:center;color:#fff;font-size:11px}pre{background:#f6f6f6;padding:.6em;overflow:auto;max-height:20em}"
        "details{margin:.4em 0}summary{cursor:pointer}</style></head><body>",
        f"<h1>Grades for {esc(problem)}</h1>",
        f"<p id='totals'>{len(data)} students, {len(judged)} judged, mean score {mean:.1f} / {max_score:g}</p>",
        "<h2>Verdicts</h2><table id='verdict-counts'><tr><th>verdict</th><th>students</th></tr>",
        *(f"<tr><td>{_badge(v)}</td><td>{n}</td></tr>" for v, n in sorted(counts.items(), key=lambda kv: -kv[1])),
        "</table><h2>Score distribution</h2>", _histogram(scores, max_score),
        "<h2>Slowest cases</h2><table id='slowest'><tr><th>student</th><th>case</th><th>CPU time</th><th>verdict</th></tr>",
        *(f"<tr><td>{esc(s)}</td><td>{esc(c)}</td><td>{t:.3f} s</td><td>{_badge(v)}</td></tr>" for t, s, c, v in slowest),
        "</table><h2>Student × case</h2><table class='m' id='matrix'><tr><th>student</th><th>score</th>",
        *(f"<th title='{esc(n)}'>{i + 1}</th>" for i, n in enumerate(case_names)),
        "</tr>",
    ]
    for row in data:
        by_name = {f"{c['group']}/{c['name']}": c for c in row.cases}
        score = f"{row.report['score']:g}" if row.report else "–"
        cells = []
        for name in case_names:
            c = by_name.get(name)
            if c is None:
                cells.append("<td style='background:#eee;color:#999'>·</td>")
            else:
                tip = esc(f"{name}: {c['verdict']} {c['time']:.3f}s {c['message'][:120]}")
                cells.append(f"<td style='background:{COLOURS.get(c['verdict'], '#607d8b')}' title='{tip}'>{esc(c['verdict'])}</td>")
        if not row.cases:
            cells = [f"<td colspan='{max(1, len(case_names))}' style='background:{COLOURS.get(row.verdict, '#607d8b')}'>{esc(row.verdict)}</td>"]
        out.append(f"<tr><th><a href='#s-{esc(row.entry.key.student)}'>{esc(row.entry.key.student)}</a></th><td style='color:#222'>{score}</td>{''.join(cells)}</tr>")
    out.append("</table><h2>Students</h2>")
    for row in data:
        report = row.report or {}
        student = esc(row.entry.key.student)
        out.append(f"<details id='s-{student}'><summary>{_badge(row.verdict)} <b>{student}</b> — score {report.get('score', 0):g}/{report.get('max_score', max_score):g}, {esc(report.get('language', ''))}</summary>")
        if row.entry.error:
            out.append(f"<p class='error'>{esc(row.entry.error)}</p>")
        if row.verdict == "CE":
            out.append(f"<h4>Compiler output</h4><pre>{esc(report.get('compile', {}).get('log', ''))}</pre>")
        if row.verdict == "JE" and report.get("message"):
            out.append(f"<p class='error'>{esc(report['message'])}</p>")
        failing = next((c for c in row.cases if c["verdict"] != "AC"), None)
        if failing is not None:
            out.append(f"<p>First failure: {esc(failing['group'])}/{esc(failing['name'])} {_badge(failing['verdict'])} <code>{esc(failing['message'])}</code></p>")
        if row.cases:
            out.append("<table><tr><th>case</th><th>verdict</th><th>time</th><th>memory</th><th>message</th></tr>")
            for c in row.cases:
                out.append(f"<tr><td>{esc(c['group'])}/{esc(c['name'])}</td><td>{_badge(c['verdict'])}</td><td>{c['time']:.3f} s</td><td>{c['memory_kb'] / 1024:.1f} MiB</td><td>{esc(c['message'][:200])}</td></tr>")
            out.append("</table>")
        out.append("</details>")
    out.append("</body></html>\n")
    return "\n".join(out)


def terminal_summary(data: list[Row]) -> str:
    counts: dict[str, int] = {}
    for row in data:
        counts[row.verdict] = counts.get(row.verdict, 0) + 1
    judged = [r for r in data if r.report]
    scores = [r.report["score"] for r in judged]
    max_score = max((r.report["max_score"] for r in judged), default=0.0)
    lines = [
        f"{len(data)} students: " + ", ".join(f"{v} {n}" for v, n in sorted(counts.items(), key=lambda kv: -kv[1])),
        f"mean score {statistics.fmean(scores) if scores else 0:.1f}/{max_score:g}",
    ]
    slow = sorted(judged, key=lambda r: -max((c["time"] for c in r.cases), default=0.0))[:5]
    if slow:
        lines.append("slowest submissions:")
        lines.append(table(
            [[r.entry.key.student, r.verdict, f"{max((c['time'] for c in r.cases), default=0.0):.3f}s"] for r in slow],
            ["student", "verdict", "max CPU"],
        ))
    return "\n".join(lines)
