"""The built-in comparisons: pure functions from (output, answer) to an outcome.

Each side is a file or bytes (unit tests hand over bytes); no processes, so
they are unit-tested directly. What a message quotes from the output is
escaped (``judge.text.safe_text``): the output is the submission's and
untrusted.

They run inside the judge's own process, where nothing but their CPU budget
(``budget.py``) stops them, so each is linear in its input whatever the
submission prints: no pattern that can backtrack (numbers are read by
``_is_number``, a scan with bytes methods), runs of tokens or lines compared
as lists in C, and ``checkpoint()`` called once per chunk read and per run
walked in Python. Nor does any hold its input whole: both sides are read in
chunks and compared as they come (``streams.py``), so what a comparison holds
is bounded whatever the output's size. What both start with is compared as
bytes first and only what follows is split (``shared_start.py``): an output
that is its answer byte for byte, as most accepted ones are, costs a
comparison of bytes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..text import safe_text
from ..verdict import Verdict
from .attachments import Attachment
from .budget import checkpoint
from .shared_start import first_byte_difference, line_start, shared_length, token_start
from .streams import (
    CHUNK,
    HEAD,
    Cursor,
    Data,
    Item,
    Long,
    Source,
    first_difference,
    layout_chunks,
    line_batches,
    opened,
    same_bytes,
    token_batches,
)

SHOW = 60

Same = Callable[[Item, Item], bool]


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


def _show(token: Item | None) -> str:
    if token is None:
        return "nothing"
    text = (token.head if isinstance(token, Long) else token)[:HEAD].decode("utf-8", "replace")
    return safe_text(repr(text if len(text) <= SHOW else text[:SHOW] + "…"), one_line=True)


def compare_exact(output: Data, answer: Data) -> CheckOutcome:
    with opened(output) as got, opened(answer) as want:
        offset, line, line_start = 0, 1, 0  # line_start: where the answer's line holding ``offset`` starts
        while True:
            checkpoint()
            g, w = got.read_at(offset, CHUNK), want.read_at(offset, CHUNK)
            if g == w:
                if not w:
                    return CheckOutcome(Verdict.AC)
                end = len(w)
            else:
                end = first_byte_difference(g, w)
            line += w.count(b"\n", 0, end)
            if (newline := w.rfind(b"\n", 0, end)) >= 0:
                line_start = offset + newline + 1
            if g != w:
                at = offset + end
                return CheckOutcome(
                    Verdict.WA,
                    f"byte {at + 1} (line {line}, column {at - line_start + 1}): expected"
                    f" {_show(want.read_at(at, 20) or None)}, got {_show(got.read_at(at, 20) or None)}",
                )
            offset += end


def compare_lines(output: Data, answer: Data) -> CheckOutcome:
    """Line by line, ignoring trailing blanks; right tokens in the wrong layout is PE, not WA."""
    with opened(output) as out, opened(answer) as ans:
        shared = shared_length(out, ans)
        if shared is None:
            return CheckOutcome(Verdict.AC)
        start = line_start(out, shared)
        got, want = (Cursor(line_batches(side, start.offset), start.items) for side in (out, ans))
        if not first_difference(got, want):
            return CheckOutcome(Verdict.AC)
        where = f"line {got.index + 1}: expected {_show(want.item())}, got {_show(got.item())}"
        start = token_start(out, shared)
        tokens, expected = (
            Cursor(token_batches(side, False, None, start.offset, start.line), start.items) for side in (out, ans)
        )
        if not first_difference(tokens, expected):
            return CheckOutcome(Verdict.PE, f"whitespace differs, {where}")
    return CheckOutcome(Verdict.WA, where)


def compare_tokens(output: Data, answer: Data, case_sensitive: bool = True) -> CheckOutcome:
    return _compare_token_streams(output, answer, not case_sensitive)


def _compare_token_streams(
    output: Data,
    answer: Data,
    fold: bool,
    same: Same | None = None,
    then: Callable[[Source, Source, int], bool] | None = None,
) -> CheckOutcome:
    """AC when every pair of tokens is the same (after folding to lower case with ``fold``) and ``then``, given both
    sources and where they start to differ, holds; else WA naming the first token that differs, as the submission
    wrote it. Files of the same bytes are AC at once, whatever ``same`` and ``then`` (each holds for equal ones)."""
    with opened(output) as out, opened(answer) as ans:
        shared = shared_length(out, ans)
        if shared is None:
            return CheckOutcome(Verdict.AC)
        start = token_start(out, shared)
        got, want = (
            Cursor(token_batches(side, fold, _is_number, start.offset, start.line), start.items) for side in (out, ans)
        )
        if not first_difference(got, want, same):
            if then is not None and not then(out, ans, start.offset):
                return CheckOutcome(Verdict.WA, "white space differs (space_change_sensitive)")
            return CheckOutcome(Verdict.AC)
        index = got.index
        if got.more() and want.more():
            assert got.batch is not None and want.batch is not None
            return CheckOutcome(
                Verdict.WA,
                f"token {index + 1} (line {got.batch.line_of(got.at)}): "
                f"expected {_show(want.batch.written(want.at))}, got {_show(got.batch.written(got.at))}",
            )
        if want.more():
            assert want.batch is not None
            following = want.batch.written(want.at)
            return CheckOutcome(
                Verdict.WA, f"output ends after {index} tokens; expected {want.count()} (next: {_show(following)})"
            )
        assert got.batch is not None
        return CheckOutcome(Verdict.WA, f"extra output after {index} tokens: {_show(got.batch.written(got.at))}")


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


def _as_float(token: Item) -> float | None:
    """The token's value if it is a number (a ``Long`` one's was read as it went by)."""
    if isinstance(token, Long):
        return token.value
    return float(token) if _is_number(token) else None


def compare_floats(output: Data, answer: Data, abs_tol: float, rel_tol: float) -> CheckOutcome:
    """Token by token; a numeric answer token accepts any number within either tolerance, others must match exactly."""

    def same(got: Item, want: Item) -> bool:
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

    return _compare_token_streams(output, answer, False, same)


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


def compare_kattis_default(output: Data, answer: Data, flags: Sequence[str]) -> CheckOutcome:
    """The Kattis default output validator: tokens, case-insensitive unless ``case_sensitive``; whitespace must match
    exactly with ``space_change_sensitive``; with a float tolerance, every answer token that is a number is compared
    within the absolute OR the relative tolerance (an output token that is not a number is wrong).

    Tokens are folded to lower case before they are compared, numbers too:
    folding changes neither whether a token is a number nor its value."""
    options = _kattis_options(flags)
    if isinstance(options, CheckOutcome):
        return options
    tolerance = options.get("float_tolerance")
    abs_tol = options.get("float_absolute_tolerance", tolerance)
    rel_tol = options.get("float_relative_tolerance", tolerance)
    fold = not options.get("case_sensitive")
    layout = _same_layout if options.get("space_change_sensitive") else None
    if abs_tol is None and rel_tol is None:
        return _compare_token_streams(output, answer, fold, then=layout)

    def same(got: Item, want: Item) -> bool:
        expected = _kattis_float(want)
        if expected is None:
            return got == want
        value = _kattis_float(got)
        if value is None:
            return False
        error = abs(value - expected)
        return (abs_tol is not None and error <= abs_tol) or (rel_tol is not None and error <= rel_tol * abs(expected))

    return _compare_token_streams(output, answer, fold, same, layout)


def _same_layout(output: Source, answer: Source, offset: int) -> bool:
    """The same runs of white space, in the same order, with the same ends (from ``offset``, just past white space,
    before which both are the same bytes)."""
    return same_bytes(layout_chunks(output, offset), layout_chunks(answer, offset))


def _kattis_float(token: Item) -> float | None:
    """A whole-token finite number, as the default validator reads one (no inf, no nan)."""
    value = _as_float(token)
    return value if value is not None and math.isfinite(value) else None
