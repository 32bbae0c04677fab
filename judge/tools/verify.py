"""The problem setter's self-check: data valid, references agree, every test submission gets the verdict it promises.

A package passes only if each submission under ``submissions/<verdict>/``
really earns that verdict, so a "wrong answer" file that is accidentally
accepted (a test set too weak to catch its bug) fails the check.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..core import JudgeOptions, JudgeReport, judge, meets_rule
from ..core.testdata import validate
from ..errors import UsageError
from ..lang import detect, is_source, prepare_program
from ..problem import Problem
from ..problem.formats import kattis
from ..run import SlotPool
from ..verdict import Verdict

SAFETY_MARGIN = 2.0


@dataclass(frozen=True)
class Expectation:
    """What a test submission promises: a verdict (our format) or a Kattis folder's permitted/required rule."""

    label: str
    accepts: Callable[[JudgeReport], bool]
    first_fail: bool

    @classmethod
    def verdict(cls, expected: Verdict) -> "Expectation":
        return cls(expected.value, lambda report: report.verdict is expected, expected is not Verdict.AC)

    @classmethod
    def kattis(cls, folder: str) -> "Expectation":
        rule = kattis.FOLDER_RULES[folder]
        label = "|".join(sorted(rule[1])) or "AC"

        def accepts(report: JudgeReport) -> bool:
            return report.verdict not in (Verdict.CE, Verdict.JE) and meets_rule([c.verdict for c in report.cases], rule)

        # Judging stops at the first failure, as legacy Kattis does (on_reject: break): the rule is checked on what ran.
        return cls(label, accepts, folder != "accepted")

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


@dataclass
class VerifyResult:
    invalid_inputs: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.invalid_inputs and all(o.ok for o in self.outcomes)


def submissions(problem: Problem) -> list[tuple[Path, Path | None, Expectation]]:
    """Every test submission (its path, the source to build, what it promises); references included even when kept elsewhere."""
    if problem.package_format == "kattis":
        return [(s.path, s.source, Expectation.kattis(s.folder)) for s in kattis.submissions(problem) if s.folder in kattis.FOLDER_RULES]
    found: list[tuple[Path, Path | None, Expectation]] = []
    folder = problem.submissions_root
    if folder.is_dir():
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            expected = Verdict.from_folder(sub.name)
            if expected is None:
                raise UsageError(f"{sub}: unknown verdict folder (use accepted, wrong_answer, time_limit_exceeded, ...)")
            found += [(path, path, Expectation.verdict(expected)) for path in sorted(sub.iterdir()) if is_source(path)]
    listed = {p.resolve() for p, _, _ in found}
    found += [(s, s, Expectation.verdict(Verdict.AC)) for s in problem.solutions if s.resolve() not in listed]
    return found


def verify(problem: Problem, pool: SlotPool, on_submission: Callable[[Outcome], None] | None = None) -> VerifyResult:
    result = VerifyResult()
    if problem.validators:
        result.invalid_inputs = validate(problem, pool)
    else:
        result.warnings.append("no validator: inputs not validated")
    for path, source, expected in submissions(problem):
        if source is None:
            report = JudgeReport(problem.name, str(path), "", False, "cannot tell which file of the folder is the program", verdict=Verdict.CE)
        else:
            program = prepare_program(source, detect(source), pool, problem.limits.compile_time)
            report = judge(problem, program, pool, JudgeOptions(first_fail=expected.first_fail))
        outcome = Outcome(path, expected, report)
        result.outcomes.append(outcome)
        if on_submission:
            on_submission(outcome)
    result.warnings += timing_warnings(problem, result.outcomes)
    return result


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
