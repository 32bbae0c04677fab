"""Limits and classification: what a run may use, and the verdict it earns from how it ended, before its output is read.

Pure functions of the problem's limits, the language and the run's measured
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
from ..run import RunLimits, RunResult
from ..text import status_text
from ..verdict import Verdict


def run_limits(problem: Problem, lang: Language) -> RunLimits:
    """The limits a language gets on this problem: its time factor, the memory limit on the whole process tree, and
    the address-space cap (used only where no control group limits memory) where the language tolerates one."""
    memory = problem.limits.memory_mib
    return RunLimits(
        cpu=problem.limits.time_for(lang.name),
        wall=problem.limits.wall_for(lang.name),
        memory_mib=memory,
        address_space_mib=lang.address_space(memory),
        stack_mib=memory,
        output_bytes=problem.limits.output_bytes,
    )


def work_folder(problem: Problem, program: Program) -> Path | None:
    """Where a submission's run starts. A Kattis package's submission starts among its own files and what the package
    added (include/ data it may open, as the spec's working directory says), read-only; ours start in an empty
    scratch."""
    return program.workdir if problem.runs_among_own_files else None


def classify(
    result: RunResult, limits: RunLimits, memory_mib: int, stderr_head: bytes, lang: Language
) -> tuple[Verdict, str] | None:
    """The verdict a run earns before its output is looked at, or None when the output must be checked.

    OLE is the launcher's count of stdout or stderr going past the limit; a
    SIGXFSZ means a scratch file reached the file-size cap (or the program
    raised it), which is an error of the program's, named as such.
    """
    if result.killed == "cpu" or result.cpu > limits.cpu:
        return Verdict.TLE, f"CPU time over the {limits.cpu:g} s limit"
    if result.killed == "wall":
        waited = f", {result.waited:.2f} s waiting for a CPU" if result.waited >= 0.01 else ""
        return Verdict.TLE, f"wall time over the {limits.wall:g} s limit after {result.cpu:.2f} s of CPU{waited}"
    if result.killed == "output" or result.output_over:
        return Verdict.OLE, f"{result.output_over or 'output'} over the {limits.output_bytes / (1 << 20):g} MiB limit"
    if result.oom_killed:
        return (
            Verdict.MLE,
            f"the kernel stopped the run at the {memory_mib} MiB memory limit (peak {result.memory_kb / 1024:.1f} MiB)",
        )
    if result.killed == "memory" or (
        not result.cgroup and lang.limit_address_space and result.memory_kb > memory_mib * 1024
    ):
        return Verdict.MLE, f"peak memory {result.memory_kb / 1024:.1f} MiB over the {memory_mib} MiB limit"
    if result.exit_code != 0:
        if any(marker in stderr_head for marker in lang.oom_markers):
            return Verdict.MLE, f"ran out of memory under the {memory_mib} MiB limit"
        return Verdict.RE, status_text(result.exit_code, result.signal_name) + _why(result, limits)
    return None


def _why(result: RunResult, limits: RunLimits) -> str:
    """What a resource signal that decided no verdict means here: a limit the run did not reach, or its own doing."""
    if result.signal_name == "SIGXFSZ":
        return " (not the output limit: a scratch file reached the scratch's size, or the program raised it)"
    if result.signal_name in ("SIGXCPU", "SIGKILL"):
        return f" (not a limit: the judge did not stop the run, after {result.cpu:.2f} s of CPU)"
    return ""
