"""How case results add up to a submission's result, and the Kattis rules on which verdicts a submission may get.

Kept free of I/O so the scoring rules can be read (and tested) in one place.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Sequence

from ..problem import Group
from ..verdict import Verdict

# Kattis names for our verdicts: MLE and OLE are run-time errors there, PE is a wrong answer.
KATTIS_VERDICT = {
    Verdict.AC: "AC", Verdict.WA: "WA", Verdict.PE: "WA", Verdict.TLE: "TLE",
    Verdict.RE: "RTE", Verdict.MLE: "RTE", Verdict.OLE: "RTE",
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
    transcript: str = ""  # interactive problems: the first exchanges, as a Kattis .interaction file shows them

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
    """The first failing case's verdict in case order, as ICPC-style judges report it (a skipped case never decides it)."""
    for case in cases:
        if case.verdict not in (Verdict.AC, Verdict.SKIPPED):
            return case.verdict
    return Verdict.AC


def loses_group(group: Group, case: CaseResult) -> bool:
    """Whether this case alone already sets its group's earnings to zero, so the group's later cases cannot change the score.

    Only a "min" group is lost by one case, and only by a case that earned
    nothing (a testlib checker's partial points keep the rest relevant).
    """
    return group.aggregation == "min" and case.verdict is not Verdict.AC and case.score == 0.0


def meets_rule(verdicts: Sequence[Verdict], rule: tuple[set[str], set[str]]) -> bool:
    """A Kattis submissions/<folder> rule (permitted, required): every case verdict permitted, and (unless nothing is required) one required seen."""
    permitted, required = rule
    seen = {KATTIS_VERDICT.get(v, v.value) for v in verdicts}
    return seen <= permitted and (not required or bool(seen & required))
