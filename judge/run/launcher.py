"""The judge's side of ``launcher.c``: building it, and one request/answer per run over a socket.

The measuring is done by ``launcher.c``, a small static C program that stays
alive for many runs. Python only describes the run and reads back one line.
"""

from __future__ import annotations

import os
import resource
import select
import shutil
import socket
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from ..errors import Aborted, Cancelled, JudgeError, SetupError
from ..filecache import recall, remember, signatures
from .cgroups import SlotGroup
from .files import cache_root, read_head
from .types import ExecError, RunResult, RunSpec
from .waiting import describe, overdue_after, tell

LAUNCHER_SOURCE = Path(__file__).with_name("launcher.c")
LAUNCHER_PARTS = tuple(
    LAUNCHER_SOURCE.with_name(name)
    for name in (
        *("launcher.c", "cgroup.c", "confine.c", "seccomp.c", "fresh.c", "output.c", "proctree.c", "relay.c"),
        "child.c",
        *("launcher.h", "child.h"),
    )
)
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
REQUEST_MAX = 65536
SCRATCH_KB = 64 * 1024  # size of each private tmpfs of a run with FRESH_MOUNTS

_runs_cpu_lock = threading.Lock()
_runs_cpu = [0.0]


_reap_lock = threading.Lock()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def runs_cpu() -> float:
    """The CPU time of the runs reported by this process's launchers that are still running: what ``-v`` adds to the
    judge's own and its reaped children's CPU time for a phase. A run's processes are a launcher's children, never the
    judge's, until the judge reaps the launcher: then the runs' time is in the judge's ``RUSAGE_CHILDREN`` and is
    taken off here, or a phase that closed a pool counted every run of it twice (8.8 s of CPU in 0.26 s). What is
    taken off is at most what the reap added there: a run's reported time (its control group's) can exceed what
    its processes' usage adds up to, and taking off more made a phase's CPU time negative."""
    with _runs_cpu_lock:
        return _runs_cpu[0]


def launcher_digest() -> str:
    """Identifies the launcher's sources: a new launcher may change verdicts, so stored grades key on it. Remembered
    until a source file changes: hashing them (and importing hashlib) was a fixed cost of every command."""
    paths = [os.fspath(part) for part in LAUNCHER_PARTS]
    key = "\0".join(paths)
    digest = recall("launcher", key, [])
    if isinstance(digest, str):
        return digest
    import hashlib

    digest = hashlib.sha256(b"\0".join(part.read_bytes() for part in LAUNCHER_PARTS)).hexdigest()
    remember("launcher", key, [], digest, signatures(paths))
    return digest


def build_launcher() -> Path:
    """Compile the launcher once per source version; static so its own footprint is a few hundred KiB."""
    digest = launcher_digest()[:16]
    target = cache_root() / f"launcher-{digest}"
    if target.exists():
        return target
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise SetupError("the judge needs a C compiler (gcc) to build its launcher; install gcc")
    tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}")
    for extra in (["-static"], []):
        sources = [str(part) for part in LAUNCHER_PARTS if part.suffix == ".c"]
        done = subprocess.run([compiler, "-O2", *extra, "-o", str(tmp), *sources], capture_output=True, text=True)
        if done.returncode == 0:
            os.replace(tmp, target)
            return target
    raise SetupError(f"cannot build the launcher: {done.stderr.strip().splitlines()[-1:]}")


