"""The CPU budget of a check the judge does in its own process (the built-in comparisons).

A checker program runs in a slot under a CPU limit; a built-in comparison
runs inside the judge, where no kernel limit stops it. Every built-in is
linear in its input, but one slow comparison would still hold a judge that
serves many students, so each runs against a budget of CPU time: the CPU
limit a checker program of the problem would get (``core/run_limits.py``: at least
5 s), plus ``SECONDS_PER_MIB`` for each MiB of output and answer it reads.
The slowest benign comparison measured, ``float`` on half a million short
numbers that differ in form from the answer's, needs 0.25 s per MiB at load 9
on 2 cores (docs/judging.md); the allowance is eight times that, so load
never decides a verdict, while no output keeps the judge busy for longer than
its size says.

The budget is measured in this thread's CPU time (``time.thread_time``), so
cases judged in parallel by other threads do not spend each other's budget.
It is enforced twice: the comparisons' loops call ``checkpoint()``, which
stops the work once the budget is spent, and the time is measured again
around the whole call, so a comparison that never calls it (one a user
registered) still ends in a judge error when it overran. The budget in force
is a context variable rather than a parameter so that a comparison keeps its
plain ``(output, answer, args)`` signature.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

SECONDS_PER_MIB = 2.0
MIB = 1 << 20


class BudgetExceeded(Exception):
    """A built-in check spent its CPU budget of ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"exceeded its CPU budget ({seconds:.3g} s)")
        self.seconds = seconds


@dataclass(frozen=True)
class CpuBudget:
    """``seconds`` of this thread's CPU time from ``started``."""

    seconds: float
    started: float = field(default_factory=time.thread_time)

    def spent(self) -> float:
        return time.thread_time() - self.started

    def check(self) -> None:
        """Raise ``BudgetExceeded`` once the budget is spent."""
        if self.spent() > self.seconds:
            raise BudgetExceeded(self.seconds)


_current: ContextVar[CpuBudget | None] = ContextVar("check_budget", default=None)


def budget_seconds(checker_cpu: float, size: int) -> float:
    """The budget of a comparison reading ``size`` bytes, given the CPU limit a checker program would get."""
    return checker_cpu + SECONDS_PER_MIB * size / MIB


@contextmanager
def cpu_budget(seconds: float) -> Iterator[CpuBudget]:
    """Run the body against a budget of ``seconds``; raises ``BudgetExceeded`` when the body overran it, even if the
    body never called ``checkpoint``."""
    budget = CpuBudget(seconds)
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)
    budget.check()


def checkpoint() -> None:
    """Stop the current check if its budget is spent (a no-op outside ``cpu_budget``, e.g. in a unit test)."""
    budget = _current.get()
    if budget is not None:
        budget.check()
