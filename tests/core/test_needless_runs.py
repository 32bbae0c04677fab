"""Runs whose result can no longer count are not made, nor left to run: a case beside a first failure that stands
is not confirmed by a run alone, and its run still going when that failure is judged is killed then.

Real packages, real programs run by the judge in its default sandbox, two slots (so cases run side by side and a
case near its limit is confirmed alone, ``reruns.py``). Which runs were made is counted at the slot
(``Slot.queue_untrusted``: every untrusted run goes through it), never read from the clock; a killed run is seen
gone by its ``sleep`` marker.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import write_files
from harness import joined_and_reaped

from judge.core import CaseResult, JudgeOptions, JudgeReport, judge
from judge.core.kinds import kind_of
from judge.problem.formats import load
from judge.run import Slot, SlotPool, resolve_sandbox
from judge.verdict import Verdict

pytestmark = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="cases run side by side on two CPUs")

BOUND_S = 60  # far above what a judging here takes, far below the sleeping run's wall limit (the time limit is 200 s)

# case 1 sleeps {sleep} s (no CPU) before answering, so case 2 is running when it is judged; case 2 computes {busy} s
# of CPU, near the time limit (``reruns.NEAR_LIMIT``: 0.9 s of a 1 s limit, 0.42 of 0.5): run beside another case, it
# is confirmed by a run alone
PROGRAM = """
import time
n = int(input())
if n == 1:
    time.sleep({sleep})
    print(1 if {right} else -1)
else:
    while time.process_time() < {busy}:
        pass
    print(n)
"""


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many untrusted runs the judge's slots were handed (``_judged`` counts from the judging's start)."""
    count = [0]
    queue = Slot.queue_untrusted

    def counted(self: Slot, *args: object) -> None:
        count[0] += 1
        queue(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Slot, "queue_untrusted", counted)
    yield count


def _judged(tmp_path: Path, text: str, options: JudgeOptions, runs: list[int], time: float = 1) -> JudgeReport:
    """The submission ``text`` judged on two cases (1 and 2, each answer its input) under ``options``."""
    root = write_files(
        tmp_path / "pkg",
        {
            "problem.yaml": f"problem_format_version: 2025-09\nname: Beside\nlimits:\n  time_limit: {time}\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "data/secret/2.in": "2\n",
            "data/secret/2.ans": "2\n",
        },
    )
    source = tmp_path / "sol.py"
    source.write_text(text)
    isolation, _ = resolve_sandbox(None)
    problem = load(root)
    with SlotPool(2, isolation, conceal=problem.folders) as pool:
        program = kind_of(problem).prepare(problem, source, pool)
        runs[0] = 0  # the judging's runs, not the preparation's
        return judge(problem, program, pool, options)


@pytest.mark.parametrize(
    "options",
    [JudgeOptions(first_fail=True), JudgeOptions(skip_lost=True), JudgeOptions(first_fail=True, skip_lost=True)],
    ids=["first_fail", "skip_lost", "both"],
)
def test_a_case_beside_a_first_failure_that_stands_is_not_confirmed_alone(
    tmp_path: Path, runs: list[int], options: JudgeOptions
) -> None:
    report = _judged(tmp_path, PROGRAM.format(right=False, sleep=0.5, busy=0.9), options, runs)
    assert report.verdict is Verdict.WA
    assert [c.verdict for c in report.cases if c.verdict is not Verdict.SKIPPED] == [Verdict.WA]
    assert runs[0] == 2, f"{runs[0]} runs: the case after the wrong answer was run again alone"


def test_a_case_near_its_limit_after_an_accepted_one_is_still_confirmed_alone(tmp_path: Path, runs: list[int]) -> None:
    # at half the limit, half the CPU (its two runs were most of the module's), and case 1 answers after 0.2 s, so
    # case 2 still runs when it is judged, as before
    program = PROGRAM.format(right=True, sleep=0.2, busy=0.42)  # 80 ms under the limit, 20 over 0.8 of it
    report = _judged(tmp_path, program, JudgeOptions(first_fail=True, skip_lost=True), runs, time=0.5)
    assert [c.verdict for c in report.cases] == [Verdict.AC, Verdict.AC], [(c.verdict, c.message) for c in report.cases]
    assert runs[0] == 3, f"{runs[0]} runs: the near-limit case was not confirmed by a run alone"


@pytest.mark.parametrize(
    "options", [JudgeOptions(first_fail=True), JudgeOptions(skip_lost=True)], ids=["first_fail", "skip_lost"]
)
def test_a_run_beside_a_first_failure_is_killed_when_that_failure_is_judged_and_never_reported(
    tmp_path: Path, runs: list[int], options: JudgeOptions
) -> None:
    """Case 2 sleeps far past any bound here (its wall limit is minutes): the judging still ends at once after case 1's
    wrong answer, with that answer its verdict, and the sleeper does not outlive it."""
    marker = f"700.{secrets.randbelow(10**6):06d}"
    program = (
        "import os, time\nn = int(input())\n"
        f"if n == 2:\n    os.execv('/bin/sleep', ['sleep', '{marker}'])\n"
        "time.sleep(0.5)\nprint(-1)\n"
    )
    outcome: list[JudgeReport] = []
    leaked = joined_and_reaped(lambda: outcome.append(_judged(tmp_path, program, options, runs, 200)), marker, BOUND_S)
    assert outcome, "the judging did not end"
    assert not leaked, f"the run beside the wrong answer outlived its judging: {leaked}"
    assert runs[0] == 2, f"{runs[0]} runs: case 2's run was not made beside case 1's"
    report = outcome[0]
    assert report.verdict is Verdict.WA
    counted: list[CaseResult] = [c for c in report.cases if c.verdict is not Verdict.SKIPPED]
    assert [(c.name, c.verdict) for c in counted] == [("1", Verdict.WA)], [(c.name, c.verdict) for c in report.cases]
