"""Python reference for POJ 2893 "M x N Puzzle".

A board (both sides >= 2) is solvable iff inv + (M-1-r)*(N-1) is even (inv:
inversions among the tiles, r: blank row from the top). The parity of inv
comes from the cycles of the permutation cell -> goal cell, which is O(M*N)
and needs no 64-bit inversion count.

Memory stays small (about 20 MB on a 999 x 999 board): tokens are streamed
line by line and a board is kept as a 4-byte array.
"""

import sys
from array import array
from collections.abc import Iterator
from itertools import islice


def tokens() -> Iterator[bytes]:
    """Whitespace-separated tokens of stdin, without holding them all at once."""
    for line in sys.stdin.buffer:
        yield from line.split()


def cycle_parity(cells: array) -> int:
    """Parity of the permutation that sends each cell to the goal cell of its content.

    Tile v belongs in cell v-1, so the next cell is cells[cell] - 1. For the
    blank this is -1, which Python indexing resolves to the last cell: the
    blank's goal cell, exactly as required.
    """
    size = len(cells)
    seen = bytearray(size)
    cycles = 0
    for start in range(size):
        if seen[start]:
            continue
        cycles += 1
        cell = start
        while not seen[cell]:
            seen[cell] = 1
            cell = cells[cell] - 1
    return (size - cycles) & 1


def solvable(rows: int, cols: int, cells: array) -> bool:
    """The answer for one board."""
    size = rows * cols
    blank = cells.index(0)
    # Sending the blank to the last cell added size-1-blank inversions.
    inv_parity = (cycle_parity(cells) + size - 1 - blank) & 1
    rows_below = rows - 1 - blank // cols
    return (inv_parity + rows_below * (cols - 1)) % 2 == 0


def main() -> None:
    """Answer every case up to the terminating `0 0` line."""
    stream = tokens()
    answers = []
    while True:
        rows, cols = int(next(stream)), int(next(stream))
        if rows == 0 and cols == 0:
            break
        cells = array("i", map(int, islice(stream, rows * cols)))
        answers.append("YES\n" if solvable(rows, cols, cells) else "NO\n")
    sys.stdout.write("".join(answers))


if __name__ == "__main__":
    main()
