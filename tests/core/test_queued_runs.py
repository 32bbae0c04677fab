"""At ``-j 1`` the judge hands the next case's run to the launcher before the current one ends (``judging.py``):
what must still hold.

Real packages, real programs run by the judge in its default sandbox, one slot. The pipelining itself is observed,
not assumed: the slot's ``queue_untrusted``/``next_result`` are counted, and the run that a decided group made
unwanted is seen running (its ``sleep`` marker) before the judge decides it, then seen gone.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import processes_with, write_files
from harness import joined_and_reaped

from judge.core import CaseResult, JudgeOptions, judge
from judge.core.kinds import kind_of
from judge.problem.formats import load
from judge.run import ExecError, RunLimits, RunSpec, Slot, SlotPool, resolve_sandbox
from judge.verdict import Verdict

BOUND_S = 60  # far above what a judging here takes, far below the sleeping run's wall limit (the time limit is 200 s)

pytestmark = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="runs are queued only with a second CPU")


@pytest.fixture
def most_outstanding(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The most runs a slot had handed to its launcher and not yet taken the results of, at any moment."""
    outstanding, most = [0], [0]
    queue, take, drop = Slot.queue_untrusted, Slot.next_result, Slot.drop_queued

    def counted_queue(self: Slot, *args: object) -> None:
        queue(self, *args)  # type: ignore[arg-type]
        outstanding[0] += 1
        most[0] = max(most[0], outstanding[0])

    def counted_take(self: Slot) -> object:
        outstanding[0] -= 1
        return take(self)

    def counted_drop(self: Slot) -> None:
        outstanding[0] = 0
        drop(self)

    monkeypatch.setattr(Slot, "queue_untrusted", counted_queue)
    monkeypatch.setattr(Slot, "drop_queued", counted_drop)
    monkeypatch.setattr(Slot, "next_result", counted_take)
    yield most


def _cases(folder: str, values: list[int]) -> dict[str, str]:
    return {f"data/{folder}/{n}.{ext}": f"{v}\n" for n, v in enumerate(values, 1) for ext in ("in", "ans")}


def _judged(root: Path, source: Path, options: JudgeOptions, on_case: object = None) -> list[CaseResult]:
    isolation, _ = resolve_sandbox(None)
    problem = load(root)
    with SlotPool(1, isolation, conceal=problem.folders) as pool:
        program = kind_of(problem).prepare(problem, source, pool)
        return judge(problem, program, pool, options, on_case).cases  # type: ignore[arg-type]


def test_each_case_is_checked_on_its_own_output_and_stderr_while_the_next_runs(
    tmp_path: Path, most_outstanding: list[int]
) -> None:
    """Sample cases keep their output: each holds its own case's, and each failing case's message quotes its own
    stderr, though the next case's run was writing its files meanwhile."""
    values = [3, 4, 5, 8, 1, 6, 7, 2]
    root = write_files(
        tmp_path / "echo",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Echo\nlimits:\n  time_limit: 5\n",
            **{
                f"data/sample/{n}.{ext}": f"{v}\n" * (1 if ext == "in" else v)
                for n, v in enumerate(values, 1)
                for ext in ("in", "ans")
            },
        },
    )
    source = tmp_path / "echo.py"
    source.write_text(
        "import sys\nn = int(input())\nprint(f'{n}\\n' * n, end='')\n"
        "if n % 2:\n    sys.stderr.write(f'odd input {n}\\n')\n    sys.exit(3)\n"
    )
    cases = _judged(root, source, JudgeOptions())
    assert most_outstanding[0] == 2, "the next run was never queued behind the running one"
    for case, value in zip(cases, values, strict=True):
        assert case.output is not None and case.output.text == f"{value}\n" * value, (case.name, case.output)
        if value % 2:
            assert case.verdict is Verdict.RE and f"odd input {value}" in case.message, (case.name, case.message)
            assert all(f"odd input {v}" not in case.message for v in values if v != value), case.message
        else:
            assert case.verdict is Verdict.AC, (case.name, case.verdict, case.message)


