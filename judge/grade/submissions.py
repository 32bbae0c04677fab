"""What local and cluster grading share: students, how one submission is judged, and the reports of those that cannot be.

Both ``grading.py`` (the thread pool on this machine) and ``cluster.py`` (Dask
workers) import this module, and neither imports the other's internals, so
there is no import circle between them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ..core import JudgeOptions, JudgeReport, ReadersWriterLock, judge
from ..errors import JudgeError, UsageError
from ..lang import detect, is_source, prepare_program
from ..problem import Problem
from ..run import SlotPool
from ..verdict import Verdict

INVALID = "INVALID"
Results = Iterator[tuple[str, dict[str, Any], str]]  # (student id, report, the worker that judged it)


@dataclass(frozen=True)
class Student:
    id: str
    source: Path | None
    error: str | None = None


def discover(folder: Path) -> list[Student]:
    """Every student in the folder; a folder with no or several candidate sources is reported, not guessed."""
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder of submissions")
    students: dict[str, Student] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            candidates = sorted(p for p in entry.rglob("*") if is_source(p))
            if len(candidates) == 1:
                student = Student(entry.name, candidates[0])
            elif not candidates:
                student = Student(entry.name, None, "no source file of a supported language in the folder")
            else:
                names = ", ".join(str(p.relative_to(entry)) for p in candidates[:5])
                student = Student(entry.name, None, f"several candidate source files: {names}")
        elif is_source(entry):
            student = Student(entry.stem, entry)
        else:
            continue
        if student.id in students:
            student = Student(student.id, None, f"two submissions share the id '{student.id}'")
        students[student.id] = student
    return list(students.values())


def invalid_report(problem: Problem, student: Student) -> dict[str, Any]:
    """What a student without a judgeable submission gets: no cases, score 0, the reason as the message."""
    return {
        "verdict": INVALID, "score": 0.0, "max_score": problem.max_score, "problem": problem.name,
        "submission": "", "language": "", "compile": {"ok": False, "log": student.error or ""}, "groups": [], "cases": [],
    }


def judge_error_report(problem: Problem, student: Student, reason: str) -> dict[str, Any]:
    """A per-student judge error (a missing compiler, a broken checker): never a crash of the whole grading."""
    report = JudgeReport(problem.name, str(student.source), "", False, reason, verdict=Verdict.JE, max_score=problem.max_score)
    return report.to_json() | {"message": reason}


def judge_submission(problem: Problem, student: Student, pool: SlotPool, run_lock: ReadersWriterLock) -> dict[str, Any]:
    """One student's full report; what goes wrong is that student's JE or INVALID, never the whole grading's."""
    if student.source is None:
        return invalid_report(problem, student)
    try:
        with run_lock.shared():
            program = prepare_program(student.source, detect(student.source), pool, problem.limits.compile_time)
        return judge(problem, program, pool, JudgeOptions(run_lock=run_lock)).to_json()
    except JudgeError as exc:
        return judge_error_report(problem, student, str(exc))


Results = Iterator[tuple[str, dict[str, Any], str]]  # (student id, report, the worker that judged it)
