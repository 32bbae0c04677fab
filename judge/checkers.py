"""Deciding whether an output is right.

Built-in comparators are pure functions over bytes; custom checkers are
programs run through a slot, speaking either testlib's exit codes or the
Kattis output-validator protocol. Whatever goes wrong inside a checker (a
crash, a timeout, an exit code outside its protocol) is a judge error, never
an accepted answer.
"""
from __future__ import annotations

import math
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol, Sequence

from .run import RunLimits, RunResult, RunSpec, Slot, read_head
from .languages import Program
from .spec import CheckerSpec
from .verdicts import Verdict

SHOW = 60
CHECKER_MEMORY_MIB = 2048


def checker_limits(time_limit: float, program: Program) -> RunLimits:
    """Trusted, but bounded: a checker gets twice the submission's CPU limit (at least 5 s) and twice that in wall time."""
    cpu = max(5.0, 2 * time_limit)
    return RunLimits(cpu=cpu, wall=2 * cpu, memory_mib=program.language.address_space(CHECKER_MEMORY_MIB), output_bytes=16 << 20, stack_mib=256)


@dataclass(frozen=True)
class CheckOutcome:
    verdict: Verdict
    message: str = ""
    score: float | None = None

    @property
    def fraction(self) -> float:
        if self.score is not None:
            return self.score
        return 1.0 if self.verdict is Verdict.AC else 0.0


class Checker(Protocol):
    def check(self, input_path: Path, output_path: Path, answer_path: Path, slot: Slot, args: Sequence[str] = ()) -> CheckOutcome: ...


def _show(token: bytes | None) -> str:
    if token is None:
        return "nothing"
    text = token.decode("utf-8", "replace")
    return repr(text if len(text) <= SHOW else text[:SHOW] + "…")


def _line_of_token(data: bytes, index: int) -> int:
    """1-based line holding the index-th whitespace-separated token; only computed on failure."""
    for number, line in enumerate(data.split(b"\n"), start=1):
        count = len(line.split())
        if index < count:
            return number
        index -= count
    return data.count(b"\n") + 1


def compare_exact(output: bytes, answer: bytes) -> CheckOutcome:
    if output == answer:
        return CheckOutcome(Verdict.AC)
    at = next((i for i, (a, b) in enumerate(zip(output, answer)) if a != b), min(len(output), len(answer)))
    line = answer.count(b"\n", 0, at) + 1
    column = at - (answer.rfind(b"\n", 0, at) + 1) + 1
    return CheckOutcome(Verdict.WA, f"byte {at + 1} (line {line}, column {column}): expected {_show(answer[at:at + 20] or None)}, got {_show(output[at:at + 20] or None)}")


