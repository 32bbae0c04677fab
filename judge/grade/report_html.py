"""report.html: one self-contained page a teacher opens from the results folder (no network, one small inline script).

The student × case matrix is built for real classes (200+ students, 60+
cases): groups are columns with their points as subtotals, their cases
folded inside (a click on a group unfolds it, case names written
vertically), the header and the student column stay in view while
scrolling, and the rows sort by any column and filter by id, name, verdict
or lateness in the page itself. Per-student details list only what failed,
since the matrix already shows every case. Every untrusted string (ids,
names, messages, compiler logs, matched source text) is escaped here.
"""
from __future__ import annotations

import base64
import html
import statistics
from typing import Any

from ..text import safe_text
from .roster import late_text
from .view import Grading, Row, case_attachments

COLOURS = {
    "AC": "#2e7d32", "WA": "#c62828", "PE": "#ef6c00", "TLE": "#6a1b9a", "MLE": "#4527a0", "OLE": "#00838f",
    "RE": "#ad1457", "CE": "#5d4037", "JE": "#000000", "INVALID": "#757575", "MISSING": "#9e9e9e", "PENDING": "#9e9e9e",
    "SKIPPED": "#cfd8dc",
}
STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.8em 0}
td,th{border:1px solid #ccc;padding:2px 5px;font-size:13px}th{background:#f0f0f0}.v{color:#fff;border-radius:3px;padding:1px 5px;font-weight:600;font-size:12px}
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:18em;margin:.3em 0}details{margin:.3em 0}summary{cursor:pointer}
#wrap{max-height:75vh;overflow:auto;border:1px solid #bbb}#matrix{margin:0}#matrix th,#matrix td{white-space:nowrap}
#matrix thead th{position:sticky;top:0;z-index:2}#matrix thead tr.cases th{top:25px}#matrix thead tr.groups th{height:20px}
#matrix tbody th{position:sticky;left:0;background:#fafafa;z-index:1;text-align:left}
#matrix td.c{width:1.7em;min-width:1.7em;text-align:center;color:#fff;font-size:10px;padding:1px;display:none}
#matrix th.c{display:none;font-size:10px;font-weight:normal;padding:2px 1px}
#matrix th.c span{writing-mode:vertical-rl;transform:rotate(180deg);max-height:10em;overflow:hidden;display:inline-block}
#matrix td.s{text-align:right;font-weight:600;color:#fff}#matrix th.gh{cursor:pointer;color:#0d47a1}#matrix th[data-k]{cursor:pointer}
#matrix th.gh:before{content:"\\25B8 "}#matrix th.gh.open:before{content:"\\25BE "}#matrix td.late{color:#b71c1c}
.tools{margin:.6em 0}.tools input,.tools select,.tools button{margin-right:.6em}.hint{color:#555;font-size:12px}
.pair td pre{max-width:45vw}img.att{max-width:420px;max-height:420px;border:1px solid #ccc;display:block;margin:.3em 0}mark{background:#fff59d}.top{display:flex;gap:3em;align-items:flex-start}.top h2{margin:.2em 0}"""
SCRIPT = """(function(){
var t=document.getElementById('matrix');if(!t)return;var body=t.tBodies[0],rows=[].slice.call(body.rows);
function fold(g,open){t.classList.toggle('o'+g,open);var h=t.querySelector('th.gh[data-g="'+g+'"]');h.colSpan=open?+h.dataset.n+1:1;h.classList.toggle('open',open);}
[].forEach.call(t.querySelectorAll('th.gh'),function(h){h.addEventListener('click',function(){fold(h.dataset.g,!t.classList.contains('o'+h.dataset.g));});});
var all=false;document.getElementById('unfold').addEventListener('click',function(){all=!all;[].forEach.call(t.querySelectorAll('th.gh'),function(h){fold(h.dataset.g,all);});this.textContent=all?'fold all groups':'unfold all groups';});
var key=-1,dir=1;
[].forEach.call(t.querySelectorAll('th[data-k]'),function(h){h.addEventListener('click',function(e){e.stopPropagation();var k=+h.dataset.k;dir=key===k?-dir:(h.dataset.num?-1:1);key=k;
function v(r){var c=r.cells[k];return c.dataset.s!==undefined?+c.dataset.s:c.textContent.toLowerCase();}
rows.sort(function(a,b){var x=v(a),y=v(b);return (x<y?-1:x>y?1:0)*dir;});rows.forEach(function(r){body.appendChild(r);});});});
var q=document.getElementById('q'),vs=document.getElementById('verdict'),late=document.getElementById('late'),shown=document.getElementById('shown');
function filter(){var s=q.value.toLowerCase(),n=0;rows.forEach(function(r){var ok=(!s||r.dataset.text.indexOf(s)>=0)&&(!vs.value||r.dataset.v===vs.value)&&(!late.checked||r.dataset.late==='1');r.hidden=!ok;if(ok)n++;});shown.textContent=n+' of '+rows.length+' students shown';}
q.addEventListener('input',filter);vs.addEventListener('change',filter);late.addEventListener('change',filter);filter();
})();"""


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
    width, height, bar, pad = 420, 140, 36, 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + pad + 30}" role="img" aria-label="score histogram">']
    for i, count in enumerate(bins):
        h = int(height * count / top)
        x = 10 + i * (bar + 5)
        parts.append(f'<rect x="{x}" y="{height - h + pad}" width="{bar}" height="{h}" fill="#1565c0"><title>{count} students</title></rect>')
        parts.append(f'<text x="{x + bar / 2}" y="{height - h + pad - 5}" font-size="11" text-anchor="middle">{count}</text>')
        parts.append(f'<text x="{x - 2.5}" y="{height + pad + 18}" font-size="10" text-anchor="middle">{i * 10}%</text>')
    # the bins' edges are labelled, not the bins: "90–100%" under a 36-pixel bar ran into its neighbour
    parts.append(f'<text x="{10 + 10 * (bar + 5) - 2.5}" y="{height + pad + 18}" font-size="10" text-anchor="middle">100%</text>')
    return "".join(parts) + "</svg>"


def _subtotal_cell(group: dict[str, Any], mine: dict[str, Any] | None) -> str:
    """A group's cell in the matrix: the points earned, or for a group worth no points (the samples) the cases
    passed: a green "0" there read as "nothing earned, and that is fine"."""
    colour = _subtotal_colour(group, mine)
    if group["points"] > 0:
        value = mine["earned"] if mine else 0.0
        return f"<td class='s' data-s='{value:g}' style='background:{colour}'>{value:g}</td>"
    passed, total = (mine["passed"], mine["total"]) if mine else (0, len(group.get("cases") or ()))
    return (f"<td class='s' data-s='{passed}' style='background:{colour}' title='{passed} of {total} cases passed; "
            f"this group is worth no points'>{passed}/{total}</td>")


def _subtotal_colour(group: dict[str, Any], mine: dict[str, Any] | None) -> str:
    if mine is None:
        return "#bdbdbd"
    if group["points"] > 0:
        share = mine["earned"] / group["points"]
        return COLOURS["AC"] if share >= 1 else ("#f9a825" if share > 0 else COLOURS["WA"])
    return COLOURS["AC"] if mine["passed"] == mine["total"] else COLOURS["WA"]


def _matrix(grading: Grading) -> list[str]:
    groups = grading.groups
    case_names = {g["name"]: list(g.get("cases") or []) for g in groups}
    for row in grading.rows:  # results folders written before the groups' cases were recorded: take them from the reports
        for c in row.cases:
            names = case_names.setdefault(c["group"], [])
            if c["name"] not in names:
                names.append(c["name"])
    top = ["<th rowspan='2' data-k='0'>student</th><th rowspan='2' data-k='1'>name</th>",
           "<th rowspan='2' data-k='2' data-num='1'>score</th><th rowspan='2' data-k='3' data-num='1'>late</th>"]
    second: list[str] = []
    column = 4
    for i, group in enumerate(groups):
        names = case_names.get(group["name"], [])
        top.append(f"<th class='gh' data-g='{i}' data-n='{len(names)}' title='click: show the cases'>{esc(group['name'])} ({group['points']:g})</th>")
        for name in names:
            second.append(f"<th class='c g{i}' data-k='{column}' title='{esc(group['name'] + '/' + name)}'><span>{esc(name)}</span></th>")
            column += 1
        second.append(f"<th data-k='{column}' data-num='1' title='points earned in {esc(group['name'])}'>Σ</th>")
        column += 1
    out = [
        "<h2>Student × case</h2><div class='tools'><input id='q' placeholder='filter: id or name' size='24'>",
        "<select id='verdict'><option value=''>every verdict</option>"
        + "".join(f"<option>{esc(v)}</option>" for v in sorted({r.verdict for r in grading.rows})) + "</select>",
        "<label><input type='checkbox' id='late'> late only</label> <button id='unfold' type='button'>unfold all groups</button>",
        "<span id='shown' class='hint'></span></div>",
        "<p class='hint'>Groups are folded: the cell is the points earned; click a group to see its cases, a column title to sort.</p>",
        "<style>" + "".join(f"#matrix.o{i} .g{i}{{display:table-cell}}" for i in range(len(groups))) + "</style>",
        "<div id='wrap'><table id='matrix'><thead><tr class='groups'>", *top, "</tr><tr class='cases'>", *second, "</tr></thead><tbody>",
    ]
    for row in grading.rows:
        out.append(_matrix_row(row, groups, case_names))
    out.append("</tbody></table></div>")
    return out


def _matrix_row(row: Row, groups: list[dict[str, Any]], case_names: dict[str, list[str]]) -> str:
    by_key = {(c["group"], c["name"]): c for c in row.cases}
    name = row.info.get("name", "")
    late = row.info.get("late_minutes")
    cells = [
        f"<th><a href='#s-{esc(row.id)}'>{esc(row.id)}</a> {badge(row.verdict)}</th><td>{esc(name)}</td>",
        f"<td data-s='{row.score:g}'>{row.score:g}</td>",
        f"<td class='late' data-s='{late if late is not None else -1}'>{esc(late_text(late))}</td>",
    ]
    mine = row.groups
    for i, group in enumerate(groups):
        for case_name in case_names.get(group["name"], []):
            c = by_key.get((group["name"], case_name))
            if c is None:
                cells.append(f"<td class='c g{i}' style='background:{COLOURS.get(row.verdict, '#eee')}'>·</td>")
                continue
            tip = f"{case_name}: {c['verdict']} {c['time']:.3f}s" + (f" {c['message'][:100]}" if c["verdict"] != "AC" else "")
            shown = "–" if c["verdict"] == "SKIPPED" else c["verdict"]
            cells.append(f"<td class='c g{i}' style='background:{COLOURS.get(c['verdict'], '#607d8b')}' title='{esc(tip)}'>{esc(shown)}</td>")
        cells.append(_subtotal_cell(group, mine.get(group["name"])))
    text = f"{row.id} {name}".lower()
    return (f"<tr data-v='{esc(row.verdict)}' data-late='{1 if late is not None else 0}' data-text='{esc(text)}'>" + "".join(cells) + "</tr>")


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
        return out + [f"<p class='hint'>No pair of submissions scores {sim.get('threshold', 0.8):g} or more ({esc(sim.get('tool', ''))}).</p>"]
    out.append(f"<p class='hint'>Pairs whose normalised code (identifiers, whitespace and comments ignored) overlaps by at least "
               f"{sim.get('threshold', 0.8):g} of one side, found with {esc(sim.get('tool', ''))}. A hint for a closer look, not a verdict.</p>")
    out.append("<table id='similarity'><tr><th>students</th><th>score</th><th>share of each covered</th><th>matching regions</th></tr>")
    for pair in pairs:
        a, b = esc(pair["a"]), esc(pair["b"])
        shares = " / ".join(f"{x:.0%}" for x in pair["shares"])
        if pair.get("identical"):
            detail = "identical files"
        else:
            spans = [", ".join(f"{r['lines'][0]}–{r['lines'][1]}" for r in side) for side in pair["regions"]]
            code = "".join(f"<td><b>{n}</b><pre>{_marked(side)}</pre></td>" for n, side in ((a, pair["regions"][0]), (b, pair["regions"][1])))
            detail = f"<details><summary>lines {esc(spans[0])} of {a} ↔ lines {esc(spans[1])} of {b}</summary><table class='pair'><tr>{code}</tr></table></details>"
        out.append(f"<tr><td><a href='#s-{a}'>{a}</a> ~ <a href='#s-{b}'>{b}</a></td><td>{pair['score']:.2f}</td><td>{shares}</td><td>{detail}</td></tr>")
    if sim.get("more"):
        out.append(f"<tr><td colspan='4'>… and {sim['more']} more pairs (see grades.json)</td></tr>")
    return out + ["</table>"]


def _attachments(case: dict[str, Any]) -> str:
    """A case's attached files: pictures as <img> (an SVG shown that way runs no script and loads nothing), the rest as
    download links; everything as base64 data URLs, so the page stays one self-contained file."""
    out = []
    for item in case_attachments(case):
        url = f"data:{item.media_type};base64,{base64.b64encode(item.data).decode('ascii')}"
        if item.is_image:
            out.append(f"<img class='att' alt='{esc(item.name)}' title='{esc(item.name)}' src='{url}'>")
        else:
            out.append(f"<a download='{esc(item.name)}' href='{url}'>{esc(item.name)}</a> ({len(item.data)} bytes)")
    return "".join(out)


def _details(row: Row) -> list[str]:
    report = row.report or {}
    name = row.info.get("name", "")
    late = late_text(row.info.get("late_minutes"))
    out = [f"<details id='s-{esc(row.id)}'><summary>{badge(row.verdict)} <b>{esc(row.id)}</b>{' (' + esc(name) + ')' if name else ''} — score "
           f"{row.score:g}/{report.get('max_score', 0):g}, {esc(report.get('language', ''))}{' — <b>' + esc(late) + '</b>' if late else ''}</summary>"]
    if row.entry.error:
        out.append(f"<p class='error'>{esc(row.entry.error)}</p>")
    if row.verdict == "CE":
        out.append(f"<h4>Compiler output</h4><pre>{esc(report.get('compile', {}).get('log', ''))}</pre>")
    if row.verdict == "JE" and report.get("message"):
        out.append(f"<p class='error'>{esc(report['message'])}</p>")
    if report.get("groups") and row.cases:
        out.append("<table><tr><th>group</th><th>points</th><th>passed</th></tr>" + "".join(
            f"<tr><td>{esc(g['name'])}</td><td>{g['earned']:g}/{g['points']:g}</td><td>{g['passed']}/{g['total']}</td></tr>" for g in report["groups"]) + "</table>")
    failed = [c for c in row.cases if c["verdict"] not in ("AC", "SKIPPED")]
    if failed:
        out.append("<table><tr><th>failed case</th><th>verdict</th><th>time</th><th>memory</th><th>message</th></tr>")
        out += [f"<tr><td>{esc(c['group'])}/{esc(c['name'])}</td><td>{badge(c['verdict'])}</td><td>{c['time']:.3f} s</td>"
                f"<td>{c['memory_kb'] / 1024:.1f} MiB</td><td><pre>{esc(c['message'][:600])}</pre>{_attachments(c)}</td></tr>" for c in failed]
        out.append("</table>")
    return out + ["</details>"]


def to_html(grading: Grading) -> str:
    data = grading.rows
    counts: dict[str, int] = {}
    for row in data:
        counts[row.verdict] = counts.get(row.verdict, 0) + 1
    judged = [r for r in data if r.report]
    max_score = max((r.report["max_score"] for r in judged), default=0.0)
    scores = [r.score for r in judged]
    mean = statistics.fmean(scores) if scores else 0.0
    slowest = sorted(((c["time"], r.id, f"{c['group']}/{c['name']}", c["verdict"]) for r in data for c in r.cases), reverse=True)[:10]
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Grades: {esc(grading.problem)}</title><style>{STYLE}</style></head><body>",
        f"<h1>Grades for {esc(grading.problem)}</h1>",
        f"<p id='totals'>{len(data)} students, {len(judged)} judged, mean score {mean:.1f} / {max_score:g}</p>",
        "<div class='top'><div><h2>Verdicts</h2><table id='verdict-counts'><tr><th>verdict</th><th>students</th></tr>",
        *(f"<tr><td>{badge(v)}</td><td>{n}</td></tr>" for v, n in sorted(counts.items(), key=lambda kv: -kv[1])),
        "</table></div><div><h2>Score distribution</h2>", histogram(scores, max_score), "</div></div>",
    ]
    out += _matrix(grading)
    out += _similarity(grading)
    if grading.ignored:
        out.append("<h2>Ignored entries</h2><table id='ignored'><tr><th>entry</th><th>why</th></tr>"
                   + "".join(f"<tr><td>{esc(e)}</td><td>{esc(w)}</td></tr>" for e, w in grading.ignored) + "</table>")
    out.append("<h2>Slowest cases</h2><table id='slowest'><tr><th>student</th><th>case</th><th>CPU time</th><th>verdict</th></tr>")
    out += [f"<tr><td>{esc(s)}</td><td>{esc(c)}</td><td>{t:.3f} s</td><td>{badge(v)}</td></tr>" for t, s, c, v in slowest]
    out.append("</table><h2>Students</h2>")
    for row in data:
        out += _details(row)
    out.append(f"<script>{SCRIPT}</script></body></html>\n")
    return "\n".join(out)
