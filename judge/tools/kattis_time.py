"""A Kattis package's time limit outside the core: which submissions bound it, where it is stored, the margin to the
TLE ones.

The core infers a limit from the model alone (``core/timelimit.py``); this
module tells it which submissions count (``lower_bounds``) and keeps the
result in the package's side-car file with a digest of what it was inferred
from, so that ``judge`` uses the stored limit while that digest still holds.

The format asks ``T_ac × ac_to_time_limit <= limit`` (how the limit is
inferred) and ``limit × time_limit_to_tle <= T_tle``: a submission that must
time out still does so with that much more time, or the limit is too close
to it for the verdict to be trusted on another machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..atomic import atomic_write
from ..core import JudgeOptions, JudgeReport, judge, kind_of
from ..core.timelimit import Inference, infer, with_limit
from ..errors import UsageError
from ..lang import Program
from ..model import Problem
from ..problem.formats import kattis
from ..problem.formats.kattis_submissions import SIDE_CAR, KattisSubmission, StoredLimit, stored_limit, stored_text
from ..run import SlotPool
from ..verdict import Verdict

Predicate = Callable[[JudgeReport], bool]

FALLBACK_LIMIT = 1.0  # what the rest is judged at when no accepted submission gives a limit (BAPCtools' default too)


def inferred_once(problem: Problem, pool: SlotPool, log: Callable[[str], None]) -> tuple[Problem, Inference]:
    """Infer the limit from the accepted submissions and store it next to the package for ``judge``.

    A limit is stored only when every accepted submission passed: one
    inferred from some of them would outlive the fix of the others. Without
    any limit, the rest is still judged, at ``FALLBACK_LIMIT``, so that verify
    reports everything at once; ``found.failures`` says why.
    """
    found = _infer(problem, pool, log)
    if not found.who:
        if any(s.source is not None and s.bounds_time() != "lower" for s in kattis.submissions(problem)):
            found.failures.append(f"the other submissions are judged at a provisional {FALLBACK_LIMIT:g} s")
        return with_limit(problem, FALLBACK_LIMIT), found
    if found.failures:
        log(f"time limit {found.limit:g} s not stored: an accepted submission failed")
        return with_limit(problem, found.limit), found
    path = store(problem, found)
    log(
        f"time limit {found.limit:g} s stored in {path.name} "
        "(judge uses it until the data or accepted submissions change)"
    )
    return with_limit(problem, found.limit), found


def unruled(problem: Problem) -> list[str]:
    """Submissions no folder default and no submissions.yaml entry says anything about: not judged, and said so."""
    return [
        f"{s.name}: no rule for folder {s.folder}/ and no submissions.yaml entry: not judged"
        for s in kattis.submissions(problem)
        if not s.rules
    ]


def margin_wanted(problem: Problem, sub: KattisSubmission | None, all_cases: bool) -> float:
    """``JudgeOptions.margin`` for judging ``sub``: limit × time_limit_to_tle where the longer limit will be asked
    about, so that one run per case answers both (``core/two_limits.py``): ``check_tle_margin`` of a submission that
    must time out, and ``with_extra_time`` of one that no timed-out case lets meet its promise (a rule over every case
    that does not permit TLE; never with ``all_cases``, which does not ask). A submission that may time out (a
    partially accepted one, brute_force/, rejected/) is judged at the limit alone: its timed-out cases would run on
    for nothing."""
    if problem.package_format != "kattis" or sub is None:
        return 1.0
    forbids = any(not r.scope and r.permitted is not None and "TLE" not in r.permitted for r in sub.rules)
    if sub.bounds_time() == "upper" or forbids and not all_cases:
        return kattis.time_rule(problem.root).time_limit_to_tle
    return 1.0


def check_tle_margin(problem: Problem, path: Path, program: Program, pool: SlotPool, report: JudgeReport) -> list[str]:
    """A submission that bounds the limit from above must still time out at limit × time_limit_to_tle.

    Only the cases that may show it are judged at the longer limit: those that timed out at the limit and those not
    judged there (judging stopped at the first failure). A case that ended under the limit ends under the longer one
    too. Of those, a case whose run went on to the longer limit (``JudgeOptions.margin``: ``report.longer``) is not
    run again: running each timed-out case twice cost limit + limit × margin of CPU time, where problemtools runs each
    once, at the longer limit."""
    sub = next((s for s in kattis.submissions(problem) if s.path == path), None)
    if sub is None or sub.bounds_time() != "upper":
        return []
    rule = kattis.time_rule(problem.root)
    margin = rule.time_limit_to_tle
    ended = {(c.group, c.name) for c in report.cases if c.verdict not in (Verdict.TLE, Verdict.SKIPPED)}
    left = [(g, tuple(c for c in g.cases if (c.group, c.name) not in ended)) for g in problem.groups]
    kept = {g.name for g, cases in left if cases}  # a group left without cases has nothing to aggregate: dropped
    groups = tuple(
        replace(g, cases=cases, require_pass=tuple(r for r in g.require_pass if r in kept))
        for g, cases in left
        if cases
    )
    longer = problem.limits.time * margin
    options = JudgeOptions(first_fail=True, known=report.longer, time=longer)
    again = judge(replace(problem, groups=groups), program, pool, options).cases if groups else []
    if any(c.verdict is Verdict.TLE for c in again):
        return []
    slowest = max((c.time for c in [*again, *report.cases]), default=0.0)
    return [
        f"{sub.name}: no case times out at {problem.limits.time:g} s × {rule.tle_key} {margin:g} "
        f"= {longer:g} s "
        f"(slowest {slowest:.3f} s): the time limit is too close to this submission"
    ]


def with_extra_time(
    name: str,
    problem: Problem,
    program: Program,
    pool: SlotPool,
    options: JudgeOptions,
    report: JudgeReport,
    meets: Predicate,
) -> tuple[JudgeReport, list[str]]:
    """A submission its folder does not describe at the limit, but does at limit × the safety margin, stands, with a
    warning: problemtools judges every submission at both limits and calls this "OK with extra time" (and the
    submission "sensitive to time limit"), so a wrong answer that also runs right up to the limit is not held against
    the package. Only a report with a timed-out case is judged again, since nothing else changes with more time, and
    then only its cases that did not run on to the longer limit already (``report.longer``)."""
    if meets(report) or not any(c.verdict is Verdict.TLE for c in report.cases):
        return report, []
    rule = kattis.time_rule(problem.root)
    longer = problem.limits.time * rule.time_limit_to_tle
    again = judge(problem, program, pool, replace(options, margin=1.0, known=report.longer, time=longer))
    if not meets(again):
        return report, []
    return again, [
        f"{name}: {again.verdict.value} as its folder says only at {problem.limits.time:g} s × "
        f"{rule.tle_key} {rule.time_limit_to_tle:g} = {longer:g} s ({report.verdict.value} at "
        f"{problem.limits.time:g} s): sensitive to the time limit"
    ]


def lower_bounds(problem: Problem) -> list[KattisSubmission]:
    """The submissions that bound the limit from below: accepted ones, unless ``use_for_time_limit`` says otherwise."""
    return [s for s in kattis.submissions(problem) if s.source is not None and s.bounds_time() == "lower"]


def limit_digest(problem: Problem, subs: list[KattisSubmission]) -> str:
    """What the inferred limit depends on: problem.yaml, the test data and the submissions that bound it."""
    digest = hashlib.sha256()
    files = [problem.root / "problem.yaml", *sorted(p for p in (problem.root / "data").rglob("*") if p.is_file())]
    for sub in subs:
        files += sorted(p for p in sub.path.rglob("*") if p.is_file()) if sub.path.is_dir() else [sub.path]
    for file in files:
        if file.is_file():
            digest.update(
                file.relative_to(problem.root).as_posix().encode() + b"\0" + hashlib.sha256(file.read_bytes()).digest()
            )
    return digest.hexdigest()[:16]


def _infer(problem: Problem, pool: SlotPool, log: Callable[[str], None]) -> Inference:
    accepted = lower_bounds(problem)
    return infer(problem, accepted, limit_digest(problem, accepted), pool, log)


def store(problem: Problem, found: Inference) -> Path:
    """Write the inferred limit into the side-car file (its other keys kept), for ``judge`` to reuse."""
    path = problem.root / SIDE_CAR
    stored = StoredLimit(
        found.limit, found.digest, {"slowest_accepted": round(found.slowest, 4), "submission": found.who}
    )
    try:
        atomic_write(path, stored_text(problem.root, stored))
    except OSError as exc:
        raise UsageError(f"{path}: cannot store the inferred time limit: {exc.strerror}") from exc
    return path


def infer_time_limit(problem: Problem, pool: SlotPool, log: Callable[[str], None]) -> Problem:
    """The limit verify stored when it still matches the package, else inferred now (and not stored: verify does
    that)."""
    if problem.limits.time > 0 or not kind_of(problem).needs_time_limit:  # answers are never run: no time limit to find
        return problem
    stored = stored_limit(problem.root)
    if stored is not None:
        if stored.digest == limit_digest(problem, lower_bounds(problem)):
            log(f"time limit {stored.limit:g} s stored by verify in {SIDE_CAR} (not inferred again)")
            return with_limit(problem, stored.limit)
        log(f"the time limit stored in {SIDE_CAR} is stale (the data or accepted submissions changed): inferring again")
    found = _infer(problem, pool, log)
    if not found.who:
        raise UsageError(f"{problem.root}: {found.failures[-1]}")
    log(
        f"not stored: 'verify {problem.root.name}' would store it in {SIDE_CAR}, "
        "so that judging does not infer it again"
    )
    return with_limit(problem, found.limit)
