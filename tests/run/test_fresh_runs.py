"""Every run starts from nothing: hostile programs looking for what an earlier run left or shares, judged end to end.

Same harness and problem as test_containment.py (`Hostile.run` on `hsum`:
time 1 s, memory 64 MiB, cases c1, c2, c3; a stray process, a judge error
or a changed file outside the scratch fails every test). A channel program
plants something on c1 and looks for it on c2 and c3 with one slot (-j 1),
so every case shares the slot's launcher and, in bwrap mode, its sandbox.

Expected in both modes (bwrap, and rlimits as root, the modes that promise
a fresh PID namespace per run; rlimits as another user promises
none of this, see the table in docs/sandbox.md):

- network state: c1 leaves a TCP socket in TIME_WAIT and binds a UDP port
  when it has a loopback; c2 and c3 find no socket at all in /proc/net:
  AC on every case (exit 51 would be a find).
- sockets: c1 gets no socket by any call, a local one neither (exit 61 would
  be a way out), and socket pairs work (exit 62 would be a refusal): AC.
- PID counter: c1 forks 40 children; c2 and c3 still have a pid under 40
  and see at most 4 processes in /proc: AC (else exit 52).
- write access: c1 walks the whole file system it sees and finds nothing
  world-writable or its own outside its scratch (/tmp, /dev/shm, /var/tmp):
  AC (else exit 54, naming the places).
- socket memory: 40 MiB of heap and 48 MiB queued in loopback TCP buffers
  is refused (no TCP socket, and no user namespace to get one: RE 21, or
  RE 23 when the kernel will not queue the buffers) or counted (MLE); never
  AC.
- POSIX shared memory and named semaphores work (a forked child sums into
  an shm_open segment and posts a sem_open semaphore), and a segment left
  on c1 is gone on c2 and c3: AC on every case (exit 56: refused, 55: found).
  multiprocessing.Pool with a Lock: AC. 40 MiB left in /dev/shm on c1 is
  not charged to c2 and c3, which hold 40 MiB of heap each under 64 MiB
  (the slot's control group is reused on cgroup v1): AC.
- the judge killed with SIGKILL mid-run, while the run holds a child in a
  session of its own, POSIX and System V shared memory and a scratch file:
  every process of the run and of the judge's session goes, no process is
  left in the run's PID, network, mount or IPC namespace, the host's
  /dev/shm holds none of it, and the next judge's start removes the killed
  one's control groups.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO_ROOT, cache_with_launcher
from test_containment import _expect_mle, _expect_not_found, _tag
from test_hostile import (  # noqa: F401  (fixtures are found by pytest by name)
    CASES,
    HSUM,
    HSUM_ANSWERS,
    PROGRAMS,
    Hostile,
    _expect_accepted,
    _expect_contained,
    _from_template,
    _modes,
    _processes_marked,
    build_caches,
    hostile,
    hostile_references,
    marker_lock,
)

from judge.run import private_root

pytestmark = pytest.mark.slow

NAMESPACES = ("pid", "net", "mnt", "ipc")
SETTLE_S = (
    20.0  # how long a killed judge's launchers get to notice and end the run: a hang bound, never a verdict margin
)


@pytest.mark.parametrize("mode", _modes())
def test_network_state_does_not_reach_next_case(hostile: Hostile, mode: str) -> None:
    """A TIME_WAIT socket and a bound UDP port of c1 are not in /proc/net on c2 or c3: AC on every case."""
    run = hostile.run(HSUM, PROGRAMS / "hx_fresh_net.c", mode, "hxfreshnet", jobs=1)
    _expect_not_found(run, 51)


@pytest.mark.parametrize("mode", _modes())
def test_only_local_sockets(hostile: Hostile, mode: str) -> None:
    """No TCP, UDP, IPv6, netlink or packet socket by any call (64-bit, 32-bit, the socketcall multiplexer) nor
    io_uring, nor a local socket (only socket pairs, which still work): AC on every case."""
    run = hostile.run(HSUM, PROGRAMS / "hx_sockets.c", mode, "hxsockets", jobs=1)
    c1 = run.case("c1")
    _expect_contained(not (c1["verdict"] == "RE" and c1["exit_code"] == 61), "the run got a network socket", run)
    _expect_accepted(run, CASES[HSUM])


@pytest.mark.parametrize("mode", _modes())
def test_pid_counter_does_not_reach_next_case(hostile: Hostile, mode: str) -> None:
    """40 forks on c1 do not move the pids of c2 and c3, whose /proc shows their own processes only: AC."""
    run = hostile.run(HSUM, PROGRAMS / "hx_fresh_pid.c", mode, "hxfreshpid", jobs=1)
    _expect_not_found(run, 52)


@pytest.mark.parametrize("mode", _modes())
def test_nothing_but_scratch_is_writable(hostile: Hostile, mode: str) -> None:
    """No folder or file the run sees outside its scratch is writable by it, whoever forgot to name it: AC."""
    run = hostile.run(HSUM, PROGRAMS / "hx_fresh_write.c", mode, "hxfreshwr", jobs=1)
    case = run.case("c1")
    _expect_contained(case["exit_code"] != 54, "the run could write outside its scratch", run)
    _expect_accepted(run, CASES[HSUM])


@pytest.mark.parametrize("mode", _modes())
def test_socket_memory_is_refused_or_counted(hostile: Hostile, mode: str) -> None:
    """40 MiB of heap plus 48 MiB in loopback TCP buffers under 64 MiB: refused (RE 21 or 23) or MLE, never AC."""
    run = hostile.run(HSUM, PROGRAMS / "hx_mem_tcp.c", mode, "hxmemtcp")
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    if not (case["verdict"] == "RE" and case["exit_code"] in (21, 23)):
        _expect_mle(run, "c1")


def _remove_shm(tag: str) -> None:
    """Remove what a run may have left in the host's /dev/shm (a sandbox that shows it), so nothing lingers."""
    for path in Path("/dev/shm").glob(f"*hxposhm-*-{tag}"):
        path.unlink(missing_ok=True)


