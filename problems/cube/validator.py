"""Strict input validator for POJ 1507 "Commedia dell' arte" (the M x M x M cube).

Exit 42 if stdin is exactly in the format the statement describes, 43 with a
one-line reason naming the line otherwise.  The bulk checks run on whole lines
with regular expressions, and a byte marked per value, so a 7 MB file takes well under a second.
"""

from __future__ import annotations

import re
import sys

# Type names only: this runs once per case, and importing typing was a third of a small case's run.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

MAX_T = 50_000
MAX_M = 100
MAX_CELLS = 1_100_000

NUMBER = rb"(?:0|[1-9][0-9]*)"
SINGLE = re.compile(NUMBER)
ROW = re.compile(NUMBER + rb"(?: " + NUMBER + rb")*")


class Invalid(Exception):
    """A format violation, with the 1-based line it is on."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")


def fail(message: str) -> NoReturn:
    sys.stderr.write(message + "\n")
    sys.exit(43)


def read_single(lines: list[bytes], index: int, what: str, low: int, high: int) -> int:
    """One integer alone on its line, within [low, high]."""
    if index >= len(lines):
        raise Invalid(index + 1, f"missing line: expected {what}")
    text = lines[index]
    if not SINGLE.fullmatch(text):
        raise Invalid(index + 1, f"expected {what} as a single integer, got {text[:40]!r}")
    value = int(text)
    if not low <= value <= high:
        raise Invalid(index + 1, f"{what} = {value} is outside {low}..{high}")
    return value


def read_layer(lines: list[bytes], index: int, width: int, size: int) -> list[int]:
    """One layer: exactly ``width`` numbers below ``size``, single spaces between them."""
    if index >= len(lines):
        raise Invalid(index + 1, f"missing line: expected {width} integers")
    text = lines[index]
    if not ROW.fullmatch(text):
        raise Invalid(
            index + 1, "expected integers separated by single spaces (no leading zeros, signs, tabs or trailing spaces)"
        )
    values = list(map(int, text.split(b" ")))
    if len(values) != width:
        raise Invalid(index + 1, f"expected {width} integers, got {len(values)}")
    if max(values) >= size:
        raise Invalid(index + 1, f"value {max(values)} is outside 0..{size - 1}")
    return values


def check_permutation(layers: list[list[int]], first_line: int, size: int) -> None:
    """All values of a case distinct (they are already in range, and there are ``size`` of them).

    One pass marks a byte per value and stops at the first repeat, which it
    names: a third of the time of the set of 10^6 values that came first before."""
    seen = bytearray(size)
    for offset, layer in enumerate(layers):
        for value in layer:
            if seen[value]:
                raise Invalid(first_line + offset, f"value {value} appears twice in this cube")
            seen[value] = 1


def validate(data: bytes) -> None:
    """Raise Invalid at the first violation."""
    if not data:
        raise Invalid(1, "empty input")
    if b"\r" in data:
        raise Invalid(data[: data.index(b"\r")].count(b"\n") + 1, "carriage return found")
    if not data.endswith(b"\n"):
        raise Invalid(data.count(b"\n") + 1, "the last line must end with a newline")
    lines = data[:-1].split(b"\n")
    cases = read_single(lines, 0, "T", 1, MAX_T)
    index = 1
    cells = 0
    for case in range(1, cases + 1):
        m = read_single(lines, index, f"M of case {case}", 1, MAX_M)
        size = m * m * m
        cells += size
        if cells > MAX_CELLS:
            raise Invalid(index + 1, f"the cubes so far hold {cells} slots, more than {MAX_CELLS}")
        layers = [read_layer(lines, index + 1 + z, m * m, size) for z in range(m)]
        check_permutation(layers, index + 2, size)
        index += 1 + m
    if index < len(lines):
        raise Invalid(index + 1, f"extra data after the {cases} cases")


def main() -> None:
    try:
        validate(sys.stdin.buffer.read())
    except Invalid as error:
        fail(str(error))
    sys.exit(42)


if __name__ == "__main__":
    main()
