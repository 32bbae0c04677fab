"""Which cases count when a decided group's later cases are skipped: the cases' order decides, never the clock.

Cases run in parallel, so a case after the one that decided its group (a rejection under ``on_reject: break``, a lost
all-or-nothing group, a failed ``require_pass`` group) may have finished before that case did. Counting such a result
made the same judging say "passed 3/53" once and "passed 1/53" the next time. Here a result counts only if no earlier
case, taken in the cases' order, decided its group: what a judge running the cases one by one would have run. A result
that does not count becomes SKIPPED, whether it ran or not, and results are announced in the cases' order, so what a
caller shows (the table, a service's events) is the same whatever finished first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence

from ..model import CaseSpec, Problem
from ..verdict import Verdict
from .score_rules import decides_group
from .verdicts import CaseResult


class Decided:
    """Where each group's result was decided (``decides_group``) and where each group first failed, shared by the case
    threads: a later case of a decided group, or of a group whose ``require_pass`` group failed, cannot change the
    result."""

    def __init__(self, problem: Problem) -> None:
        self._groups = {group.name: group for group in problem.groups}
        self._at: dict[str, int] = {}
        self._failed: dict[str, int] = {}
        self._lock = threading.Lock()

    @classmethod
    def counted(cls, problem: Problem, results: Mapping[int, CaseResult]) -> Decided:
        """What the results that count say, taken in the cases' order: a result after its group's decision is left
        out, so a case that ran only because it finished first decides nothing."""
        decided = cls(problem)
        for index in sorted(results):
            if decided.at(index, results[index].group) is None:
                decided.record(index, results[index])
        return decided

    def record(self, index: int, result: CaseResult) -> None:
        with self._lock:
            if result.verdict is not Verdict.AC:
                self._failed[result.group] = min(self._failed.get(result.group, index), index)
            if decides_group(self._groups[result.group], result):
                self._at[result.group] = min(self._at.get(result.group, index), index)

    def at(self, index: int, group: str) -> int | None:
        """The earlier case that decided ``group``, or that failed a group it requires, if any."""
        needs = self._groups[group].require_pass
        with self._lock:
            found = [self._at.get(group)] + [
                at for name, at in self._failed.items() for need in needs if name == need or name.startswith(need + "/")
            ]
        earlier = [at for at in found if at is not None and at < index]
        return min(earlier) if earlier else None


def counts(problem: Problem, results: Mapping[int, CaseResult], index: int, first_fail: bool, skip_lost: bool) -> bool:
    """Whether case ``index``'s result can still count, given the final results of the cases before it: not after a
    first failure with ``first_fail``, nor in a group an earlier case decided with ``skip_lost``. A case whose result
    cannot count needs no run alone to confirm it (that run, holding every other run off, cost seconds per case)."""
    before = {i: result for i, result in results.items() if i < index}
    if first_fail and any(result.verdict is not Verdict.AC for result in before.values()):
        return False
    return not (skip_lost and Decided.counted(problem, before).at(index, problem.cases[index].group) is not None)


def skipped(cases: Sequence[CaseSpec], index: int, at: int) -> CaseResult:
    """The result of a case that does not count: the same words whether it ran or not, so two judgings read alike."""
    case, by = cases[index], cases[at]
    return CaseResult(case.name, case.group, Verdict.SKIPPED, message=f"skipped: decided at {by.group}/{by.name}")


class InOrder:
    """Final results heard in any order (from any thread), passed on in the cases' order, each only if it counts.

    A result is passed on once every case before it is final or does not count, so nothing is announced that a
    later-finishing earlier case would have made SKIPPED. A case that does not count is passed on as the SKIPPED
    result the report will hold, when its turn comes, so a table printed in order is not held back behind it until
    the end (a service, which counts runs, leaves SKIPPED out).
    """

    def __init__(self, problem: Problem, skip_lost: bool, on_case: Callable[[CaseResult], None] | None) -> None:
        self._problem = problem
        self._skip_lost = skip_lost
        self._on_case = on_case
        self._final: dict[int, CaseResult] = {}
        self._decided = Decided(problem)
        self._next = 0
        self._lock = threading.Lock()

    def final(self, index: int, result: CaseResult) -> None:
        if self._on_case is None:
            return
        with self._lock:  # held while announcing: the order of the calls is the cases' order
            self._final[index] = result
            cases = self._problem.cases
            while self._next < len(cases):
                case = self._next
                at = self._decided.at(case, cases[case].group) if self._skip_lost else None
                if at is not None:
                    self._on_case(skipped(cases, case, at))
                    self._next += 1
                elif case in self._final:
                    self._decided.record(case, self._final[case])
                    self._on_case(self._final[case])
                    self._next += 1
                else:
                    break
