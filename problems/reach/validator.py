"""Strict input validator for "reach".

Exit 42 if stdin is exactly: one or more cases, each a line `M N` (1 <= M,
N and M*N <= 10^6) followed by two boards of M lines of N integers, each
board a permutation of 0..M*N-1; then the line `0 0`. At most MAX_CASES
cases, and the sum of 2*M*N over the file at most MAX_TOTAL_CELLS. Tokens are
separated by single spaces, every line ends with `\n` (the last one too),
integers have no sign and no leading zeros. Otherwise exit 43 with a
one-line reason naming the line.

A board is checked in bulk, with no regular expression over its text (a
regular expression repeated 10^6 times took half of a board's time): its
length, its separators with the digits deleted, one split and one pass that
marks each value seen (about 0.25 s for 10^6 cells); only a board that fails
is walked line by line, to name the offending line.
"""

import os
import re
import sys
from functools import lru_cache

sys.path.append(
    os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "_lib", "python")
)  # by hand; the judge ships tiles.py beside this file
from tiles import is_permutation  # noqa: E402

MAX_CELLS = 1_000_000
MAX_TOTAL_CELLS = 2_200_000
MAX_CASES = 100_000
VALID = 42
INVALID = 43
NUMBER = rb"(?:0|[1-9][0-9]{0,6})"
NUMBER_LINE = re.compile(rb"%s(?: %s)*" % (NUMBER, NUMBER))


class Invalid(Exception):
    """Raised with the line number and reason of the first defect."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")


DIGITS = b"0123456789"


@lru_cache(maxsize=64)
def separators(rows: int, cols: int) -> bytes:
    """What is left of a board of M lines of N integers once its digits are deleted."""
    return (b" " * (cols - 1) + b"\n") * rows


@lru_cache(maxsize=64)
def board_length(size: int) -> int:
    """The bytes of a board holding 0..size-1 once each, written without leading zeros, with its size separators."""
    length = size
    low = 1
    while low < size:  # the values of low..min(10*low, size)-1 have as many digits as low
        length += len(str(low)) * (min(10 * low, size) - low)
        low *= 10
    return length + 1  # the one digit of 0


class Cursor:
    """Position in the input as a byte offset and the 1-based number of its line."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.offset = 0
        self.line = 1

    def read_line(self) -> bytes:
        """The next line without its newline; a missing line is an error."""
        if self.offset >= len(self.data):
            raise Invalid(self.line, "unexpected end of file")
        end = self.data.find(b"\n", self.offset)
        if end < 0:
            raise Invalid(self.line, "missing newline at the end of the line")
        text = self.data[self.offset : end]
        self.offset = end + 1
        self.line += 1
        return text


def numbers(text: bytes, line: int, expected: int) -> list[int]:
    """The integers of one line, which must number exactly `expected`."""
    if not NUMBER_LINE.fullmatch(text):
        raise Invalid(
            line, "expected integers separated by single spaces (no sign, no leading zeros, no other characters)"
        )
    tokens = text.split(b" ")
    if len(tokens) != expected:
        raise Invalid(line, f"expected {expected} integers, got {len(tokens)}")
    return list(map(int, tokens))


def locate_defect(cursor: Cursor, rows: int, cols: int) -> Invalid:
    """Walk a board that failed the fast check line by line; the first defect found."""
    size = rows * cols
    seen_on = [0] * size
    for _ in range(rows):
        line = cursor.line
        for value in numbers(cursor.read_line(), line, cols):
            if value >= size:
                return Invalid(line, f"value {value} out of range 0..{size - 1}")
            if seen_on[value]:
                return Invalid(line, f"value {value} repeated (first seen on line {seen_on[value]})")
            seen_on[value] = line
    return Invalid(cursor.line, "internal error: the board passed the slow check")


def check_board(cursor: Cursor, rows: int, cols: int) -> None:
    """The next M lines must hold a permutation of 0..M*N-1.

    A valid board is exactly ``board_length`` bytes: digits and, in between,
    the separators of M lines of N integers, each integer ending at a
    separator. If those bytes split into M*N integers that are a permutation,
    the board is valid, as the line-by-line rules say: it has only digits,
    single spaces and line ends where they belong, and no integer has a
    leading zero, since each value's canonical digits already use up the
    length (a leading zero would leave another integer too short). Anything
    else is walked line by line.
    """
    size = rows * cols
    end = cursor.offset + board_length(size)
    text = cursor.data[cursor.offset : end]
    if text.endswith(b"\n") and text.translate(None, DIGITS) == separators(rows, cols):
        # as numbers, not as the bytes of their tokens: marking 10^6 ints is made in a fraction of the time
        values = list(map(int, text.split()))
        if len(values) == size and is_permutation(values, size):
            cursor.offset = end
            cursor.line += rows
            return
    raise locate_defect(cursor, rows, cols)


def check_shape(line: int, rows: int, cols: int, total: int, cases: int) -> None:
    """Sizes of one case and the running totals of the file."""
    if rows < 1 or cols < 1:
        raise Invalid(line, f"sizes {rows} {cols}: both must be at least 1 (only '0 0' ends the input)")
    if rows * cols > MAX_CELLS:
        raise Invalid(line, f"sizes {rows} {cols}: M*N = {rows * cols} exceeds {MAX_CELLS}")
    if total > MAX_TOTAL_CELLS:
        raise Invalid(line, f"sum of 2*M*N reaches {total}, over {MAX_TOTAL_CELLS}")
    if cases > MAX_CASES:
        raise Invalid(line, f"more than {MAX_CASES} cases")


def validate(data: bytes) -> None:
    """Walk the cases; raise Invalid at the first defect."""
    cursor = Cursor(data)
    cases = 0
    total = 0
    while True:
        line = cursor.line
        rows, cols = numbers(cursor.read_line(), line, 2)
        if rows == 0 and cols == 0:
            break
        cases += 1
        total += 2 * rows * cols
        check_shape(line, rows, cols, total, cases)
        check_board(cursor, rows, cols)
        check_board(cursor, rows, cols)
    if cases == 0:
        raise Invalid(cursor.line - 1, "no test case before the terminating line '0 0'")
    if cursor.offset != len(data):
        raise Invalid(cursor.line, "unexpected content after the terminating line '0 0'")


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
