"""Hostile submissions: real programs that attack the machine, judged end to end.

Each test judges one program from tests/fixtures/hostile/programs on a small
fixture problem with short limits and asserts its verdict from the JSON
report. After every run the harness (`Hostile.run`) also checks the promises
that must hold whatever the program did:

- the judge is still fine: it exits 0 or 1 (never 3, never a traceback) and
  reports every case (or none, for CE);
- no stray process: nothing whose /proc comm or cmdline carries the
  program's unique marker survives the run (2 s of grace, polling);
- no file changed outside the scratch folder: the repository's problems/ and
  tests/fixtures/ trees and the test's own tmp folder are the same before
  and after (path, type, size, mtime, sha256 of files up to 1 MiB). The
  repository's cases/ is left out: large cases there are generated on
  demand by any judge run, so it may change under a concurrent one.

The hostile problem `hsum` (time 1 s, so wall 2 s; Java twice that; memory
64 MiB; output 1 MiB; compile 4 s) has three cases; input line 1 is the
case number. Most programs attack only on case 1 and answer cases 2 and 3
correctly, so the tests also show that one run's damage does not reach the
next: those cases must stay AC. `hdeep` (256 MiB) holds the deep recursion.

Expected verdicts in bwrap mode, where a choice exists:
- 2000 children: fork fails under the per-uid process limit (256); the
  program then exits 8 and reports how many forks succeeded on stderr (RE),
  and the test checks that number is under the limit.
- daemonised grandchild: the main process answers (AC); the grandchild,
  sleeping 30 s, must be gone right after the run.
- memory bombs (C++, Python, Java): MLE.
- 1 GB to stdout, 1 GB to stderr: OLE within 3 s of wall time, the message
  naming the stream (the launcher counts both and stops the run past the
  limit); also OLE when the program ignores SIGXFSZ and SIGPIPE.
- filling the scratch disk: the program sees ENOSPC and exits 3 (RE), or
  is MLE first (tmpfs pages are memory charged to the run's group); the
  next case, in the same slot (-j 1), must find none of its files.
- writing into problems/: every open is refused, the program exits 4 (RE),
  and no file appears.
- reading the case's .ans (absolute, climbing relative, repo-relative, and
  next to the input /proc/self/fd/0 names): every read is refused, exit 6
  (RE) on every case; never AC.
- TCP to a server the test runs on 127.0.0.1: refused, exit 7 (RE), and the
  server accepts nothing.
- PID-namespace probe: prints its pid, ppid, uid and the number of
  processes /proc lists, exits 9 (RE) so the line reaches the report; it
  must see a handful of small pids and an unprivileged uid.
- killing its parent: refused (the launcher is another user), so AC; the
  judge finishes normally and the next cases run. Run only in bwrap mode and
  only after a probe has shown the program is in its own PID namespace.
- ignoring SIGTERM in a busy loop: TLE, stopped at the CPU limit.
- sleeping for ever: TLE by the wall limit, within a second after it.
  (These two, which run until a limit stops them, are judged on `hsum_quick`,
  a copy of hsum at 0.2 s, so wall 1.2 s.)
- reading past the end of stdin, then from a closed stdin: each read returns
  at once (stdin is a file), so the program answers: AC.
- closing stdout: before writing anything, WA (empty output); after writing
  the answer, AC.
- 10^6 frames of C++ recursion in 256 MiB: AC.
- compile bombs (2^40 template instantiations, #include "/dev/zero"): CE,
  well within the compile wall limit, with a log that says why.
- #include of /etc/shadow or of a repository file: CE, missing file, and
  none of the file's content in the log.

With --sandbox rlimits the same battery runs. As root, rlimits mode runs
submissions and compilations under another uid with PID and network
namespaces of their own per run, private /tmp and the repository and test
data hidden, so it contains all of it. A mode that cannot contain an attack
marks it `xfail(strict=True, raises=NotContained)` (see `_modes`): only a
failed containment check counts as the expected failure, so a broken
promise of every mode (a stray process, a judge crash) still fails the
test, and a containment check that starts passing is reported too. Not run
in rlimits mode: the parent-killer (one mistake in the uid switch would let
it kill a process of the judge's) and #include "/etc/shadow" (the machine's
files stay visible in rlimits mode, so a mistake would copy real lines into
the report).

The suite is written for root, as CI runs it: only root can give each
sandbox slot its own uid and make control groups on these machines.

Safety, since this runs as root on a shared machine even when the sandbox is
broken: every program is bounded by itself (at most 2000 forks, children
sleep at most 30 s, busy loops stop after 20 s of CPU, sleeps after 60 s,
allocations at 1 GiB, writes at 1 GiB, scratch files at 128 MiB); none
signals anything but its own parent, and that one only after the probe. In
rlimits mode the write-into-problems program aims at a throw-away copy in
tmp_path. Leftovers found by marker are killed by pid after being reported.
Processes are found by a marker fixed in each program, machine-wide, so a
run holds a lock named by its marker (`marker_lock`): two tests of one
program, in two xdist workers, take turns rather than see (and kill) each
other's processes.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import re
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    FIXTURES,
    REPO_ROOT,
    JudgeRun,
    JudgeRunner,
    _run_bounded,
    cache_with_launcher,
    needs,
    shared_by_workers,
)

from judge.lang.compiling import STARVED_WALL_FACTOR

HOSTILE = FIXTURES / "hostile"
PROGRAMS = HOSTILE / "programs"
HSUM = HOSTILE / "problems" / "hsum"
HDEEP = HOSTILE / "problems" / "hdeep"
HSUM_ANSWERS = HOSTILE / "cases" / "hsum" / "main"
CASES = {HSUM: ("c1", "c2", "c3"), HDEEP: ("million", "thousand")}

HSUM_WALL_LIMIT_S = 2.0  # max(2 x 1 s, 1 s + 1 s): the judge's default for hsum's 1 s
HSUM_COMPILE_S = 4.0  # hsum's limits.compile_time
QUICK_COMPILE_S = 1  # hsum_quick_compile's limits.compile_time, for compile bombs
COMPILE_WALL_LIMIT_S = 2 * QUICK_COMPILE_S + 5  # the judge's wall limit for one compilation there
# judge/lang/compiling.py: a compile the clock stopped while it waited for a CPU is tried again with twice the time
COMPILE_TRIES_WALL = 1 + STARVED_WALL_FACTOR
WALL_STRETCH = 3  # judge/run/launcher.c: a run's wall limit goes on by what it waited for a CPU, to 3 times the limit
# starting the judge and its sandboxes, and ending them: 5 s idle was too little at load 10-15, and 30 s (with the
# compile's wall limit unstretched) at load ~30-45 (53 s in all, a fresh-clone run). The bound is there to tell a
# compile stopped by its limit from one that was not (an unstopped template bomb or read of /dev/zero runs for
# hours), so it may be generous without becoming a timing assertion.
JUDGE_START_ALLOWANCE_S = 120.0
SANDBOX_UID_BASE = 61000
SANDBOX_PROCESS_LIMIT = 256

TREES = (REPO_ROOT / "problems", FIXTURES)
HASHED_BYTES = 1 << 20
LEFTOVER_GRACE_S = 2.0


class NotContained(AssertionError):
    """An attack got through: the only failure a mode's strict xfail may absorb."""


