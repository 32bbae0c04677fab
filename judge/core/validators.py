"""Input validators: how one says "valid", and running them on the cases (or on any file, for verify's junk).

Kattis validators exit 42 (43: invalid), testlib validators exit 0, and a
checktestdata script (``.ctd``, run by the ``checktestdata`` package) 0, 1 for
invalid. A package rarely says which protocol its validator speaks, and a
testlib validator judged by the Kattis rule would fail on every valid input,
so the source decides when the package is silent: one that calls
``registerValidation`` is testlib's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import JudgeError
from ..lang import Program, build_or_fail
from ..model import CaseSpec, Problem, input_path
from ..model.programfiles import CHECKTESTDATA, KATTIS, TESTLIB
from ..run import SlotPool
from ..text import status_text
from .added_to_build import added_to_build
from .phases import measured
from .run_limits import Role, trusted_limits
from .stderr import said_in
from .testdata import trusted_spec

VALID, INVALID = 42, 43
EXPECTED_EXITS = {
    KATTIS: f"{VALID} or {INVALID}",
    TESTLIB: "0 or another exit code, testlib",
    CHECKTESTDATA: "0 or 1, checktestdata",
}


def validator_protocol(problem: Problem, path: Path) -> str:
    """How a validator says "valid": as the package states, else testlib (exit 0) when its source registers as a testlib
    validator, else Kattis (exit 42, 43 for invalid)."""
    stated = problem.files.validator_protocols.get(path)
    if stated is not None:
        return stated
    if path.suffix == ".ctd":
        return CHECKTESTDATA
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    return TESTLIB if any(b"registerValidation" in f.read_bytes() for f in files) else KATTIS


def verdict(protocol: str, exit_code: int | None, crashed: bool) -> bool | None:
    """True valid, False invalid, None: the validator itself failed (a crash, a timeout, an exit code outside its
    protocol)."""
    if crashed:
        return None
    if protocol == TESTLIB:
        return None if exit_code is None else exit_code == 0
    return {VALID: True, INVALID: False}.get(exit_code) if protocol == KATTIS else {0: True, 1: False}.get(exit_code)


@dataclass(frozen=True)
class Validator:
    """One built input validator and the protocol it speaks; ``label`` names it in messages when there are several."""

    program: Program
    protocol: str
    label: str
    name: str = ""  # what the case's arguments call it (``CaseSpec.validator_args_for``)


@dataclass(frozen=True)
class Finding:
    """What a validator said of one input: valid (True), invalid (False) or failed itself (None), and why."""

    valid: bool | None
    said: str
    status: str


def built(problem: Problem, pool: SlotPool) -> list[Validator]:
    """The package's input validators, compiled (a compile error is a judge error naming it)."""
    if not problem.validators:
        raise JudgeError(f"{problem.spec_path}: no input validator in the package")
    several = len(problem.validators) > 1
    return [
        built_one(
            problem, path, pool, f" ({path.name})" if several else "", problem.files.validator_names.get(path, "")
        )
        for path in problem.validators
    ]


def built_one(problem: Problem, path: Path, pool: SlotPool, label: str, name: str = "") -> Validator:
    """One validator program of the package compiled, with the protocol its place in the package says it speaks."""
    program = build_or_fail(path, pool, problem.limits.compile_time, "validator", added_to_build(problem, path))
    return Validator(program, validator_protocol(problem, path), label, name or path.name)


def check(validator: Validator, args: Sequence[str], stdin: Path, pool: SlotPool) -> Finding:
    """Run one validator on one file, in a slot of its own."""
    with pool.slot() as slot:
        err, out = slot.private / "validator.err", slot.private / "validator.out"
        result = slot.run(
            trusted_spec(
                slot, validator.program, args, stdin, out, err, trusted_limits(Role.VALIDATOR, validator.program)
            )
        )
        said = said_in(err) or said_in(out)
    crashed = result.signal_name is not None or result.killed != "none"
    return Finding(
        verdict(validator.protocol, result.exit_code, crashed),
        said,
        status_text(result.exit_code, result.signal_name, result.killed),
    )


@measured(lambda problem, *_, **__: f"input validation of {problem.name}")
def validate(problem: Problem, pool: SlotPool, on_done: Callable[[CaseSpec], None] | None = None) -> list[str]:
    """Run every input validator on every input; returns one line per rejection."""
    validators = built(problem, pool)
    failures: list[str] = []

    def one(case: CaseSpec) -> None:
        for validator in validators:
            found = check(validator, case.validator_args_for(validator.name), input_path(problem, case), pool)
            message = f": {found.said}" if found.said else ", no message"
            if found.valid is False:
                failures.append(f"{case.key}: invalid{validator.label}{message}")
            elif found.valid is None:
                expected = EXPECTED_EXITS[validator.protocol]
                failures.append(
                    f"{case.key}: validator{validator.label} failed ({found.status}, expected {expected}){message}"
                )
        if on_done:
            on_done(case)

    from concurrent.futures import ThreadPoolExecutor  # only when data is made or checked, not on every command

    with ThreadPoolExecutor(max_workers=pool.size) as executor:
        list(executor.map(one, problem.cases))
    return sorted(failures)
