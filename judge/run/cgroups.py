"""Control groups: found once per judge process, one group per slot, made inside the group the judge runs in.

Why groups: rlimits bound one process, but a submission is a tree. A group
bounds the tree's memory (kernel memory, tmpfs and IPC pages included) and
process count, accounts the CPU time of every member (also children that
exited unreaped), and records the kernel's OOM kills. The launcher limits,
reads and empties the group; this module only finds the hierarchy, makes and
removes the folders, and reclaims the groups of a judge that was killed.

Layout: ``<own group>/tilejudge-<pid>-<n>-<random>`` per slot, where ``<own group>``
is this process's group from ``/proc/self/cgroup`` (never a hierarchy's root
files: our groups are children of our own). On cgroup v1 there is one such
folder in each of the memory, pids and cpuacct hierarchies, in which the
launcher makes the lanes its runs take turns in (``lane0``, ``lane1``, and ``lane2`` while a run's namespaces are
slow to end: ``cgroup.c`` says why); on v2 one folder that delegates memory and pids to the
per-run leaf the launcher makes in it.

Ownership: a judge holds an ``flock`` on each of its group folders for as long
as the group lives, and the sweep of a starting judge removes only a group whose
lock it can take: the kernel drops a lock when its holder dies, whatever PID
namespace either judge is in. A pid in a name says nothing across namespaces (two
judges in two containers sharing the machine's groups may both be pid 1, and
neither sees the other's pid), so it is never the proof of a live owner, and the
random part keeps two such judges' names apart. Groups named as older judges name
them (no random part, no lock) are removed only when their pid is also gone here.
"""

from __future__ import annotations

import fcntl
import itertools
import os
import secrets
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PREFIX = "tilejudge"
V1_CONTROLLERS = ("memory", "pids", "cpuacct")
V2_CONTROLLERS = ("memory", "pids")
ENV_DISABLE = "TILEJUDGE_NO_CGROUPS"  # "1": behave as on a machine without usable groups (tests of the fallback)
_counter = itertools.count()
_probe_lock = threading.Lock()
_probed: list[tuple[Cgroups | None, str]] = []
_CLAIM_TRIES = 20  # a sweep that locked a group before its maker did makes the maker try a new name
_held: list[int] = []  # the lock on this process's v2 leaf (``_delegate_v2``), held until the process ends


@dataclass(frozen=True)
class Cgroups:
    """The hierarchy in use and the judge's own group folder in each of its controllers."""

    version: int
    own: tuple[Path, ...]  # v1: memory, pids, cpuacct; v2: one folder

    def describe(self) -> str:
        return f"cgroup v{self.version} ({', '.join(str(p) for p in self.own)})"

    def slot_group(self) -> SlotGroup:
        return SlotGroup(self)


def group_name() -> str:
    """A new slot group's name: the pid for people reading the hierarchy, and a random part that keeps apart the
    groups of two judges with one pid in two PID namespaces."""
    return f"{PREFIX}-{os.getpid()}-{next(_counter)}-{secrets.token_hex(4)}"


class SlotGroup:
    """One slot's group(s), kept open and locked for the slot's life; the launcher gets their folder descriptors with
    every run."""

    def __init__(self, cgroups: Cgroups) -> None:
        self.version = cgroups.version
        self.paths: tuple[Path, ...] = ()
        self.fds: list[int] = []
        for _ in range(_CLAIM_TRIES):
            self.paths = tuple(own / group_name() for own in cgroups.own)
            try:
                if self._claim():
                    break
            except OSError:
                self.close()
                raise
            self.close()  # a sweep took one of them between its mkdir and our lock: it removes that one, we the rest
        else:
            raise OSError(f"cannot claim a control group in {cgroups.own[0]}: taken {_CLAIM_TRIES} times by sweeps")
        if self.version == 2:
            try:
                (self.paths[0] / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in V2_CONTROLLERS))
            except OSError:
                self.close()
                raise

    def _claim(self) -> bool:
        """Make and lock every folder; False when a sweep got to one first (it locked it, or already removed it)."""
        for path in self.paths:
            path.mkdir(mode=0o755)
            try:
                fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except FileNotFoundError:
                return False
            self.fds.append(fd)
            if not _lock(fd) or not _same(path, fd):
                return False
        return True

    def close(self) -> None:
        """Remove the groups while still holding their locks, so no sweep of another judge works on them too."""
        for path in self.paths:
            remove_tree(path)
        for fd in self.fds:
            os.close(fd)
        self.fds = []


