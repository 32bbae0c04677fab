"""The built-in comparisons: pure functions from (output, answer) bytes to an outcome.

No I/O and no processes, so they are unit-tested directly. What a message
quotes from the output is escaped (``judge.text.safe_text``): the output is
the submission's and untrusted.

They run inside the judge's own process, where nothing but their CPU budget
(``budget.py``) stops them, so each is linear in its input whatever the
submission prints: no pattern that can backtrack (numbers are read by
``_is_number``, a scan with bytes methods), sequences compared slice by slice
in C, and every loop that runs Python code per token or line calls
``checkpoint()`` once per ``STRIDE`` items.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import methodcaller

from ..text import safe_text
from ..verdict import Verdict
from .attachments import Attachment
from .budget import checkpoint

SHOW = 60
STRIDE = 4096  # tokens or lines compared between two looks at the budget

Same = Callable[[bytes, bytes], bool]


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
    text = token[: 4 * SHOW + 4].decode("utf-8", "replace")  # a UTF-8 character is at most 4 bytes
    return safe_text(repr(text if len(text) <= SHOW else text[:SHOW] + "…"), one_line=True)


def _line_of_token(data: bytes, index: int) -> int:
    """1-based line holding the index-th whitespace-separated token; only computed on failure."""
    ends = list(accumulate(map(len, map(bytes.split, data.split(b"\n")))))
    return bisect_right(ends, index) + 1


def _first_difference(got: Sequence[bytes], want: Sequence[bytes], same: Same | None = None) -> int | None:
    """The index of the first pair that is not the same (the shorter length when one only runs longer), or None.

    Slices of ``STRIDE`` items are compared in C first; only a slice that
    differs is walked item by item with ``same``, which must hold for equal
    items (every tolerance is at least 0).
    """
    if got == want:  # the usual case, one comparison in C
        return None
    common = min(len(got), len(want))
    for start in range(0, common, STRIDE):
        checkpoint()
        part_got, part_want = got[start : start + STRIDE], want[start : start + STRIDE]
        if part_got == part_want:
            continue
        for index, (g, w) in enumerate(zip(part_got, part_want), start):
            if g != w and (same is None or not same(g, w)):
                return index
    return None if len(got) == len(want) else common


def _first_byte_difference(output: bytes, answer: bytes) -> int:
    """The first index where two different byte strings differ (or the shorter length): halving the window that holds
    it, each half compared in C, so 2n bytes are compared in all."""
    low, high = 0, min(len(output), len(answer))
    if output[:high] == answer[:high]:
        return high
    while high - low > 1:  # the first difference lies in [low, high)
        middle = (low + high) // 2
        if output[low:middle] == answer[low:middle]:
            low = middle
        else:
            high = middle
    return low


def compare_exact(output: bytes, answer: bytes) -> CheckOutcome:
    if output == answer:
        return CheckOutcome(Verdict.AC)
    at = _first_byte_difference(output, answer)
    line = answer.count(b"\n", 0, at) + 1
    column = at - (answer.rfind(b"\n", 0, at) + 1) + 1
    return CheckOutcome(
        Verdict.WA,
        f"byte {at + 1} (line {line}, column {column}): "
        f"expected {_show(answer[at : at + 20] or None)}, got {_show(output[at : at + 20] or None)}",
    )


_LINE_END = methodcaller("rstrip", b" \t\r")


def _significant_lines(data: bytes) -> list[bytes]:
    """The lines without trailing blanks, and without the empty lines at the end."""
    lines = list(map(_LINE_END, data.rstrip(b" \t\r\n").split(b"\n")))
    return [] if lines == [b""] else lines


def compare_lines(output: bytes, answer: bytes) -> CheckOutcome:
    """Line by line, ignoring trailing blanks; right tokens in the wrong layout is PE, not WA."""
    got, want = _significant_lines(output), _significant_lines(answer)
    at = _first_difference(got, want)
    if at is None:
        return CheckOutcome(Verdict.AC)
    g = got[at] if at < len(got) else None
    w = want[at] if at < len(want) else None
    where = f"line {at + 1}: expected {_show(w)}, got {_show(g)}"
    if output.split() == answer.split():
        return CheckOutcome(Verdict.PE, f"whitespace differs, {where}")
    return CheckOutcome(Verdict.WA, where)


def compare_tokens(output: bytes, answer: bytes, case_sensitive: bool = True) -> CheckOutcome:
    if case_sensitive:
        return _compare_token_lists(output, answer, output.split(), answer.split())
    return _compare_token_lists(output, answer, output.lower().split(), answer.lower().split())


def _compare_token_lists(
    output: bytes, answer: bytes, got: list[bytes], want: list[bytes], same: Same | None = None
) -> CheckOutcome:
    """AC when every pair of tokens is the same; else WA naming the first token that differs, as the submission wrote
    it (``got`` and ``want`` may be folded to lower case)."""
    index = _first_difference(got, want, same)
    if index is None:
        return CheckOutcome(Verdict.AC)
    if index < min(len(got), len(want)):
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


_SIGNS = (b"+", b"-")
_WORDS = frozenset({b"inf", b"infinity", b"nan"})


def _is_number(token: bytes) -> bool:
    """A decimal number (``[+-]?(D+.?D*|.D+)([eE][+-]?D+)?``) or inf, infinity, nan in any case, with an optional sign.

    Read by splitting at the exponent and the point and asking ``isdigit`` of
    the parts: every step is one pass in C, where a regular expression with
    two runs of digits backtracks quadratically on a long run followed by a
    letter (a 1 MB token took the judge hours).
    """
    body = token.lower()
    if body[:1] in _SIGNS:
        body = body[1:]
    if body in _WORDS:
        return True
    mantissa, marked, exponent = body.partition(b"e")
    if marked and not (exponent[1:] if exponent[:1] in _SIGNS else exponent).isdigit():
        return False
    whole, _, fraction = mantissa.partition(b".")
    return bool(whole or fraction) and (not whole or whole.isdigit()) and (not fraction or fraction.isdigit())


def _as_float(token: bytes) -> float | None:
    return float(token) if _is_number(token) else None


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

    return _compare_token_lists(output, answer, output.split(), answer.split(), same)


_KATTIS_FLAGS = {
    "case_sensitive": 0,
    "space_change_sensitive": 0,
    "float_tolerance": 1,
    "float_absolute_tolerance": 1,
    "float_relative_tolerance": 1,
}


def _kattis_options(flags: Sequence[str]) -> dict[str, float | bool] | CheckOutcome:
    """The default validator's flags as options, or the judge error a bad flag is (a tolerance is a number >= 0)."""
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
            if not options[flag] >= 0:
                return CheckOutcome(Verdict.JE, f"default output validator: '{flag}' needs a number >= 0")
            i += 2
        else:
            options[flag] = True
            i += 1
    return options


