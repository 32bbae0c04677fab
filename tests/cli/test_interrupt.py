"""What a person at a terminal sees of ``judge``: rows as cases end, a progress bar, and a Ctrl-C that stops at once.

The terminal is a real pseudo-terminal (``pty``) that is the judge's controlling
terminal, and Ctrl-C is the byte a keyboard sends (0x03), which the terminal
turns into SIGINT for the judge's foreground process group. Nothing is timed
against the clock: the second case's run is a ``sleep`` that cannot end before
the test ends it (its wall limit is minutes away), so "the first row came before
the second case ended" and "the judge exited because it killed the run, not
because the run ended" are facts the test observes, not races it hopes to win.
"""

from __future__ import annotations

import fcntl
import io
import os
import re
import secrets
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from conftest import PROBLEMS, REPO_ROOT, as_a_foreground_job, cli, processes_with
from harness import joined_and_reaped

from judge.cli.live import LiveTable
from judge.cli.progress import Progress
from judge.core import CaseResult, JudgeReport
from judge.errors import Aborted
from judge.model import CaseSpec, FromFile
from judge.run import RunLimits, RunSpec, SlotPool
from judge.verdict import Verdict

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
BOUND_S = 60  # far above the second or so a Ctrl-C takes, far below the blocked run's wall limit (120 s)


def _blocking_case_problem(tmp_path: Path, marker: str) -> tuple[Path, Path]:
    """aplusb with a 60 s CPU limit for Python (120 s wall), and a submission that answers every case but the second,
    on which it becomes ``sleep <marker>``: it ends only when the judge kills it."""
    problem = tmp_path / "aplusb"
    shutil.copytree(PROBLEMS / "aplusb", problem)
    spec = problem / "problem.yaml"
    spec.write_text(spec.read_text().replace("  time: 0.5\n", "  time: 20\n"))
    second = (problem / "data" / "mixed_signs.in").read_text()
    submission = tmp_path / "blocks_on_second.py"
    submission.write_text(
        "import os, sys\n"
        "data = sys.stdin.read()\n"
        f"if data == {second!r}:\n"
        f"    os.execv('/bin/sleep', ['sleep', '{marker}'])\n"
        "pairs = [line.split() for line in data.splitlines() if line.strip()]\n"
        "print('\\n'.join(str(int(a) + int(b)) for a, b in pairs))\n"
    )
    return problem, submission