def test_a_run_its_decided_group_made_unwanted_is_killed_and_never_reported(
    tmp_path: Path, most_outstanding: list[int]
) -> None:
    """The run after a ``min`` group's first wrong answer was already running when that answer was checked: it is
    stopped at once (not left to its 200 s limit), its case is SKIPPED, and no row is heard for it."""
    marker = f"600.{secrets.randbelow(10**6):06d}"
    root = write_files(
        tmp_path / "groups",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Echo\ntype: scoring\nlimits:\n  time_limit: 200\n",
            **_cases("sample", [1]),
            **_cases("secret/a_lost", [6, 7, 8]),
            **_cases("secret/b_after", [2, 3]),
            "data/secret/a_lost/test_group.yaml": "max_score: 50\nscore_aggregation: min\n",
            "data/secret/b_after/test_group.yaml": "max_score: 50\n",
        },
    )
    source = tmp_path / "wrong_then_sleeps.py"
    source.write_text(
        "import os\nn = int(input())\n"
        f"if n == 7:\n    os.execv('/bin/sleep', ['sleep', '{marker}'])\n"
        "print(-1 if n == 6 else n)\n"
    )
    heard: list[tuple[str, str]] = []
    seen_running: list[bool] = []

    def on_case(result: CaseResult) -> None:
        heard.append((f"{result.group}/{result.name}", result.verdict.value))
        if result.verdict is Verdict.WA:  # the next case's run started the moment this one ended: see it running
            deadline = time.monotonic() + BOUND_S
            while not processes_with(marker) and time.monotonic() < deadline:
                time.sleep(0.02)
            seen_running.append(bool(processes_with(marker)))

    outcome: list[list[CaseResult]] = []
    leaked = joined_and_reaped(
        lambda: outcome.append(_judged(root, source, JudgeOptions(skip_lost=True), on_case)), marker, BOUND_S
    )
    assert seen_running == [True], "the run after the wrong answer was not running while the answer was checked"
    assert not leaked, f"the unwanted run outlived its judging: {leaked}"
    assert outcome, "the judging did not end"
    verdicts = {f"{c.group}/{c.name}": c.verdict.value for c in outcome[0]}
    assert [v for k, v in verdicts.items() if k.startswith("secret/a_lost/")] == ["WA", "SKIPPED", "SKIPPED"]
    assert [v for k, v in verdicts.items() if k.startswith("secret/b_after/")] == ["AC", "AC"]
    # the killed run's own result is never reported: its case is announced in its turn as SKIPPED, as the report has
    # it (judging's in-order rule, ``judge.core.decided``), and nothing else is heard of it
    lost = [(name, verdict) for name, verdict in heard if name.startswith("secret/a_lost/") and not name.endswith("/1")]
    assert lost == [("secret/a_lost/2", "SKIPPED"), ("secret/a_lost/3", "SKIPPED")], heard
    assert most_outstanding[0] == 2


def test_a_slot_takes_one_run_behind_the_running_one_and_no_waiting_run_beside_them(tmp_path: Path) -> None:
    """A third run queued, or a run that waits for its answer while runs are queued, would read another run's
    answer: both are refused, and the queued runs' results still come in order."""
    isolation, _ = resolve_sandbox(None)
    with SlotPool(1, isolation) as pool, pool.slot() as slot:
        limits = RunLimits(cpu=5, wall=10, memory_mib=64, output_bytes=1024)
        specs = [
            RunSpec(
                ["/bin/sh", "-c", f"exit {code}"],
                limits,
                stdout=slot.private / f"out{code}",
                stderr=slot.private / f"err{code}",
            )
            for code in (3, 4, 5)
        ]
        slot.queue_untrusted(specs[0], ())
        slot.queue_untrusted(specs[1], ())
        with pytest.raises(ExecError):
            slot.queue_untrusted(specs[2], ())
        with pytest.raises(ExecError):
            slot.run_untrusted(specs[2], ())
        with pytest.raises(ExecError):
            slot.run(specs[2])
        assert [slot.next_result().exit_code, slot.next_result().exit_code] == [3, 4]
        assert slot.run_untrusted(specs[2], ()).exit_code == 5


def test_an_interactors_run_is_taken_though_its_submission_was_queued_first(tmp_path: Path) -> None:
    """The interactor's run (``run_peer``) has a launcher of its own, so it cannot read the answer of the submission's
    run queued beside it: on a busy machine the submission's thread queues its run before the interactor's thread
    asks for its own, and the interactor's run is then taken, not refused as a run waiting beside queued ones."""
    isolation, _ = resolve_sandbox(None)
    with SlotPool(1, isolation) as pool, pool.slot() as slot:
        limits = RunLimits(cpu=5, wall=10, memory_mib=64, output_bytes=1024)
        submission, interactor = (
            RunSpec(["/bin/sh", "-c", f"exit {code}"], limits, stdout=slot.private / name, stderr=slot.private / "err")
            for name, code in (("submission", 3), ("interactor", 4))
        )
        slot.queue_untrusted(submission, ())
        assert slot.run_peer(interactor).exit_code == 4
        assert slot.next_result().exit_code == 3
