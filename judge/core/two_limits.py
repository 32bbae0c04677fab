"""One run judged at two time limits: the limit, and the limit × a margin (verify of a Kattis package).

verify asks two things of a case that times out: its verdict at the limit, and
whether it still times out at limit × the package's safety margin
(``time_limit_to_tle``: a time_limit_exceeded submission must; a failing one
that passes there is "OK with extra time"). Judging the submission again at the
longer limit ran every timed-out case twice, limit + limit × margin of CPU time,
where problemtools runs each case once, capped at the longer limit, and reads
the verdict at the limit from its CPU time. So does a judging with
``JudgeOptions.margin``: each case's run is capped and judged at the longer
limit (the submission's limits there, ``run_limits.py``, so every kind's run
takes its caps from ``evaluation.py`` as always), its result there is kept (``JudgeReport.longer``)
for the look at the longer limit, which takes it instead of running the case
again (``JudgeOptions.known``), and its verdict at the limit is read from it
(``at_limit``):

- CPU time over the limit: TLE, whatever the run did after (a run at the limit
  would have been stopped there: a wrong answer printed later is TLE);
- ended within the limit's CPU and wall time: the run at the limit would have
  been this one, and so is its verdict;
- stopped by the clock after computing little and waiting for no CPU (a
  sleeper): TLE at once, as at the limit, where it would not have been run
  again (``reruns.starved``).

Anything else is run again at the limit, as before: a run the clock stopped
that was computing (whose confirmation needs its run at the limit), and an
interactive case the interactor decided while the submission still ran, after
it had used more than the limit (``pass_by_pass.py``: the interactor's verdict
stands only if it came before the submission's time ran out, which one run at
the longer limit cannot tell).
"""

from __future__ import annotations

import threading
from dataclasses import replace

from ..verdict import Verdict
from .reruns import WANTING_SHARE, WORKING_SHARE
from .run_limits import RunBudget
from .verdicts import CaseResult

UNTOLD = "not told by the run at the longer limit: run again at the limit"


def at_limit(result: CaseResult, limits: RunBudget, beside: bool) -> CaseResult | None:
    """The verdict under ``limits`` (the submission's at the limit) of a run judged at a longer limit (``result``), or
    None when that run cannot tell it. ``beside``: a program on the judge's side may decide the case while the
    submission still runs (an interactor), so a verdict other than TLE may have come before or after the limit.
    A TLE's CPU time is what the run at the limit would have shown, stopped at ``overrun`` × the limit: the report
    at the limit reads as it did, and a run over the limit by less than parallel load explains is still run again
    alone (``reruns.disturbed``)."""
    limit, wall = limits.cpu, limits.wall
    if result.time > limit:
        if beside and result.verdict is not Verdict.TLE:
            return None
        return replace(_timed_out(result, limits.over_cpu()), time=min(result.time, limits.overrun * limit))
    if result.wall_time <= wall:
        return result
    slept = result.time < WORKING_SHARE * limit and result.time + result.waited < WANTING_SHARE * wall
    if result.wall_time > wall + result.waited and slept and not (beside and result.verdict is not Verdict.TLE):
        stopped = _timed_out(result, limits.over_wall(result.time, result.waited))
        return replace(stopped, wall_time=min(result.wall_time, wall + result.waited))
    return None


def _timed_out(result: CaseResult, message: str) -> CaseResult:
    return replace(result, verdict=Verdict.TLE, message=message, score=0.0, score_file=None, attachments=())


class TwoLimits:
    """A judging whose runs go on to limit × margin: what each run gave there, and its verdict at the limit."""

    def __init__(self, at: RunBudget, longer: RunBudget, beside: bool) -> None:
        self.at = at  # the submission's limits at the limit, stopped where a first run there would have been
        self.longer = longer  # the same at limit × margin: where each case's run is capped and judged
        self.beside = beside
        self.measured: dict[str, CaseResult] = {}  # by case key: the results at the longer limit
        self.untold: set[int] = set()  # cases whose verdict at the limit needs a run at the limit
        self._lock = threading.Lock()

    def settle(self, index: int, result: CaseResult) -> CaseResult:
        """The case's verdict at the limit from its run at the longer one; where that cannot tell, a TLE that stands
        for the run at the limit still to come (it stops the cases a failure stops until that run says otherwise)."""
        found = at_limit(result, self.at, self.beside)
        with self._lock:
            self.measured[f"{result.group}/{result.name}"] = result
            if found is None:
                self.untold.add(index)
        return found if found is not None else replace(result, verdict=Verdict.TLE, message=UNTOLD)

    def take_untold(self, index: int) -> bool:
        """Whether the case still needs its run at the limit, forgotten once asked: that run is made now."""
        with self._lock:
            untold = index in self.untold
            self.untold.discard(index)
            return untold
