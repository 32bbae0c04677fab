"""A run's holder serves the next run of the same program only when the run left nothing in it (fresh.c's
``holder_after``), and then the next run still starts from nothing: what each run sees, from its own shell.

Kept (the same PID namespace, read from ``/proc/self/ns/pid``): after runs that forked and left nothing. Replaced:
after a run that made and removed a file in ``/dev/shm`` (the place's root changed; its times are a channel a later
run could read), and after one that left a System V segment or a POSIX message queue. A run that leaves a process
behind has its holder ended if the process is still there after the run (the control group kills it, and the
holder may have reaped it by then: a race the test does not decide), so the next run is only checked not to see it.
In every run: the shell is pid 2 (the counter put back however many pids the run before used), pid 1 is hidden (its
counters would say what the runs before did), ``/dev/shm`` is empty and no segment or queue is seen. The holder is
kept only where a control group kills what a run leaves: without one, every run gets a new holder as before.
"""

from __future__ import annotations

import os

import pytest

from judge.run import Isolation, RunLimits, RunSpec, SlotPool, bwrap_works

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="a holder (a PID namespace per run) is made as root only")

LIMITS = RunLimits(cpu=5, wall=20, memory_mib=128, output_bytes=1 << 16)

# A POSIX queue named /left, looked for or made from Python (no shell tool does either).
QUEUE = "import ctypes, os; libc = ctypes.CDLL('libc.so.6', use_errno=True); "
# What every run reports: its PID namespace, its shell's pid, whether pid 1 shows, what /dev/shm and System V hold.
LOOK = (
    "echo ns=$(readlink /proc/self/ns/pid); echo pid=$$; "
    "if [ -e /proc/1 ]; then echo one=shown; else echo one=hidden; fi; "
    'echo shm="$(ls -A /dev/shm | tr -d "\\n")"; echo sysv=$(grep -c . /proc/sysvipc/shm); '
    "echo sleeping=$(cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^sleep$'); "
    f"python3 -c \"{QUEUE}print('queue=' + ('found' if libc.mq_open(b'/left', os.O_RDONLY) >= 0 else 'none'))\"; "
)
FORKS = "for i in $(seq 30); do (true); done"
SHM_TOUCHED = "touch /dev/shm/left && rm /dev/shm/left"
SYSV_MADE = "ipcmk -M 4096 > /dev/null"
ORPHAN = "setsid sleep 30 & sleep 0.2"
QUEUE_MADE = f"python3 -c \"{QUEUE}assert libc.mq_open(b'/left', os.O_CREAT | os.O_RDWR, 0o600, None) >= 0\""


def _modes() -> list[str]:
    return ["rlimits"] + (["bwrap"] if bwrap_works() is None else [])


def _runs(mode: str, scripts: list[str]) -> list[dict[str, str]]:
    """Each script run in turn in one slot after LOOK, and what LOOK said in each."""
    isolation = Isolation(mode)
    if isolation.cgroups is None:
        pytest.skip("no control group here: every run gets a new holder")
    seen = []
    with SlotPool(1, isolation) as pool, pool.slot() as slot:
        for script in scripts:
            spec = RunSpec(["/bin/sh", "-c", LOOK + script], LIMITS, slot.private / "out", slot.private / "err")
            result = slot.run_untrusted(spec, ())
            assert result.exit_code == 0, (slot.private / "err").read_text()
            lines = (slot.private / "out").read_text().splitlines()
            seen.append(dict(line.split("=", 1) for line in lines if "=" in line))
    return seen


def _fresh_in_every_run(seen: list[dict[str, str]]) -> None:
    for look in seen:
        assert look["pid"] == "2", f"the shell is pid {look['pid']}: the counter carried over"
        assert look["one"] == "hidden", "the holder's /proc entry shows"
        assert look["shm"] == "", f"/dev/shm holds {look['shm']}"
        assert look["sysv"] == "1", "a System V segment of an earlier run is seen"  # the header line only
        assert look["sleeping"] == "0", "a process an earlier run left is seen"
        assert look["queue"] == "none", "a POSIX queue of an earlier run is seen"


@pytest.mark.parametrize("mode", _modes())
def test_a_run_that_left_nothing_hands_its_holder_on(mode: str) -> None:
    seen = _runs(mode, [FORKS, "true", "true"])
    _fresh_in_every_run(seen)
    assert len({look["ns"] for look in seen}) == 1, "a holder was made again after runs that left nothing"


@pytest.mark.parametrize("mode", _modes())
def test_a_run_that_left_something_gets_a_new_holder_after_it(mode: str) -> None:
    seen = _runs(mode, ["true", SHM_TOUCHED, "true", SYSV_MADE, "true", QUEUE_MADE, "true", ORPHAN, "true"])
    _fresh_in_every_run(seen)
    namespaces = [look["ns"] for look in seen]
    assert namespaces[1] == namespaces[0], "a run that left nothing did not hand its holder on"
    assert namespaces[2] != namespaces[1], "the holder of a run that touched /dev/shm served the next run"
    assert namespaces[4] != namespaces[3], "the holder of a run that left a System V segment served the next run"
    assert namespaces[6] != namespaces[5], "the holder of a run that left a POSIX queue served the next run"
