"""What verify finds: each test submission's promise (``Expectation``), how it was judged (``Outcome``), and every
finding of a package (``Finding``, gathered in ``VerifyResult``, which ``verify --json`` writes).

Apart from ``verify.py``, which does the checking, so that the matrix, the
command line and the tests read these types without the checking's imports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..core import JudgeReport
from ..model import Problem
from ..problem.formats import kattis
from ..problem.formats.kattis_submissions import KattisSubmission
from ..verdict import Verdict
from .kattis_rules import KATTIS_VERDICT, broken, catches, label, meets_rule


@dataclass(frozen=True)
class Expectation:
    """What a test submission promises: a verdict (our format) or a Kattis folder's permitted/required rule.

    ``catches`` says which case verdicts reject the submission for the reason
    it is wrong (its verdict; for Kattis, one of its folder's required ones).
    """

    label: str
    accepts: Callable[[JudgeReport], bool]
    first_fail: bool
    catches: Callable[[Verdict], bool]
    explain: Callable[[JudgeReport], list[str]] | None = None  # one line per broken promise, when it can say which
    # a group's cases after its result is decided may be left unjudged (SKIPPED), as problemtools leaves them: not
    # when a promise is about the verdicts of some cases or about a message, which a later case may hold
    skips_decided: bool = True

    @classmethod
    def verdict(cls, expected: Verdict) -> Expectation:
        wrong = expected is not Verdict.AC
        return cls(expected.value, lambda report: report.verdict is expected, wrong, lambda v: wrong and v is expected)

    @classmethod
    def kattis(cls, folder: str) -> Expectation:
        rule = kattis.FOLDER_RULES[folder]
        label = "|".join(sorted(rule[1])) or "AC"

        def accepts(report: JudgeReport) -> bool:
            verdicts = [c.verdict for c in report.cases]
            failed = next((n for n, v in enumerate(verdicts) if v is not Verdict.AC), len(verdicts))
            return report.verdict not in (Verdict.CE, Verdict.JE) and meets_rule(verdicts[: failed + 1], rule)

        # Judging stops at the first failure, as legacy Kattis does (on_reject: break): the rule is checked up to there,
        # also when every case ran for the matrix.
        return cls(label, accepts, folder != "accepted", lambda v: KATTIS_VERDICT.get(v) in rule[1])

    @classmethod
    def kattis_rules(cls, sub: KattisSubmission) -> Expectation:
        """A submission's folder rule and ``submissions.yaml`` rules; any rule about scores, messages or some cases
        needs every case run."""
        rules = sub.rules

        def explain(report: JudgeReport) -> list[str]:
            return broken(sub.name, rules, report)

        every = any(r.needs_every_case for r in rules) or sub.folder == "accepted"
        skips = not any(r.scope or r.message is not None for r in rules)
        return cls(
            label(rules), lambda report: not explain(report), not every, lambda v: catches(rules, v), explain, skips
        )

    @property
    def is_accepted(self) -> bool:
        return self.label == "AC"


@dataclass
class Outcome:
    """One test submission judged; ``error`` says why it could not be judged at all (it then fails)."""

    path: Path
    expected: Expectation
    report: JudgeReport
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and self.expected.accepts(self.report)

    @property
    def failures(self) -> list[str]:
        """Why the submission is not as expected, one line per broken promise (empty when it is)."""
        if self.error:
            return [f"{self.label}: {self.error}"]
        if self.ok:
            return []
        if self.expected.explain is not None:
            return self.expected.explain(self.report) or [f"{self.label}: not as expected"]
        return [f"{self.label}: expected {self.expected.label}, got {self.report.verdict.value}"]

    @property
    def label(self) -> str:
        """The submission as its folder and name, which say what it promises."""
        return f"{self.path.parent.name}/{self.path.name}"


@dataclass(frozen=True)
class Finding:
    """One thing verify found: an ``error`` fails the package, anything else is said and does not.

    ``kind`` is what it is about: ``submission``, ``input``, ``time_limit``,
    ``package``, ``validator_test`` (a case of data/invalid_* or valid_output), ``answer`` (an answer an answer
    validator rejects), ``skipped`` (a file no tool judges) or ``warning``.
    """

    kind: str
    subject: str
    message: str
    error: bool

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "message": self.message,
            "severity": "error" if self.error else "warning",
        }


@dataclass
class VerifyResult:
    """Everything verify found; it always goes through every check, so one failure never hides the next."""

    invalid_inputs: list[str] = field(default_factory=list)
    validated: bool = False  # every input went through the validators: without them "all valid" would be a guess
    validator_cases: int = 0  # cases of data/invalid_* and data/valid_output, each checked (failures in errors)
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    errors: list[Finding] = field(default_factory=list)  # what failed outside a submission's own judging
    skipped: list[tuple[str, str]] = field(default_factory=list)  # files no tool judges, with the reason
    problem: Problem | None = None  # the problem as judged: with the time limit verify inferred, if it did

    @property
    def ok(self) -> bool:
        return not self.invalid_inputs and not self.errors and all(o.ok for o in self.outcomes)

    def to_json(self, problem: Problem) -> dict[str, object]:
        """What ``verify --json`` writes for CI: the verdict, every submission's outcome and every finding
        (docs/schemas/verify-report.schema.json)."""
        return {
            "problem": problem.name,
            "ok": self.ok,
            "time_limit": problem.limits.time,
            "inputs": {"cases": len(problem.cases), "invalid": len(self.invalid_inputs), "validated": self.validated},
            "submissions": [
                {
                    "name": o.label,
                    "expected": o.expected.label,
                    "verdict": o.report.verdict.value,
                    "ok": o.ok,
                    "score": o.report.score,
                    "max_score": o.report.max_score,
                    "slowest": max((c.time for c in o.report.cases), default=0.0),
                    "failures": o.failures,
                    "graded": o.report.graded.to_json() if o.report.graded is not None else None,
                }
                for o in self.outcomes
            ],
            "findings": [f.to_json() for f in self.findings],
        }

    @property
    def findings(self) -> list[Finding]:
        """Every finding, errors first, in the order they were found."""
        return [
            *self.errors,
            *(Finding("input", "", line, True) for line in self.invalid_inputs),
            *(Finding("submission", o.label, line, True) for o in self.outcomes for line in o.failures),
            *(Finding("skipped", name, why, False) for name, why in self.skipped),
            *(Finding("warning", "", line, False) for line in self.warnings),
        ]
