"""Strict input validator for POJ 2893 "M x N Puzzle".

Exit 42 if stdin is exactly: one or more cases (`M N` with 2 <= M, N <= 999,
then M lines of N integers forming a permutation of 0..M*N-1), then `0 0`,
with the sum of M*N at most MAX_TOTAL_CELLS. Tokens are separated by single
spaces, lines end with `\n` (the last one too), integers have no sign and no
leading zeros. Otherwise exit 43 with a one-line reason naming the line.
"""

import os
import re
import sys

sys.path.append(
    os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "_lib", "python")
)  # by hand; the judge ships tiles.py beside this file
from tiles import is_permutation  # noqa: E402

MIN_SIDE = 2
MAX_SIDE = 999
MAX_TOTAL_CELLS = 1_200_000
VALID = 42
INVALID = 43
NUMBER_LIST = re.compile(rb"(?:0|[1-9][0-9]{0,6})(?: (?:0|[1-9][0-9]{0,6}))*")


class Invalid(Exception):
    """Raised with the line number and reason of the first defect."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")


def numbers(lines: list[bytes], index: int, expected: int) -> list[int]:
    """The integers of line `index` (0-based), which must number exactly `expected`."""
    if index >= len(lines):
        raise Invalid(index + 1, "unexpected end of file")
    line = lines[index]
    if not NUMBER_LIST.fullmatch(line):
        raise Invalid(
            index + 1, "expected integers separated by single spaces (no sign, no leading zeros, no other characters)"
        )
    tokens = line.split(b" ")
    if len(tokens) != expected:
        raise Invalid(index + 1, f"expected {expected} integers, got {len(tokens)}")
    return list(map(int, tokens))


def check_board(lines: list[bytes], first: int, rows: int, cols: int) -> None:
    """The M lines starting at `first` must hold a permutation of 0..M*N-1.

    A valid board is recognised in bulk (its values each mark a byte, with
    nothing else done per value: a 999x999 board is a million); any other is
    walked value by value, which finds the first defect and the line that names it.
    """
    size = rows * cols
    values: list[int] = []
    try:
        for index in range(first, first + rows):
            values += numbers(lines, index, cols)
    except Invalid:
        values = []
    if len(values) == size and is_permutation(values, size):
        return
    seen_on = [0] * size
    for index in range(first, first + rows):
        for value in numbers(lines, index, cols):
            if value >= size:
                raise Invalid(index + 1, f"value {value} out of range 0..{size - 1}")
            if seen_on[value]:
                raise Invalid(index + 1, f"value {value} repeated (first seen on line {seen_on[value]})")
            seen_on[value] = index + 1


def validate(data: bytes) -> None:
    """Walk the cases; raise Invalid at the first defect."""
    if not data.endswith(b"\n"):
        raise Invalid(data.count(b"\n") + 1, "missing final newline")
    lines = data[:-1].split(b"\n")
    index = 0
    cases = 0
    total = 0
    while True:
        if index >= len(lines):
            raise Invalid(index + 1, "missing terminating line '0 0'")
        rows, cols = numbers(lines, index, 2)
        if rows == 0 and cols == 0:
            break
        if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
            raise Invalid(index + 1, f"sizes {rows} {cols} out of range {MIN_SIDE}..{MAX_SIDE}")
        total += rows * cols
        if total > MAX_TOTAL_CELLS:
            raise Invalid(index + 1, f"total number of cells exceeds {MAX_TOTAL_CELLS}")
        check_board(lines, index + 1, rows, cols)
        index += rows + 1
        cases += 1
    if cases == 0:
        raise Invalid(index + 1, "no test case before the terminating line")
    if index + 1 != len(lines):
        raise Invalid(index + 2, "unexpected content after the terminating line '0 0'")


def main() -> None:
    """Exit 42 (valid) or 43 (invalid, reason on stderr)."""
    try:
        validate(sys.stdin.buffer.read())
    except Invalid as error:
        print(error, file=sys.stderr)
        sys.exit(INVALID)
    sys.exit(VALID)


if __name__ == "__main__":
    main()
