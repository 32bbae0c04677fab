"""The case table of ``judge`` as the cases end: a row each, in the order of the cases, under the progress bar.

A slow submission on a problem with many cases runs for minutes; a table
printed at the end leaves the user looking at nothing all that time. The
columns' widths are fixed before the first row from what is known then (the
cases' names and groups, the verdicts' names, the usual width of a time and
a memory figure), so rows can be printed one by one and still line up. A row
is printed only when its result is final (``judge`` reports a case after its
re-run, if it has one) and every case before it has been printed, so the
table reads the same on a pipe as on a terminal, where the bar redraws below
it. On Ctrl-C the rows of every case judged so far are printed, with their
numbers, so a gap shows the cases that were still running.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from typing import TextIO

from ..core import CaseResult, JudgeReport
from ..model import CaseSpec
from ..text import safe_text
from ..verdict import Verdict
from .progress import Progress
from .render import CASE_HEADER, case_cells

TIME_WIDTH = len("10.000s")
MEMORY_WIDTH = len("1024.0 MiB")
TIMEOUT_STREAK = 3  # cases timing out one after another before ``--first-fail`` is suggested


class LiveTable:
    """Rows printed to ``out`` as ``case_done`` hears final results (from any thread), in case order."""

    def __init__(self, cases: Sequence[CaseSpec], out: TextIO, bar: Progress, first_fail: bool) -> None:
        self._total = len(cases)
        self._index = {
            (case.group, case.name): n for n, case in enumerate(cases)
        }  # a case's name is unique in its group
        self._out = out
        self._bar = bar
        self._first_fail = first_fail
        self._widths = [
            len(str(len(cases))),
            max((len(safe_text(c.name, one_line=True)) for c in cases), default=0),
            max((len(safe_text(c.group, one_line=True)) for c in cases), default=0),
            max(len(v.value) for v in Verdict),
            TIME_WIDTH,
            MEMORY_WIDTH,
            0,
        ]
        self._widths = [max(w, len(h)) for w, h in zip(self._widths, CASE_HEADER)]
        self._lock = threading.Lock()
        self._judged: dict[int, CaseResult] = {}
        self._printed: list[CaseResult] = []
        self._done = False  # --first-fail: the failing row is printed, nothing after it will be
        self._timeouts = 0
        self._hinted = first_fail
        self._headed = False

    def case_done(self, result: CaseResult) -> None:
        """Record a final result; print it and every row it unblocks."""
        self._bar.advance()
        with self._lock:
            self._judged[self._index[(result.group, result.name)]] = result
            while not self._done and len(self._printed) in self._judged:
                self._print(self._judged[len(self._printed)])

    def finish(self, report: JudgeReport) -> None:
        """After judging: the rows no case result announced (cases a grading skips), and a note for each printed row
        that a scoring rule changed afterwards (a failed required group, a broken score file)."""
        with self._lock:
            for shown, final in zip(self._printed, report.cases):
                if shown.verdict is not final.verdict:
                    note = f"note: case {safe_text(final.name, one_line=True)} is {final.verdict.value} after scoring"
                    why = f": {safe_text(final.message, one_line=True)}" if final.message else ""
                    self._bar.write(note + why, self._out)
            for final in report.cases[len(self._printed) :]:
                self._print(final)

    def interrupted(self) -> str:
        """After Ctrl-C: print the rows of the cases judged but held back behind one still running; say how far
        judging got."""
        with self._lock:
            for index in sorted(i for i in self._judged if i >= len(self._printed) and not self._done):
                self._line(index + 1, self._judged[index])
            counts: dict[str, int] = {}
            for result in self._judged.values():
                counts[result.verdict.value] = counts.get(result.verdict.value, 0) + 1
        tally = ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
        return (
            f"interrupted: {len(self._judged)} of {self._total} case(s) judged"
            + (f" ({tally})" if tally else "")
            + "; the runs in flight were stopped"
        )

    def _print(self, result: CaseResult) -> None:
        self._printed.append(result)
        self._line(len(self._printed), result)
        if self._first_fail and result.verdict is not Verdict.AC:
            self._done = True
        self._timeouts = self._timeouts + 1 if result.verdict is Verdict.TLE else 0
        if self._timeouts >= TIMEOUT_STREAK and not self._hinted and sys.stderr.isatty():
            self._hinted = True
            self._bar.write(
                f"note: {self._timeouts} cases in a row timed out; --first-fail stops at the first failing case",
                sys.stderr,
            )

    def _line(self, number: int, result: CaseResult) -> None:
        if not self._headed:
            self._headed = True
            self._bar.write(self._aligned(list(CASE_HEADER)), self._out)
            self._bar.write(self._aligned(["-" * w for w in self._widths]), self._out)
        self._bar.write(self._aligned(case_cells(number, result)), self._out)

    def _aligned(self, cells: list[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, self._widths)).rstrip()
