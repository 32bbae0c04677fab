"""A judging that takes far longer than it should says where its time goes, and what a stuck run waits for.

Issue 46: one ``judge`` of problemtools' ``guess`` package once ran past 600 s on a loaded machine where it takes
15 to 19 s, and nothing said why. ``-v`` (``judge``, ``verify``, every command on a problem) prints each phase as
it ends with its wall and CPU time: each build, the time-limit inference, the judging and each case. A run whose
answer has not come long after the most its limits allow says once what it is waiting for: each process under
its launcher with its state and the kernel function it sleeps in (``judge/run/waiting.py``).
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import PROBLEMS, cli, write_files

from judge.run import RunLimits, RunSpec, SlotPool, resolve_sandbox

FIGURES = r"\d+\.\d\d s wall, \d+\.\d\d s CPU"


def test_verbose_judge_prints_each_phase_and_case_with_its_times() -> None:
    """``judge -v``: the build, the checker, one line per case (its verdict and its run's figures) as it ends, and the
    judging as a whole; the table and summary stay as they were."""
    problem = PROBLEMS / "sum"
    run = cli("judge", str(problem), str(problem / "solution.py"), "-v", "-j", "1")
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert any(re.fullmatch(rf"phase build sum/solution\.py: {FIGURES}", line) for line in lines), run.stderr
    assert any(re.fullmatch(rf"phase judging sum/solution\.py: {FIGURES}", line) for line in lines), run.stderr
    cases = [line for line in lines if line.startswith("case ")]
    assert sorted(line.split(":")[0] for line in cases) == [
        "case big1",
        "case big2",
        "case mixed_signs",
        "case sample",
    ], run.stderr
    assert all(re.match(rf"case \w+: AC, {FIGURES}", line) for line in cases), cases
    assert "4 passed, 0 failed, 0 skipped of 4" in run.stdout


def test_verbose_verify_names_the_time_limit_inference(tmp_path: Path) -> None:
    """``verify -v`` of a Kattis package without a time limit: the inference is a phase of its own, and each
    submission's build and judging."""
    package = write_files(
        tmp_path / "double",
        {
            "problem.yaml": "problem_format_version: 2023-07-draft\nname: Double\n",
            "data/secret/1.in": "21\n",
            "data/secret/1.ans": "42\n",
            "submissions/accepted/double.py": "print(2 * int(input()))\n",
            "submissions/wrong_answer/same.py": "print(input())\n",
        },
    )
    run = cli("verify", str(package), "-v", "-j", "1")
    lines = run.stderr.splitlines()
    assert any(re.fullmatch(rf"phase time-limit inference of \S+: {FIGURES}", line) for line in lines), run.stderr
    for name in ("accepted/double.py", "wrong_answer/same.py"):
        assert any(re.fullmatch(rf"phase build {name}: {FIGURES}", line) for line in lines), run.stderr
    assert any(re.fullmatch(rf"phase judging wrong_answer/same\.py: {FIGURES}", line) for line in lines), run.stderr


def test_without_verbose_no_phase_is_printed() -> None:
    problem = PROBLEMS / "sum"
    run = cli("judge", str(problem), str(problem / "solution.py"), "-j", "1")
    assert run.returncode == 0 and "phase " not in run.stderr and "case sample:" not in run.stderr, run.stderr


def test_a_run_held_far_past_its_limits_says_once_what_it_waits_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """The launcher is stopped (SIGSTOP) while its run sleeps, so nothing ends the run at its 0.5 s wall limit: once
    the run is overdue (here 3 × 0.5 s + 0.5 s), one line names the launcher as stopped and the sleeping process
    with the kernel function it sleeps in; when the launcher goes on, the run ends at its wall limit as always."""
    from judge.run import waiting as waiting_module  # here: on a judge without it, this test alone fails

    monkeypatch.setattr(waiting_module, "GRACE_SECONDS", 0.5)
    heard: list[str] = []
    waiting_module.listen(heard.append)
    isolation, _ = resolve_sandbox("none")
    try:
        with SlotPool(1, isolation) as pool, pool.slot() as slot:
            spec = RunSpec(
                argv=["/bin/sleep", "30"],
                limits=RunLimits(cpu=1, wall=0.5, memory_mib=64, output_bytes=1 << 20),
                stdout=slot.private / "out",
                stderr=slot.private / "err",
            )
            slot.run(RunSpec(argv=["/bin/true"], limits=spec.limits, stdout=spec.stdout, stderr=spec.stderr))
            launcher = slot._trusted._proc  # the trusted launcher, started by the run above
            assert launcher is not None
            stopper = threading.Thread(target=_stop_once_sleeping, args=(launcher.pid, heard))
            stopper.start()
            try:
                result = slot.run(spec)
            finally:
                stopper.join()
    finally:
        waiting_module.listen(None)
    assert result.killed == "wall", result
    assert len(heard) == 1, heard
    note = heard[0]
    assert note.startswith("still waiting after ") and "for sleep (" in note, note
    assert re.search(r"launcher[^;]* \(pid \d+\) stopped", note), note
    assert re.search(r"sleep \(pid \d+\) sleeping( in \w+)?, 0\.\d\d s CPU", note), note


def _stop_once_sleeping(launcher: int, heard: list[str]) -> None:
    """SIGSTOP the launcher once its run is there; SIGCONT it once the note is heard (or after 20 s at most)."""
    from judge.run.waiting import _descendants

    deadline = time.monotonic() + 20
    while not _descendants(launcher) and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(launcher, signal.SIGSTOP)
    try:
        while not heard and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        os.kill(launcher, signal.SIGCONT)


def test_a_process_name_in_the_note_is_shown_with_its_control_characters_escaped() -> None:
    """A run names its own processes (PR_SET_NAME): the note never writes a control sequence to the judge's
    terminal or log."""
    from judge.run.waiting import _shown  # here: on a judge without it, this test alone fails

    assert _shown("a\x1b[2Jb\\\u00e9") == "a\\x1b[2Jb\\x5c\\xe9"


def test_a_phase_that_ends_a_pool_counts_its_runs_cpu_once() -> None:
    """A run's CPU time is counted from the launcher's report while the launcher lives, and from the judge's reaped
    children once the pool is closed and the launcher reaped: a phase that spans both counts it once (it counted it
    twice: one `-v` line read 8.8 s of CPU in 0.26 s of wall time)."""
    from judge.core.phases import listening, phase

    heard: list[str] = []
    isolation, _ = resolve_sandbox("none")
    burn = "import time; exec('while time.process_time() < 0.5: pass')"
    with listening(heard.append), phase("burn"):
        with SlotPool(1, isolation) as pool, pool.slot() as slot:
            result = slot.run(
                RunSpec(
                    argv=[sys.executable, "-c", burn],
                    limits=RunLimits(cpu=5, wall=30, memory_mib=256, output_bytes=1 << 20),
                    stdout=slot.private / "out",
                    stderr=slot.private / "err",
                )
            )
    (line,) = heard
    cpu = float(re.fullmatch(r"phase burn: \d+\.\d\d s wall, (\d+\.\d\d) s CPU", line).group(1))  # type: ignore[union-attr]
    assert result.succeeded and result.cpu >= 0.5, result
    assert result.cpu - 0.05 <= cpu <= result.cpu + 0.25, (line, result)