def _expect_contained(held: bool, what: str, run: JudgeRun) -> None:
    """Fail with NotContained, so rlimits' xfail marks can tell containment apart from any other breakage."""
    if not held:
        raise NotContained(f"not contained: {what}\n{run.describe()}")


NO_CGROUPS = "rlimits-without-cgroups"  # rlimits mode with control groups switched off: the fallback's promises


def _modes(not_contained_in_rlimits: str | None = None, *, without_cgroups: str | bool = False) -> list[Any]:
    """Both sandbox modes; rlimits as a strict xfail when the reason says what it does not contain.

    ``without_cgroups`` also runs rlimits mode on the fallback a machine
    without usable control groups gets: True when it must contain the attack
    too, a reason to expect (strictly) that it does not.
    """

    def xfail(reason: str) -> list[Any]:
        return [pytest.mark.xfail(strict=True, raises=NotContained, reason=reason)]

    rlimits = xfail(f"not contained in rlimits mode: {not_contained_in_rlimits}") if not_contained_in_rlimits else []
    modes = [
        pytest.param("bwrap", marks=needs("bwrap"), id="bwrap"),
        pytest.param("rlimits", marks=rlimits, id="rlimits"),
    ]
    if without_cgroups is not False:
        marks = [] if without_cgroups is True else xfail(f"not contained without control groups: {without_cgroups}")
        modes.append(pytest.param(NO_CGROUPS, marks=marks, id="no-cgroups"))
    return modes


# ---------------------------------------------------------------- leftovers


