"""What a run is asked to do and what it did: plain data shared by every layer above the launcher."""
from __future__ import annotations

import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from ..errors import JudgeError


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
