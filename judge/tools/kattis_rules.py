"""Checking a Kattis submission's rules (folder defaults, ``submissions.yaml``) against its judging report.

Each broken promise is one line naming the submission, the cases the rule
speaks about and what was required against what was seen, e.g.
``wrong_answer/x.py: secret/group2: required TLE, got only AC``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import JudgeReport
from ..model import Problem
from ..problem.formats.kattis_submissions import KattisSubmission, Rule, case_in_scope, glob_matches
from ..verdict import Verdict

EPSILON = 1e-6
# Kattis names for our verdicts: MLE and OLE are run-time errors there, PE is a wrong answer.
KATTIS_VERDICT = {
    Verdict.AC: "AC",
    Verdict.WA: "WA",
    Verdict.PE: "WA",
    Verdict.TLE: "TLE",
    Verdict.RE: "RTE",
    Verdict.MLE: "RTE",
    Verdict.OLE: "RTE",
}


def meets_rule(verdicts: Sequence[Verdict], rule: tuple[set[str], set[str]]) -> bool:
    """A Kattis submissions/<folder> rule (permitted, required): every case verdict permitted, and (unless nothing is
    required) one required seen."""
    permitted, required = rule
    seen = {KATTIS_VERDICT.get(v, v.value) for v in verdicts}
    return seen <= permitted and (not required or bool(seen & required))


def broken(name: str, rules: Sequence[Rule], report: JudgeReport) -> list[str]:
    """Every rule the report breaks, one line each (a compile or judge error breaks them all at once)."""
    if report.verdict in (Verdict.CE, Verdict.JE):
        if report.verdict is Verdict.JE:
            why = next((c.message for c in report.cases if c.verdict is Verdict.JE), "")
            why = why or (report.graded.message if report.graded is not None else "")
        else:  # the line naming the error, so that a CE is never a bare "got CE"
            why = report.compile_error
        return [f"{name}: got {report.verdict.value}" + (f": {why}" if why else "")]
    return [f"{name}: {line}" for rule in rules for line in _rule_failures(rule, report)]


def _rule_failures(rule: Rule, report: JudgeReport) -> list[str]:
    if rule.default and report.graded is not None:  # a legacy scoring package: its graders' verdict is the one judged
        return _graded_failures(rule, report)
    cases = [c for c in report.cases if c.verdict is not Verdict.SKIPPED and case_in_scope(rule.scope, c.group, c.name)]
    if rule.default:  # judged up to the first failure, as Kattis does for a folder's rule
        failed = next((n for n, c in enumerate(cases) if c.verdict is not Verdict.AC), len(cases))
        cases = cases[: failed + 1]
    seen = {KATTIS_VERDICT.get(c.verdict, c.verdict.value) for c in cases}
    where = f"{rule.scope}: " if rule.scope else ""
    out = []
    if rule.permitted is not None and not seen <= rule.permitted:
        out.append(
            f"{where}permitted {'|'.join(sorted(rule.permitted))}, got {', '.join(sorted(seen - rule.permitted))}"
        )
    if rule.required and not seen & rule.required:
        out.append(
            f"{where}required {'|'.join(sorted(rule.required))}, got only {', '.join(sorted(seen)) or 'no case'}"
        )
    if rule.score is not None:
        low, high = rule.score
        score = sum(g.earned for g in report.groups if glob_matches(rule.scope, g.name)) if rule.scope else report.score
        if not low - EPSILON <= score <= high + EPSILON:
            wanted = f"{low:g}" if low == high else f"in [{low:g}, {high:g}]"
            out.append(f"{where}score {score:g}, expected {wanted}")
    if rule.message is not None and not any(rule.message in c.message for c in cases):
        out.append(f"{where}no case's message contains {rule.message!r}")
    if rule.partial:
        out += _partial(report)
    return out


def _partial(report: JudgeReport) -> list[str]:
    """2023-07 ``partially_accepted``: accepted overall (some secret group fully passed) with a score below the
    maximum."""
    passed = [g for g in report.groups if g.name.startswith("secret") and g.total and g.passed == g.total]
    out = []
    if not passed:
        out.append("partially accepted: no secret group is accepted")
    if report.score >= report.max_score - EPSILON:
        out.append(f"partially accepted: score {report.score:g} is not below the maximum {report.max_score:g}")
    return out


def _graded_failures(rule: Rule, report: JudgeReport) -> list[str]:
    """A folder's rule as problemtools checks it on a legacy package: the verdict the root's grader gives must be the
    folder's (AC for accepted/ and partially_accepted/); the score is only warned about (``score_warnings``)."""
    graded = report.graded
    assert graded is not None
    wanted = {"AC"} if rule.partial or not rule.required else set(rule.required)
    if graded.verdict in wanted:
        return []
    failing = next((c for c in report.cases if c.verdict not in (Verdict.AC, Verdict.SKIPPED)), None)
    first = f" (first failing case {failing.group}/{failing.name}: {failing.verdict.value})" if failing else ""
    return [f"the legacy grader gives {graded.verdict} ({graded.score:g}), expected {'|'.join(sorted(wanted))}{first}"]


def score_warnings(problem: Problem, sub: KattisSubmission | None, report: JudgeReport) -> list[str]:
    """What problemtools warns of, not fails on, in a legacy scoring package whose full score is stated: an accepted
    submission below it ("consider moving it to partially_accepted"), a partially accepted one at it (packages put
    slow full solutions there on purpose)."""
    graded, grading = report.graded, problem.legacy_grading
    full_score = grading.full_score if grading is not None else None
    folder = next((r for r in sub.rules if r.default), None) if sub is not None else None
    if graded is None or full_score is None or folder is None or graded.verdict != "AC" or sub is None:
        return []
    full = graded.score >= full_score - EPSILON
    of = f"({graded.score:g} of {full_score:g})"
    name = sub.name
    if folder.partial and full:
        return [f"{name}: was fully accepted {of}"]
    if not folder.partial and not folder.required and not full:
        return [f"{name}: did not attain full score {of}"]
    return []


def label(rules: Sequence[Rule]) -> str:
    """What the submission is expected to get, in a few letters, for the verify table."""
    if any(r.partial for r in rules):
        return "PAC"
    required = sorted({v for r in rules if not r.scope and r.required for v in r.required})
    return "|".join(required) or "AC"


def catches(rules: Sequence[Rule], verdict: Verdict) -> bool:
    """Whether a case verdict rejects the submission for the reason it is wrong (one of its required verdicts)."""
    kattis = KATTIS_VERDICT.get(verdict)
    return any(r.required and kattis in r.required and kattis != "AC" for r in rules if not r.scope)
