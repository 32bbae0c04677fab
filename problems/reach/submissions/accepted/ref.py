"""Python reference for "reach".

On a board with both sides >= 2 the arrangements fall into exactly two
classes, told apart by the parity of
    I(s) = (inversions among the tiles) + (blank row) * (N - 1),
and a move never changes that parity; so the target is reachable iff both
boards have the same I(s) mod 2. (The C++ reference uses the other
formulation, the parity of the permutation start -> target against the
blanks' Manhattan distance, so the two check each other.) A single row or
column never changes the order of its tiles: there the tiles, read in order,
must be the same.

The inversion parity needs no count: it comes in O(M*N) from the cycles of
the permutation sending each cell to the goal cell of its content (tile v to
cell v-1, the blank to the last cell), corrected by the L-1-blank inversions
that placing the blank last adds. Input is streamed line by line and each
board is kept in a 4-byte array, so memory stays near 30 MiB on 10^6 cells.
"""

import sys
from array import array
from collections.abc import Iterator
from itertools import islice


def tokens() -> Iterator[bytes]:
    """Whitespace-separated tokens of stdin, without holding the whole input."""
    for line in sys.stdin.buffer:
        yield from line.split()


def goal_cycle_count(cells: array) -> int:
    """Cycles of cell -> cells[cell] - 1; the blank's -1 indexes the last cell, its goal."""
    seen = bytearray(len(cells))
    cycles = 0
    for first in range(len(cells)):
        if seen[first]:
            continue
        cycles += 1
        cell = first
        while not seen[cell]:
            seen[cell] = 1
            cell = cells[cell] - 1
    return cycles


def class_parity(cols: int, cells: array) -> int:
    """I(s) mod 2 for a board with both sides >= 2."""
    size = len(cells)
    blank = cells.index(0)
    inversion_parity = (size - goal_cycle_count(cells) + size - 1 - blank) & 1
    return (inversion_parity + (blank // cols) * (cols - 1)) & 1


def reachable(rows: int, cols: int, start: array, target: array) -> bool:
    """The answer for one pair of boards."""
    if rows == 1 or cols == 1:
        return array("i", filter(None, start)) == array("i", filter(None, target))
    return class_parity(cols, start) == class_parity(cols, target)


def main() -> None:
    """Answer every case up to the terminating `0 0` line."""
    stream = tokens()
    answers = []
    while True:
        rows, cols = int(next(stream)), int(next(stream))
        if rows == 0 and cols == 0:
            break
        start = array("i", map(int, islice(stream, rows * cols)))
        target = array("i", map(int, islice(stream, rows * cols)))
        answers.append("YES\n" if reachable(rows, cols, start, target) else "NO\n")
    sys.stdout.write("".join(answers))


if __name__ == "__main__":
    main()
