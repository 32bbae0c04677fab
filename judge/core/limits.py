"""Classification: the verdict a run earns from how it ended, before its output is read, and where it starts.

Pure functions of the run's limits (``run_limits.py`` builds them), the language and the run's measured
result, so the rules (CPU before wall, OLE before MLE, a runtime's OOM message
as MLE) are unit-tested without running anything. A limit verdict comes from a
measurement or a record of the limit being reached (CPU time, the launcher's
stop, the kernel's OOM record, output counted past the limit), never from a
signal alone: a program can raise SIGXFSZ, SIGXCPU or SIGKILL itself.
"""

from __future__ import annotations

from pathlib import Path

from ..lang import Language, Program
from ..model import Problem
from ..run import RunResult
from ..text import status_text
from ..verdict import Verdict
from .run_limits import RunBudget


def work_folder(problem: Problem, program: Program) -> Path | None:
    """Where a submission's run starts. A Kattis package's submission starts among its own files and what the package
    added (include/ data it may open, as the spec's working directory says), read-only; ours start in an empty
    scratch."""
    return program.workdir if problem.runs_among_own_files else None


def classify(result: RunResult, limits: RunBudget, stderr_head: bytes, lang: Language) -> tuple[Verdict, str] | None:
    """The verdict a run earns before its output is looked at, or None when the output must be checked.

    OLE is the launcher's count of stdout or stderr going past the limit; a
    SIGXFSZ means a scratch file reached the file-size cap (or the program
    raised it), which is an error of the program's, named as such. Every
    limit, and the message naming it, is the run's own (``RunBudget``).
    """
    if result.killed == "cpu" or result.cpu > limits.cpu:
        return Verdict.TLE, limits.over_cpu()
    if result.killed == "wall":
        return Verdict.TLE, limits.over_wall(result.cpu, result.waited)
    if result.killed == "output" or result.output_over:
        return Verdict.OLE, limits.over_output(result.output_over or "output")
    if result.oom_killed:
        return Verdict.MLE, limits.stopped_by_kernel(result.memory_kb)
    memory_kb = (limits.memory_mib or 0) * 1024
    if result.killed == "memory" or (not result.cgroup and lang.limit_address_space and result.memory_kb > memory_kb):
        return Verdict.MLE, limits.over_memory(result.memory_kb)
    if result.exit_code != 0:
        if any(marker in stderr_head for marker in lang.oom_markers):
            return Verdict.MLE, limits.out_of_memory()
        return Verdict.RE, status_text(result.exit_code, result.signal_name) + _why(result)
    return None


def _why(result: RunResult) -> str:
    """What a resource signal that decided no verdict means here: a limit the run did not reach, or its own doing."""
    if result.signal_name == "SIGXFSZ":
        return " (not the output limit: a scratch file reached the scratch's size, or the program raised it)"
    if result.signal_name in ("SIGXCPU", "SIGKILL"):
        return f" (not a limit: the judge did not stop the run, after {result.cpu:.2f} s of CPU)"
    return ""
