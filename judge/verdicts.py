"""Verdicts and how case results add up to a submission's result.

Kept free of I/O so the scoring rules can be read (and tested) in one place.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any, Sequence

from .spec import Group


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

    @property
    def meaning(self) -> str:
        return _MEANING[self]

    @classmethod
    def from_folder(cls, folder: str) -> "Verdict | None":
        """Map a Kattis-style submissions/<folder> name to the verdict it promises."""
        return _FOLDERS.get(folder)


_MEANING = {
    Verdict.AC: "accepted", Verdict.WA: "wrong answer", Verdict.PE: "presentation error",
    Verdict.TLE: "time limit exceeded", Verdict.MLE: "memory limit exceeded", Verdict.OLE: "output limit exceeded",
    Verdict.RE: "run-time error", Verdict.CE: "compilation error", Verdict.JE: "judge error",
}
_FOLDERS = {
    "accepted": Verdict.AC, "wrong_answer": Verdict.WA, "presentation_error": Verdict.PE,
    "time_limit_exceeded": Verdict.TLE, "memory_limit_exceeded": Verdict.MLE,
    "output_limit_exceeded": Verdict.OLE, "run_time_error": Verdict.RE, "compile_error": Verdict.CE,
}


@dataclass
class CaseResult:
    """One case's outcome; ``score`` is the fraction of the case earned (1 for AC, checker points otherwise)."""

    name: str
    group: str
    verdict: Verdict
    time: float = 0.0
    wall_time: float = 0.0
    memory_kb: int = 0
    exit_code: int | None = None
    signal: str | None = None
    message: str = ""
    score: float = 0.0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["verdict"] = self.verdict.value
        data["time"] = round(self.time, 4)
        data["wall_time"] = round(self.wall_time, 4)
        return data


@dataclass(frozen=True)
class GroupResult:
    name: str
    points: float
    earned: float
    passed: int
    total: int


def group_results(groups: Sequence[Group], cases: Sequence[CaseResult]) -> list[GroupResult]:
    """A "min" group earns its points scaled by its weakest case, a "sum" group its cases' shares; a case never judged (``--first-fail``) earns nothing."""
    by_key = {(c.group, c.name): c for c in cases}
    out = []
    for group in groups:
        judged = [by_key.get((group.name, case.name)) for case in group.cases]
        scores = [c.score if c is not None else 0.0 for c in judged]
        fraction = sum(scores) / len(scores) if group.aggregation == "sum" else min(scores)
        passed = sum(1 for c in judged if c is not None and c.verdict is Verdict.AC)
        out.append(GroupResult(group.name, group.points, group.points * fraction, passed, len(judged)))
    return out


def overall_verdict(cases: Sequence[CaseResult]) -> Verdict:
    """The first failing case's verdict in case order, as ICPC-style judges report it."""
    for case in cases:
        if case.verdict is not Verdict.AC:
            return case.verdict
    return Verdict.AC