def _lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _same(path: Path, fd: int) -> bool:
    """``fd`` is still the folder at ``path`` (not one a sweep removed after we opened it)."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def own_paths(text: str) -> dict[str, str]:
    """Controller (or "" for v2) → this process's group path, from the text of /proc/self/cgroup."""
    own: dict[str, str] = {}
    for line in text.splitlines():
        number, controllers, path = line.split(":", 2)
        if number == "0" and not controllers:
            own[""] = path
        for controller in controllers.split(","):
            if controller:
                own[controller] = path
    return own


def cgroup_mounts(text: str) -> list[tuple[str, str, str, set[str]]]:
    """(fstype, mount point, mount root, super options) of every cgroup mount, from the text of mountinfo."""
    found = []
    for line in text.splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            point = fields[4].replace("\\040", " ")
            found.append((tail[0], point, fields[3], set(tail[2].split(","))))
    return found


def _group_folder(point: str, root: str, own: str) -> Path | None:
    """The folder of our own group inside a mount, or None when the mount does not show it."""
    if root != "/" and not (own == root or own.startswith(root.rstrip("/") + "/")):
        return None
    relative = own[len(root) :] if root != "/" else own
    folder = Path(point) / relative.lstrip("/")
    return folder if folder.is_dir() else None


def find(cgroup_text: str, mountinfo_text: str) -> tuple[Cgroups | None, str]:
    """The usable hierarchy for a process with these /proc files: v2 first (production's), then v1."""
    own, mounts = own_paths(cgroup_text), cgroup_mounts(mountinfo_text)
    found, why_v2 = _try_v2(own, mounts)
    if found is not None:
        return found, ""
    found, why_v1 = _try_v1(own, mounts)
    return (found, "") if found is not None else (None, f"{why_v2}; {why_v1}")


def _try_v2(own: dict[str, str], mounts: list[tuple[str, str, str, set[str]]]) -> tuple[Cgroups | None, str]:
    if "" not in own:
        return None, "no cgroup v2 hierarchy"
    for fstype, point, root, _ in mounts:
        if fstype != "cgroup2":
            continue
        folder = _group_folder(point, root, own[""])
        if folder is None:
            continue
        if _judge_leaf(folder):  # started by a judge that moved itself into a leaf: judges share the group above it
            folder = folder.parent
        available = (
            set((folder / "cgroup.controllers").read_text().split())
            if (folder / "cgroup.controllers").is_file()
            else set()
        )
        missing = [c for c in V2_CONTROLLERS if c not in available]
        if missing:
            return None, f"cgroup v2 at {point} has no {' or '.join(missing)} controller here"
        if not os.access(folder, os.W_OK):
            return None, f"cgroup v2 group {folder} is not writable (not delegated to this user)"
        problem = _delegate_v2(folder)
        if problem:
            return None, problem
        return Cgroups(2, (folder,)), ""
    return None, "no cgroup v2 mount shows this process's group"


def _judge_leaf(folder: Path) -> bool:
    """The leaf a judge moves itself into to delegate its v2 group (``_delegate_v2``). A program the judge starts
    (a grading worker, a judge run by a test) begins there too; the leaf holds its starter, so it cannot be
    delegated again, while the group above it already is."""
    parts = folder.name.split("-")
    return len(parts) == 3 and parts[0] == PREFIX and parts[1].isdigit() and parts[2] == "judge"