def _significant_lines(data: bytes) -> list[bytes]:
    lines = [line.rstrip(b" \t\r") for line in data.split(b"\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def compare_lines(output: bytes, answer: bytes) -> CheckOutcome:
    """Line by line, ignoring trailing blanks; right tokens in the wrong layout is PE, not WA."""
    got, want = _significant_lines(output), _significant_lines(answer)
    if got == want:
        return CheckOutcome(Verdict.AC)
    for number, (g, w) in enumerate(zip(got, want), start=1):
        if g != w:
            break
    else:
        number = min(len(got), len(want)) + 1
        g = got[number - 1] if number <= len(got) else None
        w = want[number - 1] if number <= len(want) else None
    where = f"line {number}: expected {_show(w)}, got {_show(g)}"
    if output.split() == answer.split():
        return CheckOutcome(Verdict.PE, f"whitespace differs, {where}")
    return CheckOutcome(Verdict.WA, where)


def compare_tokens(output: bytes, answer: bytes, case_sensitive: bool = True) -> CheckOutcome:
    got, want = output.split(), answer.split()
    if not case_sensitive:
        got, want = [t.lower() for t in got], [t.lower() for t in want]
    if got == want:
        return CheckOutcome(Verdict.AC)
    return _token_mismatch(output, answer, got, want, lambda g, w: g == w)


def _token_mismatch(output: bytes, answer: bytes, got: list[bytes], want: list[bytes], same: Callable[[bytes, bytes], bool]) -> CheckOutcome:
    for index, (g, w) in enumerate(zip(got, want)):
        if not same(g, w):
            return CheckOutcome(Verdict.WA, f"token {index + 1} (line {_line_of_token(output, index)}): expected {_show(answer.split()[index])}, got {_show(output.split()[index])}")
    if len(got) < len(want):
        return CheckOutcome(Verdict.WA, f"output ends after {len(got)} tokens; expected {len(want)} (next: {_show(answer.split()[len(got)])})")
    return CheckOutcome(Verdict.WA, f"extra output after {len(want)} tokens: {_show(output.split()[len(want)])}")


_FLOAT = re.compile(rb"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z|[+-]?(inf|infinity|nan)\Z", re.I)


def _as_float(token: bytes) -> float | None:
    return float(token) if _FLOAT.match(token) else None


def compare_floats(output: bytes, answer: bytes, abs_tol: float, rel_tol: float) -> CheckOutcome:
    """Token by token; a numeric answer token accepts any number within either tolerance, others must match exactly."""

    def same(got: bytes, want: bytes) -> bool:
        expected = _as_float(want)
        if expected is None:
            return got == want
        value = _as_float(got)
        if value is None or math.isnan(value):
            return math.isnan(expected) and value is not None
        if math.isinf(expected) or math.isinf(value):
            return value == expected
        error = abs(value - expected)
        return error <= abs_tol or error <= rel_tol * abs(expected)

    got, want = output.split(), answer.split()
    if len(got) == len(want) and all(same(g, w) for g, w in zip(got, want)):
        return CheckOutcome(Verdict.AC)
    return _token_mismatch(output, answer, got, want, same)


_KATTIS_FLAGS = {"case_sensitive": 0, "space_change_sensitive": 0, "float_tolerance": 1, "float_absolute_tolerance": 1, "float_relative_tolerance": 1}


def compare_kattis_default(output: bytes, answer: bytes, flags: Sequence[str]) -> CheckOutcome:
    """The Kattis default output validator: tokens, case-insensitive unless ``case_sensitive``; whitespace must match
    exactly with ``space_change_sensitive``; with a float tolerance, every answer token that is a number is compared
    within the absolute OR the relative tolerance (an output token that is not a number is wrong)."""
    options: dict[str, float | bool] = {}
    i = 0
    while i < len(flags):
        flag = flags[i]
        if flag not in _KATTIS_FLAGS:
            return CheckOutcome(Verdict.JE, f"default output validator: unknown flag '{flag}'")
        if _KATTIS_FLAGS[flag]:
            try:
                options[flag] = float(flags[i + 1])
            except (IndexError, ValueError):
                return CheckOutcome(Verdict.JE, f"default output validator: '{flag}' needs a number")
            i += 2
        else:
            options[flag] = True
            i += 1
    tolerance = options.get("float_tolerance")
    abs_tol = options.get("float_absolute_tolerance", tolerance)
    rel_tol = options.get("float_relative_tolerance", tolerance)
    fold = (lambda t: t) if options.get("case_sensitive") else (lambda t: t.lower())
    if options.get("space_change_sensitive"):
        got_parts, want_parts = re.split(rb"(\s+)", output), re.split(rb"(\s+)", answer)
        spaces_differ = [p for i, p in enumerate(got_parts) if i % 2] != [p for i, p in enumerate(want_parts) if i % 2]
        if spaces_differ and output.split() == answer.split():
            return CheckOutcome(Verdict.WA, "white space differs (space_change_sensitive)")
    if abs_tol is None and rel_tol is None:
        got, want = [fold(t) for t in output.split()], [fold(t) for t in answer.split()]
        return CheckOutcome(Verdict.AC) if got == want else _token_mismatch(output, answer, got, want, lambda g, w: g == w)

    def same(got: bytes, want: bytes) -> bool:
        expected = _kattis_float(want)
        if expected is None:
            return fold(got) == fold(want)
        value = _kattis_float(got)
        if value is None:
            return False
        error = abs(value - expected)
        return (abs_tol is not None and error <= abs_tol) or (rel_tol is not None and error <= rel_tol * abs(expected))

    got, want = output.split(), answer.split()
    if len(got) == len(want) and all(same(g, w) for g, w in zip(got, want)):
        return CheckOutcome(Verdict.AC)
    return _token_mismatch(output, answer, got, want, same)


def _kattis_float(token: bytes) -> float | None:
    """A whole-token finite number, as the default validator reads one (no inf, no nan)."""
    value = _as_float(token)
    return value if value is not None and math.isfinite(value) else None


@dataclass(frozen=True)
class BuiltinChecker:
    compare: Callable[[bytes, bytes, Sequence[str]], CheckOutcome]

    def check(self, input_path: Path, output_path: Path, answer_path: Path, slot: Slot, args: Sequence[str] = ()) -> CheckOutcome:
        return self.compare(output_path.read_bytes(), answer_path.read_bytes(), args)


@dataclass(frozen=True)
class TestlibChecker:
    """``checker INPUT OUTPUT ANSWER``: exit 0 AC, 1 WA, 2 PE, 3 fail, 7 points (first number of its output)."""

    program: Program
    limits: RunLimits

    def check(self, input_path: Path, output_path: Path, answer_path: Path, slot: Slot, args: Sequence[str] = ()) -> CheckOutcome:
        out, err = slot.private / "checker.out", slot.private / "checker.err"
        argv = [*self.program.command(CHECKER_MEMORY_MIB), str(input_path), str(output_path), str(answer_path), *args]
        result = _run_checker(slot, argv, None, out, err, self.limits)
        message = (read_head(err, 2048) or read_head(out, 2048)).strip()
        if result.killed != "none" or result.exit_code is None:
            return CheckOutcome(Verdict.JE, f"checker {_failure(result, self.limits)}: {message}".strip(": "))
        code = result.exit_code
        if code in (0, 1, 2):
            return CheckOutcome((Verdict.AC, Verdict.WA, Verdict.PE)[code], message)
        if code == 7:
            points = _first_number(read_head(out, 2048))
            if points is None:
                points = _first_number(message)
            if points is None or not 0 <= points <= 1:
                return CheckOutcome(Verdict.JE, f"checker gave points without a fraction in [0, 1]: {message}")
            return CheckOutcome(Verdict.AC if points >= 1 else Verdict.WA, message, points)
        if code == 3:
            return CheckOutcome(Verdict.JE, f"checker failed: {message}")
        return CheckOutcome(Verdict.JE, f"checker exit code {code} is not in the testlib protocol: {message}")


@dataclass(frozen=True)
class KattisChecker:
    """``validator INPUT ANSWER FEEDBACK_DIR < OUTPUT``: exit 42 accepted, 43 wrong; judgemessage.txt explains."""

    program: Program
    limits: RunLimits

    def check(self, input_path: Path, output_path: Path, answer_path: Path, slot: Slot, args: Sequence[str] = ()) -> CheckOutcome:
        feedback = slot.private / "feedback"
        shutil.rmtree(feedback, ignore_errors=True)
        feedback.mkdir()
        out, err = slot.private / "checker.out", slot.private / "checker.err"
        argv = [*self.program.command(CHECKER_MEMORY_MIB), str(input_path), str(answer_path), f"{feedback}/", *args]
        result = _run_checker(slot, argv, output_path, out, err, self.limits)
        message = (read_head(feedback / "judgemessage.txt", 2048) or read_head(err, 2048)).strip()
        if result.killed != "none" or result.exit_code is None:
            return CheckOutcome(Verdict.JE, f"output validator {_failure(result, self.limits)}: {message}".strip(": "))
        if result.exit_code == 42:
            multiplier = read_head(feedback / "score_multiplier.txt", 100).strip()
            if multiplier:
                try:
                    fraction = float(multiplier)
                except ValueError:
                    fraction = -1.0
                if not 0 <= fraction <= 1:
                    return CheckOutcome(Verdict.JE, f"output validator wrote score_multiplier.txt '{multiplier[:20]}', not a number in [0, 1]")
                return CheckOutcome(Verdict.AC, message, fraction)
            return CheckOutcome(Verdict.AC, message)
        if result.exit_code == 43:
            return CheckOutcome(Verdict.WA, message)
        return CheckOutcome(Verdict.JE, f"output validator exit code {result.exit_code} (expected 42 or 43): {message}")


def _failure(result: RunResult, limits: RunLimits) -> str:
    """Why a checker produced no verdict: the limit it hit, or the signal that killed it."""
    if result.killed == "cpu":
        return f"exceeded its CPU time limit ({limits.cpu:g} s)"
    if result.killed == "wall":
        return f"exceeded its wall time limit ({limits.wall:g} s)"
    return f"was killed by {result.signal_name}"


def _first_number(text: str) -> float | None:
    match = re.search(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text)
    return float(match.group()) if match else None


def _run_checker(slot: Slot, argv: list[str], stdin: Path | None, out: Path, err: Path, limits: RunLimits) -> RunResult:
    return slot.run(RunSpec(argv=argv, limits=limits, stdin=stdin, stdout=out, stderr=err, cwd=slot.private, env=slot.env))


def make_checker(spec: CheckerSpec, program: Program | None, time_limit: float) -> Checker:
    """The checker a problem asks for; ``program`` is the prepared custom checker, if any."""
    if spec.type == "exact":
        return BuiltinChecker(lambda o, a, _: compare_exact(o, a))
    if spec.type == "lines":
        return BuiltinChecker(lambda o, a, _: compare_lines(o, a))
    if spec.type == "tokens":
        return BuiltinChecker(lambda o, a, _: compare_tokens(o, a, spec.case_sensitive))
    if spec.type == "float":
        return BuiltinChecker(lambda o, a, _: compare_floats(o, a, spec.abs_tol, spec.rel_tol))
    if spec.type == "kattis-default":
        return BuiltinChecker(compare_kattis_default)
    assert program is not None, "custom checkers are prepared before judging"
    limits = checker_limits(time_limit, program)
    return TestlibChecker(program, limits) if spec.type == "testlib" else KattisChecker(program, limits)
