"""The test-strength matrix shown to people: a plain table for the terminal, a self-contained page for docs/.

Cases are rows and submissions lettered columns, because a problem has a
few dozen cases but only a dozen or so test submissions: the table stays
narrower than a terminal. A cell is the case's verdict: upper case where it
rejects the submission for the reason it is wrong, lower case where the
submission fails there some other way, "." where it passes, "-" where
nothing ran. Names come from package files and submission file names, so
every one goes through ``safe_text`` (the text table does it itself) and,
on the page, ``html.escape``. The page has no scripts and loads nothing.
"""

from __future__ import annotations

import html
from collections.abc import Iterator

from ..text import safe_text, table
from ..verdict import Verdict
from .matrix import Matrix, Row


def letter(index: int) -> str:
    """Column name of a submission: A..Z, then AA, AB, ..."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def cell(row: Row, case: int) -> str:
    if row.verdicts is None:
        return "-"
    verdict = row.verdicts[case]
    if verdict is Verdict.AC:
        return "."
    return verdict.value if row.catches[case] else verdict.value.lower()


def split(key: str) -> tuple[str, str]:
    """A case key "group/name" as (group, name); Kattis groups hold slashes themselves."""
    group, _, name = key.rpartition("/")
    return group, name


def submission_note(m: Matrix, i: int) -> str:
    """What the matrix says about one submission, in a few words."""
    row = m.rows[i]
    if row.verdicts is None:
        return "did not compile: no case ran"
    failing = sum(1 for verdict in row.verdicts if verdict is not Verdict.AC)
    otherwise = failing - len(m.caught_by[i])
    also = f"; fails {otherwise} more another way" if otherwise else ""
    if not row.wrong:
        return f"fails {failing} case(s)" if failing else "passes every case"
    if not m.caught_by[i]:
        return f"rejected by no case{also}"
    if len(m.caught_by[i]) == 1:
        return f"rejected only by {m.cases[m.caught_by[i][0]]}{also}"
    return f"rejected by {len(m.caught_by[i])} cases{also}"


def cover_line(m: Matrix) -> str:
    cover = m.cover
    how = "proven smallest" if cover.optimal else "NOT proven smallest"
    return f"{len(cover.cases)} of {len(m.cases)} cases, {how} ({cover.method})"


def findings(m: Matrix) -> Iterator[tuple[str, list[str]]]:
    """The headline lists, the same on both renderings: (title, items)."""
    yield f"cases rejecting no wrong submission ({len(m.idle)})", [m.cases[j] for j in m.idle]
    yield (
        f"wrong submissions rejected by a single case ({len(m.single)})",
        [f"{m.rows[i].name} (only {m.cases[m.caught_by[i][0]]})" for i in m.single],
    )
    if m.uncaught:
        yield f"wrong submissions no case rejects ({len(m.uncaught)})", [m.rows[i].name for i in m.uncaught]
    if m.unjudged:
        yield f"submissions that did not compile ({len(m.unjudged)})", [m.rows[i].name for i in m.unjudged]
    yield f"smallest rejecting set: {cover_line(m)}", [m.cases[j] for j in m.cover.cases]


def to_text(m: Matrix, problem: str) -> str:
    """The terminal form: legend, the case × submission table (* marks the smallest rejecting set), the findings."""
    wrong = len(m.wrong)
    out = [
        f"test strength of {safe_text(problem, one_line=True)}: "
        f"{len(m.cases)} cases, {len(m.rows)} submissions ({wrong} wrong)",
        "  a cell is the case's verdict: UPPER rejects the submission for its reason, lower fails it another way, "
        ". passes, - not run",
    ]
    legend = [[letter(i), row.name, row.expected, submission_note(m, i)] for i, row in enumerate(m.rows)]
    out += ["  " + line for line in table(legend, ["", "submission", "expects", "matrix"]).splitlines()]
    chosen = set(m.cover.cases)
    grid = []
    for j, key in enumerate(m.cases):
        group, name = split(key)
        grid.append(
            [
                "*" if j in chosen else "",
                name,
                group,
                *(cell(row, j) for row in m.rows),
                str(len(m.catches(j))),
                " ".join(letter(i) for i in m.sole[j]),
            ]
        )
    out += ["", table(grid, ["", "case", "group", *(letter(i) for i in range(len(m.rows))), "rejects", "alone"]), ""]
    for title, items in findings(m):
        out.append(f"{title}{':' if items else ''} {safe_text(', '.join(items), one_line=True)}".rstrip())
    return "\n".join(out) + "\n"


STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:80em}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}"
    "th{background:#f0f0f0}"
    ".grid td.c{text-align:center;font-family:ui-monospace,monospace;font-size:12px;min-width:2.6em}"
    ".catch{background:#c62828;color:#fff;font-weight:600}.other{background:#ffcc80;color:#5d4037}"
    ".pass{background:#e8f5e9;color:#8aa58c}.none{background:#eee;color:#999}"
    "tr.cover th.case{background:#fff59d}tr.idle th.case{color:#888;font-weight:normal}"
    "tr.newgroup td,tr.newgroup th{border-top:2px solid #555}"
    "th.case{text-align:left;font-weight:600}code{background:#f6f6f6;padding:0 3px}li{margin:.15em 0}"
)


def _esc(text: str) -> str:
    return html.escape(safe_text(text, one_line=True))


def _cell_html(m: Matrix, i: int, j: int) -> str:
    row = m.rows[i]
    text = cell(row, j)
    kind = {"-": "none", ".": "pass"}.get(text, "catch" if row.catches[j] else "other")
    tip = f"{letter(i)} {row.name} on {m.cases[j]}: {row.verdicts[j].value if row.verdicts else 'not run'}"
    return f"<td class='c {kind}' title='{_esc(tip)}'>{_esc(text)}</td>"


def to_html(m: Matrix, problem: str, title: str = "") -> str:
    """The page: summary, submissions, the colour grid (smallest rejecting set highlighted), the findings."""
    heading = f"Test strength: {problem}" + (f" — {title}" if title else "")
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_esc(heading)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_esc(heading)}</h1>",
        f"<p id='summary'>{len(m.cases)} cases, {len(m.rows)} test submissions of which {len(m.wrong)} wrong. "
        "Smallest set of cases rejecting every wrong submission that any case rejects: "
        f"<b>{_esc(cover_line(m))}</b>.</p>",
        "<p>A case <i>rejects</i> a wrong submission when it gives the verdict the submission is wrong for "
        "(a time-limit submission is rejected where it gets TLE, not where it happens to print a wrong answer).</p>",
        "<h2>Submissions</h2><table id='submissions'>"
        "<tr><th></th><th>submission</th><th>expects</th><th>matrix</th></tr>",
        *(
            f"<tr><th>{letter(i)}</th><td>{_esc(row.name)}</td><td>{_esc(row.expected)}</td>"
            f"<td>{_esc(submission_note(m, i))}</td></tr>"
            for i, row in enumerate(m.rows)
        ),
        "</table><h2>Findings</h2>",
    ]
    for heading_text, items in findings(m):
        out.append(f"<h3>{_esc(heading_text)}</h3>")
        out.append("<ul>" + "".join(f"<li>{_esc(item)}</li>" for item in items) + "</ul>" if items else "<p>none</p>")
    out += [
        "<h2>Case × submission</h2>",
        "<p>Cell: the case's verdict. "
        "<span class='c catch'>&nbsp;WA&nbsp;</span> rejects the submission for its reason, "
        "<span class='c other'>&nbsp;re&nbsp;</span> fails it another way, "
        "<span class='c pass'>&nbsp;.&nbsp;</span> passes, "
        "<span class='c none'>&nbsp;-&nbsp;</span> not run. "
        "Highlighted case names form the smallest rejecting set; grey ones reject nothing. "
        "<i>alone</i>: the wrong submissions no other case rejects.</p>",
        "<table class='grid' id='matrix'><tr><th>group</th><th>case</th>",
        *(
            f"<th title='{_esc(row.name)}'>{letter(i)}<br><small>{_esc(row.expected)}</small></th>"
            for i, row in enumerate(m.rows)
        ),
        "<th>rejects</th><th>alone</th></tr>",
    ]
    chosen, idle, previous = set(m.cover.cases), set(m.idle), None
    for j, key in enumerate(m.cases):
        group, name = split(key)
        classes = [
            c
            for c, on in (("cover", j in chosen), ("idle", j in idle), ("newgroup", previous not in (None, group)))
            if on
        ]
        previous = group
        cells = "".join(_cell_html(m, i, j) for i in range(len(m.rows)))
        alone = " ".join(letter(i) for i in m.sole[j])
        out.append(
            f"<tr class='{' '.join(classes)}'><td>{_esc(group)}</td><th class='case'>{_esc(name)}</th>{cells}"
            f"<td class='c'>{len(m.catches(j))}</td><td>{_esc(alone)}</td></tr>"
        )
    out.append("</table><p>Made by <code>verify --matrix</code> of tilejudge.</p></body></html>\n")
    return "\n".join(out)
