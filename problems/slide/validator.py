"""Strict input validator for "Slide".

Exit 42 if stdin is exactly: a line with n (MIN_SIZE <= n <= MAX_SIZE), then
n lines of n integers separated by single spaces that together form a
permutation of 0..n^2-1. Integers have no sign and no leading zeros, every
line ends with `\n` (the last one too), and nothing follows the board.
Otherwise exit 43 with a one-line reason naming the line.
"""

import re
import sys

MIN_SIZE = 2
MAX_SIZE = 10
VALID = 42
INVALID = 43
NUMBER_LIST = re.compile(rb"(?:0|[1-9][0-9]{0,5})(?: (?:0|[1-9][0-9]{0,5}))*")


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
    return [int(token) for token in tokens]


def validate(data: bytes) -> None:
    """Check the size line, the board, and that nothing follows; raise Invalid at the first defect."""
    if not data.endswith(b"\n"):
        raise Invalid(data.count(b"\n") + 1, "missing final newline")
    lines = data[:-1].split(b"\n")
    (n,) = numbers(lines, 0, 1)
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise Invalid(1, f"n = {n} out of range {MIN_SIZE}..{MAX_SIZE}")
    seen_on = [0] * (n * n)
    for index in range(1, n + 1):
        for value in numbers(lines, index, n):
            if value >= n * n:
                raise Invalid(index + 1, f"value {value} out of range 0..{n * n - 1}")
            if seen_on[value]:
                raise Invalid(index + 1, f"value {value} repeated (first seen on line {seen_on[value]})")
            seen_on[value] = index + 1
    if len(lines) > n + 1:
        raise Invalid(n + 2, "unexpected content after the board")


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
