"""The validators tested on the cases made to test them (``data/invalid_*``, ``data/valid_output``), as bt does.

``bt generate`` and ``bt validate`` check that an ``invalid_input`` case is
rejected by some input validator (exit 43), that an ``invalid_answer`` case's
input is valid and its answer rejected by an answer validator or by the
output validator reading the answer strictly (``case_sensitive
space_change_sensitive``, where ``ans_is_output``), that an
``invalid_output`` case's input and answer are valid and its ``.out``
rejected by the output validator, and that a ``valid_output`` case passes
all three. A validator that crashes, times out or exits outside its protocol
rejects nothing. Each case that breaks its folder's promise is one line,
which verify reports as a failure. Where the package has answer validators,
every judged case's answer must pass them too (bt's answer validation; bt's
strict reading of judged answers by the output validator is not done here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..check import Checker
from ..core.judging import problem_referee
from ..core.kinds import kind_of
from ..core.validators import Validator, built_one, check
from ..model import Problem
from ..problem.formats.kattis_validator_cases import (
    NamedProgram,
    ValidatorCase,
    ans_is_output,
    answer_validators,
    args_for,
    input_validators,
    validator_cases,
)
from ..run import SlotPool
from ..verdict import Verdict

STRICT = ("case_sensitive", "space_change_sensitive")
JUDGED = ("sample", "secret")


@dataclass(frozen=True)
class _Said:
    """One validator's word on one file: True accepted, False rejected, None it failed (with its status)."""

    who: str
    valid: bool | None
    why: str


@dataclass(frozen=True)
class _Validators:
    inputs: list[tuple[str, Validator]]
    answers: list[tuple[str, Validator]]
    checker: Checker
    strict_answers: bool  # the output validator reads each answer too


def check_validator_cases(problem: Problem, pool: SlotPool) -> tuple[int, list[str], list[str]]:
    """How many such cases the package has, one line per case its validators misjudge, and (with answer validators)
    one line per judged case whose answer one of them rejects (bt's answer validation)."""
    cases = validator_cases(problem.root)
    judged = validator_cases(problem.root, JUDGED) if answer_validators(problem.root) else []
    if not cases and not judged:
        return 0, [], []
    validators = _Validators(
        _built(problem, pool, input_validators(problem.root)),
        _built(problem, pool, answer_validators(problem.root)),
        problem_referee(problem, pool).checker,
        ans_is_output(problem.root),
    )

    def one(case: ValidatorCase) -> str | None:
        broken = _broken(case, validators, pool, problem)
        return f"data/{case.key}: {broken}" if broken else None

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=pool.size) as executor:
        lines = list(executor.map(one, [*judged, *cases]))
    return len(cases), [line for line in lines[len(judged) :] if line], [line for line in lines[: len(judged)] if line]


def _built(problem: Problem, pool: SlotPool, named: list[NamedProgram]) -> list[tuple[str, Validator]]:
    return [(v.name, built_one(problem, v.program, pool, f" ({v.name})", v.name)) for v in named]


def _broken(case: ValidatorCase, v: _Validators, pool: SlotPool, problem: Problem) -> str | None:
    """What is wrong with one case, or None when its validators judge it as its folder says."""
    if case.folder in JUDGED:  # its input is validate()'s; its answer must pass every answer validator
        if case.answer is None:
            return None
        said = [
            _validated(name, val, (str(case.input), *args_for(case.answer_args, name)), case.answer, pool)
            for name, val in v.answers
        ]
        return _accepted(said, "its answer")
    inputs = [_validated(name, val, args_for(case.input_args, name), case.input, pool) for name, val in v.inputs]
    if case.folder == "invalid_input":
        return _rejection(inputs, "input validator")
    accepted = _accepted(inputs, "its input")
    if accepted:
        return accepted
    if case.answer is None:
        return "no .ans"
    answers = [
        _validated(name, val, (str(case.input), *args_for(case.answer_args, name)), case.answer, pool)
        for name, val in v.answers
    ]
    if v.strict_answers:
        answers.append(_checked(v.checker, case, case.answer, (*STRICT, *case.output_args), pool))
    if case.folder == "invalid_answer":
        return _rejection(answers, "answer validator or strict output validator")
    accepted = _accepted(answers, "its answer")
    if accepted:
        return accepted
    if not kind_of(problem).one_output:  # no one output to check, as bt says
        return f"not checked: {case.folder} cases need a problem with one output per case"
    if case.output is None:
        return "no .out"
    said = _checked(v.checker, case, case.output, case.output_args, pool)
    if case.folder == "invalid_output":
        return _rejection([said], "output validator")
    return _accepted([said], "its output")


def _validated(name: str, validator: Validator, args: Sequence[str], stdin: Path, pool: SlotPool) -> _Said:
    found = check(validator, args, stdin, pool)
    return _Said(name, found.valid, f"{found.status}{': ' + found.said if found.said else ''}")


def _checked(checker: Checker, case: ValidatorCase, output: Path, args: Sequence[str], pool: SlotPool) -> _Said:
    assert case.answer is not None
    with pool.slot() as slot:
        outcome = checker.check(case.input, output, case.answer, slot, args)
    valid = None if outcome.verdict is Verdict.JE else outcome.verdict is Verdict.AC
    return _Said("output validator", valid, outcome.message or outcome.verdict.value)


def _rejection(said: list[_Said], who: str) -> str | None:
    """bt's rule for an invalid case: some validator rejects it, and none fails instead."""
    failed = [s for s in said if s.valid is None]
    if failed:
        return f"not rejected: {failed[0].who} failed ({failed[0].why})"
    if not any(s.valid is False for s in said):
        return f"not rejected: no {who} rejected it" if said else f"not rejected: there is no {who}"
    return None


def _accepted(said: list[_Said], what: str) -> str | None:
    bad = next((s for s in said if s.valid is not True), None)
    if bad is None:
        return None
    verb = "rejected" if bad.valid is False else "not accepted, it failed"
    return f"{what} must be valid, but {bad.who} {verb} ({bad.why})"
