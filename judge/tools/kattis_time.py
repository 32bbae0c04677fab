"""verify's side of a Kattis package's time limit: infer it once and store it, and check the margin to the TLE submissions.

The format asks ``T_ac × ac_to_time_limit <= limit`` (how the limit is
inferred) and ``limit × time_limit_to_tle <= T_tle``: a submission that must
time out still does so with that much more time, or the limit is too close
to it for the verdict to be trusted on another machine.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..core import JudgeOptions, judge
from ..core.timelimit import Inference, infer, store, with_limit
from ..lang import Program
from ..model import Problem
from ..problem.formats import kattis
from ..run import SlotPool
from ..verdict import Verdict


FALLBACK_LIMIT = 1.0  # what the rest is judged at when no accepted submission gives a limit (BAPCtools' default too)


def inferred_once(problem: Problem, pool: SlotPool, log: Callable[[str], None]) -> tuple[Problem, Inference]:
    """Infer the limit from the accepted submissions and store it next to the package for ``judge``.

    A limit is stored only when every accepted submission passed: one
    inferred from some of them would outlive the fix of the others. Without
    any limit, the rest is still judged, at ``FALLBACK_LIMIT``, so that verify
    reports everything at once; ``found.failures`` says why.
    """
    found = infer(problem, pool, log)
    if not found.who:
        found.failures.append(f"the other submissions are judged at a provisional {FALLBACK_LIMIT:g} s")
        return with_limit(problem, FALLBACK_LIMIT), found
    if found.failures:
        log(f"time limit {found.limit:g} s not stored: an accepted submission failed")
        return with_limit(problem, found.limit), found
    path = store(problem, found)
    log(f"time limit {found.limit:g} s stored in {path.name} (judge uses it until the data or accepted submissions change)")
    return with_limit(problem, found.limit), found


def unruled(problem: Problem) -> list[str]:
    """Submissions no folder default and no submissions.yaml entry says anything about: not judged, and said so."""
    return [f"{s.name}: no rule for folder {s.folder}/ and no submissions.yaml entry: not judged" for s in kattis.submissions(problem) if not s.rules]


def check_tle_margin(problem: Problem, path: Path, program: Program, pool: SlotPool) -> list[str]:
    """A submission that bounds the limit from above must still time out at limit × time_limit_to_tle."""
    sub = next((s for s in kattis.submissions(problem) if s.path == path), None)
    if sub is None or sub.bounds_time() != "upper":
        return []
    margin = kattis.time_rule(problem.root).time_limit_to_tle
    longer = with_limit(problem, problem.limits.time * margin)
    report = judge(longer, program, pool, JudgeOptions(first_fail=True))
    if any(c.verdict is Verdict.TLE for c in report.cases):
        return []
    slowest = max((c.time for c in report.cases), default=0.0)
    return [f"{sub.name}: no case times out at {problem.limits.time:g} s × time_limit_to_tle {margin:g} = {longer.limits.time:g} s "
            f"(slowest {slowest:.3f} s): the time limit is too close to this submission"]
