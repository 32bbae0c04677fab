"""The verdict names: what every layer from the checkers up reports, so they sit below all of them.

How verdicts add up (groups, scores, the overall verdict) is policy and lives
in ``judge.core.verdicts``; this module is only the vocabulary.
Imports nothing of the judge.
"""

from __future__ import annotations

from enum import Enum


class Verdict(str, Enum):
    AC = "AC"
    WA = "WA"
    PE = "PE"
    TLE = "TLE"
    MLE = "MLE"
    OLE = "OLE"
    RE = "RE"
    CE = "CE"
    JE = "JE"
    SKIPPED = "SKIPPED"  # a case not run because its all-or-nothing group was already lost (grading)

    @property
    def meaning(self) -> str:
        return _MEANING[self]

    @classmethod
    def from_folder(cls, folder: str) -> Verdict | None:
        """Map a submissions/<folder> name to the verdict it promises."""
        return _FOLDERS.get(folder)


_MEANING = {
    Verdict.AC: "accepted",
    Verdict.WA: "wrong answer",
    Verdict.PE: "presentation error",
    Verdict.TLE: "time limit exceeded",
    Verdict.MLE: "memory limit exceeded",
    Verdict.OLE: "output limit exceeded",
    Verdict.RE: "run-time error",
    Verdict.CE: "compilation error",
    Verdict.JE: "judge error",
    Verdict.SKIPPED: "not run: its all-or-nothing group was already lost",
}
_FOLDERS = {
    "accepted": Verdict.AC,
    "wrong_answer": Verdict.WA,
    "presentation_error": Verdict.PE,
    "time_limit_exceeded": Verdict.TLE,
    "memory_limit_exceeded": Verdict.MLE,
    "output_limit_exceeded": Verdict.OLE,
    "run_time_error": Verdict.RE,
    "compile_error": Verdict.CE,
}
