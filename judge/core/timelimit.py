"""Time-limit inference: a package without a time limit gets one by judging the submissions that bound it from below.

This is judging, so it lives in core, not in the format reader; it knows
only the model: the loader puts the rule (``Limits.time_rule``) into it, and
the caller says which submissions count. Which ones those are and where a
limit is stored for later runs is the format's business, asked by
``judge.tools.kattis_time``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from ..errors import SetupError, UsageError
from ..model import Problem
from ..run import SlotPool
from ..verdict import Verdict
from .judging import JudgeOptions, JudgeReport, judge
from .phases import measured
from .submission import prepare_submission

PROVISIONAL_LIMIT = 60.0  # what the accepted submissions are judged at while their runs measure the limit


class LowerBound(Protocol):
    """A submission whose slowest accepted run bounds the limit from below: where it is, what to build, what to call
    it."""

    @property
    def path(self) -> Path: ...

    @property
    def source(self) -> Path | None: ...

    @property
    def name(self) -> str: ...


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


@measured(lambda problem, *_, **__: f"time-limit inference of {problem.name}")
def infer(
    problem: Problem, accepted: Sequence[LowerBound], digest: str, pool: SlotPool, log: Callable[[str], None]
) -> Inference:
    """Slowest accepted run × the rule's ``ac_to_time_limit``, rounded up to its resolution (``digest``: what it depends
    on)."""
    rule = problem.limits.time_rule
    if rule is None:
        raise UsageError(f"{problem.root}: no time limit given, and its format has no rule to infer one with")
    found = Inference(0.0, 0.0, "", digest)
    if not accepted:
        found.failures.append("no time limit given and no accepted submission to infer it from")
    for sub, source in ((s, s.source) for s in accepted):
        if source is None:  # a folder with no one source to build bounds nothing
            continue
        try:
            program = prepare_submission(problem, source, pool)
        except SetupError as exc:  # a language this machine lacks: the others still give a limit
            log(f"{sub.path.name}: skipped while inferring the time limit: {exc}")
            continue
        report = judge(problem, program, pool, JudgeOptions(time=PROVISIONAL_LIMIT))
        if report.verdict is not Verdict.AC:
            found.failures.append(
                f"{sub.name}: gets {report.verdict.value} while inferring the time limit: not used for it"
            )
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
    log(
        f"time limit inferred the Kattis way: slowest accepted {found.slowest:.3f} s ({found.who}) "
        f"× {rule.ac_to_time_limit:g}, rounded up to {rule.resolution:g} s → {found.limit:g} s"
    )
    return found


def with_limit(problem: Problem, limit: float) -> Problem:
    """The problem with its own time limit found (inferred, or stored by verify): the package's limit from now on, not
    a different limit for some runs, which ``JudgeOptions.time`` gives."""
    return replace(problem, limits=replace(problem.limits, time=limit))
