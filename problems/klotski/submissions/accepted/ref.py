"""Python reference for "Klotski": breadth-first search over positions.

A position records where the pieces of each shape stand, not which letter is
where: pieces of the same shape are interchangeable for the question asked,
which divides the search by the permutations of equal pieces. It is one
integer: the anchor (top-left cell) of the 2x2 piece in the low bits, then
one bit mask of anchors per other shape. One move takes one piece to any
other anchor it reaches by unit steps through free cells, found by a flood
fill; only pieces touching an empty cell are tried, which is what keeps the
search fast enough in Python. The first position with the 2x2 piece on the
exit ends the search, and its moves are replayed on the lettered board to
name the pieces and spell their paths.
"""

from __future__ import annotations  # `X | None` annotations on Python 3.9 too (PyPy3 in Debian 12)

import sys
from collections import deque

KING, HORIZONTAL, VERTICAL, SOLDIER = range(4)
HEIGHT = (2, 1, 2, 1)
WIDTH = (2, 2, 1, 1)
KING_BITS = 6
FIELD = 36  # bits per anchor mask: at most 6 x 6 cells
SHIFT = (0, KING_BITS, KING_BITS + FIELD, KING_BITS + 2 * FIELD)


def bits(mask: int) -> list[int]:
    """The cells of a mask, lowest first."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


class Board:
    """One puzzle: the geometry tables and the search."""

    def __init__(self, rows: int, cols: int, grid: list[str]) -> None:
        self.rows, self.cols = rows, cols
        self.grid = [list(row) for row in grid]
        cells = rows * cols
        self.walls = sum(1 << cell for cell in range(cells) if grid[cell // cols][cell % cols] == "#")
        self.steps = [self.neighbours(cell) for cell in range(cells)]
        self.foot = [[self.footprint(shape, cell) for cell in range(cells)] for shape in range(4)]
        self.rim = [[self.around(shape, cell) for cell in range(cells)] for shape in range(4)]
        self.goal = (rows - 2) * cols + cols // 2 - 1
        self.board_mask = (1 << cells) - 1

    def neighbours(self, cell: int) -> list[tuple[int, str]]:
        """(next cell, letter) for the unit steps that stay on the board."""
        row, col = divmod(cell, self.cols)
        found = []
        if row > 0:
            found.append((cell - self.cols, "U"))
        if row + 1 < self.rows:
            found.append((cell + self.cols, "D"))
        if col > 0:
            found.append((cell - 1, "L"))
        if col + 1 < self.cols:
            found.append((cell + 1, "R"))
        return found

    def footprint(self, shape: int, cell: int) -> int:
        """Cells covered by a piece of `shape` anchored at `cell`; 0 if it sticks out of the board."""
        row, col = divmod(cell, self.cols)
        if row + HEIGHT[shape] > self.rows or col + WIDTH[shape] > self.cols:
            return 0
        return sum(1 << ((row + r) * self.cols + col + c) for r in range(HEIGHT[shape]) for c in range(WIDTH[shape]))

    def around(self, shape: int, cell: int) -> int:
        """Cells next to the piece's footprint: it can only move if one of them is empty."""
        foot = self.footprint(shape, cell)
        rim = 0
        for covered in bits(foot):
            for near, _ in self.steps[covered]:
                rim |= 1 << near
        return rim & ~foot

    def start(self) -> int:
        """The start position as one integer."""
        anchors = [0, 0, 0, 0]
        for cell in range(self.rows * self.cols):
            row, col = divmod(cell, self.cols)
            letter = self.grid[row][col]
            covered_before = (row and self.grid[row - 1][col] == letter) or (col and self.grid[row][col - 1] == letter)
            if letter in ".#" or covered_before:
                continue
            wide = col + 1 < self.cols and self.grid[row][col + 1] == letter
            tall = row + 1 < self.rows and self.grid[row + 1][col] == letter
            shape = KING if wide and tall else HORIZONTAL if wide else VERTICAL if tall else SOLDIER
            anchors[shape] |= cell if shape == KING else 1 << cell
        return sum(anchors[shape] << SHIFT[shape] for shape in range(4))

    def reachable(self, shape: int, anchor: int, others: int) -> list[int]:
        """Every other anchor the piece reaches by unit steps, the cells `others` being taken."""
        foot, steps = self.foot[shape], self.steps
        seen = {anchor}
        todo = [anchor]
        while todo:
            cell = todo.pop()
            for near, _ in steps[cell]:
                if near not in seen and foot[near] and not foot[near] & others:
                    seen.add(near)
                    todo.append(near)
        seen.discard(anchor)
        return list(seen)

    def successors(self, position: int) -> list[tuple[int, int, int, int]]:
        """(next position, shape, from, to) for every move."""
        king = position & 63
        pieces = [(KING, king)]
        for shape in (HORIZONTAL, VERTICAL, SOLDIER):
            pieces += [(shape, cell) for cell in bits(position >> SHIFT[shape] & self.board_mask)]
        used = self.walls
        for shape, anchor in pieces:
            used |= self.foot[shape][anchor]
        empty = ~used & self.board_mask
        found = []
        for shape, anchor in pieces:
            if not self.rim[shape][anchor] & empty:
                continue
            for to in self.reachable(shape, anchor, used & ~self.foot[shape][anchor]):
                if shape == KING:
                    following = position - king + to
                else:
                    following = position ^ ((1 << anchor | 1 << to) << SHIFT[shape])
                found.append((following, shape, anchor, to))
        return found

    def search(self) -> list[tuple[int, int, int]] | None:
        """The moves (shape, from, to) of a shortest solution, or None if the exit is out of reach."""
        first = self.start()
        parent: dict[int, tuple[int, int, int, int] | None] = {first: None}
        queue = deque([first])
        found = first if first & 63 == self.goal else None
        while queue and found is None:
            position = queue.popleft()
            for following, shape, anchor, to in self.successors(position):
                if following in parent:
                    continue
                parent[following] = (position, shape, anchor, to)
                if following & 63 == self.goal:
                    found = following
                    break
                queue.append(following)
        if found is None:
            return None
        moves = []
        while parent[found] is not None:
            found, shape, anchor, to = parent[found]
            moves.append((shape, anchor, to))
        return moves[::-1]

    def replay(self, shape: int, anchor: int, to: int) -> str:
        """Move the piece on the lettered grid; the line `letter path` for the output."""
        cols = self.cols
        letter = self.grid[anchor // cols][anchor % cols]
        others = self.walls
        for cell in range(self.rows * cols):
            if self.grid[cell // cols][cell % cols] not in (".", letter):
                others |= 1 << cell
        came = {anchor: (anchor, "")}
        queue = deque([anchor])
        while to not in came:
            cell = queue.popleft()
            for near, step in self.steps[cell]:
                foot = self.foot[shape][near]
                if near not in came and foot and not foot & others:
                    came[near] = (cell, step)
                    queue.append(near)
        path = []
        cell = to
        while cell != anchor:
            cell, step = came[cell]
            path.append(step)
        for cell in bits(self.foot[shape][anchor]):
            self.grid[cell // cols][cell % cols] = "."
        for cell in bits(self.foot[shape][to]):
            self.grid[cell // cols][cell % cols] = letter
        return f"{letter} {''.join(reversed(path))}"

    def answer(self) -> str:
        """The output block of this board."""
        moves = self.search()
        if moves is None:
            return "impossible\n"
        return "".join([f"{len(moves)}\n"] + [self.replay(*move) + "\n" for move in moves])


def main() -> None:
    """Read every board, answer each in order."""
    tokens = sys.stdin.read().split()
    count, at = int(tokens[0]), 1
    out = []
    for _ in range(count):
        rows, cols = int(tokens[at]), int(tokens[at + 1])
        out.append(Board(rows, cols, tokens[at + 2 : at + 2 + rows]).answer())
        at += 2 + rows
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
