"""The problem setter's self-check: data valid, references agree, every test submission gets the verdict it promises.

A package passes only if each submission under ``submissions/<verdict>/``
really earns that verdict, so a "wrong answer" file that is accidentally
accepted (a test set too weak to catch its bug) fails the check. With
``all_cases`` every submission runs on every case, for the test-strength
matrix (``matrix.py``); what verify decides stays the same.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..core import JudgeOptions, JudgeReport, judge, kind_of
from ..core.run_limits import time_limit
from ..core.runs_as import as_package_runs, fallback_note
from ..core.submission import prepare_submission
from ..core.timelimit import Inference
from ..core.validators import validate
from ..errors import JudgeError, SetupError
from ..lang import is_source, registry_for
from ..model import Problem
from ..problem.formats import kattis
from ..problem.formats.kattis_submissions import KattisSubmission
from ..run import SlotPool
from ..verdict import Verdict
from .junk_inputs import junk_warnings
from .kattis_rules import score_warnings
from .kattis_time import check_tle_margin, inferred_once, margin_wanted, unruled, with_extra_time
from .matrix import Matrix, Row, analyse
from .validator_tests import check_validator_cases
from .verify_findings import Expectation, Finding, Outcome, VerifyResult

SAFETY_MARGIN = 2.0


# a submission, the source to build (or why there is none), its promise
Found = list[tuple[Path, "Path | str", Expectation]]


def submissions(problem: Problem, result: VerifyResult) -> Found:
    """Every test submission (its path, the source to build or why none, what it promises); references included even
    when kept elsewhere.

    What cannot be judged is put in ``result`` (an unknown verdict folder, a
    file no tool judges) instead of stopping the rest.
    """
    if problem.package_format == "kattis":
        result.skipped += kattis.ignored(problem)
        return [
            (s.path, s.source or s.why, Expectation.kattis_rules(s)) for s in kattis.submissions(problem) if s.rules
        ]
    found: Found = []
    folder = problem.submissions_root
    if folder.is_dir():
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            expected = Verdict.from_folder(sub.name)
            if expected is None:
                result.errors.append(
                    Finding(
                        "package",
                        f"{sub.name}/",
                        "unknown verdict folder (use accepted, wrong_answer, time_limit_exceeded, ...)",
                        True,
                    )
                )
                continue
            for path in sorted(sub.iterdir()):
                if is_source(path) or (kind_of(problem).answer_files and path.is_dir()):
                    found.append((path, path, Expectation.verdict(expected)))
                elif not path.name.startswith("."):
                    result.skipped.append((f"{sub.name}/{path.name}", "not a source of a known language: not judged"))
    listed = {p.resolve() for p, _, _ in found}
    # a submit-answer problem's references write the answers; they are not answers
    if not kind_of(problem).answer_files:
        found += [(s, s, Expectation.verdict(Verdict.AC)) for s in problem.solutions if s.resolve() not in listed]
    return found


def verify(
    problem: Problem,
    pool: SlotPool,
    on_submission: Callable[[Outcome], None] | None = None,
    all_cases: bool = False,
    log: Callable[[str], None] = lambda line: None,
) -> VerifyResult:
    """Validate the inputs and judge every test submission; with ``all_cases`` none stops at its first failure.

    A Kattis package without a time limit gets it inferred here, once: its accepted runs are reused, and the limit
    is stored for ``judge`` (``kattis_time``); the time_limit_exceeded submissions are judged at the limit ×
    time_limit_to_tle too, where they must still time out (by the same runs: ``core/two_limits.py``).
    Nothing found stops verify: each problem becomes a finding of the result.
    """
    result = VerifyResult()
    found = None
    try:
        subs = submissions(problem, result)
    except JudgeError as exc:  # submissions.yaml itself is broken: the data is still checked
        result.errors.append(Finding("package", "submissions", str(exc), True))
        subs = []
    if problem.package_format == "kattis":
        result.warnings += unruled(problem)
        data_errors, data_warnings = kattis.data_findings(problem.root)
        result.errors += [Finding("package", "data", line, True) for line in data_errors]
        result.warnings += data_warnings
        if problem.limits.time <= 0 and kind_of(problem).needs_time_limit:
            problem, found = inferred_once(problem, pool, log)
            result.errors += [Finding("time_limit", "", line, True) for line in found.failures]
    result.problem = problem
    named = {s.path: s for s in kattis.submissions(problem)} if problem.package_format == "kattis" else {}
    # validators left out, undefined {{constants}}
    result.warnings += kattis.package_warnings(problem) if problem.package_format == "kattis" else []
    if problem.validators:
        try:
            result.invalid_inputs = validate(problem, pool)
            result.validated = True
            if not result.invalid_inputs:  # a validator that rejects real inputs has a louder problem than junk
                result.warnings += junk_warnings(problem, pool)
        except JudgeError as exc:  # the validators could not run: a fault of the package or this machine, not the data
            result.errors.append(Finding("package", "input validators", f"inputs not validated: {exc}", True))
    else:
        result.warnings.append("no validator: inputs not validated")
    if problem.package_format == "kattis":  # bt's cases that test the validators: each judged as its folder says
        try:
            result.validator_cases, broken, answers = check_validator_cases(problem, pool)
            result.errors += [Finding("validator_test", "", line, True) for line in broken]
            result.errors += [Finding("answer", "", line, True) for line in answers]
        except JudgeError as exc:
            result.errors.append(
                Finding("package", "validators", f"invalid/valid-output cases not checked: {exc}", True)
            )
    for path, source, expected in subs:
        outcome = _judged(problem, pool, path, source, expected, named.get(path), found, all_cases, result)
        if outcome is None:
            continue
        result.outcomes.append(outcome)
        result.warnings += score_warnings(problem, named.get(path), outcome.report) if not outcome.error else []
        if on_submission:
            on_submission(outcome)
    result.warnings += timing_warnings(problem, result.outcomes)
    return result


def _judged(
    problem: Problem,
    pool: SlotPool,
    path: Path,
    source: Path | str,
    expected: Expectation,
    sub: KattisSubmission | None,
    found: Inference | None,
    all_cases: bool,
    result: VerifyResult,
) -> Outcome | None:
    """One submission judged as it promises; None when this machine lacks its language (a warning says so)."""

    def failed(why: str, verdict: Verdict = Verdict.CE) -> Outcome:
        return Outcome(path, expected, JudgeReport(problem.name, str(path), "", False, why, why, verdict=verdict), why)

    if isinstance(source, str):
        return failed(source or "cannot tell which file of the folder is the program")
    try:
        named = registry_for(problem.root).language(sub.language) if sub is not None and sub.language else None
        lang = as_package_runs(problem, named) if named is not None else None  # the package's own language id
        program = prepare_submission(problem, source, pool, lang, sub.entrypoint if sub is not None else None)
    except SetupError as exc:  # a language this machine lacks: named once, and the other submissions still run
        result.warnings.append(f"{path.parent.name}/{path.name}: not judged: {exc}")
        return None
    except JudgeError as exc:
        return failed(str(exc))
    note = fallback_note(problem, program.language)
    if note and note not in result.warnings:
        result.warnings.append(note)
    # A group is judged until its result is decided, as problemtools does; the matrix (all_cases) needs every case.
    # Judged up to its first failure, a submission runs one case at a time: its verdict is that failure's, which a
    # run beside it cannot change (JudgeOptions.one_at_a_time says what that saves).
    first_fail = expected.first_fail and not all_cases and problem.legacy_grading is None
    options = JudgeOptions(
        first_fail=first_fail,
        skip_lost=expected.skips_decided and not all_cases,
        margin=margin_wanted(problem, sub, all_cases),
        one_at_a_time=first_fail,
    )
    reused = found.reports.get(path) if found is not None and not all_cases else None
    try:
        report = reused if reused is not None else judge(problem, program, pool, options)
        if problem.package_format == "kattis":
            if not all_cases:
                report, sensitive = with_extra_time(
                    f"{path.parent.name}/{path.name}", problem, program, pool, options, report, expected.accepts
                )
                result.warnings += sensitive
            result.warnings += check_tle_margin(problem, path, program, pool, report)
    except JudgeError as exc:
        return failed(f"judging stopped: {exc}", Verdict.JE)
    return Outcome(path, expected, report)


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
                raise JudgeError(
                    f"{o.label}: {len(missing)} case(s) not judged (first {missing[0]}); "
                    "the matrix needs every case's verdict"
                )
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
        limit = time_limit(problem, lang)
        if time * SAFETY_MARGIN > limit:
            warnings.append(
                f"{lang}: slowest accepted {time:.3f}s ({path.name}) "
                f"leaves less than {SAFETY_MARGIN:g}x margin under {limit:g}s"
            )
    return warnings
