"""Grading a folder of submissions: discover students, judge what is new or changed, store each result at once.

One student is a file (id = file name without extension) or a folder holding
exactly one source file (id = folder name); ``discovery.py`` accounts for
every other entry. Each submission is judged with the same limits and
verdict rules as ``judge``, in its own slot and sandbox, so one student's
program cannot touch another's result. A re-grade (``--rejudge``, ``--only``)
never deletes a stored result: each is replaced only when its new one is
stored, so a grading killed half-way leaves every student with a result.
"""

from __future__ import annotations

import hashlib
import json
import platform
import queue
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import ReadersWriterLock, kind_of
from ..core.testdata import MANIFEST
from ..errors import UsageError
from ..lang import BUILD_CACHE_VERSION
from ..model import Problem
from ..run import Isolation, SlotPool, launcher_digest
from ..text import safe_text
from .discovery import Student, discover
from .roster import MISSING, Roster, student_info
from .similarity import similar_pairs
from .starter import Handout
from .store import Entry, Key, Store
from .submissions import Results, invalid_report, judge_submission

GRADER_VERSION = "1"


def problem_hash(problem: Problem) -> str:
    """Changes whenever anything that decides a verdict changes: spec (limits, checker, groups), case data, checker
    code.

    Generated data is covered by its manifest's hashes; data a package gives
    (Kattis data/) by each file's path, size and modification time.
    """
    digest = hashlib.sha256()
    digest.update(problem.spec_path.read_bytes() if problem.spec_path.is_file() else b"")
    digest.update(repr(problem.limits).encode())
    manifest = problem.cases_dir / MANIFEST
    digest.update(manifest.read_bytes() if manifest.is_file() else b"")
    for case in problem.cases:
        for given in (case.given.input, case.given.answer) if case.given is not None else ():
            stat = given.stat()
            digest.update(f"{given}:{stat.st_size}:{stat.st_mtime_ns}".encode())
        digest.update(repr(case.checker_args).encode())
    if problem.checker.program is not None:
        digest.update(problem.checker.program.read_bytes())
    return digest.hexdigest()


def settings_hash(isolation: Isolation) -> str:
    """The judge's own settings and version: a new launcher or build recipe may change verdicts, so results are
    re-judged."""
    data = json.dumps(
        {"sandbox": isolation.mode, "grader": GRADER_VERSION, "build": BUILD_CACHE_VERSION.decode()}, sort_keys=True
    )
    return hashlib.sha256(data.encode() + launcher_digest().encode()).hexdigest()


@dataclass(frozen=True)
class GradeOptions:
    """What a grading is asked to do besides judging what is new: see ``grade --help``."""

    jobs: int = 1
    rejudge: bool = False
    only: tuple[str, ...] = ()
    all_cases: bool = False
    cluster: str | None = None
    roster: Roster = field(default_factory=Roster)
    handout: Handout = field(default_factory=Handout)


@dataclass
class GradeResult:
    judged: int = 0
    reused: int = 0
    students: int = 0
    ignored: list[tuple[str, str]] = field(default_factory=list)


def local_results(
    problem: Problem,
    students: list[Student],
    isolation: Isolation,
    jobs: int,
    all_cases: bool = False,
    hidden: Sequence[Path] = (),
) -> Results:
    """Judge on this machine, ``jobs`` submissions at a time, yielding each result as it completes. ``hidden``: the
    class's folders (every student's work, the store of results), hidden from every run as the problem's are."""
    if not students:
        return
    pools: queue.SimpleQueue[SlotPool] = queue.SimpleQueue()
    conceal = [*problem.folders, *hidden]
    created = [SlotPool(1, isolation, conceal=conceal) for _ in range(max(1, min(jobs, len(students))))]
    for pool in created:
        pools.put(pool)
    run_lock = ReadersWriterLock()

    def one(student: Student) -> dict[str, Any]:
        pool = pools.get()
        try:
            return judge_submission(problem, student, pool, run_lock, all_cases)
        finally:
            pools.put(pool)

    worker = platform.node()
    executor = ThreadPoolExecutor(max_workers=len(created))
    try:
        running: dict[Future[dict[str, Any]], Student] = {executor.submit(one, s): s for s in students}
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield running.pop(future).id, future.result(), worker
    finally:
        # Left early (Ctrl-C, an error): nothing queued starts and the runs in flight are killed now, not finished
        # within their limits; their students stay unjudged. After a complete pass there is nothing left to kill.
        for pool in created:
            pool.abort()
        executor.shutdown(wait=True, cancel_futures=True)
        for pool in created:
            pool.close()


