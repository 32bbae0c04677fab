"""What local and cluster grading share: how one student is judged, and the reports of those that cannot be.

Both ``grading.py`` (the thread pool on this machine) and ``cluster.py`` (Dask
workers) import this module, and neither imports the other's internals, so
there is no import circle between them.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..core import CaseResult, JudgeOptions, JudgeReport, ReadersWriterLock, group_results, judge
from ..core.submission import prepare_submission
from ..errors import JudgeError
from ..lang import Language
from ..model import Problem
from ..run import SlotPool
from ..verdict import Verdict
from .discovery import Student

INVALID = "INVALID"
Results = Generator[
    tuple[str, dict[str, Any], str], None, None
]  # (student id, report, the worker that judged it); closed early on Ctrl-C


def invalid_report(problem: Problem, student: Student) -> dict[str, Any]:
    """What a student without a judgeable submission gets: no cases, score 0, the reason as the message."""
    return {
        "verdict": INVALID,
        "score": 0.0,
        "max_score": problem.max_score,
        "problem": problem.name,
        "submission": "",
        "language": "",
        "compile": {"ok": False, "log": student.error or "", "error": student.error or ""},
        "groups": [g.__dict__ for g in group_results(problem.groups, [])],
        "cases": [],
    }


def judge_error_report(problem: Problem, student: Student, reason: str) -> dict[str, Any]:
    """A per-student judge error (a missing compiler, a broken checker): never a crash of the whole grading."""
    report = JudgeReport(
        problem.name,
        str(student.source),
        "",
        False,
        reason,
        groups=group_results(problem.groups, []),
        verdict=Verdict.JE,
        max_score=problem.max_score,
    )
    return report.to_json() | {"message": reason}


@contextmanager
def _plain_named(source: Path) -> Iterator[Path]:
    """The source under a name any compiler, runtime and the launcher's line protocol take: itself when its name is
    plain (or it is a folder of answers, which only the judge reads), else a copy named ``main`` with its extension
    (a student's file name may hold a newline or an escape)."""
    if source.is_dir() or re.fullmatch(r"[A-Za-z0-9_.+-]+", source.name):
        yield source
        return
    with tempfile.TemporaryDirectory(prefix="submission-") as folder:
        copy = Path(folder) / f"main{source.suffix.lower()}"
        shutil.copyfile(source, copy)
        yield copy


def judge_submission(
    problem: Problem,
    student: Student,
    pool: SlotPool,
    run_lock: ReadersWriterLock,
    all_cases: bool = False,
    lang: Language | None = None,
    on_built: Callable[[], None] | None = None,
    on_case: Callable[[CaseResult], None] | None = None,
) -> dict[str, Any]:
    """One student's full report; what goes wrong is that student's JE or INVALID, never the whole grading's.

    Unless ``all_cases``, the cases of an all-or-nothing group already lost are skipped: the score is the same.
    ``lang`` overrides detection (the service is told the language); ``on_built`` is called once the program is
    built and ``on_case`` as each case is decided, for a service's progress.
    """
    if student.source is None:
        return invalid_report(problem, student)
    try:
        with run_lock.shared(), _plain_named(student.source) as source:
            program = prepare_submission(problem, source, pool, lang)
        if on_built is not None:
            on_built()
        # every case's exchange with an interactor is in the report, and staff see it on the service's pages
        options = JudgeOptions(run_lock=run_lock, skip_lost=not all_cases, transcripts=True)
        return judge(problem, program, pool, options, on_case).to_json()
    except JudgeError as exc:
        return judge_error_report(problem, student, str(exc))
