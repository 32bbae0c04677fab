"""Slots: one worker's place to run things, a trusted launcher plus a sandboxed one per program.

A *slot* is its launchers, a control group for each, a sandbox uid and a
private folder; parallel judging takes one slot per worker, so runs never
share a scratch folder, a group or a uid.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from . import private_root
from .files import cache_root
from .launcher import DEFAULT_PATH, Launcher, build_launcher
from .sandbox import (
    SANDBOX_PROCESSES,
    SCRATCH_BYTES,
    SCRATCH_VIEW,
    Bind,
    Isolation,
    UidLease,
    inside,
    interpreter_paths,
)
from .types import ExecError, RunResult, RunSpec

# What every run's environment holds so that no runtime sizes itself from the machine. PyPy makes its young
# generation (the nursery) half the last-level cache the CPU reports: 150 MiB on a VM reporting 300 MiB, 240 MiB on
# one reporting 480. Left so, a PyPy program's verdict would follow the machine: under a 64 MiB memory limit a tiny
# program is MLE once it has allocated that much garbage, and under an address-space limit it cannot start at all
# ("cannot allocate nursery"). 4M is the size PyPy takes itself where it cannot read the cache. It reaches a
# ``--cmd "pypy3 sol.py"`` as well as the pypy3 language, which is why it is set here and not per language.
MACHINE_FREE = {"PYPY_GC_NURSERY": "4M"}
# A folder to conceal that is /usr or holds it (a class or a site given as "/") would hide the system itself.
_SYSTEM = Path("/usr")


class Slot:
    """One worker's place to run things: a trusted launcher, a launcher for untrusted runs, and a control group.

    ``private`` holds the judge's own files for a run (output, stderr,
    checker files); untrusted runs never see it. Their writable place is
    ``scratch``: a folder here, a private tmpfs inside the sandbox, or (rlimits
    as root) a tmpfs the launcher mounts fresh for every run.
    """

    def __init__(
        self, index: int, root: Path, launcher: Path, isolation: Isolation, conceal: Sequence[Path] = ()
    ) -> None:
        self.index = index
        self.conceal = tuple(conceal)
        self.isolation = isolation
        self.private = root / f"slot{index}"
        self.private.mkdir(mode=0o700)
        self._launcher = launcher
        self._trusted = Launcher([str(launcher)], self.private / "launcher.log")
        self._untrusted: Launcher | None = None
        self._peer: Launcher | None = None
        self._binds: tuple[Bind, ...] | None = None
        self._view_of: tuple[tuple[Bind, ...], dict[str, object]] | None = None
        self._aborted = False
        self._queued: deque[Launcher] = deque()  # the launcher of each run handed on and not yet received, in order
        self._lease = UidLease() if isolation.switches_uid else None
        # one group per launcher: a launcher keeps its group's files open and rewrites limits only when they change
        launchers = ("trusted",) if isolation.mode == "none" else ("trusted", "untrusted")
        self._groups = {name: isolation.cgroups.slot_group() for name in launchers} if isolation.cgroups else {}
        if isolation.sandboxed or isolation.private_mounts:
            self.scratch = SCRATCH_VIEW
        else:
            self.scratch = root / f"scratch{index}"
            self.scratch.mkdir(mode=0o700)
            if self.uid is not None:
                os.chown(self.scratch, self.uid, self.uid)
        self._hidden = (*_judge_folders(), *self.conceal) if isolation.private_mounts else ()
        self.env = {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8", "HOME": str(self.private), **MACHINE_FREE}
        self.untrusted_env = {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8", "HOME": str(self.scratch), **MACHINE_FREE}

    @property
    def uid(self) -> int | None:
        """The unprivileged uid untrusted runs use, when the judge can switch to one."""
        return self._lease.uid if self._lease else None

    def run(self, spec: RunSpec) -> RunResult:
        """A trusted run (checker, generator, reference): limits only, the judge's view of the files."""
        self._idle()
        return self._trusted.run(spec, self._groups.get("trusted"))

    def run_peer(self, spec: RunSpec, sent: threading.Event | None = None) -> RunResult:
        """A trusted run beside an untrusted one of this slot (an interactor): its own launcher and control group,
        since a launcher serves one run at a time and, in mode none, the untrusted run uses the trusted one.
        ``sent`` is set once the launcher has the request (or it could not be), which ``start_peer_wall`` waits for.
        Not refused while runs are queued (``_idle``): its answer comes from its own launcher, never one a queued run
        answers on, and the submission it runs beside is queued from another thread, which on a busy machine gets
        there first (that refusal ended an interactive judging with an error beside 8 busy processes)."""
        try:
            if self._peer is None:
                self._peer = self._new_launcher([str(self._launcher)], "peer.log")
                if self.isolation.cgroups:
                    self._groups["peer"] = self.isolation.cgroups.slot_group()
            launcher = self._current(self._peer)
            launcher.send(spec, self._groups.get("peer"))
        finally:
            if sent is not None:
                sent.set()
        return launcher.receive()

    def peer_pid(self) -> int | None:
        """The process id of the launcher the peer runs under (None before its first run, or once it has gone)."""
        return self._peer.pid if self._peer is not None else None

    def start_peer_wall(self, sent: threading.Event) -> None:
        """The peer's run (sent with ``wall_held``) starts counting its wall limit now: the run it waited on has
        ended. Called from the thread of that run once the peer's request is in its launcher (``sent``), so the word
        never comes before the request it starts."""
        sent.wait()
        if self._peer is not None:
            self._peer.start_wall()

    def run_untrusted(self, spec: RunSpec, binds: Sequence[Bind]) -> RunResult:
        """A submission's run (or compilation): isolated per the mode, seeing only ``binds``, fresh state per run."""
        self._idle()
        self.queue_untrusted(spec, binds)
        return self.next_result()

    def queue_untrusted(self, spec: RunSpec, binds: Sequence[Bind]) -> None:
        """``run_untrusted`` without waiting for the end: the run goes to the launcher, behind the one it runs if any,
        and ``next_result`` gets the results in order. Two at most: the one running and the next, whose request
        waits in the launcher's socket and starts the moment the first ends (``judging.py`` at ``-j 1``: the judge
        checks one case while the next runs). Its stdout and stderr must not be the files of the run before it."""
        if len(self._queued) >= 2:
            raise ExecError("a slot queues one run behind the one it runs, no more")
        wanted = tuple(binds)
        if self.isolation.mode == "none":
            launcher, group = self._trusted, self._groups.get("trusted")
        else:
            group = self._groups.get("untrusted")
            if self._untrusted is None or (self.isolation.sandboxed and wanted != self._binds):
                if self._queued:  # a new launcher for other binds would end the runs queued in the old one
                    raise ExecError("a run with other binds cannot be queued behind this slot's runs")
                if self._untrusted is not None:
                    self._untrusted.close()
                self._untrusted = self._new_launcher(
                    self.isolation.launcher_argv(self._launcher, wanted, (*_judge_folders(), *self.conceal)),
                    "sandbox.log",
                )
                self._binds = wanted
            launcher = self._current(self._untrusted)
        limits = replace(
            spec.limits,
            processes=SANDBOX_PROCESSES if self.uid is not None or group else spec.limits.processes,
            file_bytes=SCRATCH_BYTES if spec.limits.file_bytes is None else spec.limits.file_bytes,
        )  # scratch files: the scratch's size, not the output limit
        cwd = spec.cwd if spec.cwd is not None else self.scratch
        scratch = (
            None if self.isolation.private_mounts else self.scratch
        )  # emptied after every run, wherever the run starts
        launcher.send(
            replace(
                spec,
                limits=limits,
                cwd=cwd,
                scratch=scratch,
                env={**self.untrusted_env, **spec.env} if spec.env else self.untrusted_env,
                user=self.uid,
                **self._view(wanted),
            ),
            group,
        )
        self._queued.append(launcher)

    def next_result(self) -> RunResult:
        """The result of the oldest run ``queue_untrusted`` handed on, once it has ended."""
        launcher = self._queued[0]
        try:
            return launcher.receive()
        finally:
            self._queued.popleft()

    def drop_queued(self) -> None:
        """Kill the runs queued and not yet received, and forget them: their results are not wanted (a case of a
        group decided meanwhile). Their launcher ends with them (it kills its run the moment its socket hangs up)
        and is started again for the next run."""
        for launcher in dict.fromkeys(self._queued):
            launcher.close()
        self._queued.clear()

    def _idle(self) -> None:
        """Refuse a run that waits for its answer while runs are queued: it would read theirs."""
        if self._queued:
            raise ExecError("this slot has runs queued: their results must be taken first")

    def _view(self, binds: tuple[Bind, ...]) -> dict[str, object]:
        """What an untrusted run seeing ``binds`` gets of its own and sees (``RunSpec`` fields): worked out once per
        set of binds, since every case of a submission asks for the same."""
        if self._view_of is None or self._view_of[0] != binds:
            view: dict[str, object] = dict(
                fresh=self.isolation.fresh, writable=tuple(b.path for b in binds if b.writable)
            )
            if self.isolation.private_mounts:
                view.update(hide=self._hidden, expose=(*(b.path for b in binds), *interpreter_paths()))
            self._view_of = (binds, view)
        return self._view_of[1]

    def _new_launcher(self, argv: list[str], log: str) -> Launcher:
        """A launcher this slot starts on demand (``_current`` aborts it when the slot was)."""
        return Launcher(argv, self.private / log)

    def _current(self, launcher: Launcher) -> Launcher:
        """``launcher``, made the slot's before this check: an ``abort`` running meanwhile either sees it among the
        slot's launchers or has set the flag read here, so a launcher made as Ctrl-C lands is never left running."""
        if self._aborted:
            launcher.abort()
        return launcher

    def clean_private(self) -> None:
        """Empty the private folder between runs so no file of one run is read as another's."""
        with os.scandir(self.private) as entries:  # the entries' types come with the listing: no stat per entry
            for entry in entries:
                if entry.name in ("launcher.log", "sandbox.log", "peer.log"):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(entry.path)

    def abort(self) -> None:
        """Kill what runs in this slot now and refuse further runs (Ctrl-C); the thread using it gets ``Aborted``."""
        self._aborted = True
        for launcher in (self._trusted, self._untrusted, self._peer):
            if launcher is not None:
                launcher.abort()

    def cancel(self) -> None:
        """Kill what runs in this slot now, from another thread, because its result can no longer count (a case beside
        a first failure); the thread using the slot gets ``Cancelled`` and the slot stays usable."""
        for launcher in (self._trusted, self._untrusted, self._peer):
            if launcher is not None:
                launcher.cancel()

    def close(self) -> None:
        launchers = [launcher for launcher in (self._trusted, self._untrusted, self._peer) if launcher is not None]
        for launcher in launchers:
            launcher.stop()
        for launcher in launchers:
            launcher.close()
        for group in self._groups.values():
            group.close()
        if self._lease:
            self._lease.release()


