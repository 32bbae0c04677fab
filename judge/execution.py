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
import subprocess
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from .errors import JudgeError, SetupError

LAUNCHER_SOURCE = Path(__file__).with_name("launcher.c")
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


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
    """One long-lived launcher process; not thread-safe (a slot owns it)."""

    def __init__(self, binary: Path) -> None:
        self._binary = binary
        self._proc: subprocess.Popen[bytes] | None = None

    def _ensure(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                [str(self._binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                close_fds=True, env={"PATH": DEFAULT_PATH},
            )
        return self._proc

    def run(self, spec: RunSpec) -> RunResult:
        proc = self._ensure()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(_encode(spec))
            proc.stdin.flush()
            line = proc.stdout.readline().decode("utf-8", "replace").strip()
        except (BrokenPipeError, OSError) as exc:
            self.close()
            raise JudgeError(f"launcher failed: {exc}") from None
        if not line:
            self.close()
            raise JudgeError("launcher died")
        return _decode(line)

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            if self._proc.stdout:
                self._proc.stdout.close()
            self._proc = None


def _encode(spec: RunSpec) -> bytes:
    lines: list[str] = []
    values = [*spec.argv, *(f"{k}={v}" for k, v in (spec.env or {}).items())]
    values += [str(p) for p in (spec.cwd, spec.stdin, spec.stdout, spec.stderr) if p is not None]
    if any("\n" in v for v in values):
        raise ExecError("arguments, paths and environment values may not contain a newline")
    lines += [f"arg {a}" for a in spec.argv]
    env = spec.env if spec.env is not None else {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8"}
    lines += [f"env {k}={v}" for k, v in env.items()]
    lim = spec.limits
    lines += [
        f"cwd {spec.cwd or ''}",
        f"stdin {spec.stdin or ''}",
        f"stdout {spec.stdout}",
        f"stderr {spec.stderr}",
        f"cpu_ms {int(lim.cpu * 1000)}",
        f"wall_ms {int(lim.wall * 1000)}",
        f"as_kb {lim.memory_mib * 1024 if lim.memory_mib else 0}",
        f"stack_kb {lim.stack_mib * 1024 if lim.stack_mib else 0}",
        f"fsize {lim.output_bytes + 1}",
        f"nofile {lim.open_files}",
        f"nproc {lim.processes}",
        "run",
    ]
    return ("\n".join(lines) + "\n").encode()


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


@dataclass
class Slot:
    """A launcher with a private scratch folder; one run at a time."""

    launcher: Launcher
    scratch: Path
    index: int
    env: dict[str, str] = field(default_factory=dict)

    def run(self, spec: RunSpec) -> RunResult:
        return self.launcher.run(spec)

    def clean_scratch(self) -> None:
        """Empty the scratch folder so nothing a run leaves behind reaches the next one."""
        for entry in self.scratch.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


class SlotPool:
    """A fixed set of slots handed out to worker threads."""

    def __init__(self, size: int) -> None:
        binary = _build_launcher()
        self._root = Path(tempfile.mkdtemp(prefix="tilejudge-"))
        self._slots: list[Slot] = []
        self._free: queue.SimpleQueue[Slot] = queue.SimpleQueue()
        for index in range(max(1, size)):
            scratch = self._root / f"slot{index}"
            scratch.mkdir()
            slot = Slot(Launcher(binary), scratch, index, {"PATH": DEFAULT_PATH, "LANG": "C.UTF-8", "HOME": str(scratch)})
            self._slots.append(slot)
            self._free.put(slot)

    @property
    def size(self) -> int:
        return len(self._slots)

    @property
    def root(self) -> Path:
        return self._root

    @contextmanager
    def slot(self) -> Iterator[Slot]:
        slot = self._free.get()
        try:
            yield slot
        finally:
            self._free.put(slot)

    def close(self) -> None:
        for slot in self._slots:
            slot.launcher.close()
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
