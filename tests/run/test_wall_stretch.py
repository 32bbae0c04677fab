"""A run kept from its CPU keeps its wall limit stretched, and its wait is reported, even while no schedstat shows it.

The kernel adds a thread's wait on a run queue to ``/proc/PID/schedstat`` only when the thread gets a CPU. A program
that a process of much higher weight keeps from its CPU gets a slice of a few ms far apart, so the delay read at the
wall limit can leave out nearly all the time it lost: the launcher stopped it at the limit as if it had slept, and
reported no wait, so the judge did not run the case again alone (the CI failure of
test_verdict_rules.py::test_load_starved_program_is_confirmed_at_j1: 0.01 s of CPU in 0.91 s, TLE). The launcher now
looks twice at the run's runnable processes (launcher.c, proctree.c): one still runnable with its CPU clock unmoved
waited the whole time in between.

Here the program pins itself to CPU 0 under SCHED_IDLE beside a busy process pinned there at the highest priority: it
gets next to no CPU for the whole run, and its schedstat wait stays near what it was when it was first kept off. A
little after the stretch's cap the busy process is stopped and the program put back under the normal policy: killed,
it must still get a CPU to end, which SCHED_IDLE on a loaded machine gets seconds apart.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from harness import top_priority
from test_hostile import WALL_STRETCH

from judge.run import RunLimits, RunSpec
from judge.run.launcher import Launcher, build_launcher

pytestmark = [
    pytest.mark.slow,  # it takes CPU 0 from every other test for 1.5 s, as the other starving tests do
    pytest.mark.skipif(
        os.geteuid() != 0 or 0 not in os.sched_getaffinity(0),
        reason="the busy process's priority needs root, and CPU 0",
    ),
]

WALL = 0.4
HOG = top_priority(0) + "import time\nend = time.monotonic() + 30\nwhile time.monotonic() < end: pass\n"
KEPT_OFF = (
    "import os, time\nos.sched_setaffinity(0, {0})\nos.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\n"
    "while time.process_time() < 1: pass\n"
)


def _release(hog: subprocess.Popen[bytes], program: Path) -> None:
    """The busy process stopped, and the program (if it is still there) back under SCHED_OTHER."""
    hog.kill()
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(program).encode() in (proc / "cmdline").read_bytes():
                os.sched_setscheduler(int(proc.name), os.SCHED_OTHER, os.sched_param(0))
        except OSError:
            pass  # gone


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_program_kept_from_its_cpu_is_stopped_at_the_stretched_limit_with_its_wait(tmp_path: Path) -> None:
    """Kept until the stretch's cap (3 x 0.4 s), having used next to no CPU, and the time it waited is reported: at
    least what passed between the first look at the limit and the cap (counting only the waits schedstat had, the
    launcher stopped it at 0.4 s and reported about 0.2 s or none)."""
    program = tmp_path / "kept_off.py"
    program.write_text(KEPT_OFF)
    launcher = Launcher([str(build_launcher())], tmp_path / "log")
    hog = subprocess.Popen([sys.executable, "-c", HOG], start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while _cpu_seconds(hog.pid) < 0.05 and time.monotonic() < deadline:  # spinning on CPU 0 before the run
            time.sleep(0.01)
        limits = RunLimits(cpu=5, wall=WALL, memory_mib=256, output_bytes=1 << 20)
        threading.Timer(WALL_STRETCH * WALL + 0.3, _release, (hog, program)).start()
        result = launcher.run(RunSpec([sys.executable, str(program)], limits, tmp_path / "out", tmp_path / "err"))
    finally:
        hog.kill()
        hog.wait()
        launcher.close()
    assert result.killed == "wall" and result.cpu < 0.3, result
    assert result.waited >= (WALL_STRETCH - 1) * WALL - 0.05, result
