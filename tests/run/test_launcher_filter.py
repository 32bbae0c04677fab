"""What a launcher prepares once for all its runs: the seccomp filter (``launcher --filter``), the mounts to detach.

A run must get the same filter either way: exactly one (not the launcher's and its own stacked, nor none), with
no_new_privs, in every sandboxed mode this machine has. A launcher started with a filter must refuse a request asking
for another one, fewer bits above all, since that run would get more than it asked for and silently so. On cgroup
v2 an untrusted launcher is started without the filter: it makes each run's child with clone3, which the filter
refuses.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from judge.run import ExecError, Isolation, RunLimits, RunSpec, bwrap_works
from judge.run.cgroups import Cgroups
from judge.run.launcher import Launcher, build_launcher
from judge.run.types import FILTER_BITS

PROBE = """
import sys
from judge.run import Isolation, RunLimits, RunSpec, SlotPool
with SlotPool(1, Isolation(sys.argv[1])) as pool, pool.slot() as slot:
    out = slot.private / "status"
    limits = RunLimits(cpu=2, wall=10, memory_mib=256, output_bytes=1 << 20)
    for _ in range(2):  # the second run is served by the same launcher
        result = slot.run_untrusted(RunSpec(["/bin/cat", "/proc/self/status"], limits, out, slot.private / "err"), ())
        wanted = ("NoNewPrivs", "Seccomp:", "Seccomp_filters")
        print(result.exit_code, *(line for line in out.read_text().splitlines() if line.startswith(wanted)))
"""


def _sandboxes() -> list[str]:
    return ["rlimits", *(["bwrap"] if bwrap_works() is None else [])]


@pytest.mark.parametrize("mode", _sandboxes())
def test_every_run_has_exactly_one_filter(mode: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    one_run = ["0", "NoNewPrivs:", "1", "Seccomp:", "2", "Seccomp_filters:", "1"]
    assert done.stdout.split() == one_run * 2, done.stdout


def test_a_filtered_launcher_refuses_a_request_for_another_filter(tmp_path: Path) -> None:
    launcher = Launcher([str(build_launcher()), "--filter", str(FILTER_BITS)], tmp_path / "log")
    limits = RunLimits(cpu=2, wall=10, memory_mib=256, output_bytes=1 << 20)
    try:
        for fresh in (0, FILTER_BITS & ~256):
            spec = RunSpec(["/bin/true"], limits, tmp_path / "out", tmp_path / "err", fresh=fresh)
            with pytest.raises(ExecError, match="seccomp filter"):
                launcher.run(spec)
        assert (
            launcher.run(
                RunSpec(["/bin/true"], limits, tmp_path / "out", tmp_path / "err", fresh=FILTER_BITS)
            ).exit_code
            == 0
        )
    finally:
        launcher.close()


@pytest.mark.parametrize(("version", "filtered"), [(1, True), (2, False)])
def test_the_filter_goes_on_the_launcher_unless_it_needs_clone3(version: int, filtered: bool) -> None:
    isolation = Isolation("rlimits", Cgroups(version, (Path("/nowhere"),)))
    argv = isolation.launcher_argv(Path("/launcher"), ())
    assert ("--filter" in argv) is filtered
    if filtered:
        assert int(argv[argv.index("--filter") + 1]) == isolation.fresh & FILTER_BITS
    assert Isolation("rlimits", None).launcher_argv(Path("/launcher"), ()).count("--filter") == 1
    assert "--filter" not in Isolation("none", None).launcher_argv(Path("/launcher"), ())


MOUNTINFO = """
import subprocess, sys
from judge.run import Isolation, RunLimits, RunSpec, SlotPool
with SlotPool(1, Isolation("rlimits")) as pool, pool.slot() as slot:
    out = slot.private / "mounts"
    limits = RunLimits(cpu=2, wall=10, memory_mib=256, output_bytes=1 << 20)
    for step in ("before", "mounted", "again"):
        if step == "mounted":
            subprocess.run(["mount", "-t", "cgroup2", "none", sys.argv[1]], check=True)
        spec = RunSpec(["/bin/cat", "/proc/self/mountinfo"], limits, out, slot.private / "err")
        result = slot.run_untrusted(spec, ())
        kinds = [line.split(" - ")[1].split()[0] for line in out.read_text().splitlines()]
        print(step, result.exit_code, sum(kind.startswith("cgroup") for kind in kinds), sys.argv[1] in out.read_text())
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="private mounts per run need root")
def test_a_control_group_mounted_after_the_launcher_started_is_detached_too() -> None:
    """The launcher reads its mount table once and again only when it changes (confine.c): a control-group file
    system the machine mounts while a slot lives must leave the view of the next run all the same."""
    where = Path(tempfile.mkdtemp(prefix="tilejudge-test-", dir="/srv"))
    try:
        done = subprocess.run(
            [sys.executable, "-c", MOUNTINFO, str(where)], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
        )
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)
        where.rmdir()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "before",
        "0",
        "0",
        "False",
        "mounted",
        "0",
        "0",
        "False",
        "again",
        "0",
        "0",
        "False",
    ]
