"""Running one command under limits and measuring it.

The measuring is done by ``launcher.c``, a small static C program that stays
alive for many runs. Python only describes the run and reads back one line.
A *slot* is one launcher plus a private scratch folder; parallel judging
takes one slot per worker, so runs never share a scratch folder.
"""
from __future__ import annotations

import hashlib
import os
import queue
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from .errors import JudgeError, SetupError
from .sandbox import SANDBOX_PROCESSES, SCRATCH_VIEW, Bind, Isolation, UidLease

LAUNCHER_SOURCE = Path(__file__).with_name("launcher.c")
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
REQUEST_MAX = 65536


def cache_root() -> Path:
    """Where compiled artefacts live; overridable so tests and CI can isolate it."""
    configured = os.environ.get("TILEJUDGE_CACHE")
    root = Path(configured) if configured else Path.home() / ".cache" / "tilejudge"
    root.mkdir(parents=True, exist_ok=True)
    return root


@dataclass(frozen=True)
class RunLimits:
    """Limits of one run. ``memory_mib`` None leaves the address space unlimited (JVMs reserve far more than they use)."""

    cpu: float
    wall: float
    memory_mib: int | None
    output_bytes: int
    stack_mib: int | None = None
    open_files: int = 256
    processes: int = 0


@dataclass(frozen=True)
class RunSpec:
    argv: Sequence[str]
    limits: RunLimits
    stdout: Path
    stderr: Path
    stdin: Path | None = None
    cwd: Path | None = None
    env: Mapping[str, str] | None = None
    scratch: Path | None = None  # emptied by the launcher after the run
    user: int | None = None  # uid and gid to run as


@dataclass(frozen=True)
class RunResult:
    """What a run did. ``killed`` is 'cpu' or 'wall' when the launcher stopped it at a limit."""

    exit_code: int | None
    signal: int | None
    cpu: float
    wall: float
    memory_kb: int
    killed: str = "none"

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


def _build_launcher() -> Path:
    """Compile the launcher once per source version; static so its own footprint is a few hundred KiB."""
    source = LAUNCHER_SOURCE.read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:16]
    target = cache_root() / f"launcher-{digest}"
    if target.exists():
        return target
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise SetupError("the judge needs a C compiler (gcc) to build its launcher; install gcc")
    tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}")
    for extra in (["-static"], []):
        done = subprocess.run([compiler, "-O2", *extra, "-o", str(tmp), str(LAUNCHER_SOURCE)], capture_output=True, text=True)
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

    def _ensure(self) -> socket.socket:
        if self._proc is not None and self._proc.poll() is None and self._sock is not None:
            return self._sock
        self.close()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs, self._log.open("wb") as log:
            self._proc = subprocess.Popen(self._argv, stdin=theirs, stdout=subprocess.DEVNULL, stderr=log, close_fds=True, env={"PATH": DEFAULT_PATH})
        self._sock = ours
        return ours

    def run(self, spec: RunSpec) -> RunResult:
        sock = self._ensure()
        request = _encode(spec)
        fds = [
            os.open(spec.stdin or os.devnull, os.O_RDONLY | os.O_CLOEXEC),
            os.open(spec.stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600),
            os.open(spec.stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600),
        ]
        try:
            socket.send_fds(sock, [request], fds)
            answer = sock.recv(4096).decode("utf-8", "replace").strip()
        except OSError as exc:
            answer, reason = "", str(exc)
        else:
            reason = "it exited"
        finally:
            for fd in fds:
                os.close(fd)
        if not answer:
            why = read_head(self._log, 300).strip()
            self.close()
            raise JudgeError(f"the launcher died ({reason}){': ' + why if why else ''}")
        return _decode(answer)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._proc is not None:
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None


def _encode(spec: RunSpec) -> bytes:
    values = [*spec.argv, *(f"{k}={v}" for k, v in (spec.env or {}).items()), str(spec.cwd or ""), str(spec.scratch or "")]
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
        f"as_kb {lim.memory_mib * 1024 if lim.memory_mib else 0}",
        f"stack_kb {lim.stack_mib * 1024 if lim.stack_mib else 0}",
        f"fsize {lim.output_bytes + 1}",
        f"nofile {lim.open_files}",
        f"nproc {lim.processes}",
        f"uid {spec.user if spec.user is not None else -1}",
        f"gid {spec.user if spec.user is not None else -1}",
    ]
    data = ("\n".join(lines) + "\n").encode()
    if len(data) > REQUEST_MAX:
        raise ExecError(f"command line too long ({len(data)} bytes)")
    return data


