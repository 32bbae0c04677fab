"""verify runs a Kattis submission's timed-out case once for two limits, with the verdicts two runs gave (issue 38).

verify asks of a case that times out at the limit whether it still does at limit × the safety margin. It used to
judge the submission again at the longer limit, running every timed-out case twice (limit + limit × margin of CPU
time); now each case's run is capped at the longer limit and read at both (``judge/core/two_limits.py``), as
problemtools does. The rules that read a verdict at the limit off a longer run are unit-tested first; then legacy
packages written here, with C programs that spend a given CPU time (``clock()``: the program's own, so load does not
change the verdicts) on one case, are verified both ways: with one run per case (now) and judged again at the longer
limit (as before, ``margin_wanted`` made 1). The verdicts and warnings are the same, and every case that timed out
ran once instead of twice.

The packages state their limit, 0.2 s, in our side-car file (the legacy format states none, and an inferred one is
at least its 1 s resolution): a busy loop over 0.2 s shows what one over 1 s did, in a fifth of the CPU time, and
the wall limit that goes with 0.2 s (1.2 s: the limit plus 1 s) is six times the CPU limit, not twice, so load
reaches it less. Inference is not what is tested here (test_kattis.py and test_kattis_scoring.py verify with it).
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import write_files

from judge.core import CaseResult
from judge.core.run_limits import Role, RunBudget
from judge.core.two_limits import at_limit
from judge.problem.formats import load
from judge.run import RunLimits, RunResult, RunSpec, Slot, SlotPool, resolve_sandbox
from judge.tools import verify as verify_module
from judge.tools.verify import VerifyResult, verify
from judge.verdict import Verdict

LIMIT, WALL = 1.0, 2.0  # the limits at 1 s; the run was capped at 2 s of CPU and 4 s of wall time
AT = RunBudget(Role.SUBMISSION, RunLimits(cpu=LIMIT, wall=WALL, memory_mib=64, output_bytes=1 << 20))


def result(verdict: Verdict, cpu: float, wall: float, waited: float = 0.0) -> CaseResult:
    return CaseResult("1", "secret", verdict, time=cpu, wall_time=wall, waited=waited, message="from the long run")


def test_a_run_that_ended_within_the_limits_is_the_run_at_the_limit() -> None:
    for verdict in (Verdict.AC, Verdict.WA, Verdict.RE, Verdict.MLE):
        ended = result(verdict, 0.9, 1.5)
        assert at_limit(ended, AT, beside=False) is ended
        assert at_limit(ended, AT, beside=True) is ended


def test_cpu_over_the_limit_is_tle_at_the_limit_whatever_came_after() -> None:
    for verdict in (Verdict.AC, Verdict.WA, Verdict.RE, Verdict.OLE, Verdict.TLE):
        found = at_limit(result(verdict, 1.4, 1.5), AT, beside=False)
        assert found is not None and found.verdict is Verdict.TLE
        assert found.message == "CPU time over the 1 s limit" and found.time == 1  # where the limit stops a run
        in_parallel = at_limit(result(verdict, 1.4, 1.5), AT.under_load(1.5), beside=False)
        assert in_parallel is not None and in_parallel.time == 1.4  # under 1.5 × the limit: run again alone


def test_an_interactor_may_have_rejected_before_or_after_the_limit_so_a_run_at_the_limit_tells() -> None:
    assert at_limit(result(Verdict.WA, 1.4, 1.5), AT, beside=True) is None
    found = at_limit(result(Verdict.TLE, 2.0, 2.1), AT, beside=True)
    assert found is not None and found.verdict is Verdict.TLE


def test_a_sleeper_the_clock_stopped_is_tle_at_once() -> None:
    found = at_limit(result(Verdict.TLE, 0.01, 4.0), AT, beside=False)
    assert found is not None and found.verdict is Verdict.TLE and found.wall_time == WALL
    assert found.message == "wall time over the 2 s limit after 0.01 s of CPU"


def test_a_computing_run_the_clock_stopped_or_kept_waiting_is_run_again_at_the_limit() -> None:
    assert at_limit(result(Verdict.TLE, 0.5, 4.0), AT, beside=False) is None  # confirmation needs it
    assert at_limit(result(Verdict.AC, 0.05, 3.0, waited=1.5), AT, beside=False) is None  # load, not sleep


ECHO = '#include <stdio.h>\nint main(void) { int n; scanf("%d", &n); printf("%d\\n", n); return 0; }\n'
# on case secret/2 (input 2) the program spends SECONDS of CPU and sleeps SLEEP s, and prints its input plus WRONG
SLOW_ON_TWO = """\
#include <stdio.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    if (n == 2) {
        while ((double)clock() / CLOCKS_PER_SEC < SECONDS) {}
        usleep(SLEEP * 1000000);
    }
    printf("%d\\n", n == 2 ? n + WRONG : n);
    return 0;
}
"""
SLOW_CASE = "data/secret/2.in"
PACKAGE_LIMIT = 0.2  # the packages' time limit (so wall 1.2 s), × time_safety_margin 2 = 0.4 s
WALL_AT_LIMIT = PACKAGE_LIMIT + 1


def package(root: Path, folder: str, seconds: float, wrong: int, sleep: float = 0.0, margin: float = 2) -> Path:
    """A legacy package whose limit is PACKAGE_LIMIT (× time_safety_margin ``margin``), with one submission."""
    return write_files(
        root,
        {
            "problem.yaml": f"name: Slow on two\nlimits:\n  time_safety_margin: {margin:g}\n",
            "tilejudge.yaml": f"base_time_limit: {PACKAGE_LIMIT:g}\n",
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            **{f"data/secret/{n}.{ext}": f"{n}\n" for n in (1, 2, 3) for ext in ("in", "ans")},
            "submissions/accepted/echo.c": ECHO,
            f"submissions/{folder}/slow.c": (
                f"#define SECONDS {seconds}\n#define WRONG {wrong}\n#define SLEEP {sleep}\n" + SLOW_ON_TWO
            ),
        },
    )


@dataclass
class SlowRuns:
    """The runs of the slow submission (not the accepted one's) on the slow case, in order, and how many of them the
    machine's load disturbed: stopped by the wall clock, or still running at the wall limit that goes with the time
    limit (WALL_AT_LIMIT; the launcher lets a run go on by what it waited for a CPU). The programs here never sleep
    and end in well under that on an idle machine, so only load does this, and the judge rightly runs such a case
    once more: alone, to confirm a starved run's TLE (test_verdict_rules.py, test_reruns_by_kind.py), or at the
    limit, where a run at the longer limit that went past the wall limit cannot tell the verdict there
    (``two_limits.at_limit``, unit-tested above). Each disturbed run adds at most one run (``judging.alone``)."""

    specs: list[RunSpec] = field(default_factory=list)
    disturbed: int = 0

    def as_if_undisturbed(self, expected: int) -> bool:
        """Whether ``expected`` runs, plus at most one for each disturbed run, are what was run: exactly ``expected``
        when load disturbed none."""
        return len(self.specs) - self.disturbed <= expected <= len(self.specs)


def verified(
    root: Path, monkeypatch: pytest.MonkeyPatch, one_run: bool, jobs: int = 1
) -> tuple[VerifyResult, SlowRuns]:
    """verify's result and the runs of the slow submission on the slow case; ``one_run`` off: judged again at the
    longer limit, as before. A run's result is read where the slot hands it over (``next_result``, in the order of
    that slot's queue, which ``drop_queued`` empties)."""
    runs = SlowRuns()
    queue, next_result, drop_queued = Slot.queue_untrusted, Slot.next_result, Slot.drop_queued
    ours: dict[int, deque[bool]] = defaultdict(deque)  # per slot, for each run queued: is it the slow case's?

    def counted(slot: Slot, spec: RunSpec, binds):  # type: ignore[no-untyped-def]
        slow = spec.stdin == root / SLOW_CASE and spec.cwd is not None and (spec.cwd / "slow.c").exists()  # its build
        queue(slot, spec, binds)
        if slow:
            runs.specs.append(spec)
        ours[id(slot)].append(slow)

    def read(slot: Slot) -> RunResult:
        try:
            result = next_result(slot)
        finally:
            slow = ours[id(slot)].popleft()
        if slow and (result.killed == "wall" or result.wall > WALL_AT_LIMIT):
            runs.disturbed += 1
        return result

    def dropped(slot: Slot) -> None:
        drop_queued(slot)
        ours[id(slot)].clear()

    with monkeypatch.context() as patch:
        patch.setattr(Slot, "queue_untrusted", counted)
        patch.setattr(Slot, "next_result", read)
        patch.setattr(Slot, "drop_queued", dropped)
        if not one_run:
            patch.setattr(verify_module, "margin_wanted", lambda *args: 1.0)
        isolation, _ = resolve_sandbox(None)
        problem = load(root)
        with SlotPool(jobs, isolation, conceal=problem.folders) as pool:
            found = verify(problem, pool)
    assert found.problem.limits.time == PACKAGE_LIMIT
    return found, runs


def seen(found: VerifyResult) -> tuple[object, ...]:
    """What verify said of the submission: whether it is as its folder says, its verdict, each case's verdict, and
    the warnings about it (their measured seconds left out: two runs never take the same time)."""
    (outcome,) = [o for o in found.outcomes if o.path.name == "slow.c"]
    warnings = [re.sub(r"slowest [0-9.]+ s", "slowest … s", w) for w in found.warnings if "/slow.c" in w]
    return outcome.ok, outcome.report.verdict, [(c.group, c.name, c.verdict) for c in outcome.report.cases], warnings


# over the 0.2 s limit by a quarter: under 1.5 × the limit, where a run beside others is stopped, and the longer limit
BETWEEN = 1.25 * PACKAGE_LIMIT
SCENARIOS = {
    # name: (folder, CPU seconds on the slow case, wrong answer?, what verify says, the slow case's runs before,
    # the CPU limit of its one run now, in limits)
    "ends under the limit": (
        "time_limit_exceeded",
        0.3 * PACKAGE_LIMIT,
        0,
        (False, Verdict.AC, "no case times out"),
        1,
        2,
    ),
    "ends between the limit and the longer limit": (
        "time_limit_exceeded",
        BETWEEN,
        0,
        (True, Verdict.TLE, "no case times out"),
        2,
        2,
    ),
    "never ends": ("time_limit_exceeded", 1e9, 0, (True, Verdict.TLE, None), 2, 2),
    "wrong answer after the limit": ("time_limit_exceeded", BETWEEN, 1, (True, Verdict.TLE, "no case times out"), 2, 2),
    "wrong answer after the limit, in wrong_answer/": (
        "wrong_answer",
        BETWEEN,
        1,
        (True, Verdict.WA, "sensitive"),
        2,
        2,
    ),
    "never ends, in wrong_answer/": ("wrong_answer", 1e9, 1, (False, Verdict.TLE, None), 2, 2),
    # its folder permits TLE: nothing is asked of the longer limit, and the run stops at the limit as before
    "never ends, in brute_force/": ("brute_force", 1e9, 0, (True, Verdict.TLE, None), 1, 1),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_one_run_per_timed_out_case_gives_the_verdicts_and_warnings_two_runs_gave(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, seconds, wrong, (ok, verdict, warning), runs_before, cap = SCENARIOS[name]
    before, runs_then = verified(package(tmp_path / "before", folder, seconds, wrong), monkeypatch, one_run=False)
    now, runs_now = verified(package(tmp_path / "now", folder, seconds, wrong), monkeypatch, one_run=True)
    assert seen(now) == seen(before)
    assert seen(now)[:2] == (ok, verdict)
    warnings = seen(now)[3]
    assert (warning is None and warnings == []) or (
        warning is not None and len(warnings) == 1 and warning in warnings[0]
    )
    # the slow case: once, capped at the longer limit (once more for a run the machine's load disturbed: SlowRuns)
    assert runs_then.as_if_undisturbed(runs_before) and runs_now.as_if_undisturbed(1), (runs_then, runs_now)
    assert runs_now.specs[0].limits.cpu == pytest.approx(cap * PACKAGE_LIMIT)
    assert runs_then.specs[0].limits.cpu == pytest.approx(PACKAGE_LIMIT)


@pytest.mark.slow
def test_a_run_the_clock_stopped_while_it_computed_is_run_at_the_limit_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """0.05 s of CPU (a quarter of the limit: computing, not asleep), then asleep 1.5 s: at the limit the clock
    (1.2 s) stops it having computed, so it is confirmed by a run alone with more wall time, and is AC. Its one run
    at the longer limit (time_safety_margin 5 here: 1 s of CPU, 2 s of wall time, which it ends within) cannot tell
    whether the clock would have stopped it before or after it computed: it is run at the limit as before, and the
    verdict stands. (In wrong_answer/, which does not permit TLE: verify asks about the longer limit.)"""
    seconds, sleep = 0.25 * PACKAGE_LIMIT, 1.5
    before = package(tmp_path / "before", "wrong_answer", seconds, 0, sleep, margin=5)
    before_found, runs_then = verified(before, monkeypatch, one_run=False)
    now, runs_now = verified(package(tmp_path / "now", "wrong_answer", seconds, 0, sleep, margin=5), monkeypatch, True)
    assert seen(now)[:2] == (False, Verdict.AC)
    assert seen(now) == seen(before_found)
    # the longer run, the run at the limit, its confirmation
    assert [spec.limits.cpu for spec in runs_now.specs] == pytest.approx(
        [5 * PACKAGE_LIMIT, PACKAGE_LIMIT, PACKAGE_LIMIT]
    )
    assert [spec.limits.cpu for spec in runs_then.specs] == pytest.approx([PACKAGE_LIMIT, PACKAGE_LIMIT])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ends between the limit and the longer limit", "never ends, in wrong_answer/"])
def test_with_cases_in_parallel_the_verdicts_are_those_two_runs_gave_too(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At -j 2 (verify's default here) a run may go on to 1.5 × its limit, and one over the limit by less than that is
    run again alone at the limit: the same verdicts, in fewer runs of the slow case than before."""
    folder, seconds, wrong, (ok, verdict, _), _, _ = SCENARIOS[name]
    before, runs_then = verified(package(tmp_path / "before", folder, seconds, wrong), monkeypatch, False, jobs=2)
    now, runs_now = verified(package(tmp_path / "now", folder, seconds, wrong), monkeypatch, True, jobs=2)
    assert seen(now) == seen(before) and seen(now)[:2] == (ok, verdict)
    assert len(runs_now.specs) - runs_now.disturbed < len(runs_then.specs), (
        runs_now,
        runs_then,
    )  # load's runs left out
