"""Strict input validator for "Klotski".

Exit 42 if stdin is exactly: a line with T (1 <= T <= MAX_BOARDS), then T
boards, each a line `H W` (2 <= H <= 6, W one of 2, 4, 6) and H lines of W
characters from A-Z, a-z, '.', '#'; every letter covers exactly the cells of
one 2x2, 1x2, 2x1 or 1x1 rectangle, and exactly one letter is 2x2. Numbers
have no sign and no leading zeros, every line ends with `\n`, nothing follows
the last board. The positions reachable from the boards' starts (pieces of
one shape interchangeable) number at most MAX_POSITIONS in all: counted here
by a search of its own, which stops as soon as the bound is passed.
Otherwise exit 43 with a one-line reason naming the line.
"""

import re
import sys

MAX_BOARDS = 10_000
MAX_POSITIONS = 200_000
VALID = 42
INVALID = 43
NUMBER = rb"(?:0|[1-9][0-9]*)"
COUNT_LINE = re.compile(NUMBER)
SIZE_LINE = re.compile(rb"(%s) (%s)" % (NUMBER, NUMBER))
ROW = re.compile(rb"[A-Za-z.#]+")
SHAPES = {(2, 2): "2x2", (1, 2): "1x2", (2, 1): "2x1", (1, 1): "1x1"}


class Invalid(Exception):
    """Raised with the line number and reason of the first defect."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")


def pieces(rows: list[bytes], first_line: int) -> list[tuple[int, int, int, int]]:
    """(row, col, height, width) of every piece, the 2x2 piece first; raise Invalid on a bad piece."""
    cells: dict[int, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, letter in enumerate(row):
            if chr(letter) not in ".#":
                cells.setdefault(letter, []).append((r, c))
    found = []
    for letter, spots in cells.items():
        top, left = min(r for r, _ in spots), min(c for _, c in spots)
        height, width = max(r for r, _ in spots) - top + 1, max(c for _, c in spots) - left + 1
        if (height, width) not in SHAPES or len(spots) != height * width:
            raise Invalid(first_line + top, f"the cells of '{chr(letter)}' are not one 2x2, 1x2, 2x1 or 1x1 piece")
        found.append((top, left, height, width))
    kings = [piece for piece in found if piece[2:] == (2, 2)]
    if len(kings) != 1:
        raise Invalid(first_line, f"{len(kings)} pieces of 2x2; exactly one is required")
    return kings + [piece for piece in found if piece[2:] != (2, 2)]


Moves = list[tuple[int, tuple[tuple[int, int], ...]]]  # (a piece's position bit, its (position, empty cells) changes)


class Frame:
    """The moves of one board size, worked out once per set of empty cells and shared by every board of that size.

    Where a piece can go depends only on its shape, its anchor and the empty
    cells (walls and the other pieces are the cells that are not empty), so a
    search looks the moves of a position up by its empty cells instead of
    working them out for each of up to MAX_POSITIONS positions in Python.
    """

    def __init__(self, height: int, width: int) -> None:
        self.cells = cells = height * width
        self.full = (1 << cells) - 1
        self.foot = [[0] * cells for _ in SHAPES]
        for index, (h, w) in enumerate(SHAPES):
            for anchor in range(cells):
                row, col = divmod(anchor, width)
                if row + h <= height and col + w <= width:
                    self.foot[index][anchor] = sum(
                        1 << ((row + a) * width + col + b) for a in range(h) for b in range(w)
                    )
        self.steps = [
            [
                near
                for near, ok in (
                    (cell - width, cell >= width),
                    (cell + width, cell + width < cells),
                    (cell - 1, cell % width > 0),
                    (cell + 1, cell % width < width - 1),
                )
                if ok
            ]
            for cell in range(cells)
        ]
        # (shape, anchor, footprint) of every place a piece fits on the board
        self.places = [
            (index, anchor, self.foot[index][anchor])
            for index in range(len(SHAPES))
            for anchor in range(cells)
            if self.foot[index][anchor]
        ]
        self.table: dict[int, Moves] = {}

    def moves(self, empty: int) -> Moves:
        """For one set of empty cells: (the position bit of a piece, the (position change, empty-cells change) of
        each of its moves) for every place a piece could leave; a position has a piece there when it has the bit."""
        found = self.table.get(empty)
        if found is not None:
            return found
        found = self.table[empty] = []
        cells, steps = self.cells, self.steps
        for index, anchor, own in self.places:
            if own & empty:
                continue
            others = self.full & ~empty & ~own  # walls and every other piece
            shape_foot = self.foot[index]
            seen, todo, changes = {anchor}, [anchor], []
            while todo:
                for near in steps[todo.pop()]:
                    if near not in seen and shape_foot[near] and not shape_foot[near] & others:
                        seen.add(near)
                        todo.append(near)
                        changes.append(((1 << anchor | 1 << near) << index * cells, own ^ shape_foot[near]))
            if changes:
                found.append((1 << anchor + index * cells, tuple(changes)))
        return found


FRAMES: dict[tuple[int, int], Frame] = {}


def count_positions(height: int, width: int, rows: list[bytes], budget: int) -> int:
    """The number of positions reachable from the board, or budget + 1 once it is exceeded.

    A position is one integer: a bit mask of anchors (top-left cells) per
    shape, the shapes' masks side by side, so pieces of one shape are
    interchangeable; a move takes one piece along unit steps through cells
    that are free or its own.
    """
    frame = FRAMES.get((height, width))
    if frame is None:
        frame = FRAMES[height, width] = Frame(height, width)
    shapes = list(SHAPES)
    start = 0
    taken = sum(1 << (r * width + c) for r in range(height) for c in range(width) if rows[r][c] == ord("#"))
    for r, c, h, w in pieces(rows, 0):
        index = shapes.index((h, w))
        start |= 1 << (r * width + c) + index * frame.cells
        taken |= frame.foot[index][r * width + c]
    seen = {start}
    order = [(start, frame.full & ~taken)]
    for position, empty in order:
        for bit, changes in frame.moves(empty):
            if position & bit:
                for change, freed in changes:
                    following = position ^ change
                    if following not in seen:
                        seen.add(following)
                        order.append((following, empty ^ freed))
                        if len(seen) > budget:
                            return budget + 1
    return len(seen)


class Reader:
    """The input's lines, read one by one with their numbers."""

    def __init__(self, data: bytes) -> None:
        if not data.endswith(b"\n"):
            raise Invalid(data.count(b"\n") + 1, "missing newline at the end of the input")
        self.lines = data[:-1].split(b"\n")
        self.index = 0

    def next(self) -> tuple[int, bytes]:
        """(line number, text) of the next line; the end of the input is an error."""
        if self.index >= len(self.lines):
            raise Invalid(self.index + 1, "unexpected end of the input")
        self.index += 1
        return self.index, self.lines[self.index - 1]


