"""A run starts with a fresh signal state, whatever the judge inherited.

The launcher sets every signal back to its default once, when it starts, and
a run's child then only undoes the three the launcher handles or ignores
itself (``child.c``, ``own_signals_default``): a judge started with
signals ignored (``nohup``, a service manager, a shell's background job
ignoring SIGINT and SIGQUIT) must not hand that to a submission, which would
then survive or ignore what it should not. ``cat /proc/self/status`` run as
a submission in every mode this machine has, by a judge process that ignores
SIGINT, SIGQUIT and SIGUSR1 and blocks none: nothing ignored, nothing blocked.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO_ROOT

from judge.run import bwrap_works

PROBE = """
import signal, sys
from pathlib import Path
for number in (signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1):
    signal.signal(number, signal.SIG_IGN)
from judge.run import Isolation, RunLimits, RunSpec, SlotPool
with SlotPool(1, Isolation(sys.argv[1])) as pool, pool.slot() as slot:
    out = slot.private / "status"
    limits = RunLimits(cpu=2, wall=10, memory_mib=256, output_bytes=1 << 20)
    result = slot.run_untrusted(RunSpec(["/bin/cat", "/proc/self/status"], limits, out, slot.private / "err"), ())
    print(result.exit_code, *(line for line in out.read_text().splitlines() if line.startswith(("SigIgn", "SigBlk"))))
"""


def _modes() -> list[str]:
    return ["none", "rlimits", *(["bwrap"] if bwrap_works() is None else [])]


@pytest.mark.parametrize("mode", _modes())
def test_a_run_inherits_no_ignored_or_blocked_signal(mode: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "SigBlk:", "0000000000000000", "SigIgn:", "0000000000000000"], done.stdout
