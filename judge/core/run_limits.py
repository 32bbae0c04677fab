"""The limits of one run as one value, built once per program and role from the problem, the language and the options.

A run's limits used to be worked out where each run was made: the time
limit from ``Problem`` in four modules, a longer limit by rebuilding the
problem around it, the memory limit entering a run three ways (the
command line, ``RunLimits``, the address-space cap) and an interactor's
command line given the problem's memory while it ran under the checker's.
Here each role's rule is written once (DOMjudge builds one such value per
run), the value carries its program's limits down to the run layer's
``RunLimits`` and the command line's memory figure from the same field,
and the messages that say a limit was reached are written beside the
limits they name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from ..lang import Language, Program
from ..model import Problem
from ..run import RunLimits

CHECKER_MEMORY_MIB = 2048
CHECKER_MIN_CPU = 5.0
CHECKER_OUTPUT_BYTES = 16 << 20
CHECKER_STACK_MIB = 256


class Role(Enum):
    """Whose run it is: each role's limits follow one rule."""

    SUBMISSION = "submission"
    CHECKER = "checker"
    INTERACTOR = "interactor"  # an interactor or a multi-pass validator: the program beside the submission
    VALIDATOR = "validator"  # an input or answer validator, a legacy package's grader
    GENERATOR = "generator"
    REFERENCE = "reference"  # the reference solution writing answer files


@dataclass(frozen=True)
class RunBudget:
    """One program's limits in one role: what its verdict is judged by (``limits``), where the launcher stops it
    (``overrun`` × the CPU limit, under parallel load), and the memory figure its command line is given, which is
    always its run's own."""

    role: Role
    limits: RunLimits
    overrun: float = 1.0

    @property
    def cpu(self) -> float:
        return self.limits.cpu

    @property
    def wall(self) -> float:
        return self.limits.wall

    @property
    def memory_mib(self) -> int | None:
        return self.limits.memory_mib

    @property
    def output_bytes(self) -> int:
        return self.limits.output_bytes

    @property
    def command_memory(self) -> int:
        """The memory figure the program's command line gets (``{mem}``: a JVM's heap, PHP's memory_limit)."""
        return self.limits.command_memory_mib

    def stopped(self) -> RunLimits:
        """What the launcher is asked: the limits, the CPU limit times ``overrun``."""
        return replace(self.limits, cpu=self.limits.cpu * self.overrun) if self.overrun != 1 else self.limits

    def under_load(self, overrun: float) -> RunBudget:
        """The same limits, the run stopped at ``overrun`` × the CPU limit (anything over the limit is still TLE)."""
        return self if overrun == self.overrun else replace(self, overrun=overrun)

    def with_extra_wall(self, extra: float) -> RunBudget:
        """The wall limit ``extra`` seconds longer: a run confirming a wall-clock TLE that load may have caused."""
        return replace(self, limits=replace(self.limits, wall=self.limits.wall + extra)) if extra else self

    # the messages a limit's verdict carries: written here once, beside the limits they name

    def over_cpu(self) -> str:
        return f"CPU time over the {self.cpu:g} s limit"

    def over_wall(self, cpu: float, waited: float) -> str:
        starved = f", {waited:.2f} s waiting for a CPU" if waited >= 0.01 else ""
        return f"wall time over the {self.wall:g} s limit after {cpu:.2f} s of CPU{starved}"

    def over_output(self, what: str = "output") -> str:
        return f"{what} over the {self.output_bytes / (1 << 20):g} MiB limit"

    def stopped_by_kernel(self, peak_kb: int) -> str:
        return f"the kernel stopped the run at the {self.memory_mib} MiB memory limit (peak {peak_kb / 1024:.1f} MiB)"

    def over_memory(self, peak_kb: int) -> str:
        return f"peak memory {peak_kb / 1024:.1f} MiB over the {self.memory_mib} MiB limit"

    def out_of_memory(self) -> str:
        return f"ran out of memory under the {self.memory_mib} MiB limit"


def time_limit(problem: Problem, language: str, time: float | None = None) -> float:
    """A submission's CPU limit in ``language``: the problem's time (or ``time``, a limit judged instead of the
    problem's) times the language's factor."""
    base = problem.limits.time if time is None else time
    return base * problem.limits.factor(language)


def submission_limits(problem: Problem, lang: Language, time: float | None = None) -> RunBudget:
    """A submission's limits: the time limit × its language's factor and the wall limit that goes with it, the memory
    limit on its whole process tree (and the address-space cap its language tolerates, used only where no control
    group limits memory), the problem's output limit. ``time``: the base limit judged at instead of the problem's
    (time-limit inference's provisional limit, verify's limit × margin)."""
    limits = problem.limits if time is None else replace(problem.limits, time=time)
    memory = limits.memory_mib
    return RunBudget(
        Role.SUBMISSION,
        RunLimits(
            cpu=limits.time_for(lang.name),
            wall=limits.wall_for(lang.name),
            memory_mib=memory,
            address_space_mib=lang.address_space(memory),
            stack_mib=memory,
            output_bytes=limits.output_bytes,
        ),
    )


def judge_side_limits(
    time: float, program: Program | None, role: Role = Role.CHECKER, stated: float | None = None
) -> RunBudget:
    """A checker's or interactor's limits: trusted but bounded, twice the submission's base time limit in CPU (at
    least ``CHECKER_MIN_CPU``), or the CPU time the problem ``stated`` for them (a Kattis package's
    ``validation_time``: a setter who knows the validator is quick lets a hung one be caught sooner), twice that in
    wall time. An in-process comparison (no ``program``) is held to the same CPU."""
    cpu = stated if stated is not None else max(CHECKER_MIN_CPU, 2 * time)
    space = program.language.address_space(CHECKER_MEMORY_MIB) if program is not None else None
    return RunBudget(
        role,
        RunLimits(
            cpu=cpu,
            wall=2 * cpu,
            memory_mib=CHECKER_MEMORY_MIB,
            address_space_mib=space,
            output_bytes=CHECKER_OUTPUT_BYTES,
            stack_mib=CHECKER_STACK_MIB,
        ),
    )


# a problem's own trusted programs: generous, since verify judges the reference's speed separately
_TRUSTED = {
    Role.GENERATOR: RunLimits(cpu=120, wall=240, memory_mib=4096, output_bytes=512 << 20, stack_mib=256),
    Role.VALIDATOR: RunLimits(cpu=120, wall=240, memory_mib=4096, output_bytes=512 << 20, stack_mib=256),
}


def trusted_limits(role: Role, program: Program, limits: RunLimits | None = None) -> RunBudget:
    """A generator's or validator's limits (``limits``: a tool's own, such as BAPCtools' solution runs), with the
    address space its language needs for their memory."""
    base = limits if limits is not None else _TRUSTED[role]
    if base.memory_mib:
        base = replace(base, address_space_mib=program.language.address_space(base.memory_mib))
    return RunBudget(role, base)


def reference_limits(problem: Problem, program: Program) -> RunBudget:
    """The reference solution writing answers: five times its time limit (at least 10 s), twice that in wall time,
    at least 1 GiB of memory."""
    cpu = max(10.0, 5 * time_limit(problem, program.language.name))
    return trusted_limits(
        Role.REFERENCE,
        program,
        RunLimits(
            cpu=cpu,
            wall=2 * cpu,
            memory_mib=max(problem.limits.memory_mib, 1024),
            output_bytes=problem.limits.output_bytes,
            stack_mib=problem.limits.memory_mib,
        ),
    )
