"""A failed sample's expected answer beside what the program printed, line by line, the first differing line marked.

Judges compare outputs line by line (the checkers' messages say "line 3"),
so the two sides are lined up by line number, not by a minimal edit script:
the reader looks for the line the checker means, and an insertion early on
would otherwise shift every line after it into a place it was never
compared at. Only the first difference is marked, as the checker stops
there too. The program's side is the report's excerpt (``output``), which
may be cut: then a difference past its end cannot be seen, and the note
says so rather than calling the outputs equal. Rendering is the template's
(``submission.html``): no script, every text escaped by Jinja2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Line:
    number: int  # from 1
    text: str
    differs: bool = False  # the first line where the two sides differ
    missing: bool = False  # this side has no such line: it ended before it


@dataclass(frozen=True)
class SampleDiff:
    expected: list[Line]
    output: list[Line]
    first: int | None  # the first differing line, None when the lines shown agree
    note: str  # what else the reader should know: where the difference is, that the output was cut


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def _side(lines: list[str], first: int | None) -> list[Line]:
    shown = [Line(n, text, differs=n == first) for n, text in enumerate(lines, start=1)]
    if first is not None and first > len(lines):
        shown.append(Line(first, "", differs=True, missing=True))
    return shown


def line_diff(expected: str, output: dict[str, Any]) -> SampleDiff:
    """``expected`` (the sample's answer) beside ``output`` (a report's excerpt: ``text``, ``size``, ``cut``)."""
    text = output.get("text") or ""
    want, got = _lines(expected), _lines(text)
    cut = bool(output.get("cut"))
    # a line the bound cut in two is shown, but not compared: its end is not known
    compared = got[:-1] if cut and got and not text.endswith("\n") else got
    first = next((n for n, (a, b) in enumerate(zip(want, compared), start=1) if a != b), None)
    if first is None and len(want) != len(compared) and not (cut and len(compared) < len(want)):
        first = min(len(want), len(compared)) + 1
    if first is not None and first <= min(len(want), len(got)) and want[first - 1].split() == got[first - 1].split():
        note = f"line {first} differs in spaces only"
    elif first is not None and first > len(got):
        note = f"the output ends before line {first}"
    elif first is not None and first > len(want):
        note = f"the output goes on after the {len(want)} expected lines"
    elif first is not None:
        note = ""
    elif cut:
        note = "the lines shown agree"
    else:
        note = "the output is the expected answer, line for line"
    if cut:
        note = (
            note + "; " if note else ""
        ) + f"only the output's first {len(got)} lines are kept, of {output.get('size', 0)} bytes"
    return SampleDiff(_side(want, first), _side(got, first), first, note)
