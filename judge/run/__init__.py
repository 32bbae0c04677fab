"""The run layer: run one command under limits, isolated per the sandbox mode, and measure it.

Owns the launcher (``launcher.c``, ``cgroup.c``, ``confine.c`` and their
protocol), the sandbox modes, control groups and slots. Imports nothing of the judge but ``judge.errors``; every
other layer reaches execution only through the names exported here.
"""
from .files import cache_root, read_head
from .interact import Exchange, PairResult, run_pair
from .launcher import build_launcher, launcher_digest
from .sandbox import ENV_MODE, MODES, Bind, Isolation, bwrap_works, describe as describe_sandbox, resolve as resolve_sandbox
from .slots import Slot, SlotPool
from .types import ExecError, RunLimits, RunResult, RunSpec

__all__ = [
    "ENV_MODE", "MODES", "Bind", "Exchange", "ExecError", "PairResult", "Isolation", "RunLimits", "RunResult", "RunSpec",
    "Slot", "SlotPool", "build_launcher", "bwrap_works", "cache_root", "describe_sandbox", "launcher_digest", "read_head",
    "resolve_sandbox", "run_pair",
]
