"""Time-limit inference: a package without a time limit gets one the Kattis way, by judging its accepted submissions.

This is judging, so it lives in core, not in the format reader: the Kattis
reader only says how to infer (``time_rule``) and which submissions count.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..errors import SetupError, UsageError
from ..lang import prepare_program
from .additions import additions
from ..problem import Problem
from ..problem.formats.kattis import submissions, time_rule
from ..run import SlotPool
from ..verdict import Verdict
from .judging import JudgeOptions, judge


def infer_time_limit(problem: Problem, pool: SlotPool, log: Callable[[str], None]) -> Problem:
    """The Kattis way: slowest accepted run × ac_to_time_limit, rounded up to the time resolution."""
    if problem.limits.time > 0 or problem.kind.submit_answer:  # answers are never run: no time limit to find
        return problem
    rule = time_rule(problem.root)
    provisional = replace(problem, limits=replace(problem.limits, time=60.0))
    accepted = [s for s in submissions(problem) if s.folder == "accepted" and s.source is not None]
    if not accepted:
        raise UsageError(f"{problem.root}: no time limit given and no accepted submission to infer it from")
    slowest, who = 0.0, ""
    for sub in accepted:
        try:
            program = prepare_program(sub.source, None, pool, problem.limits.compile_time, extra=additions(problem, sub.source))
        except SetupError as exc:  # a language this machine lacks: the others still give a limit
            log(f"{sub.path.name}: skipped while inferring the time limit: {exc}")
            continue
        report = judge(provisional, program, pool, JudgeOptions())
        if report.verdict is not Verdict.AC:
            raise UsageError(f"{sub.path}: accepted submission gets {report.verdict.value} while inferring the time limit")
        time = max((c.time for c in report.cases), default=0.0)
        if time >= slowest:
            slowest, who = time, sub.path.name
    if not who:
        raise UsageError(f"{problem.root}: no time limit given and no accepted submission could be run to infer it")
    limit = rule.limit_for(slowest)
    log(f"time limit inferred the Kattis way: slowest accepted {slowest:.3f} s ({who}) × {rule.ac_to_time_limit:g}, "
        f"rounded up to {rule.resolution:g} s → {limit:g} s")
    return replace(problem, limits=replace(problem.limits, time=limit))