def read_board(reader: Reader) -> tuple[int, int, list[bytes], int]:
    """One board: its size line, its rows; returns (H, W, rows, line of the first row)."""
    number, text = reader.next()
    match = SIZE_LINE.fullmatch(text)
    if not match:
        raise Invalid(number, "expected 'H W': two integers separated by one space")
    height, width = int(match[1]), int(match[2])
    if not 2 <= height <= 6 or width not in (2, 4, 6):
        raise Invalid(number, f"size {height} {width}: H must be 2..6 and W one of 2, 4, 6")
    rows = []
    for _ in range(height):
        line, row = reader.next()
        if not ROW.fullmatch(row) or len(row) != width:
            raise Invalid(line, f"expected {width} characters from A-Z, a-z, '.', '#'")
        rows.append(row)
    pieces(rows, number + 1)
    return height, width, rows, number + 1


def validate(data: bytes) -> None:
    """Walk the boards; raise Invalid at the first defect."""
    reader = Reader(data)
    number, text = reader.next()
    if not COUNT_LINE.fullmatch(text) or not 1 <= int(text) <= MAX_BOARDS:
        raise Invalid(number, f"expected the number of boards, 1..{MAX_BOARDS}")
    total = 0
    for _ in range(int(text)):
        height, width, rows, first = read_board(reader)
        total += count_positions(height, width, rows, MAX_POSITIONS - total)
        if total > MAX_POSITIONS:
            raise Invalid(first, f"the boards up to this one reach more than {MAX_POSITIONS} positions in all")
    if reader.index != len(reader.lines):
        raise Invalid(reader.index + 1, "unexpected content after the last board")


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
