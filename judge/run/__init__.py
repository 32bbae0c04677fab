"""The run layer: run one command under limits, isolated per the sandbox mode, and measure it.

Owns the launcher (``launcher.c``, ``cgroup.c``, ``confine.c`` and their protocol), two runs joined by pipes, through
a relay (``relayed_pair.py``) or directly (``direct_pair.py``), the sandbox modes, control groups and slots, and
what a run that waits far past its limits is waiting for (``waiting.py``). Imports
nothing of the judge but the base modules (``judge.errors``, ``judge.lazy_exports``, ``judge.filecache``,
``judge.locations``); every other layer reaches execution only through the names exported here.
"""

from ..lazy_exports import exports

__getattr__, __dir__, __all__ = exports(
    __name__,
    {
        ".files": ("cache_root", "held", "read_head"),
        ".pair": ("Exchange", "PairResult"),
        ".relayed_pair": ("run_relayed",),
        ".direct_pair": ("run_direct",),
        ".launcher": ("build_launcher", "launcher_digest", "runs_cpu"),
        ".waiting": ("listen_waiting=listen",),
        ".private_root": ("claim_private=claim", "release_private=release"),
        ".sandbox": (
            "ENV_MODE",
            "MODES",
            "Bind",
            "Isolation",
            "bwrap_works",
            "inside",
            "describe_sandbox=describe",
            "resolve_sandbox=resolve",
        ),
        ".slots": ("Slot", "SlotPool"),
        ".types": ("ExecError", "RunLimits", "RunResult", "RunSpec"),
    },
)