def _judge_folders() -> list[Path]:
    """What a run with private mounts must not see of the judge: its build cache and, in a checkout, the repository."""
    folders = [cache_root()]
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "problems").is_dir():
        folders.append(checkout)
    return folders


class SlotPool:
    """A fixed set of slots handed out to worker threads.

    ``conceal`` names folders of the judge's (a problem and its test data)
    that untrusted runs with private mounts must not see; a bwrap sandbox
    never shows them anyway.
    """

    def __init__(self, size: int, isolation: Isolation | None = None, conceal: Sequence[Path] = ()) -> None:
        binary = build_launcher()
        self.isolation = isolation or Isolation("none")
        private_root.reclaim()  # what judges killed before this one left of their runs
        self._root, self._owner = private_root.claim()
        conceal = [folder for folder in conceal if not inside(_SYSTEM, [folder])]  # never "/" or "/usr" itself
        self._slots = [Slot(i, self._root, binary, self.isolation, conceal) for i in range(max(1, size))]
        self._free: queue.SimpleQueue[Slot] = queue.SimpleQueue()
        for slot in self._slots:
            self._free.put(slot)

    @property
    def size(self) -> int:
        return len(self._slots)

    @contextmanager
    def slot(self) -> Iterator[Slot]:
        slot = self._free.get()
        try:
            yield slot
        finally:
            slot.clean_private()
            self._free.put(slot)

    def health(self) -> str:
        """Why the slots cannot run anything now ('' when they can): a service's health check asks this rather than
        start a program per probe."""
        if self._owner < 0:
            return "the slots are closed"
        if not self._root.is_dir():
            return f"the slots' private folder {self._root} is gone"
        for slot in self._slots:
            if slot._aborted:
                return "the slots were stopped"
            if not Path(slot._launcher).exists():
                return f"the launcher {slot._launcher} is missing"
        return ""

    def abort(self) -> None:
        """Stop every run in flight at once, from any thread; ``close`` still follows."""
        for slot in self._slots:
            slot.abort()

    def close(self) -> None:
        for slot in self._slots:
            slot.close()
        if self._owner >= 0:
            private_root.release(self._root, self._owner)
            self._owner = -1

    def __enter__(self) -> SlotPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
