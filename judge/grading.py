"""Grading a folder of submissions: discover students, judge what is new or changed, store each result at once.

One student is a file (id = file name without extension) or a folder holding
exactly one source file (id = folder name). Each submission is judged with
the same limits and verdict rules as ``judge``, in its own slot and sandbox,
so one student's program cannot touch another's result.
"""
from __future__ import annotations

import hashlib
import json
import platform
import queue
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .errors import JudgeError, UsageError
from .run import LAUNCHER_SOURCE, SlotPool
from .judging import JudgeOptions, JudgeReport, Quiet, judge
from .languages import BUILD_CACHE_VERSION, LANGUAGES, detect, prepare_program
from .run import Isolation
from .spec import Problem
from .store import Entry, Key, Store
from .testdata import MANIFEST
from .verdicts import Verdict

GRADER_VERSION = "1"
INVALID = "INVALID"


@dataclass(frozen=True)
class Student:
    id: str
    source: Path | None
    error: str | None = None


def _is_source(path: Path) -> bool:
    return path.is_file() and any(path.suffix.lower() in lang.extensions for lang in LANGUAGES.values() if lang.extensions)


def discover(folder: Path) -> list[Student]:
    """Every student in the folder; a folder with no or several candidate sources is reported, not guessed."""
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder of submissions")
    students: dict[str, Student] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            candidates = sorted(p for p in entry.rglob("*") if _is_source(p))
            if len(candidates) == 1:
                student = Student(entry.name, candidates[0])
            elif not candidates:
                student = Student(entry.name, None, "no source file of a supported language in the folder")
            else:
                names = ", ".join(str(p.relative_to(entry)) for p in candidates[:5])
                student = Student(entry.name, None, f"several candidate source files: {names}")
        elif _is_source(entry):
            student = Student(entry.stem, entry)
        else:
            continue
        if student.id in students:
            student = Student(student.id, None, f"two submissions share the id '{student.id}'")
        students[student.id] = student
    return list(students.values())


def problem_hash(problem: Problem) -> str:
    """Changes whenever anything that decides a verdict changes: spec (limits, checker, groups), case data, checker code.

    Generated data is covered by its manifest's hashes; data a package gives
    (Kattis data/) by each file's path, size and modification time.
    """
    digest = hashlib.sha256()
    digest.update(problem.spec_path.read_bytes() if problem.spec_path.is_file() else b"")
    digest.update(repr(problem.limits).encode())
    manifest = problem.cases_dir / MANIFEST
    digest.update(manifest.read_bytes() if manifest.is_file() else b"")
    for case in problem.cases:
        for given in (case.input_file, case.answer_file):
            if given is not None:
                stat = given.stat()
                digest.update(f"{given}:{stat.st_size}:{stat.st_mtime_ns}".encode())
        digest.update(repr(case.checker_args).encode())
    if problem.checker.program is not None:
        digest.update(problem.checker.program.read_bytes())
    return digest.hexdigest()


def settings_hash(isolation: Isolation) -> str:
    """The judge's own settings and version: a new launcher or build recipe may change verdicts, so results are re-judged."""
    data = json.dumps({"sandbox": isolation.mode, "grader": GRADER_VERSION, "build": BUILD_CACHE_VERSION.decode()}, sort_keys=True)
    return hashlib.sha256(data.encode() + LAUNCHER_SOURCE.read_bytes()).hexdigest()


def submission_hash(path: Path) -> str:
    return hashlib.sha256(path.suffix.lower().encode() + b"\0" + path.read_bytes()).hexdigest()


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


@dataclass
class GradeResult:
    judged: int = 0
    reused: int = 0
    counts: dict[str, int] = field(default_factory=dict)


def judge_submission(problem: Problem, student: Student, pool: SlotPool, quiet: Quiet) -> dict[str, Any]:
    """One student's full report; what goes wrong is that student's JE or INVALID, never the whole grading's."""
    if student.source is None:
        return invalid_report(problem, student)
    try:
        with quiet.shared():
            program = prepare_program(student.source, detect(student.source), pool, problem.limits.compile_time)
        return judge(problem, program, pool, JudgeOptions(quiet=quiet)).to_json()
    except JudgeError as exc:
        return judge_error_report(problem, student, str(exc))


Results = Iterator[tuple[str, dict[str, Any], str]]  # (student id, report, the worker that judged it)


def local_results(problem: Problem, students: list[Student], isolation: Isolation, jobs: int) -> Results:
    """Judge on this machine, ``jobs`` submissions at a time, yielding each result as it completes."""
    if not students:
        return
    pools: queue.SimpleQueue[SlotPool] = queue.SimpleQueue()
    created = [SlotPool(1, isolation) for _ in range(max(1, min(jobs, len(students))))]
    for pool in created:
        pools.put(pool)
    quiet = Quiet()

    def one(student: Student) -> dict[str, Any]:
        pool = pools.get()
        try:
            return judge_submission(problem, student, pool, quiet)
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
        # On Ctrl-C nothing queued starts; what is in flight finishes within its limits and is dropped.
        executor.shutdown(wait=True, cancel_futures=True)
        for pool in created:
            pool.close()


def grade(
    problem: Problem, folder: Path, store: Store, isolation: Isolation, jobs: int, rejudge: bool,
    on_result: Callable[[str, dict[str, Any]], None] | None = None, cluster: str | None = None,
) -> GradeResult:
    """Judge every student whose current key has no stored result; store each result as soon as it exists.

    The results come from this machine's thread pool or, with ``cluster``, from
    Dask workers; either way this process is the only writer of the store.
    """
    students = discover(folder)
    p_hash, s_hash = problem_hash(problem), settings_hash(isolation)
    entries = [
        Entry(Key(s.id, p_hash, submission_hash(s.source) if s.source else "", s_hash), str(s.source or ""), s.error)
        for s in students
    ]
    store.set_current(entries, {"problem": str(problem.root), "submissions": str(folder.resolve())})
    if rejudge:
        store.forget([e.key for e in entries])
    keys = {e.key.student: e.key for e in entries}
    todo = [s for s in students if not store.has(keys[s.id])]
    result = GradeResult(reused=len(entries) - len(todo))
    if cluster is not None:
        from .cluster import cluster_results

        results = cluster_results(problem, todo, isolation, cluster)
    else:
        results = local_results(problem, todo, isolation, jobs)
    for student, report, worker in results:
        store.put(keys[student], report, worker)
        result.judged += 1
        result.counts[report["verdict"]] = result.counts.get(report["verdict"], 0) + 1
        if on_result:
            on_result(student, report)
    return result
