"""The problem setter's self-check: data valid, references agree, every test submission gets the verdict it promises.

A package passes only if each submission under ``submissions/<verdict>/``
really earns that verdict, so a "wrong answer" file that is accidentally
accepted (a test set too weak to catch its bug) fails the check. With
``all_cases`` every submission runs on every case, for the test-strength
matrix (``matrix.py``); what verify decides stays the same.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..core import JudgeOptions, JudgeReport, judge, meets_rule
from ..core.submission import prepare_submission
from ..core.testdata import validate
from ..core.verdicts import KATTIS_VERDICT
from ..errors import JudgeError, SetupError, UsageError
from ..lang import is_source, registry_for
from ..problem import Problem
from ..problem.formats import kattis
from ..problem.formats.kattis_submissions import KattisSubmission
from ..run import SlotPool
from ..verdict import Verdict
from .kattis_rules import broken, catches, label
from .kattis_time import check_tle_margin, inferred_once, unruled
from .matrix import Matrix, Row, analyse

SAFETY_MARGIN = 2.0


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

    @classmethod
    def verdict(cls, expected: Verdict) -> "Expectation":
        wrong = expected is not Verdict.AC
        return cls(expected.value, lambda report: report.verdict is expected, wrong, lambda v: wrong and v is expected)

    @classmethod
    def kattis(cls, folder: str) -> "Expectation":
        rule = kattis.FOLDER_RULES[folder]
        label = "|".join(sorted(rule[1])) or "AC"

        def accepts(report: JudgeReport) -> bool:
            verdicts = [c.verdict for c in report.cases]
            failed = next((n for n, v in enumerate(verdicts) if v is not Verdict.AC), len(verdicts))
            return report.verdict not in (Verdict.CE, Verdict.JE) and meets_rule(verdicts[:failed + 1], rule)

        # Judging stops at the first failure, as legacy Kattis does (on_reject: break): the rule is checked up to there,
        # also when every case ran for the matrix.
        return cls(label, accepts, folder != "accepted", lambda v: KATTIS_VERDICT.get(v) in rule[1])

    @classmethod
    def kattis_rules(cls, sub: KattisSubmission) -> "Expectation":
        """A submission's folder rule and ``submissions.yaml`` rules; any rule about scores, messages or some cases needs every case run."""
        rules = sub.rules

        def explain(report: JudgeReport) -> list[str]:
            return broken(sub.name, rules, report)

        every = any(r.needs_every_case for r in rules) or sub.folder == "accepted"
        return cls(label(rules), lambda report: not explain(report), not every, lambda v: catches(rules, v), explain)

    @property
    def is_accepted(self) -> bool:
        return self.label == "AC"


@dataclass
class Outcome:
    path: Path
    expected: Expectation
    report: JudgeReport

    @property
    def ok(self) -> bool:
        return self.expected.accepts(self.report)

    @property
    def failures(self) -> list[str]:
        """Why the submission is not as expected, one line per broken promise (empty when it is)."""
        if self.ok:
            return []
        if self.expected.explain is not None:
            return self.expected.explain(self.report) or [f"{self.label}: not as expected"]
        return [f"{self.label}: expected {self.expected.label}, got {self.report.verdict.value}"]

    @property
    def label(self) -> str:
        """The submission as its folder and name, which say what it promises."""
        return f"{self.path.parent.name}/{self.path.name}"


@dataclass
class VerifyResult:
    invalid_inputs: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    problem: Problem | None = None  # the problem as judged: with the time limit verify inferred, if it did

    @property
    def ok(self) -> bool:
        return not self.invalid_inputs and all(o.ok for o in self.outcomes)


def submissions(problem: Problem) -> list[tuple[Path, Path | None, Expectation]]:
    """Every test submission (its path, the source to build, what it promises); references included even when kept elsewhere."""
    if problem.package_format == "kattis":
        return [(s.path, s.source, Expectation.kattis_rules(s)) for s in kattis.submissions(problem) if s.rules]
    found: list[tuple[Path, Path | None, Expectation]] = []
    folder = problem.submissions_root
    if folder.is_dir():
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            expected = Verdict.from_folder(sub.name)
            if expected is None:
                raise UsageError(f"{sub}: unknown verdict folder (use accepted, wrong_answer, time_limit_exceeded, ...)")
            found += [(path, path, Expectation.verdict(expected)) for path in sorted(sub.iterdir())
                      if is_source(path) or (problem.kind.submit_answer and path.is_dir())]
    listed = {p.resolve() for p, _, _ in found}
    if not problem.kind.submit_answer:  # a submit-answer problem's references write the answers; they are not answers
        found += [(s, s, Expectation.verdict(Verdict.AC)) for s in problem.solutions if s.resolve() not in listed]
    return found


