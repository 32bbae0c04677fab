"""What a run that waits far past its limits is waiting for: the processes under its launcher, as /proc shows them.

A launcher stops its run at the wall limit, stretched by the time the run
waited for a CPU up to ``WALL_STRETCH`` times the limit; a run whose answer
has not come well after that is held by something no limit governs (a
launcher starved or stopped, a process the kill cannot reach, a cold disk).
Once, such a run is described: each process under the launcher, its state
(``/proc/PID/stat``), the kernel function it sleeps in (``wchan``, where
readable) and the CPU time it used, so that a judging that ran for ten
minutes says why while it runs, not after.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

WALL_STRETCH = 3  # launcher.c: the most the wall limit is stretched by a run's waits for a CPU
GRACE_SECONDS = 5.0  # past the stretched limit, before a run counts as waiting far past its limits
STATES = {
    "R": "running",
    "S": "sleeping",
    "D": "in uninterruptible wait (disk, or a kernel lock)",
    "T": "stopped",
    "t": "stopped by a tracer",
    "Z": "exited, not yet reaped",
    "X": "dead",
    "I": "idle",
}

_lock = threading.Lock()
_sink: list[Callable[[str], None]] = []  # a listener put in place of standard error (tests, the service's log)


def overdue_after(wall: float, cpu: float) -> float:
    """Seconds after its start past which a run with these limits waits far past them."""
    return WALL_STRETCH * (wall if wall > 0 else 2 * cpu) + GRACE_SECONDS


def tell(line: str) -> None:
    """Say ``line`` once: to the listener when one is set, else on standard error."""
    with _lock:
        sink = _sink[-1] if _sink else None
    if sink is not None:
        sink(line)
    else:
        print(line, file=sys.stderr, flush=True)


def listen(sink: Callable[[str], None] | None) -> None:
    """Send the notes to ``sink`` (None: back to standard error)."""
    with _lock:
        _sink.clear()
        if sink is not None:
            _sink.append(sink)


def describe(launcher_pid: int, command: str, waited: float, limits: str) -> str:
    """One line about a run still unanswered after ``waited`` seconds: its launcher and each process under it."""
    tree = _descendants(launcher_pid)
    shown = [_process(pid) for pid in [launcher_pid, *tree][:8]]
    more = f"; {len(tree) + 1 - len(shown)} more" if len(tree) + 1 > len(shown) else ""
    who = "; ".join(line for line in shown if line) or "no process left under its launcher"
    return f"still waiting after {waited:.0f} s for {_shown(command)} ({limits}): {who}{more}"


def _process(pid: int) -> str:
    stat = _read(f"/proc/{pid}/stat")
    if not stat or ")" not in stat:
        return ""
    name = _shown(stat[stat.index("(") + 1 : stat.rindex(")")])  # a run sets its own (PR_SET_NAME): untrusted
    fields = stat[stat.rindex(")") + 2 :].split()
    state = fields[0] if fields else "?"
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    cpu = (int(fields[11]) + int(fields[12])) / ticks if len(fields) > 12 else 0.0
    wchan = _read(f"/proc/{pid}/wchan").strip()
    waits_in = f" in {wchan}" if wchan and wchan != "0" else ""
    return f"{name} (pid {pid}) {STATES.get(state, state)}{waits_in}, {cpu:.2f} s CPU"


def _shown(name: str) -> str:
    """A process name as the note may print it: every character that is not printable ASCII as ``\\xNN``, so a
    submission cannot write control sequences into the judge's terminal or log through its name."""
    return "".join(c if " " <= c <= "~" and c != "\\" else f"\\x{ord(c):02x}" for c in name)


def _descendants(root: int) -> list[int]:
    """Every process below ``root``, parents before children (the launcher's runs, inside bwrap too)."""
    children: dict[int, list[int]] = {}
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []
    for pid in pids:
        stat = _read(f"/proc/{pid}/stat")
        if ")" in stat:
            fields = stat[stat.rindex(")") + 2 :].split()
            if len(fields) > 1 and fields[1].isdigit():
                children.setdefault(int(fields[1]), []).append(pid)
    found, frontier = [], [root]
    while frontier:
        below = sorted(children.get(frontier.pop(0), []))
        found += below
        frontier += below
    return found


def _read(path: str) -> str:
    try:
        return Path(path).read_text(errors="replace")
    except OSError:
        return ""