def _decode(line: str) -> RunResult:
    if line.startswith("error "):
        raise ExecError(line[len("error "):])
    fields = dict(part.split("=", 1) for part in line.split()[1:])
    exit_code = int(fields["exit"])
    return RunResult(
        exit_code=exit_code if exit_code >= 0 else None,
        signal=int(fields["signal"]) or None,
        cpu=int(fields["cpu_us"]) / 1e6,
        wall=int(fields["wall_us"]) / 1e6,
        memory_kb=int(fields["maxrss_kb"]),
        killed=fields["killed"],
    )


class Slot:
    """One worker's place to run things: a trusted launcher, and a sandboxed one per program.

    ``private`` holds the judge's own files for a run (output, stderr,
    checker files); untrusted runs never see it. Their writable place is
    ``scratch``: a folder here, or a private tmpfs inside the sandbox.
    """

    def __init__(self, index: int, root: Path, launcher: Path, isolation: Isolation) -> None:
        self.index = index
        self.isolation = isolation
        self.private = root / f"slot{index}"
        self.private.mkdir(mode=0o700)
        self._launcher = launcher
        self._trusted = Launcher([str(launcher)], self.private / "launcher.log")
        self._untrusted: Launcher | None = None
        self._binds: tuple[Bind, ...] | None = None
        self._lease = UidLease() if isolation.sandboxed and os.geteuid() == 0 else None
        if isolation.sandboxed:
            self.scratch = SCRATCH_VIEW
        else:
            self.scratch = root / f"scratch{index}"
            self.scratch.mkdir(mode=0o700)
        self.env = {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8", "HOME": str(self.private)}
        self.untrusted_env = {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8", "HOME": str(self.scratch)}

    @property
    def uid(self) -> int | None:
        """The unprivileged uid untrusted runs use, when the judge can switch to one."""
        return self._lease.uid if self._lease else None

    def run(self, spec: RunSpec) -> RunResult:
        """A trusted run (checker, generator, reference): limits only, the judge's view of the files."""
        return self._trusted.run(spec)

    def run_untrusted(self, spec: RunSpec, binds: Sequence[Bind]) -> RunResult:
        """A submission's run: isolated per the mode, seeing only ``binds``, in the scratch folder, emptied afterwards."""
        wanted = tuple(binds)
        if not self.isolation.sandboxed:
            launcher = self._trusted
        else:
            if self._untrusted is None or wanted != self._binds:
                if self._untrusted is not None:
                    self._untrusted.close()
                self._untrusted = Launcher(self.isolation.launcher_argv(self._launcher, wanted), self.private / "sandbox.log")
                self._binds = wanted
            launcher = self._untrusted
        limits = replace(spec.limits, processes=SANDBOX_PROCESSES if self.uid is not None else spec.limits.processes)
        cwd = spec.cwd if spec.cwd is not None else self.scratch
        return launcher.run(replace(spec, limits=limits, cwd=cwd, scratch=self.scratch if spec.cwd is None else None, env=self.untrusted_env, user=self.uid))

    def clean_private(self) -> None:
        """Empty the private folder between runs so no file of one run is read as another's."""
        for entry in self.private.iterdir():
            if entry.name in ("launcher.log", "sandbox.log"):
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)

    def close(self) -> None:
        for launcher in (self._trusted, self._untrusted):
            if launcher is not None:
                launcher.close()
        if self._lease:
            self._lease.release()


class SlotPool:
    """A fixed set of slots handed out to worker threads."""

    def __init__(self, size: int, isolation: Isolation | None = None) -> None:
        binary = _build_launcher()
        self.isolation = isolation or Isolation("none")
        self._root = Path(tempfile.mkdtemp(prefix="tilejudge-"))
        self._root.chmod(0o711)
        self._slots = [Slot(i, self._root, binary, self.isolation) for i in range(max(1, size))]
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

    def close(self) -> None:
        for slot in self._slots:
            slot.close()
        shutil.rmtree(self._root, ignore_errors=True)

    def __enter__(self) -> "SlotPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_head(path: Path, limit: int = 16 * 1024) -> str:
    """The start of a possibly huge file (a log, a program's stderr), decoded leniently."""
    try:
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except OSError:
        return ""
    text = data[:limit].decode("utf-8", "replace")
    return text + ("\n… (trimmed)" if len(data) > limit else "")
