"""The problem setter's self-check: data valid, references agree, every test submission gets the verdict it promises.

A package passes only if each submission under ``submissions/<verdict>/``
really earns that verdict, so a "wrong answer" file that is accidentally
accepted (a test set too weak to catch its bug) fails the check.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import UsageError
from .execution import SlotPool
from .judging import JudgeOptions, JudgeReport, judge
from .languages import LANGUAGES, detect, prepare_program
from .spec import Problem
from .testdata import validate
from .verdicts import Verdict

SAFETY_MARGIN = 2.0


@dataclass
class Outcome:
    path: Path
    expected: Verdict
    report: JudgeReport

    @property
    def ok(self) -> bool:
        return self.report.verdict is self.expected


@dataclass
class VerifyResult:
    invalid_inputs: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.invalid_inputs and all(o.ok for o in self.outcomes)


def submissions(problem: Problem) -> list[tuple[Path, Verdict]]:
    """Every test submission with the verdict its folder promises, references included even when kept elsewhere."""
    found: list[tuple[Path, Verdict]] = []
    folder = problem.root / "submissions"
    if folder.is_dir():
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            expected = Verdict.from_folder(sub.name)
            if expected is None:
                raise UsageError(f"{sub}: unknown verdict folder (use accepted, wrong_answer, time_limit_exceeded, ...)")
            found += [(path, expected) for path in sorted(sub.iterdir()) if path.is_file() and _is_program(path)]
    listed = {p.resolve() for p, _ in found}
    found += [(s, Verdict.AC) for s in problem.solutions if s.resolve() not in listed]
    return found


def _is_program(path: Path) -> bool:
    return any(path.suffix.lower() in lang.extensions for lang in LANGUAGES.values())


def verify(problem: Problem, pool: SlotPool, on_submission: Callable[[Outcome], None] | None = None) -> VerifyResult:
    result = VerifyResult()
    if problem.validator is not None:
        result.invalid_inputs = validate(problem, pool)
    else:
        result.warnings.append("no validator: inputs not validated")
    for path, expected in submissions(problem):
        program = prepare_program(path, detect(path), pool, problem.limits.compile_time)
        report = judge(problem, program, pool, JudgeOptions(first_fail=expected is not Verdict.AC))
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
        if o.expected is Verdict.AC and o.report.cases:
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
