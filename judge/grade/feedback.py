"""One Markdown file per student, ready to hand back: verdict per group, the first failing case, the compiler output.

Markdown because it pastes into any LMS comment box and reads as plain text
too. The files a checker attached to that case (a picture of the wrong
answer) are saved beside it in ``<id>.files/`` and linked by their cleaned
names. Everything a program or a student wrote (messages, compiler logs, ids)
goes into code spans or fenced blocks only, with fences longer than any run
of backticks inside, so it can never become a link, an image or markup.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path
from typing import Any

from ..atomic import atomic_write
from ..text import safe_text
from ..verdict import Verdict
from .roster import late_text
from .view import Grading, Row, case_attachments

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def file_name(student: str) -> str:
    """A file name for any student id: the id itself when it is plain, else a cleaned one with a short hash (unique)."""
    clean = _UNSAFE.sub("_", student).lstrip(".")[:80] or "student"
    if clean != student:
        clean += "-" + hashlib.sha256(student.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return clean + ".md"


def _span(text: str) -> str:
    """Untrusted text as one inline code span (table cells: pipes escaped)."""
    text = safe_text(text, one_line=True).replace("|", "\\|")
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{ticks} {text} {ticks}" if text else ""


def _block(text: str) -> str:
    text = safe_text(text)
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence}text\n{text}\n{fence}"


def _meaning(verdict: str) -> str:
    try:
        return Verdict(verdict).meaning
    except ValueError:
        return verdict.lower()


def _group_line(group: dict[str, Any], cases: list[dict[str, Any]]) -> str:
    mine = [c for c in cases if c["group"] == group["name"]]
    failing = next((c for c in mine if c["verdict"] not in ("AC", "SKIPPED")), None)
    skipped = sum(1 for c in mine if c["verdict"] == "SKIPPED")
    if not mine:
        result = "not run"
    elif failing is None:
        result = f"AC ({group['passed']}/{group['total']} cases)"
    else:
        result = f"{failing['verdict']} on {_span(failing['name'])}" + (
            f", {skipped} later case(s) not run" if skipped else ""
        )
    return f"| {_span(group['name'])} | {group['earned']:g} / {group['points']:g} | {result} |"


def feedback(row: Row, problem: str) -> str:
    """The Markdown for one student."""
    report = row.report or {}
    name = row.info.get("name", "")
    out = [f"# {problem}: feedback for {_span(row.id)}" + (f" ({_span(name)})" if name else ""), ""]
    out.append(
        f"**Verdict: {row.verdict}** ({_meaning(row.verdict)}), "
        f"score **{row.score:g} / {report.get('max_score', 0):g}**"
    )
    if row.info.get("submitted"):
        late = late_text(row.info.get("late_minutes"))
        out.append(
            f"\nSubmitted {row.info['submitted']}"
            + (f" — **{late}** (deadline {row.info.get('deadline')})" if late else "")
        )
    if row.entry.error:
        out += ["", "## Why it was not judged", "", _block(row.entry.error)]
    groups = report.get("groups", [])
    if groups and row.cases:
        out += ["", "## Groups", "", "| group | points | result |", "|---|---|---|"]
        out += [_group_line(group, row.cases) for group in groups]
    failing = row.first_failure
    if failing is not None:
        out += [
            "",
            "## First failing case",
            "",
            f"{_span(failing['group'] + '/' + failing['name'])}: **{failing['verdict']}** "
            f"({_meaning(failing['verdict'])}), {failing['time']:.3f} s CPU, {failing['memory_kb'] / 1024:.1f} MiB",
            "",
        ]
        out.append(_block(failing["message"] or "(no message)"))
        folder = files_folder(row.id)
        for item in case_attachments(failing):
            out.append(f"\n{'!' if item.is_image else ''}[{item.name}]({folder}/{item.name})")
    log = report.get("compile", {}).get("log", "")
    if log and not row.entry.error:
        out += ["", "## Compiler output", "", _block(log)]
    return "\n".join(out) + "\n"


def files_folder(student: str) -> str:
    """The folder beside a student's Markdown holding the files attached to the first failing case."""
    return file_name(student)[: -len(".md")] + ".files"


def write_feedback(grading: Grading, folder: Path) -> Path:
    """``feedback/<id>.md`` (and ``<id>.files/``) for every student of the grading; files of students no longer in
    it are removed, so the folder is exactly this class."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {file_name(row.id): row for row in grading.rows}
    for name, row in wanted.items():
        atomic_write(folder / name, feedback(row, grading.problem))
        _write_files(folder / files_folder(row.id), row)
    kept = set(wanted) | {files_folder(row.id) for row in grading.rows}
    for old in [*folder.glob("*.md"), *folder.glob("*.files")]:
        if old.name in kept:
            continue
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old)
        else:
            old.unlink(missing_ok=True)
    return folder


def _write_files(target: Path, row: Row) -> None:
    """The first failing case's attachments, replacing what an earlier grading left there."""
    shutil.rmtree(target, ignore_errors=True)
    failing = row.first_failure
    attached = case_attachments(failing) if failing is not None else []
    if attached:
        target.mkdir()
        for item in attached:
            atomic_write(target / item.name, item.data)
