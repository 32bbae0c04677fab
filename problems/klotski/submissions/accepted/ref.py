"""Python reference for "Klotski": breadth-first search over positions.

A position records where the pieces of each shape stand, not which letter is
where: pieces of the same shape are interchangeable for the question asked,
which divides the search by the permutations of equal pieces. It is one
integer of five fields of one bit per cell: the empty cells, then the anchors
(top-left cells) of the 2x2 pieces, the 1x2, the 2x1 and the 1x1 pieces. The
empty field is redundant, but with it every move is one XOR with a number
that depends on the move only (the piece's two anchor bits, and the cells it
leaves and enters), and it tells at once where moves can happen.

A piece moves only into empty cells, so the moves of a position depend on the
empty cells and on which pieces stand next to them, nothing else: on its
bits at those places, its "neighbourhood". The moves of each neighbourhood
met, and of each piece next to each set of empty cells, are found once (a
flood fill on the bits of the board) and kept. Far fewer neighbourhoods than
positions occur when few cells are empty, and a position's moves are then a
few dictionary look-ups; a flood fill of every piece of every position, as
before, made this reference 6 times slower. The first position with the 2x2
piece on the exit ends the search, and its moves are replayed on the
lettered board to name the pieces and spell their paths.
"""

from __future__ import annotations  # `X | None` annotations on Python 3.9 too (PyPy3 in Debian 12)

import sys
from collections import deque

KING, HORIZONTAL, VERTICAL, SOLDIER = range(4)
HEIGHT = (2, 1, 2, 1)
WIDTH = (2, 2, 1, 1)
# At most this many moves are kept in a frame's tables (some 30 MiB). With many empty cells hardly a
# neighbourhood comes twice; the tables are emptied when full rather than let them fill the memory.
KEPT_MOVES = 500_000


