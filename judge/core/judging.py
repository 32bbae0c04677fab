"""The run-and-aggregate loop: one program against every case of a problem.

Cases run in parallel, one slot each. Parallel runs disturb each other's timing, so any case that ends TLE or close
to the limit is run again alone before its verdict stands; a verdict never depends on what ran beside it. Under
parallel load a run may go on to ``OVERRUN`` times its CPU limit before it is stopped: stopped there, it is over the
limit by far more than load explains, so it needs no re-run (the re-runs, holding every other run of the machine
off, were most of the cost of grading a class with slow solutions). A wall-clock TLE of a program that was computing
is confirmed by a run alone at every ``-j`` (``reruns.py``: the machine's own load can starve it too). A grading may
also skip the cases of an all-or-nothing group that is already lost: they cannot change the score. A run in flight
beside a case that made it unwanted (a first failure, a decided group) is killed then (``case_order.InFlight``), and
a result that cannot count is never confirmed alone (``decided.counts``). At ``-j 1`` the runs stay one at a time,
but the next case's run waits in the launcher while the current one runs (``case_order.queued_pass``), so the
judge's own work on a case is done while the next one runs rather than between the two. verify's judging of a Kattis
submission runs each case once for two limits (``two_limits.py``), and one case at a time where its verdict is its
first failure's (``JudgeOptions.one_at_a_time``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..check import make_checker
from ..errors import Cancelled
from ..lang import Program, build_or_fail
from ..model import CaseSpec, Problem, answer_path, input_path
from ..run import Slot, SlotPool
from ..verdict import Verdict
from .added_to_build import added_to_build
from .case_order import InFlight, each, queued_pass
from .case_run import CaseRun, Referee
from .decided import Decided, InOrder, counts, skipped
from .kinds import ProblemKind, kind_of
from .legacy_grading import Graded, grade, program_grader
from .phases import hearing, measured, named, phase
from .reruns import OVERRUN, confirmed, disturbed, machine_load, starved, wall_allowance
from .run_limits import Role, RunBudget, judge_side_limits, submission_limits
from .rwlock import ReadersWriterLock
from .same_runs import SameRuns
from .score_rules import group_results, score
from .two_limits import TwoLimits
from .verdicts import CaseResult, GroupResult, overall_verdict


@dataclass(frozen=True)
class JudgeOptions:
    first_fail: bool = False
    run_lock: ReadersWriterLock | None = None  # shared with other judgings running at the same time
    # judge, grading, verify: a case whose group's result is already decided is not run (SKIPPED), as problemtools
    # stops; off for the test-strength matrix and `--all-cases`, which want every case's verdict
    skip_lost: bool = False
    # verify of a Kattis package: each run goes on to limit × margin, judged at the limit and kept there too
    # (JudgeReport.longer, two_limits.py); known: results at this limit measured so (by case key), not run again
    margin: float = 1.0
    known: Mapping[str, CaseResult] = field(default_factory=dict)
    # judge and grading show every case's exchange with an interactor (the relay keeps it); verify and time-limit
    # inference show none, so only sample cases (whose exchange is the contestant's) go through the relay there
    transcripts: bool = False
    # the base time limit judged at instead of the problem's (time-limit inference's provisional limit, verify's look
    # at limit × margin): every run's limits are built from it (``run_limits.py``), the problem is never rebuilt
    time: float | None = None
    # one case at a time, each run stopped at its limit: verify's submissions whose verdict is their first failure's,
    # which a run beside it cannot change (beside a TLE it cost up to 1.5x the limit, then the TLE a run alone)
    one_at_a_time: bool = False


@dataclass
class JudgeReport:
    problem: str
    submission: str
    language: str
    compile_ok: bool
    compile_log: str
    compile_error: str = ""  # the log's line that names the error, for one-line messages
    cases: list[CaseResult] = field(default_factory=list)
    groups: list[GroupResult] = field(default_factory=list)
    verdict: Verdict = Verdict.AC
    score: float = 0.0
    max_score: float = 0.0
    longer: dict[str, CaseResult] = field(default_factory=dict)  # with JudgeOptions.margin: results at the longer limit
    graded: Graded | None = None  # a legacy scoring package: the verdict and score its graders give (legacy_grading.py)

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "score": self.score,
            "max_score": self.max_score,
            "problem": self.problem,
            "submission": self.submission,
            "language": self.language,
            "compile": {"ok": self.compile_ok, "log": self.compile_log, "error": self.compile_error},
            "groups": [g.__dict__ for g in self.groups],
            "cases": [c.to_json() for c in self.cases],
            "graded": self.graded.to_json() if self.graded is not None else None,
        }


def run_case(
    problem: Problem,
    program: Program,
    case: CaseSpec,
    referee: Referee,
    slot: Slot,
    limits: RunBudget | None = None,
    kind: ProblemKind | None = None,
    transcript: bool = False,
) -> CaseResult:
    """Run one case of the problem's test data in a slot and check it, the way the problem's kind (``kind_of``) says,
    under ``limits`` (the submission's on the problem when not given); ``transcript``: keep an interactive case's
    exchange even when it is no sample (``CaseRun.transcript``)."""
    limits = limits if limits is not None else submission_limits(problem, program.language)
    return (kind or kind_of(problem)).run_case(
        _case_run(problem, program, case, referee, slot, limits, transcript=transcript)
    )


def _case_run(
    problem: Problem,
    program: Program,
    case: CaseSpec,
    referee: Referee,
    slot: Slot,
    limits: RunBudget,
    lane: int = 0,
    transcript: bool = False,
) -> CaseRun:
    return CaseRun(
        problem,
        program,
        referee,
        slot,
        input_path(problem, case),
        answer_path(problem, case),
        case.name,
        case.group,
        limits,
        case.checker_args,
        case.is_sample,
        lane,
        transcript or case.is_sample,
    )


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


@measured(lambda problem, program, *_, **__: f"judging {named(program.display)}")
def judge(
    problem: Problem,
    program: Program,
    pool: SlotPool,
    options: JudgeOptions = JudgeOptions(),
    on_case: Callable[[CaseResult], None] | None = None,
) -> JudgeReport:
    """Judge ``program`` on every case (cases must exist already); returns the full report.

    ``on_case`` hears each case's result once, in the cases' order, with the result the report keeps: a case as soon
    as it and every case before it are final (a run that will be re-run alone is heard after its re-run), a case whose
    group an earlier one decided as SKIPPED in its turn (``decided.InOrder``), from the thread whose result let it be
    heard: the CLI shows rows as they come. On Ctrl-C during a pass, the runs
    in flight are killed at once (``SlotPool.abort``, as a grading does) before KeyboardInterrupt goes on up, and the
    pool is spent; a re-run alone is the calling thread's own run, stopped when the caller closes the pool.
    """
    report = JudgeReport(
        problem=problem.name,
        submission=program.display,
        language=program.language.name,
        compile_ok=program.compiled,
        compile_log=program.compile_log,
        compile_error=program.compile_error,
        max_score=problem.max_score,
    )
    if not program.compiled:
        report.verdict = Verdict.CE
        report.groups = group_results(problem.groups, [])
        return report
    on_case = hearing(on_case)  # with -v, each case's line as it ends
    time = problem.limits.time if options.time is None else options.time
    with phase(f"checker of {problem.name}"):
        referee = problem_referee(problem, pool, time)
    kind = kind_of(problem)
    cases = problem.cases
    results: dict[int, CaseResult] = {}
    pending = list(range(len(cases)))
    alone_at = submission_limits(problem, program.language, time)  # a run alone: stopped at its limit
    limit = alone_at.cpu
    run_lock = options.run_lock or ReadersWriterLock()
    width = 1 if options.one_at_a_time else pool.size  # runs at once
    concurrent = width > 1 or options.run_lock is not None
    overrun = OVERRUN if concurrent else 1.0  # alone, a run is stopped at its limit: nothing disturbs it
    lost = Decided(problem)
    heard = InOrder(problem, options.skip_lost, on_case)  # on_case hears every case once, in order, as it counts
    beside = kind.decides_beside
    two = (
        TwoLimits(
            alone_at.under_load(overrun),
            submission_limits(problem, program.language, time * options.margin).under_load(overrun),
            beside,
        )
        if options.margin > 1
        else None
    )
    # the limits each case's first run is capped and judged at
    runs_at = two.longer if two is not None else alone_at.under_load(overrun)
    kept = options.transcripts  # every case's exchange with an interactor kept (the relay), not only the samples'
    same = SameRuns(problem, cases)  # a file listed in several groups is run once (same_runs.py)

    def rerun(index: int, result: CaseResult) -> bool:
        untold = two is not None and index in two.untold
        return untold or starved(result, limit) or concurrent and disturbed(result, limit)

    def settled(index: int, result: CaseResult) -> CaseResult:
        return two.settle(index, result) if two is not None else result

    def alone(index: int, first: CaseResult) -> CaseResult:
        """The case run again alone: at the limit, as its first run, where its run at the longer limit could not tell
        its verdict; confirming a wall-clock TLE of a starved run; settling a verdict near the limit."""

        def again(extra: float = 0.0) -> CaseResult:
            with run_lock.exclusive(), pool.slot() as slot:
                return run_case(
                    problem, program, cases[index], referee, slot, alone_at.with_extra_wall(extra), kind, kept
                )

        if two is not None and two.take_untold(index):
            first = again()
            if not starved(first, limit):
                return first
        before = machine_load()
        if not starved(first, limit):
            return again()
        extra = wall_allowance(first, alone_at.wall, limit)
        return confirmed(again(extra), first, before, machine_load(), extra)

    # one run at a time, the next handed to the launcher before this one ends: checked while the next runs
    pipelined = not concurrent and kind.queues(referee) and len(os.sched_getaffinity(0)) > 1
    flight = InFlight()  # the runs on worker threads, killed once their results can no longer count
    while pending:
        stop = _Stop()

        def wanted(index: int, stop: _Stop = stop, lost: Decided = lost) -> bool:
            return not (options.first_fail and stop.skip(index)) and not (
                options.skip_lost and lost.at(index, cases[index].group) is not None
            )

        def done(index: int, result: CaseResult, stop: _Stop = stop, lost: Decided = lost) -> None:
            results[index] = result
            if result.verdict is not Verdict.AC:
                stop.failed_at(index)
            lost.record(index, result)
            if result.verdict is not Verdict.AC and (options.first_fail or options.skip_lost):
                flight.cancel_unwanted(wanted)
            if not rerun(index, result):
                heard.final(index, result)

        def task(index: int) -> None:
            if not wanted(index):
                return
            result = options.known.get(cases[index].key)
            if result is None:

                def run_it() -> CaseResult:
                    with run_lock.shared(), pool.slot() as slot, flight.running(index, slot):
                        return run_case(problem, program, cases[index], referee, slot, runs_at, kind, kept)

                try:
                    result = settled(index, same.first_run(index, run_it))
                except Cancelled:  # killed: no longer wanted, so nothing is recorded and nothing ever reported
                    return
            done(index, result)

        def queue(index: int, slot: Slot, lane: int) -> Callable[[], CaseResult]:
            known = options.known.get(cases[index].key)
            if known is not None:  # nothing queued: the slot's runs stay those of the cases that run
                return lambda: known
            twin = same.ran(index)
            if twin is not None:
                return lambda: settled(index, twin)
            checked = kind.queue_case(
                _case_run(problem, program, cases[index], referee, slot, runs_at, lane=lane, transcript=kept)
            )

            def took() -> CaseResult:
                result = checked()
                same.record(index, result)
                return settled(index, result)

            return took

        if pipelined:
            queued_pass(pending, wanted, queue, done, pool)
        else:
            each(task, pending, min(width, len(pending)), pool.abort)
        for index in sorted(i for i in pending if i in results and rerun(i, results[i])):
            if not counts(problem, results, index, options.first_fail, options.skip_lost):
                del results[index]  # ran beside an earlier failure that stands: never confirmed, never reported
                continue
            results[index] = same.alone(index, lambda index=index: alone(index, results[index]))
            if two is not None:
                two.take_untold(index)  # a case that took the re-run of another of its key needs none of its own
            heard.final(index, results[index])
        # what counts, in the cases' order: a re-run alone may have won a group back (its skipped cases are run then),
        # and a case's result that finished before an earlier one decided its group decides nothing
        lost = Decided.counted(problem, results)
        first_failure = next((i for i in sorted(results) if results[i].verdict is not Verdict.AC), None)
        pending = [
            i
            for i in range(len(cases))
            if i not in results
            and (not options.first_fail or first_failure is None or i < first_failure)
            and not (options.skip_lost and lost.at(i, cases[i].group) is not None)
        ]
    for index, case in enumerate(
        cases
    ):  # run or not, a case after its group's decision is SKIPPED: timing decides none
        lost_at = lost.at(index, case.group) if options.skip_lost else None
        if lost_at is not None:
            results[index] = skipped(cases, index, lost_at)
    ordered = [results[i] for i in sorted(results)]
    if options.first_fail:
        cut = next((n for n, r in enumerate(ordered) if r.verdict is not Verdict.AC), len(ordered) - 1)
        ordered = ordered[: cut + 1]
    scored = score(
        problem.groups, ordered
    )  # a rule may turn a case into JE (a broken score file) or SKIPPED (require_pass)
    report.cases, report.groups = scored.cases, scored.groups
    report.verdict = overall_verdict(scored.cases)
    report.score = round(sum(g.earned for g in report.groups), 6)
    report.longer = two.measured if two is not None else {}
    if problem.legacy_grading is not None:
        _graded(problem, pool, report)
    return report


def _graded(problem: Problem, pool: SlotPool, report: JudgeReport) -> None:
    """The format's verdict and score beside the first failing case's (a legacy package's graders decide them): its
    score is the report's, a grader's JE the report's verdict, and where the package's own grader grades, each leaf
    group earns what it gave that folder."""
    tree = problem.legacy_grading
    assert tree is not None
    custom = program_grader(problem, pool) if tree.grader is not None else None
    report.graded = graded = grade(tree.root, report.cases, custom)
    if graded.verdict == "JE":
        report.verdict = Verdict.JE
        return
    report.score = round(graded.score, 6)
    if custom is not None:
        report.groups = [
            replace(g, earned=graded.folders[g.name][1]) if g.name in graded.folders else g for g in report.groups
        ]


def problem_referee(problem: Problem, pool: SlotPool, time: float | None = None) -> Referee:
    """The problem's checker and interactor, their programs built first (a setter's program that does not build stops
    the judge), each with its role's limits for the submission's base time limit ``time`` (the problem's when not
    given): an interactor's command line and its run get the same memory figure, its own."""
    time = problem.limits.time if time is None else time
    program = None
    if problem.checker.program is not None:
        program = build_or_fail(
            problem.checker.program,
            pool,
            problem.limits.compile_time,
            "checker",
            added_to_build(problem, problem.checker.program),
        )
    stated = problem.limits.checker_time
    checker = make_checker(problem.checker, program, judge_side_limits(time, program, stated=stated).limits)
    judge_side = kind_of(problem).side_program(problem)
    if judge_side is None or judge_side[0].program is None:
        return Referee(checker)
    side, role = judge_side
    from ..check.interactor_protocols import Interactor

    built = (
        program
        if side.program == problem.checker.program and program is not None
        else build_or_fail(side.program, pool, problem.limits.compile_time, role, added_to_build(problem, side.program))
    )
    return Referee(
        checker, Interactor(built, side.type, judge_side_limits(time, built, Role.INTERACTOR, stated).limits)
    )