def _marked(pid: int, marker: bytes) -> bool:
    """Whether a process shows the marker in its name or command line (False once it is gone)."""
    try:
        comm = Path(f"/proc/{pid}/comm").read_bytes()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return marker in comm or marker in cmdline


def _processes_marked(marker: str) -> list[int]:
    """Every process but this one whose name or command line contains the marker."""
    wanted = marker.encode()
    pids = (int(entry) for entry in os.listdir("/proc") if entry.isdigit())
    return [pid for pid in pids if pid != os.getpid() and _marked(pid, wanted)]


MARKER_LOCKS = Path(tempfile.gettempdir()) / "tilejudge-hostile-markers.lock"


@contextlib.contextmanager
def marker_lock(marker: str) -> Iterator[None]:
    """Hold the machine-wide lock of `marker` while its program runs and its leftovers are looked for.

    Each marker locks one byte of one shared file (a record lock at an offset from its hash), so a run of the suite
    leaves one file in the temporary folder rather than one per marker; two markers whose offsets collide only wait
    for each other. Record locks belong to the process and go with any close of the file, so the file stays open
    for the process's life."""
    offset = int.from_bytes(hashlib.sha256(marker.encode()).digest()[:4], "big")
    fcntl.lockf(_marker_locks(), fcntl.LOCK_EX, 1, offset)
    try:
        yield
    finally:
        fcntl.lockf(_marker_locks(), fcntl.LOCK_UN, 1, offset)


@functools.cache
def _marker_locks() -> int:
    """The shared lock file, opened once per process (see ``marker_lock``)."""
    return os.open(MARKER_LOCKS, os.O_RDWR | os.O_CREAT, 0o644)


