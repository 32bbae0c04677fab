"""How untrusted programs are isolated: the sandbox modes, the bubblewrap command line, the sandbox uids.

Modes (every mode limits the whole process tree through a control group
where the machine has one; see cgroups.py):
  bwrap    own PID, network, IPC and UTS namespaces; a read-only view of the
           system folders plus exactly the program's own files; a private,
           size-limited /tmp as the only writable place; an unprivileged uid
           per slot. One sandbox per slot and program; every run in it gets
           fresh IPC and UTS namespaces and an emptied /tmp, and as root
           also fresh PID, network and mount namespaces (its own /proc and
           /dev/shm, everything but the scratch read-only).
  rlimits  no bubblewrap. As root: another uid, and per run fresh PID,
           network, IPC and mount namespaces with private /tmp, /dev/shm and
           /var/tmp, every other mount read-only, the test data and the
           build cache hidden. As another user: the judge's own uid and view
           of the machine.
  none     limits only, as for the judge's own trusted programs: for
           benchmarks, never for untrusted code.
  auto     bwrap when it works on this machine, else rlimits with a warning.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..errors import SetupError, UsageError
from .cgroups import Cgroups
from .cgroups import probe as probe_cgroups
from .files import cache_root
from .types import (
    FILTER_BITS,
    FRESH_IPC,
    FRESH_LOCAL_SOCKETS,
    FRESH_MOUNTS,
    FRESH_NOUSERNS,
    FRESH_PID,
    FRESH_QUIET_FILES,
    FRESH_READONLY,
    FRESH_SCOPED,
    FRESH_SECCOMP,
    FRESH_SHM,
)

MODES = ("auto", "bwrap", "rlimits", "none")
ENV_MODE = "TILEJUDGE_SANDBOX"
UID_BASE, UID_COUNT = 61000, 1000
SCRATCH_BYTES = 64 << 20
SANDBOX_PROCESSES = 256
SCRATCH_VIEW = Path("/tmp")
_SYSTEM_LINKS = ("/bin", "/lib", "/lib64", "/lib32", "/sbin")
_SYSTEM_RO = ("/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime")


@dataclass(frozen=True)
class Bind:
    """A host path made visible inside the sandbox at the same place."""

    path: Path
    writable: bool = False


def inside(path: Path, folders: Sequence[Path]) -> bool:
    """``path`` is one of ``folders`` or lies below one: already visible where they are bound."""
    return any(path == folder or folder in path.parents for folder in folders)


@dataclass(frozen=True)
class Isolation:
    """A sandbox mode as it applies on this machine: with control groups or without, as root or not."""

    mode: str
    cgroups: Cgroups | None = field(default_factory=lambda: probe_cgroups()[0])  # probed once per process

    @property
    def sandboxed(self) -> bool:
        return self.mode == "bwrap"

    @property
    def private_mounts(self) -> bool:
        """rlimits as root: the launcher itself gives each run private mounts, network and uid."""
        return self.mode == "rlimits" and os.geteuid() == 0

    @property
    def switches_uid(self) -> bool:
        return os.geteuid() == 0 and self.mode in ("bwrap", "rlimits")

    @property
    def fresh(self) -> int:
        """What each untrusted run gets of its own (launcher.h's FRESH_* bits).

        The namespaces and mounts made per run need the launcher to be root: as root in both modes every run has
        its own PID namespace, /dev/shm and a read-only view but for its scratch. Without root a bwrap sandbox
        gives those once per submission and slot. The seccomp filter needs no root, so in every mode a run has
        socket pairs only (no network, no socket it did not make) and no file lock or change notification another
        run could see; where the kernel has Landlock scopes, its signals and ptrace reach its own processes only."""
        if self.mode == "none":
            return 0
        fresh = FRESH_IPC | FRESH_SECCOMP | FRESH_NOUSERNS | FRESH_LOCAL_SOCKETS | FRESH_QUIET_FILES | FRESH_SCOPED
        if self.switches_uid:
            fresh |= FRESH_PID | FRESH_READONLY | FRESH_SHM
        return fresh | (FRESH_MOUNTS if self.private_mounts else 0)

    def launcher_argv(self, launcher: Path, binds: Sequence[Bind], hide: Sequence[Path] = ()) -> list[str]:
        """The command that starts a launcher for untrusted runs: every run it makes gets ``fresh``, so the seccomp
        filter is installed once, on the launcher (``--filter``), rather than per run, except on cgroup v2, where the
        launcher makes each run's child inside its group with clone3, which the filter refuses (seccomp.c). ``hide``:
        the judge's folders a bwrap sandbox must not show even where they lie in what it shows (``bwrap_prefix``)."""
        options = ["--own-network"] if self.private_mounts else []
        if self.fresh & FILTER_BITS and (self.cgroups is None or self.cgroups.version != 2):
            options += ["--filter", str(self.fresh & FILTER_BITS)]
        if not self.sandboxed:
            return [str(launcher), *options]
        sandbox = bwrap_prefix(binds, hide)
        return [*sandbox, "--ro-bind", str(launcher), str(launcher), "--", str(launcher), *options]


@cache
def interpreter_paths() -> tuple[Path, ...]:
    """The judge's own Python outside /usr, which Python submissions run with: bound or exposed for them (asked on
    every run, and fixed for the life of the process)."""
    return tuple(Path(p) for p in sorted({sys.base_prefix, sys.prefix}) if not p.startswith("/usr"))


def bwrap_prefix(binds: Sequence[Bind], hide: Sequence[Path] = ()) -> list[str]:
    """bwrap options for a sandbox that sees the system read-only, the given binds, and nothing of the judge's: of
    ``hide`` (a site, a problem, the build cache), what lies inside a folder the sandbox shows (a site under
    ``/usr/local``, inside the judge's virtual environment) is covered by an empty tmpfs, and the binds inside it
    are bound again on top."""
    argv = [
        shutil.which("bwrap") or "bwrap",
        "--new-session",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        "sandbox",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    if os.geteuid() != 0:
        argv.append("--unshare-user")
    for path in _SYSTEM_LINKS:
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            argv += ["--ro-bind", path, path]
    made: set[Path] = set()
    for path in (*_SYSTEM_RO, *sorted(str(p) for p in Path("/etc").glob("java-*"))):
        argv += [*_parents(Path(path), made), "--ro-bind-try", path, path]
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(SCRATCH_BYTES),
        "--tmpfs",
        str(SCRATCH_VIEW),
    ]
    interpreters = [Bind(p) for p in interpreter_paths()]
    shown: list[Path] = []
    for bind in [*interpreters, *binds]:
        if not bind.writable and inside(bind.path, shown):
            continue  # already visible; a symlink bound again inside a read-only bind makes bwrap fail
        if not bind.writable:
            shown.append(bind.path)
        argv += _parents(bind.path, made)
        argv += ["--bind" if bind.writable else "--ro-bind", str(bind.path), str(bind.path)]
    return argv + _covered(hide, [*interpreters, *binds]) + ["--chdir", str(SCRATCH_VIEW)]


def _covered(hide: Sequence[Path], binds: Sequence[Bind]) -> list[str]:
    """An empty tmpfs over each hidden folder the sandbox would show (it lies inside a system folder or a bind),
    then every bind that lies inside one of them bound again: the binds' own files stay visible, nothing else."""
    system = [Path(p) for p in ("/usr", *_SYSTEM_LINKS, *_SYSTEM_RO) if not os.path.islink(p)]
    roots = [*system, *(b.path for b in binds)]
    visible = [h for h in hide if h.is_dir() and not h.is_symlink() and inside(h, roots)]
    covered = [h for h in visible if not inside(h, [o for o in visible if o != h])]  # a tmpfs over the outermost
    if not covered:
        return []
    argv: list[str] = []
    for folder in covered:
        argv += ["--perms", "0755", "--tmpfs", str(folder)]
    shown: list[Path] = []
    remade: set[Path] = set()
    for bind in binds:
        if not inside(bind.path, covered) or (not bind.writable and inside(bind.path, shown)):
            continue
        if not bind.writable:
            shown.append(bind.path)
        for parent in reversed(bind.path.parents):  # the folders between the tmpfs and the bind, in the tmpfs
            if inside(parent, covered) and parent not in covered and parent not in remade:
                remade.add(parent)
                argv += ["--perms", "0755", "--dir", str(parent)]
        argv += ["--bind" if bind.writable else "--ro-bind", str(bind.path), str(bind.path)]
    return argv


def _parents(path: Path, made: set[Path]) -> list[str]:
    """Create a bind's missing ancestors as 0755: bwrap makes them 0700, which an unprivileged uid cannot cross."""
    argv: list[str] = []
    for parent in reversed(path.parents[:-1]):
        if (
            parent in made
            or str(parent) in ("/usr", "/tmp", "/proc", "/dev")
            or any(str(parent) == p for p in _SYSTEM_LINKS)
        ):
            continue
        made.add(parent)
        argv += ["--perms", "0755", "--dir", str(parent)]
    return argv


def bwrap_works() -> str | None:
    """None when bwrap can start a sandbox here; otherwise why not.

    A success is remembered for this bwrap binary until the machine reboots
    (a file in the cache folder keyed by both): starting a sandbox to find
    out cost every command about 25 ms. A failure is never remembered, so a
    newly installed or enabled bwrap is seen at once.
    """
    binary = shutil.which("bwrap")
    if binary is None:
        return "bwrap is not installed (apt-get install bubblewrap)"
    stamp = _probe_stamp(binary)
    if stamp is not None and stamp.is_file():
        return None
    problem = _probe_bwrap()
    if problem is None and stamp is not None:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
    return problem


def _probe_stamp(binary: str) -> Path | None:
    """Where a working probe of this bwrap in this boot is remembered; None when the boot cannot be told."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        info = os.stat(binary)
    except OSError:
        return None
    return cache_root() / "probes" / f"bwrap-{boot}-{info.st_ino}-{info.st_mtime_ns}-{os.geteuid()}"


def _probe_bwrap() -> str | None:
    try:
        done = subprocess.run([*bwrap_prefix([]), "--", "/bin/true"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap failed: {exc}"
    if done.returncode != 0:
        return f"bwrap cannot create namespaces here: {done.stderr.strip()[:200]}"
    return None


def resolve(requested: str | None) -> tuple[Isolation, list[str]]:
    """The mode to use, and one-line warnings saying what is weaker than the full sandbox on this machine."""
    mode = requested or os.environ.get(ENV_MODE) or "auto"
    if mode not in MODES:
        raise UsageError(f"unknown sandbox mode '{mode}' (choose from {', '.join(MODES)})")
    warnings = []
    if mode == "bwrap":
        problem = bwrap_works()
        if problem:
            raise SetupError(f"--sandbox bwrap: {problem}")
    if mode == "auto":
        problem = bwrap_works()
        mode = "bwrap" if problem is None else "rlimits"
        if problem is not None:
            weaker = (
                "the system's files stay visible (read-only); submissions run as another uid with private /tmp, "
                "PID, IPC and network namespaces"
                if os.geteuid() == 0
                else "no filesystem, network or PID isolation; submissions run as the judge's user"
            )
            warnings.append(f"warning: {problem}; falling back to --sandbox rlimits: {weaker}")
    cgroups, why = probe_cgroups()
    if cgroups is None and mode != "none":
        warnings.append(
            f"warning: no usable control groups ({why}): memory and CPU are limited per process and by a 10 ms "
            "sum over the live process tree, which misses memory no process maps and CPU of unreaped children"
        )
    return Isolation(mode, cgroups), warnings


def describe(isolation: Isolation) -> str:
    """One line for diagnostics: the mode and the control groups in use."""
    groups = isolation.cgroups.describe() if isolation.cgroups else "no control groups"
    user = "another uid per slot" if isolation.switches_uid else "the judge's uid"
    return f"sandbox {isolation.mode}, {groups}, {user}"


class UidLease:
    """An unprivileged uid held for as long as a slot lives, so parallel judges never share one.

    Leases are advisory locks on files in the temp folder, as isolate hands
    out box ids: the lock dies with the process, so a killed judge leaks none.
    """

    def __init__(self) -> None:
        folder = Path(tempfile.gettempdir()) / "tilejudge-uids"
        folder.mkdir(mode=0o755, exist_ok=True)
        for uid in range(UID_BASE, UID_BASE + UID_COUNT):
            fd = os.open(folder / str(uid), os.O_CREAT | os.O_RDWR, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.uid, self._fd = uid, fd
            return
        raise SetupError(f"all {UID_COUNT} sandbox uids are in use")

    def release(self) -> None:
        os.close(self._fd)
