"""report.html: one self-contained page a teacher opens from the results folder (no network, one small inline script).

The student × case matrix is built for real classes (5,000 students, 60+
cases): groups are columns with their points as subtotals, their cases
folded inside (a click on a group unfolds it, case names written
vertically), the header and the student column stay in view while
scrolling, and the rows sort by any column and filter by id, name, verdict
or lateness in the page itself. Per-student details list only what failed,
since the matrix already shows every case. The matrix rows and the details
are drawn by the page from one JSON blob, only what is in view
(``report_matrix.py``). Every untrusted string (ids, names, messages,
compiler logs, matched source text) is escaped here or by that script.
"""

from __future__ import annotations

import html
import statistics
from typing import Any

from ..text import safe_text
from .report_matrix import SCRIPT, section
from .view import Grading

COLOURS = {
    "AC": "#2e7d32",
    "WA": "#c62828",
    "PE": "#ef6c00",
    "TLE": "#6a1b9a",
    "MLE": "#4527a0",
    "OLE": "#00838f",
    "RE": "#ad1457",
    "CE": "#5d4037",
    "JE": "#000000",
    "INVALID": "#757575",
    "MISSING": "#9e9e9e",
    "PENDING": "#9e9e9e",
    "SKIPPED": "#cfd8dc",
}
# A backslash at the end of a line below joins it to the next: the page gets the same bytes, the source keeps to
# 120 columns.
STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.8em 0}
td,th{border:1px solid #ccc;padding:2px 5px;font-size:13px}th{background:#f0f0f0}\
.v{color:#fff;border-radius:3px;padding:1px 5px;font-weight:600;font-size:12px}
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:18em;margin:.3em 0}details{margin:.3em 0}\
summary{cursor:pointer}
#wrap{max-height:75vh;overflow:auto;border:1px solid #bbb}#matrix{margin:0}#matrix th,#matrix td{white-space:nowrap}
#matrix thead th{position:sticky;top:0;z-index:2}#matrix thead tr.cases th{top:25px}\
#matrix thead tr.groups th{height:20px}
#matrix tbody th{position:sticky;left:0;background:#fafafa;z-index:1;text-align:left}#matrix tbody tr.r{height:24px}\
#matrix tr.pad td{padding:0;border:0}
#matrix td.c{width:1.7em;min-width:1.7em;text-align:center;color:#fff;font-size:10px;padding:1px;display:none}
#matrix th.c{display:none;font-size:10px;font-weight:normal;padding:2px 1px}
#matrix th.c span{writing-mode:vertical-rl;transform:rotate(180deg);max-height:10em;overflow:hidden;\
display:inline-block}
#matrix td.s{text-align:right;font-weight:600;color:#fff}#matrix th.gh{cursor:pointer;color:#0d47a1}\
#matrix th[data-k]{cursor:pointer}
#matrix th.gh:before{content:"\\25B8 "}#matrix th.gh.open:before{content:"\\25BE "}#matrix td.late{color:#b71c1c}
.tools{margin:.6em 0}.tools input,.tools select,.tools button{margin-right:.6em}.hint{color:#555;font-size:12px}
.pair td pre{max-width:45vw}img.att{max-width:420px;max-height:420px;border:1px solid #ccc;display:block;margin:.3em 0}\
mark{background:#fff59d}.top{display:flex;gap:3em;align-items:flex-start}.top h2{margin:.2em 0}"""


def esc(text: Any) -> str:
    """Untrusted text for HTML: control characters made visible, then HTML-escaped (quotes too: attributes)."""
    return html.escape(safe_text(str(text)), quote=True)


def badge(verdict: str) -> str:
    return f'<span class="v" style="background:{COLOURS.get(verdict, "#607d8b")}">{esc(verdict)}</span>'


def histogram(scores: list[float], max_score: float) -> str:
    """Scores in ten bins as an inline SVG bar chart."""
    bins = [0] * 10
    for score in scores:
        bins[min(9, int(10 * score / max_score)) if max_score > 0 else 0] += 1
    top = max(bins) or 1
    height, bar, pad = 140, 36, 20
    width = 10 + 10 * (bar + 5) + 20  # room for the last edge's "100%", centred on the last bar's right edge
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + pad + 30}" '
        'role="img" aria-label="score histogram">'
    ]
    for i, count in enumerate(bins):
        h = int(height * count / top)
        x = 10 + i * (bar + 5)
        parts.append(
            f'<rect x="{x}" y="{height - h + pad}" width="{bar}" height="{h}" fill="#1565c0">'
            f"<title>{count} students</title></rect>"
        )
        parts.append(
            f'<text x="{x + bar / 2}" y="{height - h + pad - 5}" font-size="11" text-anchor="middle">{count}</text>'
        )
        parts.append(
            f'<text x="{x - 2.5}" y="{height + pad + 18}" font-size="10" text-anchor="middle">{i * 10}%</text>'
        )
    # the bins' edges are labelled, not the bins: "90–100%" under a 36-pixel bar ran into its neighbour
    parts.append(
        f'<text x="{10 + 10 * (bar + 5) - 2.5}" y="{height + pad + 18}" font-size="10" text-anchor="middle">100%</text>'
    )
    return "".join(parts) + "</svg>"


def _subtotal(group: dict[str, Any], mine: dict[str, Any] | None) -> tuple[float, str, str]:
    """A group's cell in the matrix: (sort value, colour, what it shows). The points earned; for a group worth no
    points (the samples) the cases passed, since a green "0" there read as "nothing earned, and that is fine"."""
    colour = _subtotal_colour(group, mine)
    if group["points"] > 0:
        value = mine["earned"] if mine else 0.0
        return value, colour, f"{value:g}"
    passed, total = (mine["passed"], mine["total"]) if mine else (0, len(group.get("cases") or ()))
    return passed, colour, f"{passed}/{total}"


def _subtotal_colour(group: dict[str, Any], mine: dict[str, Any] | None) -> str:
    if mine is None:
        return "#bdbdbd"
    if group["points"] > 0:
        share = mine["earned"] / group["points"]
        return COLOURS["AC"] if share >= 1 else ("#f9a825" if share > 0 else COLOURS["WA"])
    return COLOURS["AC"] if mine["passed"] == mine["total"] else COLOURS["WA"]


def _marked(regions: list[dict[str, Any]]) -> str:
    """One side's matching regions, each headed by its line range."""
    return "".join(f"lines {r['lines'][0]}–{r['lines'][1]}:\n<mark>{esc(r['text'])}</mark>\n" for r in regions)


def _similarity(grading: Grading) -> list[str]:
    sim = grading.similarity
    out = ["<h2>Similar submissions</h2>"]
    if sim.get("error"):
        return out + [f"<p class='hint'>{esc(sim['error'])}</p>"]
    pairs = sim.get("pairs", [])
    if not pairs:
        return out + [
            f"<p class='hint'>No pair of submissions scores {sim.get('threshold', 0.8):g} or more "
            f"({esc(sim.get('tool', ''))}).</p>"
        ]
    out.append(
        "<p class='hint'>Pairs whose normalised code (identifiers, whitespace and comments ignored) "
        f"overlaps by at least {sim.get('threshold', 0.8):g} of one side, found with {esc(sim.get('tool', ''))}. "
        "A hint for a closer look, not a verdict.</p>"
    )
    out.append(
        "<table id='similarity'><tr><th>students</th><th>score</th><th>share of each covered</th>"
        "<th>matching regions</th></tr>"
    )
    for pair in pairs:
        a, b = esc(pair["a"]), esc(pair["b"])
        shares = " / ".join(f"{x:.0%}" for x in pair["shares"])
        if pair.get("identical"):
            detail = "identical files"
        else:
            spans = [", ".join(f"{r['lines'][0]}–{r['lines'][1]}" for r in side) for side in pair["regions"]]
            code = "".join(
                f"<td><b>{n}</b><pre>{_marked(side)}</pre></td>"
                for n, side in ((a, pair["regions"][0]), (b, pair["regions"][1]))
            )
            detail = (
                f"<details><summary>lines {esc(spans[0])} of {a} ↔ lines {esc(spans[1])} of {b}</summary>"
                f"<table class='pair'><tr>{code}</tr></table></details>"
            )
        out.append(
            f"<tr><td><a href='#s-{a}'>{a}</a> ~ <a href='#s-{b}'>{b}</a></td><td>{pair['score']:.2f}</td>"
            f"<td>{shares}</td><td>{detail}</td></tr>"
        )
    if sim.get("more"):
        out.append(f"<tr><td colspan='4'>… and {sim['more']} more pairs (see grades.json)</td></tr>")
    return out + ["</table>"]


def to_html(grading: Grading) -> str:
    data = grading.rows
    counts: dict[str, int] = {}
    for row in data:
        counts[row.verdict] = counts.get(row.verdict, 0) + 1
    judged = [r for r in data if r.report]
    max_score = max((r.report["max_score"] for r in judged), default=0.0)
    scores = [r.score for r in judged]
    mean = statistics.fmean(scores) if scores else 0.0
    slowest = sorted(
        ((c["time"], r.id, f"{c['group']}/{c['name']}", c["verdict"]) for r in data for c in r.cases), reverse=True
    )[:10]
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Grades: {esc(grading.problem)}</title><style>{STYLE}</style></head><body>",
        f"<h1>Grades for {esc(grading.problem)}</h1>",
        f"<p id='totals'>{len(data)} students, {len(judged)} judged, mean score {mean:.1f} / {max_score:g}</p>",
        "<div class='top'><div><h2>Verdicts</h2><table id='verdict-counts'><tr><th>verdict</th><th>students</th></tr>",
        *(f"<tr><td>{badge(v)}</td><td>{n}</td></tr>" for v, n in sorted(counts.items(), key=lambda kv: -kv[1])),
        "</table></div><div><h2>Score distribution</h2>",
        histogram(scores, max_score),
        "</div></div>",
    ]
    matrix, details = section(grading, COLOURS, _subtotal, esc)
    out += matrix
    out += _similarity(grading)
    if grading.ignored:
        out.append(
            "<h2>Ignored entries</h2><table id='ignored'><tr><th>entry</th><th>why</th></tr>"
            + "".join(f"<tr><td>{esc(e)}</td><td>{esc(w)}</td></tr>" for e, w in grading.ignored)
            + "</table>"
        )
    out.append(
        "<h2>Slowest cases</h2><table id='slowest'><tr><th>student</th><th>case</th><th>CPU time</th>"
        "<th>verdict</th></tr>"
    )
    out += [
        f"<tr><td>{esc(s)}</td><td>{esc(c)}</td><td>{t:.3f} s</td><td>{badge(v)}</td></tr>" for t, s, c, v in slowest
    ]
    out.append("</table>")
    out += details
    out.append(f"<script>{SCRIPT}</script></body></html>\n")
    return "\n".join(out)
