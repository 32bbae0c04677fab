"""Which case results must be run again alone before they stand, and what the report says about it.

Two kinds of results depend on something other than the program:

- near the CPU limit (or over it by less than ``OVERRUN``) while other runs of
  this judge ran beside it: parallel runs slow each other's CPU a little, so
  such a case is run again alone (only when the judge ran cases in parallel);
- stopped by the wall clock with CPU time under the limit: either the
  program slept or blocked (its own doing), or it was computing and the
  machine's load kept it from a CPU, at any ``-j``, even when this judge runs
  nothing else. (The launcher already gives the main process back the time it
  waited for a CPU, up to 3× the wall limit; past that, or when other processes
  of the run were the ones kept waiting, the clock still stops it.) The launcher
  measures how long the run was runnable but waiting for a CPU (``waited``); a
  program that computed or waited for most of its wall time is confirmed by a
  run alone, given extra wall time (what it waited, or what it would need at its
  first run's CPU rate to reach the CPU limit: its workers may be the ones kept
  waiting; at most twice the wall limit), and the report notes the machine's
  load average for both runs. A sleeper uses no CPU and waits for none: it is
  TLE at once, never run again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from ..verdict import Verdict
from .verdicts import CaseResult

NEAR_LIMIT = 0.8
WORKING_SHARE = 0.1  # CPU time, as a share of the limit, that shows a wall-stopped program was computing
WANTING_SHARE = 0.5  # CPU time plus time waiting for a CPU, as a share of the wall time, that shows the same
OVERRUN = 1.5
RATE_MARGIN = 1.5  # a confirming run's wall time reaches the CPU limit even at two thirds of the first run's CPU rate


@dataclass(frozen=True)
class Load:
    """The machine's one-minute load average and its CPU count, as the report states them."""

    average: float
    cpus: int

    def __str__(self) -> str:
        return f"load average {self.average:.2f} on {self.cpus} CPU{'s' if self.cpus != 1 else ''}"


def machine_load() -> Load:
    try:
        average = os.getloadavg()[0]
    except OSError:
        average = 0.0
    return Load(average, os.cpu_count() or 1)


def disturbed(result: CaseResult, limit: float) -> bool:
    """Close to the CPU limit, or over it by less than what parallel load explains: worth a run alone when the judge
    ran cases in parallel. A run stopped at ``OVERRUN`` times the limit is over it beyond what load explains."""
    if result.verdict is Verdict.TLE and result.time >= OVERRUN * limit:
        return False
    return result.time >= NEAR_LIMIT * limit


def starved(result: CaseResult, limit: float) -> bool:
    """A wall-clock TLE with CPU time under the limit, of a program that was computing (a share of the limit in
    CPU time) or wanted a CPU for most of its wall time (CPU time plus time waiting for one). Near the limit too: a
    run alone that the machine's load stops by the clock at 0.87 s of a 1 s limit proves no more than one at 0.5 s,
    and without the extra wall time it stood as TLE at load 18."""
    if result.verdict is not Verdict.TLE or result.time >= limit:
        return False
    return result.time >= WORKING_SHARE * limit or result.time + result.waited >= WANTING_SHARE * result.wall_time


def wall_allowance(first: CaseResult, wall_limit: float, cpu_limit: float) -> float:
    """The wall time a confirming run gets beyond the limit: what the first run lost waiting for a CPU, or, when that
    was less, what it would need at its first run's CPU rate to reach the CPU limit (a program whose children did
    the computing waits for no CPU itself); at most twice the limit, so a judge is never held for long by one case."""
    rate = first.time / first.wall_time if first.wall_time > 0 else 0.0
    to_cpu_limit = RATE_MARGIN * cpu_limit / rate - wall_limit if rate > 0 else 0.0
    return min(max(first.waited, to_cpu_limit, 0.0), 2 * wall_limit)


def confirmed(again: CaseResult, first: CaseResult, before: Load, after: Load, extra: float) -> CaseResult:
    """The confirming run's result, with what happened to the first run and the machine's load at both."""
    note = (
        f"first run: TLE after {first.wall_time:.2f} s of wall time, {first.time:.2f} s of CPU, "
        f"{first.waited:.2f} s waiting for a CPU, {before}; "
        f"confirmed by a run alone with {extra:.2f} s more wall time, {after}"
    )
    message = again.message
    if again.verdict is Verdict.TLE:
        message = f"{message}; {note}" if message else note
    return replace(again, message=message, confirmation=note)