def _delegate_v2(folder: Path) -> str:
    """Enable memory and pids for our children; a group holding processes cannot, so move this process to a leaf
    first."""
    control = folder / "cgroup.subtree_control"
    wanted = " ".join(f"+{c}" for c in V2_CONTROLLERS)
    try:
        control.write_text(wanted)
        return ""
    except OSError:
        pass
    members = (folder / "cgroup.procs").read_text().split()
    if members != [str(os.getpid())]:
        return (
            f"cgroup v2 group {folder} holds other processes; "
            "run the judge in a delegated group of its own (systemd-run --scope -p Delegate=yes)"
        )
    leaf = folder / f"{PREFIX}-{os.getpid()}-judge"
    try:
        leaf.mkdir(exist_ok=True)
        fd = os.open(leaf, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        _held.append(fd)  # the leaf holds this process: no other judge's sweep may take it while it lives
        if not _lock(fd):
            return f"cgroup v2: {leaf} is held by another judge"
        (leaf / "cgroup.procs").write_text(str(os.getpid()))
        control.write_text(wanted)
    except OSError as exc:
        return f"cgroup v2: cannot delegate {folder}: {exc.strerror}"
    return ""


def _try_v1(own: dict[str, str], mounts: list[tuple[str, str, str, set[str]]]) -> tuple[Cgroups | None, str]:
    folders = []
    for controller in V1_CONTROLLERS:
        folder = next(
            (
                f
                for fstype, point, root, options in mounts
                if fstype == "cgroup"
                and controller in options
                and controller in own
                and (f := _group_folder(point, root, own[controller])) is not None
            ),
            None,
        )
        if folder is None:
            return None, f"no cgroup v1 {controller} hierarchy"
        if not os.access(folder, os.W_OK):
            return None, f"cgroup v1 {controller} group {folder} is not writable (needs root)"
        folders.append(folder)
    return Cgroups(1, tuple(folders)), ""


def probe() -> tuple[Cgroups | None, str]:
    """The groups this judge can use, or None and why not; probed once per process, leftovers reclaimed then."""
    with _probe_lock:
        if not _probed:
            _probed.append(_probe())
        return _probed[0]


def _probe() -> tuple[Cgroups | None, str]:
    if os.environ.get(ENV_DISABLE) == "1":
        return None, f"control groups switched off by {ENV_DISABLE}=1"
    try:
        found, why = find(Path("/proc/self/cgroup").read_text(), Path("/proc/self/mountinfo").read_text())
    except OSError as exc:
        return None, f"cannot read the control groups: {exc}"
    if found is None:
        return None, why
    for folder in found.own:
        reclaim(folder)
    return found, ""


def reclaim(folder: Path) -> list[Path]:
    """Remove the groups of judges that are gone (killed with kill -9): their processes are killed first. A group
    is gone when its lock can be taken (no live process holds it), and, for a group named as older judges named
    theirs (they took no lock), when its pid is not alive here either."""
    removed = []
    for child in folder.glob(f"{PREFIX}-*-*"):
        parts = child.name.split("-")
        if len(parts) not in (3, 4) or not parts[1].isdigit():
            continue
        try:
            fd = os.open(child, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            continue  # removed meanwhile, or not a folder
        try:
            if not _lock(fd) or (len(parts) == 3 and _alive(int(parts[1]))):
                continue
            remove_tree(child)
            removed.append(child)
        finally:
            os.close(fd)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_tree(group: Path) -> None:
    """Kill every process in a group and its children, then remove the folders, deepest first. The listing gives each
    entry's type, and an empty group (a slot's, once its launchers have exited) goes at the first rmdir: a stat of
    each of a group's 30-odd control files and a read of its members were most of a pool's end (18 folders in
    rlimits mode on v1, 4 ms)."""
    try:
        with os.scandir(group) as entries:
            children = [Path(entry.path) for entry in entries if entry.is_dir(follow_symlinks=False)]
    except (FileNotFoundError, NotADirectoryError):
        return
    for child in children:
        remove_tree(child)
    for attempt in range(201):  # at once if empty; else its members killed, then tried again
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if attempt:
                time.sleep(0.005)  # killed members take a moment to leave
        try:
            members = (group / "cgroup.procs").read_text().split()
        except OSError:
            members = []
        for pid in members:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
