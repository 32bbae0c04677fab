"""How case results add up to a submission's result, and the Kattis rules on which verdicts a submission may get.

Kept free of I/O so the scoring rules can be read (and tested) in one place.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Sequence

from ..check.attachments import Attachment
from ..model import Group
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
    score_file: tuple[str, float] | None = None  # what a Kattis validator wrote (score.txt or score_multiplier.txt), weighed by its group
    transcript: str = ""  # interactive problems: the first exchanges, as a Kattis .interaction file shows them
    attachments: tuple[Attachment, ...] = ()  # files the checker handed over (a picture of a wrong answer)
    waited: float = 0.0  # seconds the run was runnable but waiting for a CPU: the machine's load
    confirmation: str = ""  # a wall-clock TLE run again alone (reruns.py): the first run and the load at both

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["attachments"] = [a.to_json() for a in self.attachments]
        data["verdict"] = self.verdict.value
        data["time"] = round(self.time, 4)
        data["wall_time"] = round(self.wall_time, 4)
        data["waited"] = round(self.waited, 4)
        return data


@dataclass(frozen=True)
class GroupResult:
    name: str
    points: float
    earned: float
    passed: int
    total: int


def group_results(groups: Sequence[Group], cases: Sequence[CaseResult]) -> list[GroupResult]:
    """A "min" group earns its points scaled by its weakest case, a "sum" group its cases' shares; a case never judged (``--first-fail``) earns nothing.

    A Kattis scoring group counts in points (``kattis_points``), and this is
    where its validator's score files meet the case's group: a case that
    breaks one of the format's score rules becomes JE here, and the cases of
    a group whose ``require_pass`` groups failed become SKIPPED (not scored).
    Call it before ``overall_verdict``, which then sees those verdicts.
    """
    by_key = {(c.group, c.name): c for c in cases}
    failed_groups = {g.name for g in groups if any(by_key.get((g.name, c.name)) is None or by_key[(g.name, c.name)].verdict is not Verdict.AC
                                                    for c in g.cases)}
    out = []
    for group in groups:
        judged = [by_key.get((group.name, case.name)) for case in group.cases]
        if group.score_rule:
            earned = kattis_points(group, judged, _unmet(group, groups, failed_groups))
        else:
            scores = [c.score if c is not None else 0.0 for c in judged]
            fraction = sum(scores) / len(scores) if group.aggregation == "sum" else min(scores)
            earned = group.points * fraction
        passed = sum(1 for c in judged if c is not None and c.verdict is Verdict.AC)
        out.append(GroupResult(group.name, group.points, round(earned, 9), passed, len(judged)))
    return out


def _unmet(group: Group, groups: Sequence[Group], failed: set[str]) -> list[str]:
    """The ``require_pass`` groups (``sample`` meaning every sample folder) that were not passed."""
    return [need for need in group.require_pass
            if any(g.name in failed for g in groups if g.name == need or g.name.startswith(need + "/"))]


def kattis_points(group: Group, judged: list[CaseResult | None], unmet: list[str]) -> float:
    """A Kattis group's score from its cases' points; marks the cases whose score breaks the format's rules JE."""
    if unmet:
        for case in judged:
            if case is not None and case.verdict is not Verdict.JE:
                case.verdict, case.score = Verdict.SKIPPED, 0.0
                case.message = f"not scored: require_pass {', '.join(unmet)} not passed"
        return 0.0
    points = [_case_points(group, case) if case is not None else 0.0 for case in judged]
    if any(case is not None and case.verdict is Verdict.JE for case in judged):
        return 0.0
    if group.aggregation == "pass-fail":
        return group.points if all(case is not None and case.verdict is Verdict.AC for case in judged) else 0.0
    if group.stop_at_reject:  # legacy on_reject: break: what follows the first rejected case is never judged there
        points = points[:next((n + 1 for n, c in enumerate(judged) if c is None or c.verdict is not Verdict.AC), len(points))]
    combine = {"sum": sum, "min": min, "max": max, "avg": lambda p: sum(p) / len(p)}[group.aggregation]
    earned = combine(points) if points else 0.0
    if group.score_range is not None and not group.score_range[0] <= earned <= group.score_range[1] and judged and judged[0] is not None:
        _judge_error(judged[0], f"group score {earned:g} is outside its range {group.score_range[0]:g} {group.score_range[1]:g}")
        return 0.0
    return earned


def _case_points(group: Group, case: CaseResult) -> float:
    """What one judged case earns under its group's rule (JE and 0 when its validator broke a score rule)."""
    if case.verdict is not Verdict.AC:
        return group.reject_points if case.verdict is not Verdict.JE else 0.0
    tag = case.score_file
    if group.score_rule == "2023-07-draft":
        return group.case_points * (tag[1] if tag else 1.0)
    if group.score_rule == "legacy":
        return tag[1] if tag and tag[0] == "score.txt" else group.case_points * (tag[1] if tag else 1.0)
    problem = None
    if tag and group.aggregation == "pass-fail":
        problem = f"output validator wrote {tag[0]} for a case of a pass-fail group"
    elif group.unbounded and tag is None:
        problem = "output validator accepted a case of an unbounded group without writing score.txt"
    elif group.unbounded and tag and tag[0] != "score.txt":
        problem = "output validator wrote score_multiplier.txt for a case of an unbounded group"
    elif tag and tag[0] == "score.txt" and tag[1] > group.case_points + 1e-9 and not group.unbounded:
        problem = f"output validator wrote score.txt {tag[1]:g}, above the case's maximum {group.case_points:g}"
    if problem is not None:
        return _judge_error(case, problem)
    if tag is None:
        return group.case_points
    return tag[1] if tag[0] == "score.txt" else tag[1] * group.case_points


def _judge_error(case: CaseResult, problem: str) -> float:
    case.verdict, case.score, case.message = Verdict.JE, 0.0, problem
    return 0.0


def overall_verdict(cases: Sequence[CaseResult]) -> Verdict:
    """The first failing case's verdict in case order, as ICPC-style judges report it (a skipped case never decides it)."""
    for case in cases:
        if case.verdict not in (Verdict.AC, Verdict.SKIPPED):
            return case.verdict
    return Verdict.AC


def loses_group(group: Group, case: CaseResult) -> bool:
    """Whether this case alone already sets its group's earnings to zero, so the group's later cases cannot change the score.

    Only a "min" group is lost by one case, and only by a case that earned
    nothing (a testlib checker's partial points keep the rest relevant); a
    Kattis "min" or "pass-fail" group by any case not accepted (when that earns 0).
    """
    if group.score_rule:
        return group.aggregation in ("min", "pass-fail") and case.verdict is not Verdict.AC and group.reject_points == 0.0
    return group.aggregation == "min" and case.verdict is not Verdict.AC and case.score == 0.0


def meets_rule(verdicts: Sequence[Verdict], rule: tuple[set[str], set[str]]) -> bool:
    """A Kattis submissions/<folder> rule (permitted, required): every case verdict permitted, and (unless nothing is required) one required seen."""
    permitted, required = rule
    seen = {KATTIS_VERDICT.get(v, v.value) for v in verdicts}
    return seen <= permitted and (not required or bool(seen & required))
