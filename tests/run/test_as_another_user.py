"""rlimits mode as another user (a judge that is not root and has no bubblewrap): what it still promises, judged by a
real judge running as `nobody` on the hostile `hsum` problem (see test_hostile.py).

Such a judge runs submissions as its own uid, so it cannot make anything of
its own read-only to them; what it still promises:

- verdicts from measurements: the right answer followed by a resource signal
  raised by the program itself is RE naming it, never OLE, TLE or MLE;
- the output limit is for stdout and stderr: a 2 MiB scratch file under a 1 MiB
  output limit is AC, 1 GiB to stdout is OLE;
- a build a run changed is never used by a later judging: a program that
  replaces its own binary (it can, in this mode) is built again from its
  source by the next judging, whose first case then runs the original;
- no network: a run gets socket pairs only, whatever call it uses.

Needs root (to start the judge as `nobody`) and a system Python that `nobody`
can run with PyYAML (the test session's own interpreter may live in a home
folder `nobody` cannot enter).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, _run_bounded
from test_between_runs import CHANNELS, WINDOW_MS, _found_in
from test_containment import _remove_sysv, _tag
from test_hostile import HSUM, PROGRAMS, _from_template, marker_lock

from judge.run.launcher import build_launcher

pytestmark = pytest.mark.slow

NOBODY = 65534
SYSTEM_PYTHON = "/usr/bin/python3"


def _usable() -> str | None:
    if os.geteuid() != 0:
        return "starting the judge as another user needs root"
    if shutil.which("setpriv") is None:
        return "setpriv is not installed (Debian package util-linux)"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import yaml"], capture_output=True)
    return None if probe.returncode == 0 else f"{SYSTEM_PYTHON} cannot import yaml (Debian package python3-yaml)"


def _home(launcher: bool) -> Iterator[Path]:
    """A folder of nobody's own holding the judge and the hsum problem as nobody can read them, and the program
    files it judges: the test's tmp_path is root's (0700), and so may be the checkout (a clone in a private folder).
    With ``launcher``, its judge cache holds the launcher already (a copy of the suite's, built from the same
    sources): else each judging spends seconds of gcc and a static link on it; ``cold_home`` keeps one judge that
    builds its own, as nobody."""
    reason = _usable()
    if reason:
        pytest.skip(reason)
    folder = Path(tempfile.mkdtemp(prefix="tilejudge-nobody-"))
    try:
        shutil.copytree(REPO_ROOT / "judge", folder / "judge", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(REPO_ROOT / "run_judge.py", folder / "run_judge.py")
        shutil.copytree(HSUM, folder / "problems" / HSUM.name)
        shutil.copytree(HSUM.parent.parent / "cases" / HSUM.name, folder / "cases" / HSUM.name)
        if launcher:
            built = build_launcher()
            (folder / "cache").mkdir()
            shutil.copy2(built, folder / "cache" / built.name)
        for path in (folder, *folder.rglob("*")):
            os.lchown(path, NOBODY, NOBODY)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def home() -> Iterator[Path]:
    yield from _home(launcher=True)


@pytest.fixture
def cold_home() -> Iterator[Path]:
    """As ``home``, with no launcher in its cache: the judge builds it as nobody."""
    yield from _home(launcher=False)


def _judge(home: Path, source: Path, jobs: int = 1) -> dict[str, Any]:
    """Judge `source` on hsum as nobody, in rlimits mode, with `jobs` slots; the report's JSON."""
    copy = home / source.name
    shutil.copy(source, copy)
    os.chown(copy, NOBODY, NOBODY)
    report = home / "report.json"
    report.unlink(missing_ok=True)
    args = [
        "setpriv",
        f"--reuid={NOBODY}",
        f"--regid={NOBODY}",
        "--clear-groups",
        "env",
        f"HOME={home}",
        f"TILEJUDGE_CACHE={home / 'cache'}",
        "PYTHONDONTWRITEBYTECODE=1",
        SYSTEM_PYTHON,
        str(home / "run_judge.py"),
        "judge",
        str(home / "problems" / HSUM.name),
        str(copy),
        "--sandbox",
        "rlimits",
        "--all-cases",  # the cases after a failed one show the failure stayed in its own run
        "-j",
        str(jobs),
        "--json",
        str(report),
    ]
    code, _, stderr = _run_bounded(args)
    assert code in (0, 1) and "Traceback" not in stderr and report.is_file(), stderr[-2000:]
    data: dict[str, Any] = json.loads(report.read_text())
    return data


