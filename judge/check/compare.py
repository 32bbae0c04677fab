"""The built-in comparisons: pure functions from (output, answer) bytes to an outcome.

No I/O and no processes, so they are unit-tested directly. What a message
quotes from the output is escaped (``judge.text.safe_text``): the output is
the submission's and untrusted.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..text import safe_text
from ..verdict import Verdict
from .attachments import Attachment

SHOW = 60


@dataclass(frozen=True)
class CheckOutcome:
    """A checker's verdict; ``score`` a fraction of the case; ``score_file`` what a Kattis validator wrote
    (``score.txt`` or ``score_multiplier.txt`` and its value), which only aggregation, knowing the case's group, can
    weigh; ``attachments`` the files a checker program handed over with its verdict (``attachments.py``)."""

    verdict: Verdict
    message: str = ""
    score: float | None = None
    score_file: tuple[str, float] | None = None
    attachments: tuple[Attachment, ...] = ()

    @property
    def fraction(self) -> float:
        if self.score is not None:
            return self.score
        return 1.0 if self.verdict is Verdict.AC else 0.0


def _show(token: bytes | None) -> str:
    if token is None:
        return "nothing"
    text = token.decode("utf-8", "replace")
    return safe_text(repr(text if len(text) <= SHOW else text[:SHOW] + "…"), one_line=True)


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
    return CheckOutcome(
        Verdict.WA,
        f"byte {at + 1} (line {line}, column {column}): "
        f"expected {_show(answer[at : at + 20] or None)}, got {_show(output[at : at + 20] or None)}",
    )


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
    # the first line that differs, else the first line only one side has
    at = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
    g = got[at] if at < len(got) else None
    w = want[at] if at < len(want) else None
    where = f"line {at + 1}: expected {_show(w)}, got {_show(g)}"
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


def _token_mismatch(
    output: bytes, answer: bytes, got: list[bytes], want: list[bytes], same: Callable[[bytes, bytes], bool]
) -> CheckOutcome:
    for index, (g, w) in enumerate(zip(got, want)):
        if not same(g, w):
            return CheckOutcome(
                Verdict.WA,
                f"token {index + 1} (line {_line_of_token(output, index)}): "
                f"expected {_show(answer.split()[index])}, got {_show(output.split()[index])}",
            )
    if len(got) < len(want):
        return CheckOutcome(
            Verdict.WA,
            f"output ends after {len(got)} tokens; expected {len(want)} (next: {_show(answer.split()[len(got)])})",
        )
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


_KATTIS_FLAGS = {
    "case_sensitive": 0,
    "space_change_sensitive": 0,
    "float_tolerance": 1,
    "float_absolute_tolerance": 1,
    "float_relative_tolerance": 1,
}


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
        return (
            CheckOutcome(Verdict.AC) if got == want else _token_mismatch(output, answer, got, want, lambda g, w: g == w)
        )

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