def bits(mask: int) -> list[int]:
    """The cells of a mask, lowest first."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


class Frame:
    """The geometry of a board without its pieces (size and walls), and the moves found on it so far.

    Boards with the same frame share one: a file of thousands of small boards
    then finds the moves of each neighbourhood once.
    """

    def __init__(self, rows: int, cols: int, walls: int) -> None:
        self.rows, self.cols, self.walls = rows, cols, walls
        self.cells = rows * cols
        self.full = (1 << self.cells) - 1
        self.steps = [self.neighbours(cell) for cell in range(self.cells)]
        self.foot = [[self.footprint(shape, cell) for cell in range(self.cells)] for shape in range(4)]
        # the offsets of a piece's cells from its anchor, and the anchors at which it stays inside the frame
        self.cover = [[r * cols + c for r in range(HEIGHT[shape]) for c in range(WIDTH[shape])] for shape in range(4)]
        self.inside = [sum(1 << cell for cell in range(self.cells) if self.foot[shape][cell]) for shape in range(4)]
        # the bits a piece sets in the position when anchored at cell 0 (its anchor bit, and its cells in the
        # empty field); `pattern << cell` are those of a piece anchored at `cell`
        self.pattern = [1 << self.cells * (1 + shape) | self.foot[shape][0] for shape in range(4)]
        self.right = sum(1 << cell for cell in range(self.cells) if cell % cols)  # where a step right can end
        self.left = sum(1 << cell for cell in range(self.cells) if cell % cols < cols - 1)  # and a step left
        self.goal = 1 << self.cells * (1 + KING) + (rows - 2) * cols + cols // 2 - 1
        # touching[cell]: the anchor bits of every place from which a piece could step into `cell`
        self.touching = [0] * self.cells
        for shape in range(4):
            for anchor in range(self.cells):
                for cell in bits(self.around(shape, anchor)):
                    self.touching[cell] |= 1 << self.cells * (1 + shape) + anchor
        self.near: dict[int, int] = {}  # empty cells -> the mask of their neighbourhood
        self.known: dict[int, list[int]] = {}  # neighbourhood -> the XORs of its moves
        self.alone: dict[int, list[int]] = {}  # empty cells | one anchor bit -> the XORs of that piece's moves
        self.kept = 0  # moves held in `known` and `alone`

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

    def reachable(self, shape: int, anchor: int, free: int) -> int:
        """The anchors a piece of `shape` at `anchor` reaches by unit steps through the `free` cells, as a mask.

        A flood fill on the bits of the board: each round adds every allowed
        anchor one step from those reached, all at once.
        """
        allowed = self.inside[shape]
        for offset in self.cover[shape]:
            allowed &= free >> offset
        reached = 1 << anchor
        while True:
            grown = reached << 1 & self.right | reached >> 1 & self.left | reached << self.cols | reached >> self.cols
            grown = (grown | reached) & allowed
            if grown == reached:
                return reached
            reached = grown

    def moves(self, position: int) -> list[int]:
        """The XORs that turn `position` into each position one move away."""
        empty = position & self.full
        near = self.near.get(empty)
        if near is None:
            near = empty
            for cell in bits(empty):
                near |= self.touching[cell]
            self.near[empty] = near
        neighbourhood = position & near
        changes = self.known.get(neighbourhood)
        if changes is None:
            changes = [
                change for piece in bits(neighbourhood >> self.cells) for change in self.piece_moves(empty, piece)
            ]
            self.keep(self.known, neighbourhood, changes)
        return changes

    def piece_moves(self, empty: int, piece: int) -> list[int]:
        """The XORs of the moves of one piece (bit `piece` of the anchor fields) when the `empty` cells are empty."""
        key = empty | 1 << self.cells + piece
        changes = self.alone.get(key)
        if changes is None:
            shape, anchor = divmod(piece, self.cells)
            here = self.pattern[shape] << anchor
            others = self.reachable(shape, anchor, empty | self.foot[shape][anchor]) ^ 1 << anchor
            changes = []
            while others:
                low = others & -others  # the bit of one anchor reached: `low * pattern` is the piece there
                changes.append(here ^ low * self.pattern[shape])
                others ^= low
            self.keep(self.alone, key, changes)
        return changes

    def keep(self, table: dict[int, list[int]], key: int, changes: list[int]) -> None:
        """Remember `changes` under `key`, first emptying both tables if that went past KEPT_MOVES."""
        if self.kept + len(changes) > KEPT_MOVES:
            self.known.clear()
            self.alone.clear()
            self.kept = 0
        table[key] = changes
        self.kept += len(changes)

    def search(self, first: int) -> list[tuple[int, int, int]] | None:
        """The moves (shape, from, to) of a shortest solution from `first`, or None if the exit is out of reach."""
        parent = {first: first}
        queue = deque([first])
        found = first if first & self.goal else None
        while queue and found is None:
            position = queue.popleft()
            for change in self.moves(position):
                following = position ^ change
                if following in parent:
                    continue
                parent[following] = position
                if following & self.goal:
                    found = following
                    break
                queue.append(following)
        if found is None:
            return None
        moves = []
        while parent[found] != found:
            moves.append(self.move_between(parent[found], found))
            found = parent[found]
        return moves[::-1]

    def move_between(self, before: int, after: int) -> tuple[int, int, int]:
        """The move (shape, from, to) from `before` to `after`: the one anchor field that differs."""
        for shape in range(4):
            field = self.cells * (1 + shape)
            changed = (before ^ after) >> field & self.full
            if changed:
                return shape, (before >> field & changed).bit_length() - 1, (after >> field & changed).bit_length() - 1
        raise ValueError("the positions are the same")


class Board:
    """One puzzle: its lettered grid on a frame."""

    def __init__(self, frame: Frame, grid: list[str]) -> None:
        self.frame = frame
        self.grid = [list(row) for row in grid]

    def start(self) -> int:
        """The start position as one integer."""
        frame = self.frame
        position = frame.full & ~frame.walls
        for cell in range(frame.cells):
            row, col = divmod(cell, frame.cols)
            letter = self.grid[row][col]
            covered_before = (row and self.grid[row - 1][col] == letter) or (col and self.grid[row][col - 1] == letter)
            if letter in ".#" or covered_before:
                continue
            wide = col + 1 < frame.cols and self.grid[row][col + 1] == letter
            tall = row + 1 < frame.rows and self.grid[row + 1][col] == letter
            shape = KING if wide and tall else HORIZONTAL if wide else VERTICAL if tall else SOLDIER
            position ^= frame.pattern[shape] << cell
        return position

    def replay(self, shape: int, anchor: int, to: int) -> str:
        """Move the piece on the lettered grid; the line `letter path` for the output."""
        frame, cols = self.frame, self.frame.cols
        letter = self.grid[anchor // cols][anchor % cols]
        others = frame.walls
        for cell in range(frame.cells):
            if self.grid[cell // cols][cell % cols] not in (".", letter):
                others |= 1 << cell
        came = {anchor: (anchor, "")}
        queue = deque([anchor])
        while to not in came:
            cell = queue.popleft()
            for near, step in frame.steps[cell]:
                foot = frame.foot[shape][near]
                if near not in came and foot and not foot & others:
                    came[near] = (cell, step)
                    queue.append(near)
        path = []
        cell = to
        while cell != anchor:
            cell, step = came[cell]
            path.append(step)
        for cell in bits(frame.foot[shape][anchor]):
            self.grid[cell // cols][cell % cols] = "."
        for cell in bits(frame.foot[shape][to]):
            self.grid[cell // cols][cell % cols] = letter
        return f"{letter} {''.join(reversed(path))}"

    def answer(self) -> str:
        """The output block of this board."""
        moves = self.frame.search(self.start())
        if moves is None:
            return "impossible\n"
        return "".join([f"{len(moves)}\n"] + [self.replay(*move) + "\n" for move in moves])


def main() -> None:
    """Read every board, answer each in order."""
    tokens = sys.stdin.read().split()
    count, at = int(tokens[0]), 1
    frames: dict[tuple[int, int, int], Frame] = {}
    out = []
    for _ in range(count):
        rows, cols = int(tokens[at]), int(tokens[at + 1])
        grid = tokens[at + 2 : at + 2 + rows]
        walls = sum(1 << cell for cell in range(rows * cols) if grid[cell // cols][cell % cols] == "#")
        if (rows, cols, walls) not in frames:
            frames[rows, cols, walls] = Frame(rows, cols, walls)
        out.append(Board(frames[rows, cols, walls], grid).answer())
        at += 2 + rows
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
