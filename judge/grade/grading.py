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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..core import ReadersWriterLock
from ..core.testdata import MANIFEST
from ..lang import BUILD_CACHE_VERSION
from ..problem import Problem
from ..run import Isolation, SlotPool, launcher_digest
from .store import Entry, Key, Store
from .submissions import Results, Student, discover, judge_submission

GRADER_VERSION = "1"


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
        for given in ((case.given.input, case.given.answer) if case.given is not None else ()):
            stat = given.stat()
            digest.update(f"{given}:{stat.st_size}:{stat.st_mtime_ns}".encode())
        digest.update(repr(case.checker_args).encode())
    if problem.checker.program is not None:
        digest.update(problem.checker.program.read_bytes())
    return digest.hexdigest()


def settings_hash(isolation: Isolation) -> str:
    """The judge's own settings and version: a new launcher or build recipe may change verdicts, so results are re-judged."""
    data = json.dumps({"sandbox": isolation.mode, "grader": GRADER_VERSION, "build": BUILD_CACHE_VERSION.decode()}, sort_keys=True)
    return hashlib.sha256(data.encode() + launcher_digest().encode()).hexdigest()


def submission_hash(path: Path) -> str:
    return hashlib.sha256(path.suffix.lower().encode() + b"\0" + path.read_bytes()).hexdigest()


@dataclass
class GradeResult:
    judged: int = 0
    reused: int = 0


def local_results(problem: Problem, students: list[Student], isolation: Isolation, jobs: int) -> Results:
    """Judge on this machine, ``jobs`` submissions at a time, yielding each result as it completes."""
    if not students:
        return
    pools: queue.SimpleQueue[SlotPool] = queue.SimpleQueue()
    created = [SlotPool(1, isolation, conceal=problem.folders) for _ in range(max(1, min(jobs, len(students))))]
    for pool in created:
        pools.put(pool)
    run_lock = ReadersWriterLock()

    def one(student: Student) -> dict[str, Any]:
        pool = pools.get()
        try:
            return judge_submission(problem, student, pool, run_lock)
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
        from .cluster import cluster_results  # Dask is imported only with --cluster

        results = cluster_results(problem, todo, isolation, cluster)
    else:
        results = local_results(problem, todo, isolation, jobs)
    for student, report, worker in results:
        store.put(keys[student], report, worker)
        result.judged += 1
        if on_result:
            on_result(student, report)
    return result
