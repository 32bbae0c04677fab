"""One compile step run as untrusted code, and what its ending means for the source.

A compile is judged by its CPU time; its wall-clock limit (twice that plus 5 s) is there so that a compiler that
blocks cannot hold a slot. The launcher already stretches a wall limit while the run's processes wait for a CPU (up
to ``WALL_STRETCH`` times), but at load 40 on two CPUs a g++ compile was still stopped by the clock after a third of
its CPU limit, and the message blamed the CPU limit: the student got a CE the source did not earn. So a compile the
clock stopped after the launcher stretched its limit (it waited for a CPU, it did not block) is compiled once more
with twice the wall time, and every stop says which limit ended it. None of these failures is remembered: they
depend on the limits and the machine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..run import Bind, RunLimits, RunResult, RunSpec, Slot, read_head
from ..text import safe_text, status_text
from .language import Language

COMPILE_MEMORY_MIB = 2048
COMPILE_OUTPUT_BYTES = 64 * 1024 * 1024
# What a compiler says when a limit or the machine, not the source, ended it (gcc's driver reports a killed cc1plus
# with exit 1): such a failure is not remembered.
LIMIT_MARKERS = (
    "signal terminated program",
    "virtual memory exhausted",
    "Cannot allocate memory",
    "out of memory",
    "Resource temporarily unavailable",
    "No space left on device",
    "File size limit exceeded",
)
NEAR_COMPILE_LIMIT = 0.8
STRETCHED = 1.1  # a wall time this far past the wall limit: the launcher stretched it, so the compile waited for a CPU
STARVED_WALL_FACTOR = 2  # the second try's wall limit, against the first's


@dataclass(frozen=True)
class Compiled:
    """One compile step's outcome: whether it compiled, its log, and whether the outcome may be remembered (a
    success, or the compiler's own error exit well within the limits, saying nothing of a limit or the machine)."""

    ok: bool
    log: str
    lasting: bool


def compile_limits(compile_time: float, lang: Language) -> RunLimits:
    """A compile's limits: the problem's compile time as CPU, generous memory, output and files."""
    return RunLimits(
        cpu=compile_time,
        wall=compile_time * 2 + 5,
        memory_mib=COMPILE_MEMORY_MIB,
        address_space_mib=lang.address_space(COMPILE_MEMORY_MIB),
        output_bytes=COMPILE_OUTPUT_BYTES,
        file_bytes=COMPILE_OUTPUT_BYTES,
        open_files=512,
        stack_mib=64,
    )


def starved(result: RunResult, limits: RunLimits) -> bool:
    """Stopped by the clock under its CPU limit after the launcher stretched its wall limit: its processes waited
    for a CPU (a compiler that blocks is stopped at the limit itself, unstretched)."""
    return result.killed == "wall" and result.cpu < limits.cpu and result.wall >= STRETCHED * limits.wall


def compile_step(spec: RunSpec, binds: list[Bind], slot: Slot, lang: Language) -> Compiled:
    """Run one compile command in ``slot``; a starved one once more with twice the wall time."""
    result = slot.run_untrusted(spec, binds)
    tries = 1
    if starved(result, spec.limits):
        longer = replace(spec.limits, wall=spec.limits.wall * STARVED_WALL_FACTOR)
        result = slot.run_untrusted(replace(spec, limits=longer), binds)
        tries = 2
    log = safe_text((read_head(spec.stdout) + read_head(spec.stderr)).strip())
    for path in (spec.stdout, spec.stderr):
        Path(path).unlink(missing_ok=True)
    return _outcome(result, spec.limits, log, lang, tries)


def _outcome(result: RunResult, limits: RunLimits, log: str, lang: Language, tries: int) -> Compiled:
    """What the compile's ending says of the source, with the limit that ended it named."""
    if result.out_of_memory:
        return Compiled(
            False, f"compilation ran out of memory under the {COMPILE_MEMORY_MIB} MiB limit\n{log}".strip(), False
        )
    if result.killed == "output" or result.signal_name == "SIGXFSZ":
        return Compiled(False, f"compilation output exceeded {COMPILE_OUTPUT_BYTES >> 20} MiB\n{log}".strip(), False)
    if result.killed == "wall":
        return Compiled(False, f"{_stopped_by_clock(result, limits, tries)}\n{log}".strip(), False)
    if result.killed != "none":
        return Compiled(False, f"compilation exceeded the {limits.cpu:g} s limit\n{log}".strip(), False)
    if not result.succeeded:
        near = result.cpu >= NEAR_COMPILE_LIMIT * limits.cpu or result.wall >= NEAR_COMPILE_LIMIT * limits.wall
        said = any(marker in log for marker in LIMIT_MARKERS) or any(
            marker.decode("utf-8", "replace") in log for marker in lang.oom_markers
        )
        return Compiled(
            False,
            log or f"compiler failed ({status_text(result.exit_code, result.signal_name)})",
            not (result.signal or near or said),
        )
    return Compiled(True, log, True)


def _stopped_by_clock(result: RunResult, limits: RunLimits, tries: int) -> str:
    """The wall clock's stop, told apart from the CPU limit's: a compiler that blocked, or a machine too busy."""
    used = f"after {result.cpu:.2f} s of CPU time (the limit is {limits.cpu:g} s)"
    if tries > 1:
        return (
            f"compilation was stopped by the wall clock {used} in both of two tries, the second with "
            f"{limits.wall * STARVED_WALL_FACTOR:g} s: the machine was too busy to compile it; judge it again"
        )
    return (
        f"compilation was stopped by its {limits.wall:g} s wall-clock limit {used}: the compiler waited, not computed"
    )