def _assert_no_leftovers(marker: str) -> None:
    """Wait up to the grace period for marked processes to vanish; kill and report any that stay.

    The kill is by pid, after checking the marker again, so nothing else is
    touched; it keeps one broken run from poisoning the tests after it.
    """
    deadline = time.monotonic() + LEFTOVER_GRACE_S
    while (left := _processes_marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        if _marked(pid, marker.encode()):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert not left, f"{len(left)} process(es) marked {marker!r} outlived the run: pids {left[:20]}"


# ---------------------------------------------------------------- snapshots

Snapshot = dict[str, tuple[object, ...]]


def _entry(path: Path) -> tuple[object, ...]:
    """What identifies one file or folder's state; files up to 1 MiB also by content."""
    st = path.lstat()
    if path.is_symlink():
        return ("link", os.readlink(path))
    if path.is_dir():
        return ("dir", st.st_mtime_ns)
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if st.st_size <= HASHED_BYTES else None
    return ("file", st.st_size, st.st_mtime_ns, digest)


def _snapshot(roots: Iterable[Path], tmp_path: Path) -> Snapshot:
    """The state of every entry under the roots.

    In tmp_path the judge's own report files and the folder's mtime (which
    their creation changes) are left out: they are the test's output.
    """
    state: Snapshot = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            for name in [*dirs, *files]:
                path = Path(folder) / name
                if path.parent == tmp_path and re.fullmatch(r"report-\d+\.json", name):
                    continue
                state[str(path)] = _entry(path)
        if root != tmp_path:
            state[str(root)] = _entry(root)
    return state


def _changes(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths that appeared, vanished or changed, for the failure message."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


# ---------------------------------------------------------------- harness


class Hostile:
    """Judges one hostile program and checks the promises that must hold after any run."""

    def __init__(self, judge: JudgeRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caches: Path) -> None:
        self._judge = judge
        self._tmp_path = tmp_path
        self._monkeypatch = monkeypatch
        self._caches = caches

    def run(
        self,
        problem: Path,
        submission: Path,
        mode: str,
        marker: str,
        jobs: int = 2,
        cache: str | None = None,
        beside: contextlib.AbstractContextManager[object] | None = None,
    ) -> JudgeRun:
        """Judge `submission` in `mode`; fail on a judge error or a stray process, raise NotContained on a changed file.

        Each mode compiles into its own build cache, so a compile-time attack
        is really compiled in the mode under test, never served from a build
        made in the other one; `cache` names another mode whose cache to share
        (`BUILT_ONCE`: one every mode shares, for attacks at run time only).
        `beside` is held around the judging only, inside the marker's lock, so
        what it does on seeing the marked processes meets this run's alone.
        """
        self._monkeypatch.setenv("TILEJUDGE_CACHE", str(self.cache(cache or mode)))
        sandbox = mode
        if mode == NO_CGROUPS:
            self._monkeypatch.setenv("TILEJUDGE_NO_CGROUPS", "1")
            sandbox = "rlimits"
        roots = (*TREES, self._tmp_path)
        before = _snapshot(roots, self._tmp_path)
        with marker_lock(marker):
            assert not _processes_marked(marker), f"processes marked {marker!r} exist before the run"
            with beside or contextlib.nullcontext():
                run = self._judge(problem, submission, "--sandbox", sandbox, "-j", str(jobs))
            _assert_no_leftovers(marker)
        assert run.returncode in (0, 1), f"the judge failed\n{run.describe()}"
        assert "Traceback" not in run.stderr, run.describe()
        expected = (
            () if run.verdict == "CE" else CASES[problem if problem in CASES else HOSTILE / "problems" / problem.name]
        )  # a copy: its original's
        assert tuple(case["name"] for case in run.cases) == expected, f"cases missing\n{run.describe()}"
        changed = _changes(before, _snapshot(roots, self._tmp_path))
        _expect_contained(not changed, f"files changed outside the scratch folder: {changed[:10]}", run)
        return run

    def cache(self, mode: str) -> Path:
        """The build cache judgings in `mode` use (`BUILT_ONCE`: the one every mode shares)."""
        return _built_once(self._caches) if mode == BUILT_ONCE else cache_with_launcher(self._caches / mode)


BUILT_ONCE = "built-once"  # Hostile.run's cache for a program whose attack is at run time: built in one mode, for all


def _built_once(caches: Path) -> Path:
    """The build cache every mode and every pytest worker of the session shares (``caches``, the session's
    build_caches, is right under the process's basetemp; a worker's basetemp is one folder of the session's), for
    programs whose attack is at run time: a JVM's or C++'s build is made once, not once per mode and per worker.
    Made under a lock by the first worker to ask; the judge's cache itself is safe for concurrent judges."""
    root = shared_by_workers(caches.parent)
    with (root / f"{BUILT_ONCE}.lock").open("w") as lock:
        fcntl.lockf(lock, fcntl.LOCK_EX)
        return cache_with_launcher(root / BUILT_ONCE)


@pytest.fixture(scope="session")
def hostile_references() -> None:
    """Judge the hostile problems' references before anything hostile runs: the problems and the judge must work.

    Their cases exist already (conftest's session start makes them, so no
    generation writes into a tree a snapshot is watching).
    """
    for problem in CASES:
        args = [
            sys.executable,
            "run_judge.py",
            "judge",
            str(problem),
            str(problem / "solution.py"),
            "--sandbox",
            "rlimits",
        ]
        returncode, _, stderr = _run_bounded(args)
        assert returncode == 0, f"the reference of {problem.name} is not accepted: {stderr[-2000:]}"


@pytest.fixture(scope="session")
def build_caches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each mode's private build cache lives, for the whole session."""
    return tmp_path_factory.mktemp("hostile-builds")


@pytest.fixture
def hostile(
    judge_process: JudgeRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    hostile_references: None,
    build_caches: Path,
) -> Hostile:
    """The harness, for one test: each run in a judge process of its own, the one hostile programs aim at."""
    return Hostile(judge_process, tmp_path, monkeypatch, build_caches)


QUICK_TIME_S = 0.2  # hsum_quick's limits.time
QUICK_WALL_LIMIT_S = QUICK_TIME_S + 1  # max(2 x 0.2 s, 0.2 s + 1 s): the judge's default for it
SHORT_WALL_LIMIT_S = 0.6  # hsum_short_wall's limits.time and .wall (a wall limit is never under the time limit)


def _hsum_copy(root: Path, limits: str) -> Path:
    """A copy of hsum (problems/ and cases/ side by side under ``root``) with ``limits`` in place of its ``time: 1``
    line. Outside any test's tmp_path: what a judging writes into it is no change a snapshot watches (the
    repository's problems/ and tests/fixtures/ stay watched)."""
    copy = root / "problems" / "hsum"
    shutil.copytree(HSUM, copy)
    shutil.copytree(HSUM_ANSWERS.parent, root / "cases" / "hsum")
    spec = copy / "problem.yaml"
    text = spec.read_text()
    assert "  time: 1\n" in text
    spec.write_text(text.replace("  time: 1\n", limits))
    return copy


@pytest.fixture(scope="module")
def hsum_quick(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """hsum at a time limit of 0.2 s, not 1 s, so a wall limit of 1.2 s, not 2 s: for programs that run until a limit
    stops them, which they reach as surely at 0.2 s as at 1 s. The wall limit is then six times C's CPU limit, not
    twice, so a busy loop judged on a loaded machine still meets its CPU limit first."""
    return _hsum_copy(tmp_path_factory.mktemp("hsum-quick"), f"  time: {QUICK_TIME_S:g}\n")


@pytest.fixture(scope="module")
def hsum_short_wall(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """hsum with its time and wall limits stated as 0.6 s (twice the CPU hx_starved needs), not 1 s and the default
    2 s: a run kept from its CPU is stretched to at most 3 times its wall limit, 1.8 s, not 6 s, before the clock stops
    it, all of it beside a busy process."""
    limit = f"{SHORT_WALL_LIMIT_S:g}"
    return _hsum_copy(tmp_path_factory.mktemp("hsum-short-wall"), f"  time: {limit}\n  wall: {limit}\n")


def _from_template(name: str, destination: Path, **values: str) -> Path:
    """Write program `name` from its .tmpl with each @KEY@ replaced: the paths and ports it attacks exist only at test
    time."""
    text = (PROGRAMS / f"{name}.tmpl").read_text()
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    assert not re.search(r"@[A-Z_]+@", text), f"{name}: a placeholder was left unfilled"
    path = destination / name
    path.write_text(text)
    return path


def _expect_accepted(run: JudgeRun, names: Sequence[str]) -> None:
    """The named cases ran cleanly and were accepted: the attack on another case did not reach them."""
    for name in names:
        case = run.case(name)
        assert case["verdict"] == "AC" and case["exit_code"] == 0, f"case {name} was affected\n{run.describe()}"


def _expect_refused(run: JudgeRun, name: str, exit_code: int) -> None:
    """The case ended with the program's own 'attack refused' exit code."""
    case = run.case(name)
    _expect_contained(
        case["verdict"] == "RE" and case["exit_code"] == exit_code, f"case {name} did not exit {exit_code}", run
    )


# ---------------------------------------------------------------- processes


@pytest.mark.parametrize("mode", _modes())
def test_many_children_are_capped(hostile: Hostile, mode: str) -> None:
    """2000 sleeping children: fork fails at the sandbox's 256-process limit, the program exits 8, none survives."""
    run = hostile.run(HSUM, PROGRAMS / "forks.c", mode, "hxforks")
    _expect_accepted(run, ["c2", "c3"])
    _expect_refused(run, "c1", 8)
    reported = re.search(r"forks=(\d+)", run.case("c1")["message"])
    assert reported is not None and int(reported.group(1)) < SANDBOX_PROCESS_LIMIT, run.describe()


@pytest.mark.parametrize("mode", _modes())
def test_daemonised_grandchild_is_killed(hostile: Hostile, mode: str) -> None:
    """A double-forked grandchild in its own session is killed with the run; the run does not wait for it."""
    run = hostile.run(HSUM, PROGRAMS / "daemon.c", mode, "hxdaemon")
    _expect_accepted(run, ["c1", "c2", "c3"])
    assert run.case("c1")["wall_time"] < 1, run.describe()


def _probe(hostile: Hostile, mode: str) -> list[dict[str, int]]:
    """What the probe saw of the process table on each case: pid, ppid, uid, procs."""
    run = hostile.run(HSUM, PROGRAMS / "hx_probe.py", mode, "hx_probe")
    views = []
    for case in run.cases:
        assert case["verdict"] == "RE" and case["exit_code"] == 9, run.describe()
        seen = re.search(r"pid=(\d+) ppid=(\d+) uid=(\d+) procs=(\d+)", case["message"])
        assert seen is not None, run.describe()
        views.append(dict(zip(("pid", "ppid", "uid", "procs"), map(int, seen.groups()))))
    return views


def _own_pid_namespace(view: dict[str, int]) -> bool:
    """Small pids and a /proc with a handful of processes: only a fresh PID namespace looks like this."""
    return view["pid"] <= 16 and view["ppid"] <= 16 and view["procs"] <= 8


@pytest.mark.parametrize("mode", _modes())
def test_probe_sees_own_pid_namespace(hostile: Hostile, mode: str) -> None:
    """The program's view of the process table holds only its sandbox, and it runs as an unprivileged uid."""
    for view in _probe(hostile, mode):
        if not (_own_pid_namespace(view) and view["uid"] >= SANDBOX_UID_BASE):
            raise NotContained(f"the program sees {view}")


@needs("bwrap")
def test_killing_parent_is_refused(hostile: Hostile) -> None:
    """kill(getppid(), SIGKILL), bwrap only, run only once the probe has shown an own PID namespace.

    The parent is the launcher, running as another user, so the kill is
    refused and the program answers (AC); the judge finishes normally and
    the next cases run. Were the kill to go through, the judge would have to
    report the run (the program would exit 10: RE), never crash.
    """
    views = _probe(hostile, "bwrap")
    assert all(_own_pid_namespace(view) for view in views), f"no PID namespace, not running the parent-killer: {views}"
    run = hostile.run(HSUM, PROGRAMS / "kill_parent.c", "bwrap", "hxkillpar")
    _expect_accepted(run, ["c1", "c2", "c3"])


@pytest.mark.parametrize("mode", _modes())
def test_sigterm_ignoring_loop_is_stopped(hostile: Hostile, hsum_quick: Path, mode: str) -> None:
    """A busy loop that ignores SIGTERM is killed at the CPU limit (hsum_quick's 0.2 s): TLE, promptly (apart from
    the time the machine's load kept it waiting for a CPU, which the wall limit does not count)."""
    run = hostile.run(hsum_quick, PROGRAMS / "sigterm_loop.c", mode, "hxsigterm")
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    assert case["verdict"] == "TLE" and case["signal"] == "SIGKILL", run.describe()
    assert case["wall_time"] - case["waited"] < QUICK_WALL_LIMIT_S + 1, run.describe()


@pytest.mark.parametrize("mode", _modes())
def test_sleeping_for_ever_is_stopped_by_wall_clock(hostile: Hostile, hsum_quick: Path, mode: str) -> None:
    """A sleeper uses no CPU: the wall limit (hsum_quick's 1.2 s) stops it, within a second after it."""
    run = hostile.run(hsum_quick, PROGRAMS / "sleep_forever.c", mode, "hxsleep")
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    assert case["verdict"] == "TLE" and case["time"] < 0.1, run.describe()
    assert 0.9 * QUICK_WALL_LIMIT_S <= case["wall_time"] < QUICK_WALL_LIMIT_S + 1, run.describe()


# ---------------------------------------------------------------- memory and stack


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
@pytest.mark.parametrize(
    ("source", "marker"),
    [
        pytest.param("mem_bomb.cpp", "hxmemcpp", id="cpp"),
        pytest.param("hx_mem_bomb.py", "hx_mem_bomb", id="python"),
        pytest.param("HxMemBomb.java", "HxMemBomb", id="java"),
    ],
)
def test_memory_bomb_is_mle(hostile: Hostile, mode: str, source: str, marker: str) -> None:
    """Allocating without end (bounded at 1 GiB) hits the 64 MiB limit: MLE, in every language (each built once,
    run in every mode)."""
    run = hostile.run(HSUM, PROGRAMS / source, mode, marker, cache=BUILT_ONCE)
    _expect_accepted(run, ["c2", "c3"])
    assert run.case("c1")["verdict"] == "MLE", run.describe()


@pytest.mark.parametrize("mode", _modes())
def test_deep_recursion_fits_in_memory_limit(hostile: Hostile, mode: str) -> None:
    """10^6 real C++ frames (over 16 MiB of stack, twice the usual default) are AC under a 256 MiB limit."""
    run = hostile.run(HDEEP, PROGRAMS / "deep_recursion.cpp", mode, "hxdeep", cache=BUILT_ONCE)
    _expect_accepted(run, ["million", "thousand"])
    assert 16 * 1024 < run.case("million")["memory_kb"] < 256 * 1024, run.describe()


# ---------------------------------------------------------------- output and standard streams


@pytest.mark.parametrize("mode", _modes())
@pytest.mark.parametrize(
    ("source", "marker", "stream"),
    [
        pytest.param("flood_stdout.c", "hxstdout", "stdout", id="stdout"),
        pytest.param("flood_stderr.c", "hxstderr", "stderr", id="stderr"),
        pytest.param("flood_stderr_nosig.c", "hxerrnosig", "stderr", id="stderr-sigxfsz-ignored"),
    ],
)
def test_gigabyte_of_output_is_ole(hostile: Hostile, mode: str, source: str, marker: str, stream: str) -> None:
    """1 GiB to stdout or stderr is OLE at once, naming the stream; ignoring SIGXFSZ changes nothing."""
    run = hostile.run(HSUM, PROGRAMS / source, mode, marker)
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    assert case["verdict"] == "OLE", run.describe()
    assert case["wall_time"] < 3, run.describe()
    assert case["message"].startswith(f"{stream} over the 1 MiB limit"), run.describe()


@pytest.mark.parametrize("mode", _modes())
def test_reading_past_end_of_stdin_does_not_block(hostile: Hostile, mode: str) -> None:
    """Reads past the end of stdin, and from a closed stdin, return at once: the program answers, AC."""
    run = hostile.run(HSUM, PROGRAMS / "eof_reader.c", mode, "hxeof")
    _expect_accepted(run, ["c1", "c2", "c3"])
    assert all(case["wall_time"] < 1 for case in run.cases), run.describe()


@pytest.mark.parametrize("mode", _modes())
def test_closing_stdout(hostile: Hostile, mode: str) -> None:
    """Closing stdout before answering leaves no output (WA, exit 0); closing it after answering is AC."""
    run = hostile.run(HSUM, PROGRAMS / "close_stdout.c", mode, "hxclose")
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    assert case["verdict"] == "WA" and case["exit_code"] == 0, run.describe()


# ---------------------------------------------------------------- files


@pytest.mark.parametrize("mode", _modes())
def test_filling_scratch_disk_hits_enospc(hostile: Hostile, mode: str) -> None:
    """Filling the scratch is stopped: ENOSPC at its 64 MiB size (exit 3) or, as tmpfs pages are memory charged to the
    run's group, MLE at hsum's 64 MiB memory limit, whichever comes first; the next case, same slot, finds none of
    it."""
    run = hostile.run(HSUM, PROGRAMS / "fill_scratch.c", mode, "hxfill", jobs=1)
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    if case["verdict"] != "MLE":
        _expect_refused(run, "c1", 3)
        assert "No space left on device" in case["message"], run.describe()


@pytest.mark.parametrize("mode", _modes())
def test_writing_into_problems_is_refused(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """Creating a file in problems/, in the judged problem's folder or its cases is refused (exit 4).

    In bwrap mode the program aims at the real repository; in rlimits mode,
    where the writes succeed, at a throw-away copy of the same layout in
    tmp_path. Whatever it managed to create is removed afterwards.
    """
    name = f"hx-written-{uuid.uuid4().hex[:8]}.txt"
    if mode == "bwrap":
        targets = [REPO_ROOT / "problems" / name, HSUM / name, HSUM_ANSWERS / name]
    else:
        copy = tmp_path / "throwaway"
        shutil.copytree(HSUM, copy / "problems" / "hsum")
        shutil.copytree(HSUM_ANSWERS, copy / "cases" / "hsum" / "main")
        targets = [copy / "problems" / name, copy / "problems" / "hsum" / name, copy / "cases" / "hsum" / "main" / name]
    program = _from_template("hx_write_outside.py", tmp_path, TARGETS=repr([str(t) for t in targets]))
    try:
        run = hostile.run(HSUM, program, mode, "hx_write_outside")
    finally:
        created = [t for t in targets if t.exists()]
        for target in created:
            target.unlink()
    _expect_contained(not created, f"files were created: {created}", run)
    _expect_accepted(run, ["c2", "c3"])
    _expect_refused(run, "c1", 4)


@pytest.mark.parametrize("mode", _modes())
def test_reading_expected_answer_is_refused(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """Reading the case's .ans by absolute, relative or stdin-derived path is refused on every case (exit 6), never
    AC."""
    program = _from_template(
        "hx_read_answer.py",
        tmp_path,
        ANSWERS=repr(str(HSUM_ANSWERS)),
        REPO_RELATIVE=repr(str(HSUM_ANSWERS.relative_to(REPO_ROOT))),
    )
    run = hostile.run(HSUM, program, mode, "hx_read_answer")
    for name in CASES[HSUM]:
        _expect_refused(run, name, 6)


# ---------------------------------------------------------------- network


class _Listener:
    """A real TCP server on 127.0.0.1 that counts the connections it accepts, in a thread."""

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self.accepted = 0

    @property
    def port(self) -> int:
        """The port the kernel picked, so parallel sessions never collide on a fixed one."""
        return self._sock.getsockname()[1]

    def _serve(self) -> None:
        """Accept until told to stop; the timeout lets the loop notice the stop promptly."""
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            self.accepted += 1
            conn.close()

    def __enter__(self) -> _Listener:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sock.close()


@pytest.mark.parametrize("mode", _modes())
def test_tcp_connection_to_host_is_refused(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """Connecting to a server listening on the host's 127.0.0.1 fails (exit 7), and the server sees nobody."""
    with _Listener() as server:
        program = _from_template("hx_tcp_connect.py", tmp_path, PORT=str(server.port))
        run = hostile.run(HSUM, program, mode, "hx_tcp_connect")
    _expect_accepted(run, ["c2", "c3"])
    _expect_contained(server.accepted == 0, f"the server accepted {server.accepted} connection(s)", run)
    _expect_refused(run, "c1", 7)


# ---------------------------------------------------------------- compilation


def _expect_compile_error(run: JudgeRun) -> str:
    """The run is a CE with a failed build; returns the compile log."""
    assert run.verdict == "CE" and run.returncode == 1, run.describe()
    assert run.report["compile"]["ok"] is False, run.describe()
    return run.report["compile"]["log"]


@pytest.fixture
def hsum_quick_compile(tmp_path: Path) -> Path:
    """A copy of hsum and its cases (problems/ and cases/ side by side in tmp_path) whose compile limit is 1 s, not
    4 s: a compile bomb runs to the limit, whatever it is. Nothing is judged in it but builds that fail, which write
    nothing there."""
    copy = tmp_path / "quick-compile" / "problems" / "hsum"
    shutil.copytree(HSUM, copy)
    shutil.copytree(HSUM_ANSWERS.parent, tmp_path / "quick-compile" / "cases" / "hsum")
    spec = copy / "problem.yaml"
    text = spec.read_text()
    assert f"compile_time: {HSUM_COMPILE_S:g}\n" in text
    spec.write_text(text.replace(f"compile_time: {HSUM_COMPILE_S:g}\n", f"compile_time: {QUICK_COMPILE_S}\n"))
    return copy


@pytest.mark.parametrize("mode", _modes())
@pytest.mark.parametrize(
    ("source", "marker"),
    [
        pytest.param("hx_template_bomb.cpp", "hx_template_bomb", id="template-blowup"),
        pytest.param("hx_include_zero.cpp", "hx_include_zero", id="include-dev-zero"),
    ],
)
def test_compile_bomb_is_ce_within_limit(
    hostile: Hostile, hsum_quick_compile: Path, mode: str, source: str, marker: str
) -> None:
    """A compiler sent into endless work or endless input is stopped by the compile limit (hsum's, lowered to 1 s):
    CE, and the log says why (on a machine so busy that the clock stopped both tries first, that it was too busy)."""
    started = time.monotonic()
    run = hostile.run(hsum_quick_compile, PROGRAMS / source, mode, marker)
    elapsed = time.monotonic() - started
    log = _expect_compile_error(run)
    assert re.search(r"CPU time limit exceeded|exceeded the \d+ s limit|out of memory|too busy to compile", log), log
    bound = WALL_STRETCH * COMPILE_WALL_LIMIT_S * COMPILE_TRIES_WALL + JUDGE_START_ALLOWANCE_S
    assert elapsed < bound, f"took {elapsed:.1f} s\n{run.describe()}"


@needs("bwrap")
def test_including_etc_shadow_is_ce(hostile: Hostile) -> None:
    """#include "/etc/shadow" (bwrap only): the file is not in the sandbox, so CE, and none of it is in the log.

    The log is never put in a failure message, in case the sandbox did show the file.
    """
    run = hostile.run(HSUM, PROGRAMS / "hx_include_shadow.cpp", "bwrap", "hx_include_shadow")
    log = _expect_compile_error(run)
    missing = "/etc/shadow: No such file or directory" in log
    leaked = re.search(r"\b[a-z_][a-z0-9_-]*:[^:\s]*:\d*:\d*:\d*:\d*:\d*:\d*:", log) is not None
    assert missing and not leaked, (
        f"the log does not just report /etc/shadow missing (missing={missing}, shadow-like line={leaked})"
    )


@pytest.mark.parametrize("mode", _modes())
def test_including_repository_file_is_ce(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """#include of a repository file by absolute path: missing in the sandbox (CE), and its token never reaches the
    log."""
    secret = HOSTILE / "secret.txt"
    token = secret.read_text().strip()
    program = _from_template("hx_include_repo.cpp", tmp_path, SECRET=str(secret))
    run = hostile.run(HSUM, program, mode, "hx_include_repo")
    log = _expect_compile_error(run)
    _expect_contained(token not in log, "the compile log shows the repository file's content", run)
    assert f"{secret}: No such file or directory" in log, log