class Launcher:
    """One long-lived launcher process, reached over a socket; not thread-safe (a slot owns it)."""

    def __init__(self, argv: Sequence[str], log: Path) -> None:
        self._argv = list(argv)
        self._log = log
        self._proc: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._aborted = False
        self._cancelled = False  # the run in flight was cancelled: this launcher is started afresh for the next one
        # each run sent and not yet answered: (when sent, seconds after which it is overdue, its command, held)
        self._pending: deque[tuple[float, float, str, bool]] = deque()
        self._wall_started = 0.0  # when the held wall limit of the run in flight started (``start_wall``), else 0
        self._runs_cpu = 0.0  # the CPU time of the runs this launcher process reported (``runs_cpu``)

    def _ensure(self) -> socket.socket:
        if self._aborted:
            raise Aborted("stopped: the judge was interrupted")
        if self._cancelled:  # the launcher of a cancelled run is on its way out
            self._cancelled = False
            self.close()
        if self._proc is not None and self._proc.poll() is None and self._sock is not None:
            return self._sock
        self.close()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # A session of its own: a Ctrl-C at the terminal reaches the judge alone, which stops its launchers in order
        # (abort) instead of racing their deaths; a launcher still ends with the judge, when its socket hangs up.
        with theirs, self._log.open("wb") as log:
            self._proc = subprocess.Popen(
                self._argv,
                stdin=theirs,
                stdout=subprocess.DEVNULL,
                stderr=log,
                close_fds=True,
                env={"PATH": DEFAULT_PATH},
                start_new_session=True,
            )
        self._sock = ours
        if self._aborted:  # aborted while the process started, before abort could see this socket to shut it down
            self.close()
            raise Aborted("stopped: the judge was interrupted")
        return ours

    @property
    def pid(self) -> int | None:
        """The launcher's process id while it runs: every process of its runs is its descendant (it is their
        subreaper), which lets the judge look among them alone rather than through all of ``/proc``."""
        proc = self._proc
        return proc.pid if proc is not None and proc.returncode is None else None

    def run(self, spec: RunSpec, group: SlotGroup | None = None) -> RunResult:
        """One run; ``group`` is the slot's control group, sent as folder descriptors the launcher limits and reads."""
        self.send(spec, group)
        return self.receive()

    def send(self, spec: RunSpec, group: SlotGroup | None = None) -> None:
        """Hand the launcher a run without waiting for its end; ``receive`` gets the answers, one per run, in order.

        Sent while the launcher still runs another, the request waits in its socket and the launcher starts it the
        moment the first has ended (it starts a queued request before it sends the first's answer), with no round trip
        through the judge: the judge checks the first run's output while the second runs."""
        owned = [fd for fd in (spec.stdin, spec.stdout) if isinstance(fd, int)]  # pipe ends this run owns from here on
        try:
            sock = self._ensure()
            request = _encode(spec, group.version if group else 0)
            stdin = (
                spec.stdin
                if isinstance(spec.stdin, int)
                else os.open(spec.stdin or os.devnull, os.O_RDONLY | os.O_CLOEXEC)
            )
            owned.append(stdin)
            stdout = (
                spec.stdout
                if isinstance(spec.stdout, int)
                else os.open(spec.stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            )
            owned.append(stdout)
            stderr = os.open(spec.stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        except BaseException:
            for fd in dict.fromkeys(owned):
                os.close(fd)
            raise
        fds = [stdin, stdout, stderr]
        overdue = overdue_after(spec.limits.wall, spec.limits.cpu)
        if spec.wall_held:
            self._wall_started = 0.0
        self._pending.append(
            (time.monotonic(), overdue, os.path.basename(spec.argv[0]) if spec.argv else "?", spec.wall_held)
        )
        try:
            socket.send_fds(sock, [request], [*fds, *(group.fds if group else ())])
        except OSError as exc:
            self._fail(str(exc))
        finally:
            # the launcher holds its own copies now; a pipe end kept here would hold off the other side's end-of-file
            for fd in fds:
                os.close(fd)

    def receive(self) -> RunResult:
        """The answer to the oldest run sent and not yet received, once that run has ended."""
        sock = self._sock
        if sock is None:
            self._fail("it exited")
        self._await(sock)
        try:
            answer, reason = sock.recv(4096).decode("utf-8", "replace").strip(), "it exited"
        except OSError as exc:
            answer, reason = "", str(exc)
        if self._pending:
            self._pending.popleft()
        if not answer:
            self._fail(reason)
        result = _decode(answer)
        with _runs_cpu_lock:
            _runs_cpu[0] += result.cpu
            self._runs_cpu += result.cpu
        return result

    def _await(self, sock: socket.socket) -> None:
        """Wait for the oldest run's answer; once it is far past its limits, say (once) what it is waiting for."""
        if not self._pending:
            return
        sent, overdue, command, held = self._pending[0]
        begun = max(sent, time.monotonic())  # a run queued behind another starts about when this wait does
        told = False
        while True:
            # a held run's limits count from the word that started its wall limit, once it came
            left = (self._wall_started if held and self._wall_started else begun) + overdue - time.monotonic()
            if told or self._proc is None:
                left = None
            elif left > 0:
                try:
                    ready, _, _ = select.select([sock], [], [], left)
                except (OSError, ValueError):  # closed meanwhile (abort): recv says so
                    return
                if ready:
                    return
                continue  # looked at again: the word may have come meanwhile
            if left is None:
                return  # told already, or no process to describe: recv waits
            told = True
            limits = f"{overdue:.0f} s is the most its limits allow" + (
                (", counted from the end of the run it waited on" if self._wall_started else "; that run goes on")
                if held
                else ""
            )
            tell(describe(self._proc.pid, command, time.monotonic() - begun, limits))

    def start_wall(self) -> None:
        """Start the wall limit of the run in flight sent with ``wall_held`` (from any thread: the one that sent it
        waits in ``receive``). Harmless after the run has ended: the launcher passes the word over."""
        self._wall_started = time.monotonic()
        sock = self._sock
        if sock is not None:
            try:
                sock.send(b"wall")
            except OSError:  # gone: its run has been stopped with it
                pass

    def _fail(self, reason: str) -> NoReturn:
        """The launcher is gone (or was never reached): closed here, and the error says why as well as its log can."""
        why = " ".join(read_head(self._log, 300).split())
        self.close()
        if self._aborted:
            raise Aborted("stopped: the judge was interrupted")
        if self._cancelled:
            self._cancelled = False
            raise Cancelled("stopped: its result can no longer count")
        if why.startswith("bwrap:"):
            raise JudgeError(f"the sandbox could not be set up: {why}")
        raise JudgeError(f"the launcher died ({reason}){': ' + why if why else ''}")

    def abort(self) -> None:
        """Stop at once, from any thread (Ctrl-C): the launcher sees its socket hang up, kills the run in flight (it
        polls for that every 10 ms) and exits; the thread waiting for that run gets an error, and this launcher is
        never started again."""
        self._aborted = True
        self._hang_up()

    def cancel(self) -> None:
        """Kill the run in flight from another thread, as ``abort`` does, but for this run alone: the thread waiting
        for it gets ``Cancelled``, and the next run starts a new launcher."""
        self._cancelled = True
        self._hang_up()

    def _hang_up(self) -> None:
        """Shut the socket both ways from another thread: the launcher kills the run in flight (it polls for that
        every 10 ms) and exits, and the thread waiting for the run's answer wakes with the socket closed."""
        sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:  # closed meanwhile by its own thread
                pass

    def stop(self) -> None:
        """Ask the launcher to exit (it does when its socket closes) without waiting: a slot stops all of its
        launchers first, so they exit side by side."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def close(self) -> None:
        self.stop()
        self._pending.clear()  # its runs ended with it: the next launcher's first run is not overdue by their clock
        if self._proc is not None:
            with _reap_lock:  # one reap at a time: what each adds to RUSAGE_CHILDREN is told apart
                before = _children_cpu()
                _reap(self._proc, 10)
                grown = _children_cpu() - before
            self._proc = None
            with _runs_cpu_lock:  # its runs' time is now in RUSAGE_CHILDREN: as much of it as that grew by
                _runs_cpu[0] -= min(self._runs_cpu, grown)
                self._runs_cpu = 0.0


def _reap(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait for a launcher asked to exit, killing it if it does not in time. A pidfd wakes the wait the moment it
    exits, where ``Popen.wait(timeout)`` polls in growing sleeps (a millisecond or more lost per launcher)."""
    try:
        pidfd: int | None = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # before Linux 5.3, or already reaped
        pidfd = None
    if pidfd is not None:
        try:
            select.select([pidfd], [], [], timeout)
        finally:
            os.close(pidfd)
    try:
        proc.wait(timeout=0 if pidfd is not None else timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _encode(spec: RunSpec, cgroup: int) -> bytes:
    """The request lines; with a control group the tree's memory is its limit and no address-space rlimit is set."""
    paths = [str(p) for p in (*spec.hide, *spec.expose, *spec.writable)]
    values = [
        *spec.argv,
        *(f"{k}={v}" for k, v in (spec.env or {}).items()),
        str(spec.cwd or ""),
        str(spec.scratch or ""),
        *paths,
    ]
    if any("\n" in v for v in values):
        raise ExecError("arguments, paths and environment values may not contain a newline")
    env = spec.env if spec.env is not None else {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8"}
    lim = spec.limits
    lines = [
        *(f"arg {a}" for a in spec.argv),
        *(f"env {k}={v}" for k, v in env.items()),
        f"cwd {spec.cwd or ''}",
        f"scratch {spec.scratch or ''}",
        f"cpu_ms {int(lim.cpu * 1000)}",
        f"wall_ms {int(lim.wall * 1000)}",
        f"mem_kb {lim.memory_mib * 1024 if lim.memory_mib else 0}",
        f"as_kb {lim.address_space_mib * 1024 if lim.address_space_mib and not cgroup else 0}",
        f"stack_kb {lim.stack_mib * 1024 if lim.stack_mib else 0}",
        f"fsize {lim.file_bytes if lim.file_bytes is not None else lim.output_bytes + 1}",
        f"out_max {lim.output_bytes}",
        f"nofile {lim.open_files}",
        f"nproc {lim.processes if spec.user is not None else 0}",
        f"pids {lim.processes}",
        f"cgroup {cgroup}",
        f"fresh {spec.fresh}",
        f"tmp_kb {SCRATCH_KB}",
        *(f"hide {p}" for p in spec.hide),
        *(f"expose {p}" for p in spec.expose),
        *(f"writable {p}" for p in spec.writable),
        f"uid {spec.user if spec.user is not None else -1}",
        f"gid {spec.user if spec.user is not None else -1}",
        *(["wall_held 1"] if spec.wall_held else []),
    ]
    data = ("\n".join(lines) + "\n").encode()
    if len(data) > REQUEST_MAX:
        raise ExecError(f"command line too long ({len(data)} bytes)")
    return data


def _decode(line: str) -> RunResult:
    if line.startswith("error "):
        raise ExecError(line[len("error ") :])
    fields = dict(part.split("=", 1) for part in line.split()[1:])
    exit_code = int(fields["exit"])
    return RunResult(
        exit_code=exit_code if exit_code >= 0 else None,
        signal=int(fields["signal"]) or None,
        cpu=int(fields["cpu_us"]) / 1e6,
        wall=int(fields["wall_us"]) / 1e6,
        memory_kb=int(fields["maxrss_kb"]),
        killed=fields["killed"],
        oom_killed=fields["oom"] == "1",
        cgroup=int(fields["cgroup"]),
        ended=int(fields.get("end_us", 0)) / 1e6,
        output_over=("", "stdout", "stderr")[int(fields.get("output", 0))],
        waited=int(fields.get("delay_us", 0)) / 1e6,
    )