def _cases(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {case["name"]: case for case in report["cases"]}


@pytest.mark.parametrize("signal", ["SIGXFSZ", "SIGXCPU", "SIGKILL"])
def test_signal_raised_by_the_program_is_re(home: Path, tmp_path: Path, signal: str) -> None:
    marker = f"hxraise{signal[3:].lower()}"
    cases = _cases(_judge(home, _from_template("hx_raise_signal.c", tmp_path, SIGNAL=signal, NAME=marker)))
    assert cases["c1"]["verdict"] == "RE" and cases["c1"]["signal"] == signal and signal in cases["c1"]["message"], (
        cases["c1"]
    )
    assert cases["c2"]["verdict"] == cases["c3"]["verdict"] == "AC", cases


def test_output_limit_is_for_stdout_and_stderr(home: Path) -> None:
    scratch = _cases(_judge(home, PROGRAMS / "hx_scratch_file.c"))
    assert all(case["verdict"] == "AC" for case in scratch.values()), scratch
    flood = _cases(_judge(home, PROGRAMS / "flood_stdout.c"))
    assert flood["c1"]["verdict"] == "OLE" and flood["c1"]["message"].startswith("stdout over the 1 MiB limit"), flood[
        "c1"
    ]
    assert flood["c2"]["verdict"] == "AC", flood


def test_changed_build_is_not_used_by_the_next_judging(home: Path) -> None:
    """In this mode the program can replace its binary (its later cases in the same judging run the replacement: the
    sandbox table in docs/sandbox.md says so); the next judging finds the build changed, builds it again, and its first
    case runs the original."""
    for _ in range(2):
        cases = _cases(_judge(home, PROGRAMS / "hx_replace_build.c"))
        assert cases["c1"]["verdict"] == "AC" and cases["c1"]["exit_code"] == 0, cases["c1"]


def test_only_local_sockets(cold_home: Path) -> None:
    """The seccomp filter needs no root: no TCP, UDP, netlink, packet or local socket by any call, nor io_uring;
    socket pairs work. (This judge starts with an empty cache: it builds its launcher as nobody.)"""
    cases = _cases(_judge(cold_home, PROGRAMS / "hx_sockets.c"))
    assert [path.name for path in (cold_home / "cache").glob("launcher-*")], "the judge built no launcher of its own"
    assert all(case["verdict"] == "AC" for case in cases.values()), cases["c1"]


# What the seccomp filter and the Landlock scope close without root; the rest (the uid, /tmp, /dev/shm, System V
# IPC, /proc and the control groups of the machine) this mode shares between runs side by side (docs/sandbox.md).
CLOSED_WITHOUT_ROOT = ("posix_lock", "ofd_lock", "flock", "inotify", "fanotify", "dnotify", "abstract", "signal")


def test_runs_side_by_side_share_no_lock_watch_or_socket(home: Path, tmp_path: Path) -> None:
    """Two runs at once as the judge's own uid: no lock, watch, local socket or signal carries from c1 to c2."""
    assert set(CLOSED_WITHOUT_ROOT) <= set(CHANNELS)
    tag = _tag()
    key = 0x4A000000 | int(tag[:6], 16)
    program = _from_template(
        "hx_between.c", tmp_path, TAG=tag, KEY=hex(key), WINDOW_MS=str(WINDOW_MS), OFFSET=str(4096 + key % 4096)
    )
    try:
        # the marker's lock, as test_between_runs holds it: that test, in another worker, counts any process named
        # hxbetween* before its run as one its own run left, and this pair's processes have the same names
        with marker_lock("hxbetween"):
            cases = _cases(_judge(home, program, jobs=2))
    finally:
        _remove_sysv(key)
        for leftover in (Path("/dev/shm") / f"hxbetween-{tag}", Path("/tmp") / f"hxbetween-{tag}"):
            leftover.unlink(missing_ok=True)
    found = _found_in(cases["c2"])
    assert cases["c2"]["verdict"] == "AC" or cases["c2"]["exit_code"] == 42, cases["c2"]
    assert not found & set(CLOSED_WITHOUT_ROOT), (sorted(found), cases["c2"])