_WHITE_SPACE = re.compile(rb"(\s+)")  # one class repeated, nothing around it to backtrack into: linear


def _layout(data: bytes) -> tuple[list[bytes], bool, bool]:
    """The runs of white space in order, and whether the data starts and ends with one."""
    parts = _WHITE_SPACE.split(data)
    return parts[1::2], parts[0] == b"", parts[-1] == b""


def compare_kattis_default(output: bytes, answer: bytes, flags: Sequence[str]) -> CheckOutcome:
    """The Kattis default output validator: tokens, case-insensitive unless ``case_sensitive``; whitespace must match
    exactly with ``space_change_sensitive``; with a float tolerance, every answer token that is a number is compared
    within the absolute OR the relative tolerance (an output token that is not a number is wrong)."""
    options = _kattis_options(flags)
    if isinstance(options, CheckOutcome):
        return options
    tolerance = options.get("float_tolerance")
    abs_tol = options.get("float_absolute_tolerance", tolerance)
    rel_tol = options.get("float_relative_tolerance", tolerance)
    fold: Callable[[bytes], bytes] = (lambda t: t) if options.get("case_sensitive") else bytes.lower
    if abs_tol is None and rel_tol is None:
        outcome = _compare_token_lists(output, answer, fold(output).split(), fold(answer).split())
    else:

        def same(got: bytes, want: bytes) -> bool:
            expected = _kattis_float(want)
            if expected is None:
                return fold(got) == fold(want)
            value = _kattis_float(got)
            if value is None:
                return False
            error = abs(value - expected)
            return (abs_tol is not None and error <= abs_tol) or (
                rel_tol is not None and error <= rel_tol * abs(expected)
            )

        outcome = _compare_token_lists(output, answer, output.split(), answer.split(), same)
    if outcome.verdict is Verdict.AC and options.get("space_change_sensitive"):
        if _layout(output) != _layout(answer):
            return CheckOutcome(Verdict.WA, "white space differs (space_change_sensitive)")
    return outcome


def _kattis_float(token: bytes) -> float | None:
    """A whole-token finite number, as the default validator reads one (no inf, no nan)."""
    value = _as_float(token)
    return value if value is not None and math.isfinite(value) else None