def _missing_report(problem: Problem, student: Student) -> dict[str, Any]:
    return invalid_report(problem, student) | {"verdict": MISSING}


def grade(
    problem: Problem,
    folder: Path,
    store: Store,
    isolation: Isolation,
    options: GradeOptions = GradeOptions(),
    on_result: Callable[[str, dict[str, Any]], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> GradeResult:
    """Judge every student whose current key has no stored result (all with ``rejudge``, or those of ``only``);
    store each result as soon as it exists, then the similarity hints. ``on_start`` hears how many will be judged.

    The results come from this machine's thread pool or, with ``cluster``, from
    Dask workers; either way this process is the only writer of the store.
    """
    answers = kind_of(problem).answer_files
    if options.cluster is not None and answers:
        raise UsageError(
            "--cluster: a submit-answer problem is graded on this machine "
            "(workers are sent source files, not folders of answers)"
        )
    found = discover(folder, exclude=[store.path.parent], answers=answers)
    students = found.students
    known = {s.id for s in students}
    unknown = [sid for sid in options.only if sid not in known]
    if unknown:
        raise UsageError(
            f"--only: no student {', '.join(repr(safe_text(u, one_line=True)) for u in unknown)} in {folder}"
        )
    missing = [
        Student(sid, None, "no submission in the folder (the roster lists this student)")
        for sid in options.roster.lines
        if sid not in known
    ]
    everyone = students + missing
    p_hash, s_hash = problem_hash(problem), settings_hash(isolation)
    entries = [Entry(Key(s.id, p_hash, s.digest, s_hash), str(s.source or ""), s.error) for s in everyone]
    groups = [
        {"name": g.name, "points": g.points, "aggregation": g.aggregation, "cases": [c.name for c in g.cases]}
        for g in problem.groups
    ]
    meta = {
        "problem": str(problem.root),
        "problem_name": problem.name,
        "submissions": str(folder.resolve()),
        "ignored": json.dumps(found.ignored),
        "groups": json.dumps(groups),
    }
    store.set_current(entries, meta, {s.id: student_info(options.roster, s.id, s.source) for s in everyone})
    keys = {e.key.student: e.key for e in entries}
    if options.only:
        todo = [s for s in students if s.id in options.only]
    else:
        todo = [s for s in everyone if options.rejudge or not store.has(keys[s.id])]
    result = GradeResult(reused=len(everyone) - len(todo), students=len(everyone), ignored=found.ignored)
    if on_start:
        on_start(len(todo))
    absent = {s.id for s in missing}
    for student in [s for s in todo if s.id in absent]:
        report = _missing_report(problem, student)
        store.put(keys[student.id], report, "coordinator")
        result.judged += 1
        if on_result:
            on_result(student.id, report)
    todo = [s for s in todo if s.id not in absent]
    if options.cluster is not None:
        from .cluster import cluster_results  # Dask is imported only with --cluster

        results = cluster_results(problem, todo, isolation, options.cluster, options.all_cases)
    else:
        hidden = (folder.resolve(), store.path.parent.resolve())  # no student's program reads another's work
        results = local_results(problem, todo, isolation, options.jobs, options.all_cases, hidden)
    with closing(results):  # on Ctrl-C the runs in flight stop here, before the reports of what was stored are written
        for student_id, report, worker in results:
            store.put(keys[student_id], report, worker)
            result.judged += 1
            if on_result:
                on_result(student_id, report)
    store.set_meta("similarity", json.dumps(similar_pairs(students, handout=options.handout)))
    return result
