"""The run-and-aggregate loop: one program against every case of a problem.

Cases run in parallel, one slot each. Parallel runs disturb each other's
timing, so any case that ends TLE or close to the limit is run again alone
before its verdict stands; a verdict never depends on what ran beside it.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..check import Checker, make_checker
from ..lang import Program, build_or_fail
from ..problem import CaseSpec, Problem, answer_path, input_path
from ..run import RunSpec, Slot, SlotPool, read_head
from ..text import safe_text
from ..verdict import Verdict
from .limits import classify, run_limits
from .rwlock import ReadersWriterLock
from .verdicts import CaseResult, GroupResult, group_results, overall_verdict

NEAR_LIMIT = 0.8
WORKING_SHARE = 0.1
STDERR_KEEP = 2048


@dataclass(frozen=True)
class JudgeOptions:
    first_fail: bool = False
    run_lock: ReadersWriterLock | None = None  # shared with other judgings running at the same time


@dataclass
class JudgeReport:
    problem: str
    submission: str
    language: str
    compile_ok: bool
    compile_log: str
    cases: list[CaseResult] = field(default_factory=list)
    groups: list[GroupResult] = field(default_factory=list)
    verdict: Verdict = Verdict.AC
    score: float = 0.0
    max_score: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "score": self.score,
            "max_score": self.max_score,
            "problem": self.problem,
            "submission": self.submission,
            "language": self.language,
            "compile": {"ok": self.compile_ok, "log": self.compile_log},
            "groups": [g.__dict__ for g in self.groups],
            "cases": [c.to_json() for c in self.cases],
        }


def run_case(problem: Problem, program: Program, case: CaseSpec, checker: Checker, slot: Slot) -> CaseResult:
    """Run one case of the problem's test data in a slot and check it."""
    return run_on(problem, program, input_path(problem, case), answer_path(problem, case), checker, slot, case.name, case.group, case.checker_args)


def run_on(
    problem: Problem, program: Program, inp: Path, ans: Path, checker: Checker, slot: Slot, name: str, group: str,
    checker_args: Sequence[str] = (),
) -> CaseResult:
    """Run the program on any input under the problem's limits and check it against ``ans``."""
    limits = run_limits(problem, program.language)
    out, err = slot.private / "stdout", slot.private / "stderr"
    result = slot.run_untrusted(RunSpec(argv=program.command(problem.limits.memory_mib), limits=limits, stdin=inp, stdout=out, stderr=err), program.binds)
    stderr_head = read_head(err, STDERR_KEEP).encode()
    base = dict(
        name=name, group=group, time=result.cpu, wall_time=result.wall, memory_kb=result.memory_kb,
        exit_code=result.exit_code, signal=result.signal_name,
    )
    written = max((f.stat().st_size for f in (out, err) if f.exists()), default=0)
    early = classify(result, limits, problem.limits.memory_mib, written, stderr_head, program.language)
    if early is not None:
        verdict, message = early
        if stderr_head.strip():
            message += " | stderr: " + safe_text(stderr_head.decode("utf-8", "replace").strip()[-400:])
        return CaseResult(verdict=verdict, message=message, **base)
    outcome = checker.check(inp, out, ans, slot, checker_args)
    return CaseResult(verdict=outcome.verdict, message=outcome.message, score=outcome.fraction, **base)


class _Stop:
    """Shared first-failure index for ``--first-fail``: cases after it need not run."""

    def __init__(self) -> None:
        self.index: int | None = None
        self._lock = threading.Lock()

    def failed_at(self, index: int) -> None:
        with self._lock:
            self.index = index if self.index is None else min(self.index, index)

    def skip(self, index: int) -> bool:
        return self.index is not None and index > self.index


def judge(
    problem: Problem, program: Program, pool: SlotPool, options: JudgeOptions = JudgeOptions(),
    on_case: Callable[[CaseResult], None] | None = None,
) -> JudgeReport:
    """Judge ``program`` on every case (cases must exist already); returns the full report."""
    report = JudgeReport(
        problem=problem.name, submission=program.display, language=program.language.name,
        compile_ok=program.compiled, compile_log=program.compile_log, max_score=problem.max_score,
    )
    if not program.compiled:
        report.verdict = Verdict.CE
        report.groups = group_results(problem.groups, [])
        return report
    checker = problem_checker(problem, pool)
    cases = problem.cases
    results: dict[int, CaseResult] = {}
    pending = list(range(len(cases)))
    limit = problem.limits.time_for(program.language.name)
    run_lock = options.run_lock or ReadersWriterLock()
    concurrent = pool.size > 1 or options.run_lock is not None
    while pending:
        stop = _Stop()

        def task(index: int) -> None:
            if options.first_fail and stop.skip(index):
                return
            with run_lock.shared(), pool.slot() as slot:
                result = run_case(problem, program, cases[index], checker, slot)
            results[index] = result
            if result.verdict is not Verdict.AC:
                stop.failed_at(index)
            if on_case is not None:
                on_case(result)

        with ThreadPoolExecutor(max_workers=pool.size) as executor:
            list(executor.map(task, pending))
        if concurrent:
            for index in sorted(i for i in pending if i in results and _suspicious(results[i], limit)):
                with run_lock.exclusive(), pool.slot() as slot:
                    results[index] = run_case(problem, program, cases[index], checker, slot)
        first_failure = next((i for i in sorted(results) if results[i].verdict is not Verdict.AC), None)
        pending = [i for i in range(len(cases)) if i not in results and (not options.first_fail or first_failure is None or i < first_failure)]
    ordered = [results[i] for i in sorted(results)]
    if options.first_fail:
        cut = next((n for n, r in enumerate(ordered) if r.verdict is not Verdict.AC), len(ordered) - 1)
        ordered = ordered[:cut + 1]
    report.cases = ordered
    report.groups = group_results(problem.groups, ordered)
    report.verdict = overall_verdict(ordered)
    report.score = round(sum(g.earned for g in report.groups), 6)
    return report


def _suspicious(result: CaseResult, limit: float) -> bool:
    """Worth a re-run alone: close to the CPU limit, or stopped by the wall clock while really computing.

    A program stopped by the wall clock after using almost no CPU was
    sleeping or blocked; load beside it cannot explain that, so it is not re-run.
    """
    if result.time >= NEAR_LIMIT * limit:
        return True
    return result.verdict is Verdict.TLE and result.time >= WORKING_SHARE * limit


def problem_checker(problem: Problem, pool: SlotPool) -> Checker:
    """The problem's checker, with a custom checker program built first."""
    program = None
    if problem.checker.program is not None:
        program = build_or_fail(problem.checker.program, pool, problem.limits.compile_time, "checker")
    return make_checker(problem.checker, program, problem.limits.time)