def verify(
    problem: Problem, pool: SlotPool, on_submission: Callable[[Outcome], None] | None = None, all_cases: bool = False,
    log: Callable[[str], None] = lambda line: None,
) -> VerifyResult:
    """Validate the inputs and judge every test submission; with ``all_cases`` none stops at its first failure.

    A Kattis package without a time limit gets it inferred here, once: its
    accepted runs are reused, and the limit is stored for ``judge``
    (``kattis_time``); the time_limit_exceeded submissions are then judged
    again at the limit × time_limit_to_tle, where they must still time out.
    """
    result = VerifyResult()
    found = None
    if problem.package_format == "kattis":
        result.warnings += unruled(problem)
        if problem.limits.time <= 0:
            problem, found = inferred_once(problem, pool, log)
    result.problem = problem
    named = {s.path: s for s in kattis.submissions(problem)} if problem.package_format == "kattis" else {}
    result.warnings += kattis.package_warnings(problem) if problem.package_format == "kattis" else []  # .ctd left out, undefined {{constants}}
    if problem.validators:
        result.invalid_inputs = validate(problem, pool)
    else:
        result.warnings.append("no validator: inputs not validated")
    for path, source, expected in submissions(problem):
        if source is None:
            report = JudgeReport(problem.name, str(path), "", False, "cannot tell which file of the folder is the program", verdict=Verdict.CE)
        else:
            try:
                sub = named.get(path)  # submissions.yaml may name a Kattis submission's language and entry point
                lang = registry_for(problem.root).language(sub.language) if sub is not None and sub.language else None
                program = prepare_submission(problem, source, pool, lang, sub.entrypoint if sub is not None else None)
            except SetupError as exc:  # a language this machine lacks: named once, and the other submissions still run
                result.warnings.append(f"{path.parent.name}/{path.name}: not judged: {exc}")
                continue
            # Never skip the rest of a lost group: verify and its matrix need every case's own verdict.
            options = JudgeOptions(first_fail=expected.first_fail and not all_cases, skip_lost=False)
            reused = found.reports.get(path) if found is not None and not all_cases else None
            report = reused if reused is not None else judge(problem, program, pool, options)
            if problem.package_format == "kattis":
                result.warnings += check_tle_margin(problem, path, program, pool)
        outcome = Outcome(path, expected, report)
        result.outcomes.append(outcome)
        if on_submission:
            on_submission(outcome)
    result.warnings += timing_warnings(problem, result.outcomes)
    return result


def strength(problem: Problem, outcomes: list[Outcome]) -> Matrix:
    """The test-strength matrix of outcomes judged with ``all_cases``: every case's verdict for every submission."""
    keys = [case.key for case in problem.cases]
    rows = []
    for o in outcomes:
        verdicts = None
        if o.report.compile_ok and o.report.verdict is not Verdict.CE:
            by_key = {f"{c.group}/{c.name}": c.verdict for c in o.report.cases if c.verdict is not Verdict.SKIPPED}
            missing = [key for key in keys if key not in by_key]
            if missing:
                raise JudgeError(f"{o.label}: {len(missing)} case(s) not judged (first {missing[0]}); the matrix needs every case's verdict")
            verdicts = tuple(by_key[key] for key in keys)
        catches = tuple(o.expected.catches(v) for v in verdicts) if verdicts is not None else (False,) * len(keys)
        rows.append(Row(o.label, o.expected.label, not o.expected.is_accepted, verdicts, catches))
    return analyse(keys, rows)


def slowest_accepted(problem: Problem, outcomes: list[Outcome]) -> dict[str, tuple[float, Path]]:
    """Per language, the slowest case time of any accepted submission."""
    slowest: dict[str, tuple[float, Path]] = {}
    for o in outcomes:
        if o.expected.is_accepted and o.report.cases:
            time = max(c.time for c in o.report.cases)
            lang = o.report.language
            if lang not in slowest or time > slowest[lang][0]:
                slowest[lang] = (time, o.path)
    return slowest


def timing_warnings(problem: Problem, outcomes: list[Outcome]) -> list[str]:
    warnings = []
    for lang, (time, path) in sorted(slowest_accepted(problem, outcomes).items()):
        limit = problem.limits.time_for(lang)
        if time * SAFETY_MARGIN > limit:
            warnings.append(f"{lang}: slowest accepted {time:.3f}s ({path.name}) leaves less than {SAFETY_MARGIN:g}x margin under {limit:g}s")
    return warnings
