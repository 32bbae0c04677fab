"""Python reference for "Slide" (the n^2-1 puzzle solved by construction).

Solvability: with the blank sent to the bottom-right corner by a move
sequence, every move is a transposition, so the permutation parity of the
cells must match the parity of the blank's distance to that corner. Here it
is computed as: tile inversions even (odd n), or tile inversions plus the
blank's row counted from the bottom even (even n).

Construction, each step only touching cells that are not finished yet:

1. Rows 0..n-3, left to right. A tile is walked to its cell along a shortest
   path of free cells; before each step the blank is routed (breadth-first
   search, never through the tile or a finished cell) to the next cell of the
   path and then swapped with the tile. The last two tiles a, b of a row are
   placed as a pair: a goes to b's cell, b right below it, then the blank
   enters a's cell and "RD" drops both into place.
2. The last two rows, column by column: the same pair method, transposed
   (a to b's cell, b to its right, blank into a's cell, "DR").
3. The final 2x2 block: the blank goes to the corner and the three tiles are
   rotated by at most one 4-move cycle.

The pair method gets stuck in one position only: b sits in a's cell while a
waits in b's cell, with the blank able to reach that cell only through b. A
fixed 17-move pattern inside the 3x2 block (2x3 for columns) next to the pair
solves exactly that position. Inverse neighbouring moves ("LR", "UD", ...) are
cancelled at the end. At most about 3 400 moves for n = 10.
"""

import sys
from collections import deque

ROW_FINISH = "RD"
ROW_TRAP = "URDDLURULDDRULURD"
TRANSPOSE = str.maketrans("UDLR", "LRUD")
INVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}
CORNER_CYCLE = "ULDR"
CORNER_BACK = "LURD"


def solvable(n: int, cells: list[int]) -> bool:
    """Parity rule of the n^2-1 puzzle (blank row counted from the bottom)."""
    parity = tile_inversion_parity([value for value in cells if value])
    if n % 2 == 1:
        return parity == 0
    rows_below = n - 1 - cells.index(0) // n
    return (parity + rows_below) % 2 == 0


def tile_inversion_parity(tiles: list[int]) -> int:
    """Parity of the inversions of tiles 1..m, from the cycles in O(m) (no quadratic count)."""
    seen = bytearray(len(tiles))
    cycles = 0
    for start in range(len(tiles)):
        if not seen[start]:
            cycles += 1
            index = start
            while not seen[index]:
                seen[index] = 1
                index = tiles[index] - 1
    return (len(tiles) - cycles) % 2


def cancel_inverse_pairs(moves: list[str]) -> str:
    """Drop every move that immediately undoes the previous one: same final board, shorter."""
    kept: list[str] = []
    for move in moves:
        if kept and kept[-1] == INVERSE[move]:
            kept.pop()
        else:
            kept.append(move)
    return "".join(kept)


