"""Time-limit inference: a package without a time limit gets one the Kattis way, by judging its accepted submissions.

This is judging, so it lives in core, not in the format reader: the Kattis
reader only says how to infer (``time_rule``) and which submissions count.
verify infers and stores the limit in the package's side-car file with a
digest of what it was inferred from; ``judge`` then uses the stored limit as
long as that digest still holds, so the limit is the same on every run.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from ..atomic import atomic_write
from ..errors import SetupError, UsageError
from ..model import Problem
from ..problem.formats.kattis import SIDE_CAR, submissions, time_rule
from ..problem.formats.kattis_submissions import KattisSubmission, StoredLimit, stored_limit, stored_text
from ..run import SlotPool
from ..verdict import Verdict
from .judging import JudgeOptions, JudgeReport, judge
from .kinds import kind_of
from .submission import prepare_submission


@dataclass
class Inference:
    """An inferred limit, whom it came from, the accepted runs it measured (judged under a 60 s limit) and what failed.

    A failing accepted submission is a finding, not an abort: the limit comes
    from the others, and verify reports the failure beside everything else.
    ``who`` is empty when no accepted submission could give a limit.
    """

    limit: float
    slowest: float
    who: str
    digest: str
    reports: dict[Path, JudgeReport] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def lower_bounds(problem: Problem) -> list[KattisSubmission]:
    """The submissions that bound the limit from below: accepted ones, unless ``use_for_time_limit`` says otherwise."""
    return [s for s in submissions(problem) if s.source is not None and s.bounds_time() == "lower"]


def limit_digest(problem: Problem, subs: list[KattisSubmission]) -> str:
    """What the inferred limit depends on: problem.yaml, the test data and the submissions that bound it."""
    digest = hashlib.sha256()
    files = [problem.root / "problem.yaml", *sorted(p for p in (problem.root / "data").rglob("*") if p.is_file())]
    for sub in subs:
        files += sorted(p for p in sub.path.rglob("*") if p.is_file()) if sub.path.is_dir() else [sub.path]
    for file in files:
        if file.is_file():
            digest.update(file.relative_to(problem.root).as_posix().encode() + b"\0" + hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()[:16]


def infer(problem: Problem, pool: SlotPool, log: Callable[[str], None]) -> Inference:
    """The Kattis way: slowest accepted run × ac_to_time_limit, rounded up to the time resolution."""
    rule = time_rule(problem.root)
    provisional = replace(problem, limits=replace(problem.limits, time=60.0))
    accepted = lower_bounds(problem)
    found = Inference(0.0, 0.0, "", limit_digest(problem, accepted))
    if not accepted:
        found.failures.append("no time limit given and no accepted submission to infer it from")
    for sub in accepted:
        try:
            program = prepare_submission(problem, sub.source, pool)
        except SetupError as exc:  # a language this machine lacks: the others still give a limit
            log(f"{sub.path.name}: skipped while inferring the time limit: {exc}")
            continue
        report = judge(provisional, program, pool, JudgeOptions())
        if report.verdict is not Verdict.AC:
            found.failures.append(f"{sub.name}: gets {report.verdict.value} while inferring the time limit: not used for it")
            log(found.failures[-1])
            continue
        found.reports[sub.path] = report
        time = max((c.time for c in report.cases), default=0.0)
        if time >= found.slowest:
            found.slowest, found.who = time, sub.path.name
    if not found.who:
        if accepted:
            found.failures.append("no time limit given and no accepted submission could be run to infer it")
        return found
    found.limit = rule.limit_for(found.slowest)
    log(f"time limit inferred the Kattis way: slowest accepted {found.slowest:.3f} s ({found.who}) × {rule.ac_to_time_limit:g}, "
        f"rounded up to {rule.resolution:g} s → {found.limit:g} s")
    return found


def store(problem: Problem, found: Inference) -> Path:
    """Write the inferred limit into the side-car file (its other keys kept), for ``judge`` to reuse."""
    path = problem.root / SIDE_CAR
    stored = StoredLimit(found.limit, found.digest, {"slowest_accepted": round(found.slowest, 4), "submission": found.who})
    try:
        atomic_write(path, stored_text(problem.root, stored))
    except OSError as exc:
        raise UsageError(f"{path}: cannot store the inferred time limit: {exc.strerror}") from exc
    return path


def with_limit(problem: Problem, limit: float) -> Problem:
    return replace(problem, limits=replace(problem.limits, time=limit))


def infer_time_limit(problem: Problem, pool: SlotPool, log: Callable[[str], None]) -> Problem:
    """The limit verify stored when it still matches the package, else inferred now (and not stored: verify does that)."""
    if problem.limits.time > 0 or not kind_of(problem).needs_time_limit:  # answers are never run: no time limit to find
        return problem
    stored = stored_limit(problem.root)
    if stored is not None:
        if stored.digest == limit_digest(problem, lower_bounds(problem)):
            log(f"time limit {stored.limit:g} s stored by verify in {SIDE_CAR} (not inferred again)")
            return with_limit(problem, stored.limit)
        log(f"the time limit stored in {SIDE_CAR} is stale (the data or accepted submissions changed): inferring again")
    found = infer(problem, pool, log)
    if not found.who:
        raise UsageError(f"{problem.root}: {found.failures[-1]}")
    log(f"not stored: 'verify {problem.root.name}' would store it in {SIDE_CAR}, so that judging does not infer it again")
    return with_limit(problem, found.limit)
