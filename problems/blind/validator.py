"""Strict input validator for "Blindfold" (the interactor's input, never shown to contestants).

Exit 42 if stdin is exactly: a line with T (1 <= T <= MAX_BOARDS), then T
boards, each a line `R C D` with R x C one of the shapes 2x2, 2x3, 3x2, 2x4,
4x2, 3x3 and D the fewest moves that solve the board, or -1 when it cannot
be solved, then R lines of C numbers holding 0 .. R*C-1 once each (0 is the
blank). Numbers are separated by single spaces, have no sign (but -1) and no
leading zeros, every line ends with `\n`, nothing follows the last board.
D is checked by a breadth-first search of its own from the goal. Otherwise
exit 43 with a one-line reason naming the line.
"""

import re
import sys
from collections import deque

MAX_BOARDS = 1000
SHAPES = {(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)}
VALID = 42
INVALID = 43
NUMBER = rb"(?:0|[1-9][0-9]*)"
COUNT_LINE = re.compile(NUMBER)
HEAD_LINE = re.compile(rb"(%s) (%s) (-1|%s)" % (NUMBER, NUMBER, NUMBER))


class Invalid(Exception):
    """Raised with the line number and reason of the first defect."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")


def distances(rows: int, cols: int) -> dict[bytes, int]:
    """The fewest moves from every solvable board to the goal: one search outward from the goal.

    Moving the tile in a cell next to the blank exchanges the values 0 and that tile, so each move is one
    ``bytes.translate`` with the table that swaps them (about half the time of copying the board to swap two cells:
    the 3x3 search visits 181,440 boards for every input that holds a 3x3 board).
    """
    cells = rows * cols
    near = [
        [other for other in range(cells) if abs(other // cols - cell // cols) + abs(other % cols - cell % cols) == 1]
        for cell in range(cells)
    ]
    swaps = [bytes(range(256))]  # swaps[tile]: the table that exchanges the values 0 and tile
    for tile in range(1, cells):
        table = bytearray(range(256))
        table[0], table[tile] = tile, 0
        swaps.append(bytes(table))
    start = bytes(list(range(1, cells)) + [0])
    dist = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        moves = dist[board] + 1
        for other in near[board.index(0)]:
            nxt = board.translate(swaps[board[other]])
            if nxt not in dist:
                dist[nxt] = moves
                queue.append(nxt)
    return dist


def check(data: bytes) -> None:
    if not data.endswith(b"\n"):
        raise Invalid(data.count(b"\n") + 1, "the last line does not end with a newline")
    lines = data[:-1].split(b"\n")
    if not COUNT_LINE.fullmatch(lines[0]):
        raise Invalid(1, "expected the number of boards")
    count = int(lines[0])
    if not 1 <= count <= MAX_BOARDS:
        raise Invalid(1, f"{count} boards; 1 to {MAX_BOARDS} are allowed")
    tables: dict[tuple[int, int], dict[bytes, int]] = {}
    at = 1
    for index in range(count):
        if at >= len(lines):
            raise Invalid(at + 1, f"the file ends after {index} of {count} boards")
        head = HEAD_LINE.fullmatch(lines[at])
        if not head:
            raise Invalid(at + 1, "expected `R C D`")
        rows, cols, moves = int(head[1]), int(head[2]), int(head[3])
        if (rows, cols) not in SHAPES:
            raise Invalid(at + 1, f"shape {rows}x{cols} is not one of 2x2, 2x3, 3x2, 2x4, 4x2, 3x3")
        row_line = re.compile(rb" ".join([NUMBER] * cols))
        cells: list[int] = []
        for r in range(rows):
            line = at + 2 + r
            if line > len(lines):
                raise Invalid(line, f"the file ends inside board {index + 1}")
            if not row_line.fullmatch(lines[line - 1]):
                raise Invalid(line, f"expected {cols} numbers separated by single spaces")
            cells += [int(token) for token in lines[line - 1].split(b" ")]
        if sorted(cells) != list(range(rows * cols)):
            raise Invalid(at + 2, f"board {index + 1} does not hold 0 .. {rows * cols - 1} once each")
        if (rows, cols) not in tables:
            tables[(rows, cols)] = distances(rows, cols)
        truth = tables[(rows, cols)].get(bytes(cells), -1)
        if moves != truth:
            raise Invalid(at + 1, f"board {index + 1} says {moves} moves; the fewest are {truth}")
        at += 1 + rows
    if at != len(lines):
        raise Invalid(at + 1, "data after the last board")


def main() -> int:
    try:
        check(sys.stdin.buffer.read())
    except Invalid as exc:
        print(exc, file=sys.stderr)
        return INVALID
    return VALID


if __name__ == "__main__":
    sys.exit(main())