class Solver:
    """A board with its blank, the cells already finished, and the moves so far."""

    def __init__(self, n: int, cells: list[int]) -> None:
        self.n = n
        self.cells = cells
        self.where = [0] * (n * n)
        for cell, value in enumerate(cells):
            self.where[value] = cell
        self.locked = bytearray(n * n)
        self.moves: list[str] = []

    def neighbours(self, cell: int) -> list[tuple[int, str]]:
        """Cells next to `cell` with the letter of a blank move from `cell` to them."""
        n = self.n
        row, col = divmod(cell, n)
        found = []
        if row > 0:
            found.append((cell - n, "U"))
        if row < n - 1:
            found.append((cell + n, "D"))
        if col > 0:
            found.append((cell - 1, "L"))
        if col < n - 1:
            found.append((cell + 1, "R"))
        return found

    def play(self, letters: str) -> None:
        """Move the blank; each letter swaps it with the neighbouring tile."""
        step = {"U": -self.n, "D": self.n, "L": -1, "R": 1}
        for letter in letters:
            blank = self.where[0]
            other = blank + step[letter]
            tile = self.cells[other]
            self.cells[blank], self.cells[other] = tile, 0
            self.where[tile], self.where[0] = blank, other
            self.moves.append(letter)

    def path(self, start: int, goal: int, blocked: int) -> list[tuple[int, str]]:
        """Shortest walk over unlocked cells other than `blocked`, as (cell, letter) steps."""
        previous: dict[int, tuple[int, str]] = {start: (start, "")}
        queue = deque([start])
        while queue and goal not in previous:
            cell = queue.popleft()
            for nxt, letter in self.neighbours(cell):
                if nxt not in previous and not self.locked[nxt] and nxt != blocked:
                    previous[nxt] = (cell, letter)
                    queue.append(nxt)
        if goal not in previous:
            raise RuntimeError(f"no free path from cell {start} to cell {goal}")
        steps = []
        cell = goal
        while cell != start:
            before, letter = previous[cell]
            steps.append((cell, letter))
            cell = before
        return steps[::-1]

    def route_blank(self, goal: int, avoid: int) -> None:
        """Bring the blank to `goal` without touching finished cells or cell `avoid`."""
        self.play("".join(letter for _, letter in self.path(self.where[0], goal, avoid)))

    def move_tile(self, tile: int, goal: int) -> None:
        """Walk `tile` to `goal`, one swap with the blank per step of its path."""
        for cell, _ in self.path(self.where[tile], goal, -1):
            self.route_blank(cell, self.where[tile])
            self.play(next(letter for nxt, letter in self.neighbours(cell) if nxt == self.where[tile]))

    def place_pair(self, first: int, second: int, below: int, hub: int, finish: str, trap: str) -> None:
        """Finish cells `first` and `second` together (a row end or a column of two rows).

        Tile a (for `first`) waits in `second`, tile b (for `second`) in `below`;
        then the blank enters `first` and `finish` drops both in place. `hub` is
        the only free neighbour of `first` once a waits: the trap pattern starts
        with the blank there.
        """
        tile_a, tile_b = first + 1, second + 1
        if self.cells[first] == tile_a and self.cells[second] == tile_b:
            self.locked[first] = self.locked[second] = 1
            return
        self.move_tile(tile_a, second)
        self.locked[second] = 1
        if self.where[0] == first and self.where[tile_b] == hub:
            self.route_blank(hub, -1)
        if self.where[tile_b] == first:
            self.route_blank(hub, first)
            self.play(trap)
        else:
            self.move_tile(tile_b, below)
            self.locked[below] = 1
            self.route_blank(first, -1)
            self.locked[below] = 0
            self.play(finish)
        self.locked[first] = 1

    def finish_corner(self) -> None:
        """Blank to the corner, then rotate the last three tiles by one cycle if needed."""
        self.route_blank(self.n * self.n - 1, -1)
        if not self.solved():
            self.play(CORNER_CYCLE)
        if not self.solved():
            # Undo the cycle and turn the other way; the cancellation leaves one CORNER_BACK.
            self.play(CORNER_BACK * 2)

    def solved(self) -> bool:
        """True iff the board is the goal."""
        return self.cells[-1] == 0 and all(value == cell + 1 for cell, value in enumerate(self.cells[:-1]))

    def solve(self) -> str:
        """Run the three phases and return the cancelled move string."""
        n = self.n
        for row in range(n - 2):
            for col in range(n - 2):
                cell = row * n + col
                self.move_tile(cell + 1, cell)
                self.locked[cell] = 1
            end = row * n + n - 1
            self.place_pair(end - 1, end, end + n, end + n - 1, ROW_FINISH, ROW_TRAP)
        for col in range(n - 2):
            top = (n - 2) * n + col
            self.place_pair(
                top, top + n, top + n + 1, top + 1, ROW_FINISH.translate(TRANSPOSE), ROW_TRAP.translate(TRANSPOSE)
            )
        self.finish_corner()
        if not self.solved():
            raise RuntimeError("construction ended on an unsolved board")
        return cancel_inverse_pairs(self.moves)


def main() -> None:
    """Read one board, print the blank's moves or 'No Answer!'."""
    data = sys.stdin.read().split()
    n = int(data[0])
    cells = [int(token) for token in data[1 : 1 + n * n]]
    if not solvable(n, cells):
        print("No Answer!")
        return
    print(Solver(n, cells).solve())


if __name__ == "__main__":
    main()
