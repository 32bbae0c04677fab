"""Strict input validator for HDU 1043 "Eight".

Exit 42 if stdin is exactly 1..MAX_BOARDS lines, each ending with `\n` (the
last one too), each holding the nine tokens 1, 2, ..., 8 and x in some order,
separated by single spaces. Otherwise exit 43 with a one-line reason naming
the line on stderr.
"""

import re
import sys

MAX_BOARDS = 1000
VALID = 42
INVALID = 43
BOARD_LINE = re.compile(rb"[1-8x](?: [1-8x]){8}")
SYMBOLS = sorted(b"12345678x")


class Invalid(Exception):
    """Raised with the line number and reason of the first defect."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")


def check_line(number: int, line: bytes) -> None:
    """One board: nine single-space-separated tokens, each of 1..8 and x exactly once."""
    if not BOARD_LINE.fullmatch(line):
        raise Invalid(number, "expected nine tokens from 1-8 and x separated by single spaces, nothing else")
    tokens = line[::2]
    if sorted(tokens) != SYMBOLS:
        repeated = sorted({chr(t) for t in tokens if tokens.count(t) > 1})
        raise Invalid(number, f"each of 1-8 and x must appear once; repeated: {', '.join(repeated)}")


def validate(data: bytes) -> None:
    """Walk the lines; raise Invalid at the first defect."""
    if not data:
        raise Invalid(1, "empty input: at least one board is required")
    if not data.endswith(b"\n"):
        raise Invalid(data.count(b"\n") + 1, "missing final newline")
    lines = data[:-1].split(b"\n")
    if len(lines) > MAX_BOARDS:
        raise Invalid(MAX_BOARDS + 1, f"more than {MAX_BOARDS} boards")
    for number, line in enumerate(lines, start=1):
        check_line(number, line)


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
