"""report.html's student × case matrix and per-student details, drawn by the page from one JSON blob.

Written as HTML, 5,000 students × 66 cases made a 38 MB page with 330,000
cells and 5,000 detail sections that a browser took long to open and longer
to filter. Here the page carries the data once, compactly (verdicts as
numbers, a case's tooltip built from its column's name, details only of
what failed), and the script draws only the rows in view (a spacer row
stands for those above and below) and the details of one page of students
at a time; a student's link opens theirs. Sorting and filtering work on the
data, not the DOM. The filter is kept in the address (``#verdict=WA&q=ann``),
so a filtered view can be bookmarked or sent; an address is the whole filter
(what it does not name is cleared, not kept from the view before).

Untrusted strings reach the blob through ``safe_text`` (controls made
visible), the blob's ``<``, ``>`` and ``&`` are written as JSON escapes so
nothing in it can end the script element, and the script escapes every
string it puts into HTML.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from ..text import safe_text
from .roster import late_text
from .view import Grading, Row, case_attachments

MAX_LOG, MAX_MESSAGE, MAX_TIP = 4000, 600, 100
MAX_ATTACHED_BYTES = 16 << 20  # of checker attachments embedded in one page, before base64
# a group's matrix cell from the group and the student's result in it: (sort value, colour, what the cell shows)
Subtotal = Callable[[dict[str, Any], "dict[str, Any] | None"], tuple[float, str, str]]
DETAILS_PAGE = 50  # students whose details are drawn at once

# The page's script, minified; a backslash at the end of a line below joins it to the next (the script holds no
# backslash of its own), so the page gets the same bytes while the source keeps to 120 columns.
SCRIPT = (
    """(function(){
var D=JSON.parse(document.getElementById('grades-data').textContent),V=D.verdicts,C=D.colours,G=D.groups,R=D.rows,"""
    f"PAGE={DETAILS_PAGE};"
    """
var t=document.getElementById('matrix'),body=t.tBodies[0],wrap=document.getElementById('wrap');
function e(s){return String(s).replace(/[&<>"']/g,function(c){return '&#'+c.charCodeAt(0)+';';});}
function att(a){if(!a[2])return '<p class="hint">'+e(a[0])+\
' (in the feedback folder: this page holds no more attachments)</p>';
return a[3]?'<img class="att" alt="'+e(a[0])+'" title="'+e(a[0])+'" src="'+e(a[2])+'">':'<a download="'+e(a[0])+\
'" href="'+e(a[2])+'">'+e(a[0])+'</a>';}
function badge(v){return '<span class="v" style="background:'+(C[v]||'#607d8b')+'">'+e(v)+'</span>';}
var cols=[];G.forEach(function(g,gi){g[2].forEach(function(n,ci){cols.push([gi,ci]);});cols.push([gi,-1]);});
var text=R.map(function(r){return (r[0]+' '+r[1]).toLowerCase();}),order=R.map(function(_,i){return i;\
}),shown=order.slice();
function key(i,k){var r=R[i];if(k===0)return r[0].toLowerCase();if(k===1)return r[1].toLowerCase();\
if(k===2)return r[3];if(k===3)return r[4];
var c=cols[k-4];if(c[1]<0)return r[6][c[0]][0];var x=r[7][c[0]][c[1]];return x?V[x[0]]+(1e6+x[1]):'';}
function cell(r,gi,ci){var x=r[7][gi][ci],n=G[gi][2][ci];\
if(!x)return '<td class="c g'+gi+'" style="background:'+(C[V[r[2]]]||'#eee')+'">·</td>';
var v=V[x[0]],tip=n+': '+v+' '+(x[1]/1000).toFixed(3)+'s'+(x[2]?' '+x[2]:'');
return '<td class="c g'+gi+'" style="background:'+(C[v]||'#607d8b')+'" title="'+e(tip)+'">'+(v==='SKIPPED'?'–':e(v))+\
'</td>';}
function row(i){var r=R[i],h='<tr class="r"><th><a class="stu" href="#s-'+e(encodeURIComponent(r[0]))+'">'+e(r[0])+\
'</a> '+badge(V[r[2]])+'</th><td>'+e(r[1])+'</td><td>'+r[3]+'</td><td class="late">'+e(r[5])+'</td>';
G.forEach(function(g,gi){for(var ci=0;ci<g[2].length;ci++)h+=cell(r,gi,ci);var s=r[6][gi];\
h+='<td class="s" style="background:'+s[1]+'">'+e(s[2])+'</td>';});return h+'</tr>';}
var height=24,drawn=-1;
function pad(n){return '<tr class="pad"><td colspan="999" style="height:'+(n*height)+'px"></td></tr>';}
function draw(force){var first=Math.max(0,Math.floor(wrap.scrollTop/height)-20),\
count=Math.ceil(Math.max(wrap.clientHeight,window.innerHeight)/height)+40;
if(!force&&first===drawn)return;drawn=first;var last=Math.min(shown.length,first+count),h=pad(first);
for(var i=first;i<last;i++)h+=row(shown[i]);body.innerHTML=h+pad(shown.length-last);
var one=body.querySelector('tr.r');if(one&&one.offsetHeight&&one.offsetHeight!==height){height=one.offsetHeight;\
draw(true);}}
var ticking=false;wrap.addEventListener('scroll',function(){if(!ticking){ticking=true;\
requestAnimationFrame(function(){ticking=false;draw(false);});}});
function fold(g,open){t.classList.toggle('o'+g,open);var h=t.querySelector('th.gh[data-g="'+g+'"]');\
h.colSpan=open?+h.dataset.n+1:1;h.classList.toggle('open',open);}
[].forEach.call(t.querySelectorAll('th.gh'),function(h){h.addEventListener('click',function(){fold(h.dataset.g,\
!t.classList.contains('o'+h.dataset.g));});});
var all=false;document.getElementById('unfold').addEventListener('click',function(){all=!all;\
[].forEach.call(t.querySelectorAll('th.gh'),function(h){fold(h.dataset.g,all);});\
this.textContent=all?'fold all groups':'unfold all groups';});
var sortKey=-1,dir=1;
[].forEach.call(t.querySelectorAll('th[data-k]'),function(h){h.addEventListener('click',\
function(ev){ev.stopPropagation();var k=+h.dataset.k;dir=sortKey===k?-dir:(h.dataset.num?-1:1);sortKey=k;
order.sort(function(a,b){var x=key(a,k),y=key(b,k);return (x<y?-1:x>y?1:a-b)*dir;});filter();});});
var q=document.getElementById('q'),vs=document.getElementById('verdict'),late=document.getElementById('late'),\
count=document.getElementById('shown'),page=0;
function filter(){var s=q.value.toLowerCase(),v=vs.value;\
shown=order.filter(function(i){return (!s||text[i].indexOf(s)>=0)&&(!v||V[R[i][2]]===v)&&(!late.checked||R[i][4]>=0);\
});
count.textContent=shown.length+' of '+R.length+' students shown';var f=[];\
if(s)f.push('q='+encodeURIComponent(q.value));if(v)f.push('verdict='+encodeURIComponent(v));\
if(late.checked)f.push('late=1');
if(history.replaceState&&location.hash.indexOf('#s-')!==0)history.replaceState(null,'',\
f.length?'#'+f.join('&'):location.pathname+location.search);
wrap.scrollTop=0;draw(true);page=0;details();}
function detail(i){var r=R[i],d=r[8],h='<details id="s-'+e(r[0])+'"><summary>'+badge(V[r[2]])+' <b>'+e(r[0])+'</b>'+\
(r[1]?' ('+e(r[1])+')':'')+' — score '+r[3]+'/'+d.m+', '+e(d.l||'')+(r[5]?' — <b>'+e(r[5])+'</b>':'')+'</summary>';
if(d.e)h+='<p class="error">'+e(d.e)+'</p>';if(d.c!==undefined)h+='<h4>Compiler output</h4><pre>'+e(d.c)+'</pre>';\
if(d.j)h+='<p class="error">'+e(d.j)+'</p>';
if(d.g)h+='<table><tr><th>group</th><th>points</th><th>passed</th></tr>'+d.g.map(function(g){return '<tr><td>'+e(g[0])+\
'</td><td>'+g[1]+'/'+g[2]+'</td><td>'+g[3]+'/'+g[4]+(g[5]?', '+g[5]+' not run (the group was already lost)':'')+\
'</td></tr>';}).join('')+'</table>';
if(d.f&&d.f.length)h+\
='<table><tr><th>failed case</th><th>verdict</th><th>time</th><th>memory</th><th>message</th></tr>'+\
d.f.map(function(c){return '<tr><td>'+e(c[0])+'</td><td>'+badge(V[c[1]])+'</td><td>'+c[2].toFixed(3)+' s</td><td>'+\
(c[3]/1024).toFixed(1)+' MiB</td><td><pre>'+e(c[4])+'</pre>'+(c[5]||[]).map(att).join('')+\
(c[6]!==undefined?'<p>the program printed:</p><pre>'+(e(c[6])||'(nothing)')+'</pre>':'')+'</td></tr>';\
}).join('')+'</table>';
return h+'</details>';}
var list=document.getElementById('students'),pager=document.getElementById('pager');
function details(){var pages=Math.max(1,Math.ceil(shown.length/PAGE));page=Math.min(page,pages-1);\
var from=page*PAGE,to=Math.min(shown.length,from+PAGE);
list.innerHTML=shown.slice(from,to).map(detail).join('');\
pager.textContent=shown.length?'students '+(from+1)+'–'+to+' of '+shown.length+\
' (as filtered above)':'no student matches the filter';
document.getElementById('prev').disabled=page===0;document.getElementById('next').disabled=page>=pages-1;}
document.getElementById('prev').addEventListener('click',function(){page--;details();});\
document.getElementById('next').addEventListener('click',function(){page++;details();});
function open(id){var at=shown.findIndex(function(i){return R[i][0]===id;});if(at<0){q.value='';vs.value='';\
late.checked=false;filter();at=shown.findIndex(function(i){return R[i][0]===id;});}
if(at<0)return;page=Math.floor(at/PAGE);details();var el=document.getElementById('s-'+id);if(el){el.open=true;\
el.scrollIntoView();}}
t.addEventListener('click',function(ev){var a=ev.target.closest('a.stu');if(!a)return;ev.preventDefault();\
var id=dec(a.getAttribute('href').slice(3));history.pushState&&history.pushState(null,'','#s-'+encodeURIComponent(id));\
open(id);});
function dec(s){try{return decodeURIComponent(s);}catch(x){return s;}}
function fromHash(){var h=location.hash.slice(1);if(h.indexOf('s-')===0){open(dec(h.slice(2)));return;}
q.value='';vs.value='';late.checked=false;
h.split('&').forEach(function(p){var kv=p.split('='),v=dec(kv[1]||'');if(kv[0]==='q')q.value=v;\
if(kv[0]==='verdict')vs.value=v;if(kv[0]==='late')late.checked=v==='1';});filter();}
q.addEventListener('input',filter);vs.addEventListener('change',filter);late.addEventListener('change',filter);\
window.addEventListener('hashchange',fromHash);
if(location.hash.indexOf('#s-')===0)filter();fromHash();
})();"""
)


def _case_names(grading: Grading) -> dict[str, list[str]]:
    names = {g["name"]: list(g.get("cases") or []) for g in grading.groups}
    # results folders written before the groups' cases were recorded: take them from the reports
    for row in grading.rows:
        for c in row.cases:
            known = names.setdefault(c["group"], [])
            if c["name"] not in known:
                known.append(c["name"])
    return names


def _cell(case: dict[str, Any] | None, code: Callable[[str], int]) -> list[Any] | None:
    """A case as [verdict, milliseconds] and, when it failed, the start of its message (the tooltip); None when not
    run."""
    if case is None:
        return None
    cell = [code(case["verdict"]), round(case["time"] * 1000)]
    return (
        cell + [safe_text(case["message"][:MAX_TIP], one_line=True)]
        if case["verdict"] != "AC" and case["message"]
        else cell
    )


class _Budget:
    """What the page may still embed of the checkers' attachments: a class whose every failed case carries a picture
    would otherwise make a page no browser opens; past the budget a file is named, and it stays in the feedback
    folder."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def embed(self, case: dict[str, Any]) -> list[list[Any]]:
        """[name, media type, data URL or "" when over budget, is a picture] for each file attached to ``case``."""
        out: list[list[Any]] = []
        for item in case_attachments(case):
            url = ""
            if len(item.data) <= self.left:
                self.left -= len(item.data)
                url = f"data:{item.media_type};base64,{base64.b64encode(item.data).decode('ascii')}"
            out.append([item.name, item.media_type, url, item.is_image])
        return out


def _printed(case: dict[str, Any]) -> list[str]:
    """A failed sample case's output (the report keeps one for samples alone), as long as a message may be; none for
    any other case."""
    output = case.get("output")
    if not output:
        return []
    text = output.get("text") or ""
    cut = output.get("cut") or len(text) > MAX_MESSAGE
    return [safe_text(text[:MAX_MESSAGE]) + ("\n…" if cut else "")]


def _details(row: Row, code: Callable[[str], int], budget: _Budget) -> dict[str, Any]:
    report = row.report or {}
    out: dict[str, Any] = {"l": safe_text(report.get("language", "")), "m": report.get("max_score", 0)}
    if row.entry.error:
        out["e"] = safe_text(row.entry.error)
    if row.verdict == "CE":
        out["c"] = safe_text(report.get("compile", {}).get("log", "")[:MAX_LOG])
    if row.verdict == "JE" and report.get("message"):
        out["j"] = safe_text(report["message"])
    if report.get("groups") and row.cases:
        # a case left unrun (its all-or-nothing group was already lost) is counted apart: "passed 0/5" alone read as
        # five failed cases where one failed and four were never run (the feedback file says so too)
        unrun = [c["group"] for c in row.cases if c["verdict"] == "SKIPPED"]
        out["g"] = [
            [safe_text(g["name"]), g["earned"], g["points"], g["passed"], g["total"], unrun.count(g["name"])]
            for g in report["groups"]
        ]
    failed = [c for c in row.cases if c["verdict"] not in ("AC", "SKIPPED")]
    if failed:
        out["f"] = [
            [
                safe_text(f"{c['group']}/{c['name']}"),
                code(c["verdict"]),
                c["time"],
                c["memory_kb"],
                safe_text(c["message"][:MAX_MESSAGE]),
                budget.embed(c),
                *_printed(c),
            ]
            for c in failed
        ]
    return out


def blob(grading: Grading, colours: dict[str, str], subtotal: Subtotal) -> str:
    """The page's data as JSON that cannot end its script element."""
    verdicts: dict[str, int] = {}

    def code(verdict: str) -> int:
        return verdicts.setdefault(verdict, len(verdicts))

    names = _case_names(grading)
    budget = _Budget(MAX_ATTACHED_BYTES)
    rows = []
    for row in grading.rows:
        by_key = {(c["group"], c["name"]): c for c in row.cases}
        mine = row.groups
        late = row.info.get("late_minutes")
        cells = [[_cell(by_key.get((g["name"], n)), code) for n in names.get(g["name"], [])] for g in grading.groups]
        subtotals = [list(subtotal(g, mine.get(g["name"]))) for g in grading.groups]
        rows.append(
            [
                safe_text(row.id, one_line=True),
                safe_text(row.info.get("name", ""), one_line=True),
                code(row.verdict),
                row.score,
                late if late is not None else -1,
                late_text(late),
                subtotals,
                cells,
                _details(row, code, budget),
            ]
        )
    data = {
        "verdicts": list(verdicts),
        "colours": colours,
        "groups": [
            [safe_text(g["name"]), g["points"], [safe_text(n) for n in names.get(g["name"], [])]]
            for g in grading.groups
        ],
        "rows": rows,
    }
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def section(
    grading: Grading, colours: dict[str, str], subtotal: Subtotal, esc: Callable[[Any], str]
) -> tuple[list[str], list[str]]:
    """The matrix (its header written here, its rows by the script) and the students' details: (matrix, details)
    parts."""
    names = _case_names(grading)
    top = [
        "<th rowspan='2' data-k='0'>student</th><th rowspan='2' data-k='1'>name</th>",
        "<th rowspan='2' data-k='2' data-num='1'>score</th><th rowspan='2' data-k='3' data-num='1'>late</th>",
    ]
    second: list[str] = []
    column = 4
    for i, group in enumerate(grading.groups):
        cases = names.get(group["name"], [])
        top.append(
            f"<th class='gh' data-g='{i}' data-n='{len(cases)}' title='click: show the cases'>"
            f"{esc(group['name'])} ({group['points']:g})</th>"
        )
        for name in cases:
            second.append(
                f"<th class='c g{i}' data-k='{column}' title='{esc(group['name'] + '/' + name)}'>"
                f"<span>{esc(name)}</span></th>"
            )
            column += 1
        second.append(f"<th data-k='{column}' data-num='1' title='points earned in {esc(group['name'])}'>Σ</th>")
        column += 1
    matrix = [
        "<h2>Student × case</h2><div class='tools'><input id='q' placeholder='filter: id or name' size='24'>",
        "<select id='verdict'><option value=''>every verdict</option>"
        + "".join(f"<option>{esc(v)}</option>" for v in sorted({r.verdict for r in grading.rows}))
        + "</select>",
        "<label><input type='checkbox' id='late'> late only</label> "
        "<button id='unfold' type='button'>unfold all groups</button>",
        "<span id='shown' class='hint'></span></div>",
        "<p class='hint'>Groups are folded: the cell is the points earned; click a group to see its cases, "
        "a column title to sort, a student to see their details. The filter is kept in the page's address.</p>",
        "<style>"
        + "".join(f"#matrix.o{i} .g{i}{{display:table-cell}}" for i in range(len(grading.groups)))
        + "</style>",
        "<div id='wrap'><table id='matrix'><thead><tr class='groups'>",
        *top,
        "</tr><tr class='cases'>",
        *second,
        "</tr></thead><tbody></tbody></table></div>",
    ]
    details = [
        "<h2>Students</h2><div class='tools'><button id='prev' type='button'>previous</button>"
        "<button id='next' type='button'>next</button>",
        "<span id='pager' class='hint'></span></div><div id='students'></div>",
        f"<script type='application/json' id='grades-data'>{blob(grading, colours, subtotal)}</script>",
    ]
    return matrix, details