class Terminal:
    """A pseudo-terminal running one command as its session leader, with the terminal as its controlling one."""

    def __init__(self, argv: list[str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
        self.process = subprocess.Popen(
            argv,
            cwd=REPO_ROOT,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=self._controlling,
        )
        os.close(slave)
        self.seen = ""

    @staticmethod
    def _controlling() -> None:
        """In the child: take the terminal as the controlling one of its new session, as a shell's foreground job."""
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        as_a_foreground_job()

    def read_until(self, pattern: str, timeout: float) -> re.Match[str] | None:
        """Read what the terminal shows until ``pattern`` matches it (colour codes and carriage returns dropped)."""
        deadline = time.monotonic() + timeout
        while (found := re.search(pattern, self.seen, re.M)) is None and time.monotonic() < deadline:
            if not self._read(min(1.0, max(0.0, deadline - time.monotonic()))):
                if self.process.poll() is not None:
                    break
        return found

    def read_to_end(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(max(0.0, deadline - time.monotonic())):
            pass

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: every process holding the terminal has exited
            return False
        self.seen += ANSI.sub("", data.decode("utf-8", "replace")).replace("\r\n", "\n").replace("\r", "\n")
        return bool(data)

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.master)


@pytest.mark.parametrize("jobs", ["2", "1"])  # -j 1: the third case's run waits queued in the launcher (judging.py)
def test_a_terminal_sees_each_row_as_its_case_ends_and_ctrl_c_stops_the_runs_at_once(tmp_path: Path, jobs: str) -> None:
    marker = f"600.{secrets.randbelow(10**6):06d}"
    problem, submission = _blocking_case_problem(tmp_path, marker)
    argv = [sys.executable, str(REPO_ROOT / "run_judge.py"), "judge", str(problem), str(submission), "-j", jobs]
    terminal = Terminal(argv)
    try:
        first_row = terminal.read_until(r"^1\s+sample\s+small\s+AC\b", 120)
        assert first_row is not None, f"no row for the first case:\n{terminal.seen}"
        deadline = time.monotonic() + 60
        while not processes_with(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with(marker), f"the second case's run never started:\n{terminal.seen}"
        assert "judging" in terminal.seen, f"no progress bar on a terminal:\n{terminal.seen}"
        assert not re.search(r"^[34]\s+big", terminal.seen, re.M), "a row came before the second case's row"
        os.write(terminal.master, b"\x03")  # Ctrl-C, as the keyboard sends it
        start = time.monotonic()
        terminal.process.wait(timeout=BOUND_S)
        took = time.monotonic() - start
        still = processes_with(marker)
        terminal.read_to_end(5)
    finally:
        terminal.close()
    assert terminal.process.returncode == 130, terminal.seen
    assert not still, f"the run in flight outlived the judge: {still}"
    done = re.search(r"interrupted: (\d) of 4 case\(s\) judged", terminal.seen)
    assert done is not None, terminal.seen
    judged = int(done.group(1))
    # the rows of what was judged: the first, and whichever of the last two ended before Ctrl-C; never the second
    rows = re.findall(r"^(\d)\s+\S+\s+(?:small|large)\s+(\S+)", terminal.seen, re.M)
    assert rows[0] == ("1", "AC") and len(rows) == judged and ("2", "AC") not in rows, terminal.seen
    assert "Traceback" not in terminal.seen
    print(f"Ctrl-C to exit: {took:.2f} s")  # the 1 s, shown with -s; asserted only as the kill above


def test_piped_judge_prints_the_rows_and_summary_and_no_bar() -> None:
    run = cli("judge", "tests/fixtures/problems/aplusb", "tests/fixtures/problems/aplusb/solution.py")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split() == ["#", "case", "group", "verdict", "time", "memory", "message"]
    assert [line.split()[:4] for line in lines[2:6]] == [
        ["1", "sample", "small", "AC"],
        ["2", "mixed_signs", "small", "AC"],
        ["3", "big1", "large", "AC"],
        ["4", "big2", "large", "AC"],
    ]
    assert lines[6].startswith("AC (accepted)") and len(lines) == 7
    assert "judging" not in run.stderr and "\r" not in run.stderr + run.stdout


class _Screen(io.StringIO):
    """A stream that says it is a terminal (for the hint that only a person at one is given)."""

    def isatty(self) -> bool:
        return True


def _cases(n: int) -> list[CaseSpec]:
    return [CaseSpec(f"c{i}", "g", FromFile(Path(f"c{i}.in"))) for i in range(1, n + 1)]


def _result(i: int, verdict: Verdict = Verdict.AC) -> CaseResult:
    return CaseResult(f"c{i}", "g", verdict, time=0.25, memory_kb=2048, message="" if verdict is Verdict.AC else "x")


def _numbers(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines()[2:] if line[:1].isdigit()]


def test_rows_wait_for_the_cases_before_them_and_an_interrupt_shows_every_judged_one() -> None:
    out = io.StringIO()
    live = LiveTable(_cases(5), out, Progress(5, "judging"), first_fail=False)
    live.case_done(_result(3))
    live.case_done(_result(2))
    assert out.getvalue() == "", "rows 2 and 3 must wait for row 1"
    live.case_done(_result(1))
    assert _numbers(out.getvalue()) == ["1", "2", "3"]
    live.case_done(_result(5))
    assert _numbers(out.getvalue()) == ["1", "2", "3"]
    assert live.interrupted() == "interrupted: 4 of 5 case(s) judged (4 AC); the runs in flight were stopped"
    assert _numbers(out.getvalue()) == ["1", "2", "3", "5"]
    widths = {len(line) for line in out.getvalue().splitlines()[2:]}
    assert len(widths) == 1, "the rows must line up under the header"


def test_first_fail_prints_nothing_after_the_failing_row() -> None:
    out = io.StringIO()
    live = LiveTable(_cases(4), out, Progress(4, "judging"), first_fail=True)
    for i, verdict in enumerate([Verdict.AC, Verdict.WA, Verdict.AC, Verdict.AC]):
        live.case_done(_result(i + 1, verdict))
    assert _numbers(out.getvalue()) == ["1", "2"]


def test_cases_timing_out_one_after_another_suggest_first_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = _Screen()
    monkeypatch.setattr(sys, "stderr", screen)
    out = io.StringIO()
    live = LiveTable(_cases(6), out, Progress(6, "judging"), first_fail=False)
    live.case_done(_result(1, Verdict.TLE))
    live.case_done(_result(2, Verdict.AC))
    live.case_done(_result(3, Verdict.TLE))
    live.case_done(_result(4, Verdict.TLE))
    assert "--first-fail" not in screen.getvalue() + out.getvalue()
    live.case_done(_result(5, Verdict.TLE))
    assert screen.getvalue().count("--first-fail") == 1 and "--first-fail" not in out.getvalue()
    live.case_done(_result(6, Verdict.TLE))
    assert screen.getvalue().count("--first-fail") == 1, "said once"


def test_a_row_a_scoring_rule_changed_is_noted_after_the_table() -> None:
    out = io.StringIO()
    live = LiveTable(_cases(2), out, Progress(2, "judging"), first_fail=False)
    live.case_done(_result(1, Verdict.WA))
    live.case_done(_result(2))
    skipped = CaseResult("c2", "g", Verdict.SKIPPED, message="not run: a required group failed")
    live.finish(JudgeReport("p", "s", "c", True, "", cases=[_result(1, Verdict.WA), skipped]))
    assert out.getvalue().splitlines()[-1] == "note: case c2 is SKIPPED after scoring: not run: a required group failed"


def test_an_abort_that_lands_while_a_launcher_starts_still_stops_its_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C may land while a slot's launcher process is being started, before the launcher has a socket that abort
    could shut down: the run must be refused, not run to its limit (a Ctrl-C would then wait out a blocked
    student's whole wall limit)."""
    from judge.run import launcher as launcher_module

    marker = f"600.{secrets.randbelow(10**6):06d}"
    started = subprocess.Popen
    with SlotPool(1) as pool:

        def popen_then_ctrl_c(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
            process = started(*args, **kwargs)  # type: ignore[call-overload]
            pool.abort()
            return process

        monkeypatch.setattr(launcher_module.subprocess, "Popen", popen_then_ctrl_c)
        outcome: list[BaseException | None] = []

        def run() -> None:
            with pool.slot() as slot:
                try:
                    slot.run(
                        RunSpec(
                            ["/bin/sleep", marker],
                            RunLimits(cpu=300, wall=300, memory_mib=64, output_bytes=1024),
                            stdout=slot.private / "out",
                            stderr=slot.private / "err",
                        )
                    )
                    outcome.append(None)
                except Aborted as exc:
                    outcome.append(exc)

        leaked = joined_and_reaped(run, marker, BOUND_S)
    assert not leaked, "the run started although the slot had been aborted"
    assert outcome and isinstance(outcome[0], Aborted)
