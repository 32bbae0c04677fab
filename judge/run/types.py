"""What a run is asked to do and what it did: plain data shared by every layer above the launcher."""

from __future__ import annotations

import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import JudgeError


@dataclass(frozen=True)
class RunLimits:
    """Limits of one run.

    ``memory_mib`` bounds the whole process tree: a control group where the
    machine has one, else the launcher's tick over the tree's summed RSS.
    ``address_space_mib`` is an RLIMIT_AS per process, used only where no
    control group limits memory, because it breaks threads, JVMs, Go and Node
    (they reserve far more address space than they use).
    ``output_bytes`` is what stdout and stderr may each carry, counted by the
    launcher; ``file_bytes`` bounds any other file the run writes (its scratch
    files: RLIMIT_FSIZE), the output limit plus one byte when not given.
    """

    cpu: float
    wall: float
    memory_mib: int | None
    output_bytes: int
    stack_mib: int | None = None
    open_files: int = 256
    processes: int = 0
    address_space_mib: int | None = None
    file_bytes: int | None = None

    @property
    def command_memory_mib(self) -> int:
        """The memory figure the run's command line is given (a JVM's heap, PHP's memory_limit): its own limit, so
        that the program and its run agree; 1024 for a run no memory limit bounds."""
        return self.memory_mib or 1024


@dataclass(frozen=True)
class RunSpec:
    """One run. ``stdin`` and ``stdout`` are files, or (``int``) a pipe end the run takes over: the launcher gets
    its own copy and the judge's is closed once the request is sent, so end-of-file reaches the other side
    only through the run's processes (see ``direct_pair.py``)."""

    argv: Sequence[str]
    limits: RunLimits
    stdout: Path | int
    stderr: Path
    stdin: Path | int | None = None
    cwd: Path | None = None
    env: Mapping[str, str] | None = None
    scratch: Path | None = None  # emptied by the launcher after the run
    user: int | None = None  # uid and gid to run as
    fresh: int = 0  # FRESH_* bits: what the run gets of its own (namespaces, tmpfs, the keyring filter)
    hide: Sequence[Path] = ()  # folders an empty tmpfs covers (FRESH_MOUNTS only)
    expose: Sequence[Path] = ()  # paths cloned into place on top, reachable by the run's uid (FRESH_MOUNTS only)
    writable: Sequence[Path] = ()  # mount points left writable when FRESH_READONLY makes the rest read-only
    # the wall limit counts only from ``Slot.start_peer_wall`` (an interactor's: from the submission's end)
    wall_held: bool = False


FRESH_IPC, FRESH_MOUNTS, FRESH_SECCOMP, FRESH_PID, FRESH_LOCAL_SOCKETS, FRESH_READONLY, FRESH_SHM, FRESH_NOUSERNS = (
    1,
    2,
    4,
    8,
    16,
    32,
    64,
    128,
)  # launcher.h
FRESH_QUIET_FILES = 256  # launcher.h: no file locks, change notification or leases shared with other runs
FRESH_SCOPED = 512  # launcher.h: signals and ptrace reach the run's own processes only (Landlock)
FILTER_BITS = (
    FRESH_SECCOMP | FRESH_NOUSERNS | FRESH_LOCAL_SOCKETS | FRESH_QUIET_FILES
)  # launcher.h: the seccomp filter's


@dataclass(frozen=True)
class RunResult:
    """What a run did.

    ``killed`` is 'cpu', 'wall', 'memory' (the no-cgroup tick) or 'output' when the
    launcher stopped it at a limit; ``oom_killed`` is the kernel's own record
    that its OOM killer acted inside the run's control group. ``memory_kb`` is
    the larger of the tree's peak (the group's charge, kernel memory and tmpfs
    pages included, when ``cgroup`` is 1 or 2; else the tick's sampled sum) and
    the largest process's resident peak (shared library pages included).
    ``output_over`` names the stream ('stdout' or 'stderr') that went past the
    output limit. ``waited`` is how long the main process was runnable but
    waiting for a CPU: the machine's load, never the program's own sleeping.
    """

    exit_code: int | None
    signal: int | None
    cpu: float
    wall: float
    memory_kb: int
    killed: str = "none"
    oom_killed: bool = False
    cgroup: int = 0
    ended: float = 0.0  # CLOCK_MONOTONIC seconds when it ended (time.monotonic() of this machine)
    output_over: str = ""
    waited: float = 0.0

    @property
    def out_of_memory(self) -> bool:
        """Stopped for memory by the kernel inside the group, or by the launcher's tick without one."""
        return self.oom_killed or self.killed == "memory"

    @property
    def signal_name(self) -> str | None:
        if not self.signal:
            return None
        try:
            return signal.Signals(self.signal).name
        except ValueError:
            return f"signal {self.signal}"

    @property
    def succeeded(self) -> bool:
        return self.exit_code == 0 and self.killed == "none"


class ExecError(JudgeError):
    """The launcher could not start the command (missing file, bad working folder)."""
