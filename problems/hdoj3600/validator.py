"""Strict input validator for HDOJ 3600 "Simple Puzzle".

Accepts exactly: one or more boards, each a line with N (1 <= N <= 300)
followed by N lines of N integers separated by single spaces forming a
permutation of 0..N*N-1, then a line "0"; every line ends with "\\n" and
nothing follows the terminator.  The total number of cells (sum of N*N) must
not exceed 1,000,000.  Exit 42 if valid, 43 with "line K: reason" on stderr.
"""

import re
import sys

MAX_SIDE = 300
MAX_CELLS = 1_000_000
NUMBER = re.compile(rb"0|[1-9][0-9]*")
ROW = re.compile(rb"(?:0|[1-9][0-9]*)(?: (?:0|[1-9][0-9]*))*")


class Invalid(Exception):
    """A format violation, carrying the 1-based line it was found on."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")


def split_lines(data: bytes) -> list[bytes]:
    """Split on \\n, insisting on a final newline and no carriage returns."""
    if not data:
        raise Invalid(1, "empty input, expected N")
    if not data.endswith(b"\n"):
        raise Invalid(data.count(b"\n") + 1, "missing final newline")
    lines = data[:-1].split(b"\n")
    if b"\r" not in data:  # the usual case, told without a loop over up to a million lines
        return lines
    for number, line in enumerate(lines, start=1):
        if b"\r" in line:
            raise Invalid(number, "carriage return found")
    return lines


def read_side(lines: list[bytes], index: int) -> int:
    """Parse the N line at `index` (0-based); returns N (0 = terminator)."""
    if index >= len(lines):
        raise Invalid(index + 1, "unexpected end of file, expected N or the terminator 0")
    line = lines[index]
    if not NUMBER.fullmatch(line):
        raise Invalid(index + 1, f"expected a single integer N, got {line[:40]!r}")
    side = int(line)
    if side > MAX_SIDE:
        raise Invalid(index + 1, f"N = {side} is out of range 1..{MAX_SIDE}")
    return side


# rows already read and found well formed for a board side: the exhaustive files repeat a few hundred small rows in
# some hundred thousand boards, and reading each again was most of their validation
ROWS_SEEN: dict[tuple[int, bytes], list[int]] = {}


def read_row(line: bytes, index: int, side: int) -> list[int]:
    """The values of a row of a board of `side`, each below side*side; raise Invalid naming line `index` + 1."""
    size = side * side
    if not ROW.fullmatch(line):
        raise Invalid(index + 1, "a row must be integers without leading zeros separated by single spaces")
    values = [int(tok) for tok in line.split(b" ")]
    if len(values) != side:
        raise Invalid(index + 1, f"expected {side} integers, got {len(values)}")
    if max(values) >= size:
        raise Invalid(index + 1, f"value {max(values)} is out of range 0..{size - 1}")
    if side <= 4:  # few distinct rows; large boards' rows seldom repeat and would only fill memory
        ROWS_SEEN[side, line] = values
    return values


def check_board(lines: list[bytes], first: int, side: int) -> None:
    """Check the `side` rows starting at index `first` form a permutation."""
    size = side * side
    seen = bytearray(size)
    for index in range(first, first + side):
        if index >= len(lines):
            raise Invalid(index + 1, f"unexpected end of file, expected a row of {side} integers")
        line = lines[index]
        values = ROWS_SEEN.get((side, line))
        if values is None:
            values = read_row(line, index, side)
        for value in values:
            if seen[value]:
                raise Invalid(index + 1, f"value {value} appears twice in this board")
            seen[value] = 1


def validate(data: bytes) -> None:
    """Raise Invalid on the first violation of the input format."""
    lines = split_lines(data)
    index = 0
    boards = 0
    cells = 0
    while True:
        side = read_side(lines, index)
        if side == 0:
            break
        cells += side * side
        if cells > MAX_CELLS:
            raise Invalid(index + 1, f"total number of cells exceeds {MAX_CELLS}")
        check_board(lines, index + 1, side)
        boards += 1
        index += side + 1
    if boards == 0:
        raise Invalid(index + 1, "the input must contain at least one board")
    if index + 1 < len(lines):
        raise Invalid(index + 2, "extra data after the terminating 0")


def main() -> None:
    """Validate stdin and exit with the Kattis validator codes."""
    try:
        validate(sys.stdin.buffer.read())
    except Invalid as error:
        print(error, file=sys.stderr)
        sys.exit(43)
    sys.exit(42)


if __name__ == "__main__":
    main()
