"""Reference solution (Python) for POJ 1507 "Commedia dell' arte".

Lean on purpose: one pass over the tokens, parity by counting cycles in O(L).
"""

import sys


def tile_inversion_parity(cells: list[int]) -> int:
    """Parity of the inversions among the tiles, the blank excluded.

    The cells read as a permutation of 0..L-1 have parity (L - #cycles) mod 2.
    That counts the blank as the smallest value: at index p it makes p extra
    inversions, which we remove, so no copy without the blank is needed.
    """
    size = len(cells)
    seen = bytearray(size)
    cycles = 0
    for start in range(size):
        if seen[start]:
            continue
        cycles += 1
        j = start
        while not seen[j]:
            seen[j] = 1
            j = cells[j]
    return (size - cycles + cells.index(0)) & 1


def solvable(m: int, cells: list[int]) -> bool:
    """Even M: tiles parity plus the blank's row and layer distance; odd M: tiles alone."""
    parity = tile_inversion_parity(cells)
    if m % 2 == 0:
        blank = cells.index(0)
        parity += (m - 1 - (blank // m) % m) + (m - 1 - blank // (m * m))
    return parity % 2 == 0


def main() -> None:
    tokens = sys.stdin.buffer.read().split()
    cases = int(tokens[0])
    pos = 1
    out = []
    for _ in range(cases):
        m = int(tokens[pos])
        size = m * m * m
        cells = list(map(int, tokens[pos + 1 : pos + 1 + size]))
        pos += 1 + size
        out.append("Puzzle can be solved." if solvable(m, cells) else "Puzzle is unsolvable.")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