@pytest.mark.parametrize("mode", _modes())
def test_posix_shared_memory_works_and_is_fresh(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """shm_open and sem_open work in every case, and the segment c1 leaves is not there on c2 or c3: AC."""
    tag = _tag()
    program = _from_template("hx_posix_shm.c", tmp_path, TAG=tag)
    try:
        run = hostile.run(HSUM, program, mode, "hxposhm", jobs=1)
    finally:
        _remove_shm(tag)
    for case in run.cases:
        assert not (case["verdict"] == "RE" and case["exit_code"] == 56), f"shared memory refused\n{run.describe()}"
    _expect_not_found(run, 55)


@pytest.mark.parametrize("mode", _modes())
def test_shared_memory_of_a_run_is_not_charged_to_the_next(hostile: Hostile, mode: str) -> None:
    """40 MiB left in /dev/shm on c1, 40 MiB of heap on c2 and c3 under 64 MiB: AC only if c1's files were gone."""
    run = hostile.run(HSUM, PROGRAMS / "hx_fresh_shm_memory.c", mode, "hxshmmem", jobs=1)
    _expect_accepted(run, CASES[HSUM])


@pytest.mark.parametrize("mode", _modes())
def test_multiprocessing_pool_is_accepted(hostile: Hostile, mode: str) -> None:
    """A correct Python solution using multiprocessing.Pool and Lock (POSIX semaphores in /dev/shm) is AC."""
    run = hostile.run(HSUM, PROGRAMS / "hx_mp_pool.py", mode, "hx_mp_pool")
    _expect_accepted(run, CASES[HSUM])


# ---------------------------------------------------------------- a judge killed mid-run


def _namespaces(pid: int) -> dict[str, str]:
    """The namespace links of a live process ("net:[4026532...]"), by kind."""
    return {kind: os.readlink(f"/proc/{pid}/ns/{kind}") for kind in NAMESPACES}


def _is_zombie(pid: str) -> bool:
    """Whether the process has ended and only waits for its parent to reap it (state Z in its stat line)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # gone already
    return stat[stat.rindex(")") + 2 :].startswith(("Z", "X"))


def _holders(links: dict[str, str]) -> list[str]:
    """Every live process still in one of these namespaces, as "pid kind".

    A zombie is left out: it runs nothing and holds no memory, yet its PID namespace link stays readable until its
    parent reaps it, and a holder whose launcher was killed waits to be reaped by the host's init (on a loaded
    machine that wait was long enough to be seen once)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or _is_zombie(entry):
            continue
        for kind, link in links.items():
            try:
                if os.readlink(f"/proc/{entry}/ns/{kind}") == link:
                    found.append(f"{entry} {kind}")
            except OSError:
                pass
    return found


