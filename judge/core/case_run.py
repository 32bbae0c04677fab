"""One case's run as one value: what every problem kind needs to judge a submission on one input.

Running a case took nine to eleven loose parameters, passed on from the
batch code to the interactive and submit-answer code and from there to each
pass; one frozen value keeps them together, and a kind that needs one more
thing adds a field here instead of a parameter everywhere. Stress builds one
for an input that is no case of the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..check import Checker
from ..lang import Program
from ..model import Problem
from ..run import Slot
from .run_limits import RunBudget

if TYPE_CHECKING:  # imported where used: a batch problem needs no interactor
    from ..check.interactor_protocols import Interactor


@dataclass(frozen=True)
class Referee:
    """The judge's side of a problem: its checker, and its interactor (or multi-pass validator) when it has one."""

    checker: Checker
    interactor: Interactor | None = None


@dataclass(frozen=True)
class CaseRun:
    """A submission on one input, in one slot, to be checked against ``ans``.

    ``name``/``group`` label the result; ``checker_args`` go to the checker
    and interactor; ``sample`` says the contestant has the case's data, so
    the result keeps an excerpt of the program's output; ``transcript`` says the result keeps the first exchanges
    of an interactive case, because they are shown (every sample case; every case where the caller shows them):
    only the relay keeps them, and on a case of many exchanges it costs about twice the time of bare pipes.
    ``limits`` are the submission's for this run (``run_limits.py``): what its verdict is judged by, with any extra
    wall time of a run confirming a wall-clock TLE caused by load, and where the launcher stops it under parallel
    load (``RunBudget.overrun``). ``lane`` picks the run's own stdout and
    stderr files in the slot's private folder: a run queued behind another (``judging.py``) writes its own while the
    judge still reads those of the one before it.
    """

    problem: Problem
    program: Program
    referee: Referee
    slot: Slot
    inp: Path
    ans: Path
    name: str
    group: str
    limits: RunBudget
    checker_args: tuple[str, ...] = ()
    sample: bool = False
    lane: int = 0
    transcript: bool = False

    def private_file(self, name: str) -> Path:
        """The slot's private file ``name`` for this run's lane: the same name in lane 0, as every kind had it."""
        return self.slot.private / (f"{name}.{self.lane}" if self.lane else name)
