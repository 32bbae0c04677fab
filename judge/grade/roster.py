"""The optional roster: students' names, per-student deadlines and submission times, and who handed in late.

A teacher's roster is a CSV file with a header row: ``id`` (the student id
as grading finds it: file name without extension, or folder name) and any of
``name``, ``deadline`` (overrides ``--deadline`` for that student, e.g. an
extension), ``submitted`` (the time an LMS recorded; without it, the
submission's file modification time is used, which a copy or an unzip may
have changed, hence the column) and ``starter`` (code handed out to that
student, e.g. a section's own template: files separated by ``;``, relative
to the roster's folder; it never counts as similarity). Times are ISO 8601 (``2025-03-01 23:59``,
local time unless an offset is given). Students on the roster with no
submission are reported as MISSING, so nobody is lost on either side.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..errors import UsageError
from ..text import safe_text

MISSING = "MISSING"


@dataclass(frozen=True)
class RosterLine:
    name: str = ""
    deadline: datetime | None = None
    submitted: datetime | None = None
    starter: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Roster:
    lines: dict[str, RosterLine] = field(default_factory=dict)
    deadline: datetime | None = None  # --deadline: everyone's, unless their line says otherwise


def parse_time(text: str, where: str) -> datetime:
    """An ISO 8601 time as an aware datetime (local time zone when none is given); a bad one is a usage error naming
    ``where``."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"{where}: '{safe_text(text, one_line=True)}' is not a time (write e.g. 2025-03-01 23:59)"
        ) from None
    return moment if moment.tzinfo is not None else moment.astimezone()


def load_roster(path: Path | None, deadline: str | None) -> Roster:
    """Read ``--roster`` (optional) and ``--deadline`` (optional); every fault is one line naming the file and line."""
    default = parse_time(deadline, "--deadline") if deadline else None
    if path is None:
        return Roster({}, default)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the roster ({getattr(exc, 'strerror', None) or exc})") from None
    rows = list(csv.reader(text.splitlines()))
    if not rows:
        raise UsageError(f"{path}: the roster is empty (it needs a header row with an 'id' column)")
    header = [h.strip().lower() for h in rows[0]]
    if "id" not in header:
        raise UsageError(f"{path}:1: the roster's header has no 'id' column (it has: {', '.join(header) or 'nothing'})")
    column = {name: header.index(name) for name in ("id", "name", "deadline", "submitted", "starter") if name in header}
    lines: dict[str, RosterLine] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        given = {name: row[at].strip() for name, at in column.items() if at < len(row)}
        sid = safe_text(given.get("id", ""), one_line=True)
        if not sid:
            raise UsageError(f"{path}:{number}: no id on this line")
        if sid in lines:
            raise UsageError(f"{path}:{number}: the id '{sid}' is on the roster twice")
        where = f"{path}:{number}"
        lines[sid] = RosterLine(
            name=safe_text(given.get("name", ""), one_line=True),
            deadline=parse_time(given["deadline"], where) if given.get("deadline") else None,
            submitted=parse_time(given["submitted"], where) if given.get("submitted") else None,
            starter=tuple(path.parent / part.strip() for part in given.get("starter", "").split(";") if part.strip()),
        )
    return Roster(lines, default)


def submitted_at(source: Path | None) -> datetime | None:
    """When a submission was handed in, as far as the file says: its modification time."""
    if source is None:
        return None
    try:
        return datetime.fromtimestamp(os.lstat(source).st_mtime).astimezone()
    except OSError:
        return None


def student_info(roster: Roster, sid: str, source: Path | None) -> dict[str, object]:
    """What the reports show of a student beside the verdict: name, times, whether late (and by how many minutes)."""
    line = roster.lines.get(sid, RosterLine())
    submitted = line.submitted or submitted_at(source)
    deadline = line.deadline or roster.deadline
    late = (
        round((submitted - deadline).total_seconds() / 60, 1)
        if submitted and deadline and submitted > deadline
        else None
    )
    return {
        "name": line.name,
        "submitted": submitted.isoformat(timespec="seconds") if submitted else "",
        "deadline": deadline.isoformat(timespec="seconds") if deadline else "",
        "late_minutes": late,
        "on_roster": sid in roster.lines if roster.lines else None,
    }


def late_text(minutes: float | None) -> str:
    """``late 2 h 13 min`` or an empty string."""
    if minutes is None:
        return ""
    days, rest = divmod(int(minutes), 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [
        f"{days} d" if days else "",
        f"{hours} h" if hours else "",
        f"{mins} min" if mins or not (days or hours) else "",
    ]
    return "late " + " ".join(p for p in parts if p)