def _in_session(session: int) -> list[int]:
    """Live processes of a session (field 6 of /proc/PID/stat), zombies aside."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) == session:
            members.append(int(entry))
    return members


def _wait_until(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _slow_hsum(root: Path) -> Path:
    """A copy of hsum with a 60 s wall limit, so the run is still going whenever the test gets to kill the judge."""
    problem = root / "problems" / "hsum"
    shutil.copytree(HSUM, problem)
    shutil.copytree(HSUM_ANSWERS.parent, root / "cases" / "hsum")
    spec = problem / "problem.yaml"
    spec.write_text(spec.read_text().replace("  time: 1\n", "  time: 1\n  wall: 60\n"))
    return problem


@pytest.mark.parametrize("mode", _modes())
def test_judge_killed_mid_run_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hostile_references: None, build_caches: Path, mode: str
) -> None:
    """SIGKILL to the judge while the run holds a daemon, shared memory and a scratch file: all of it goes."""
    marker = "hxfreshhold"
    with marker_lock(marker):
        assert not _processes_marked(marker), f"processes marked {marker!r} exist before the run"
        monkeypatch.setenv("TILEJUDGE_CACHE", str(cache_with_launcher(build_caches / mode)))
        problem = _slow_hsum(tmp_path)
        judge = subprocess.Popen(
            [
                sys.executable,
                "run_judge.py",
                "judge",
                str(problem),
                str(PROGRAMS / "hx_fresh_hold.c"),
                "--sandbox",
                mode,
                "-j",
                "1",
            ],
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            # both the program and its daemon (a session of their own) are up
            started = _wait_until(lambda: len(_processes_marked(marker)) >= 2 or judge.poll() is not None, 120)
            held = _processes_marked(marker)
            assert started and judge.poll() is None and held, (
                f"the run never started: {judge.stderr.read() if judge.stderr else ''}"
            )
            links: dict[str, str] = {}
            for pid in held:
                try:
                    links = _namespaces(pid)
                    break
                except OSError:
                    continue
            assert links, "the run ended before its namespaces could be read"
            private = _private_folders_of(judge.pid)
            assert private, "the judge's private folder (the run's output and stderr) was not found"
            judge.kill()
            judge.wait()
            assert _wait_until(lambda: not _processes_marked(marker), SETTLE_S), f"left: {_processes_marked(marker)}"
            assert _wait_until(lambda: not _in_session(judge.pid), SETTLE_S), (
                f"the judge's session lives on: {_in_session(judge.pid)}"
            )
            host = {kind: os.readlink(f"/proc/self/ns/{kind}") for kind in NAMESPACES}
            own = {kind: link for kind, link in links.items() if link != host[kind]}
            assert set(own) == set(NAMESPACES), (
                f"the run shared namespaces with the host: {sorted(set(NAMESPACES) - set(own))}"
            )
            # the settle time the marked processes get: a sandbox's own init (bwrap's, in a session of its own) dies
            # of its parent's death, which the kernel delivers after the judge's session is already empty
            assert _wait_until(lambda: not _holders(own), SETTLE_S), (
                f"processes still in the run's namespaces: {_holders(own)}"
            )
            assert not Path("/dev/shm/hxfreshhold").exists(), "the run's POSIX shared memory is in the host's /dev/shm"
        finally:
            if judge.poll() is None:
                judge.kill()
            for pid in _in_session(judge.pid):
                os.kill(pid, signal.SIGKILL)
            if judge.stderr:
                judge.stderr.close()
    _expect_reclaimed(judge.pid, private)


def _private_folders_of(pid: int) -> list[Path]:
    """The private folders (judge/run/private_root.py) a judge owns: its pid is in each one's owner file."""
    owners = (owner for place in private_root.parents() for owner in place.glob("tilejudge-*/.owner"))
    return [owner.parent for owner in owners if owner.read_text().strip() == str(pid)]


def _expect_reclaimed(pid: int, private: list[Path]) -> None:
    """The killed judge's control groups and private folders (they outlive it) are removed by the next judge's
    start: the probe of the groups and a slot pool's start, as every command that judges makes them."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from judge.run import cgroups, SlotPool; found, _ = cgroups.probe(); SlotPool(1).close();"
            " print(*(found.own if found else ()))",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    left = [path for own in done.stdout.split() for path in Path(own).glob(f"tilejudge-{pid}-*")]
    assert not left, f"control groups of the killed judge are left: {left}"
    assert not [folder for folder in private if folder.exists()], (
        f"the killed judge's private folders are left: {private}"
    )
