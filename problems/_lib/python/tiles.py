"""Sliding-tile boards for the puzzle family's own programs (generators, validators, checkers): one copy of the parity
rule and of the moves every problem of the family repeats.

Shipped by the judge beside each problem program whose problem.yaml names
``../_lib/python`` under ``libraries`` (a program run by hand from the
repository finds it through the path its own file appends). Boards are flat
lists in row-major order; the blank is 0 unless a function says otherwise.
Nothing here may draw from a random generator differently from the code it
replaced: generated cases must stay byte for byte the same.
"""

from __future__ import annotations

# Type names only: a checker imports this module once per case, and ``typing`` (with the ``re`` it brings) was a
# third of such a run's start-up; the annotations are strings (``from __future__``), never evaluated.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from collections.abc import Sequence
    from typing import TypeVar

    Cell = TypeVar("Cell")


def goal_board(rows: int, cols: int) -> list[int]:
    """1, 2, ..., rows*cols-1 row by row, the blank last."""
    return list(range(1, rows * cols)) + [0]


def shuffle(items: list[Cell], rng: random.Random) -> int:
    """Shuffle ``items`` in place with exactly the draws ``rng.shuffle(items)`` makes; returns the parity (0 even,
    1 odd) of the permutation applied.

    Fisher-Yates from the last index down, each partner index drawn by
    rejection from ``getrandbits`` of its range's bit length, as CPython's
    ``random.shuffle`` does: the same data byte for byte. Written out for
    speed (no method call per draw: a quarter less time on 10^6 cells) and
    because the parity of a board's tiles, which decides its answer, then
    costs nothing where a walk through its cycles cost O(L); also, Python
    keeps ``getrandbits`` reproducible across versions, not ``shuffle``.
    """
    getrandbits = rng.getrandbits
    odd = 0
    top = len(items) - 1
    while top > 0:
        bits = (top + 1).bit_length()
        lowest = (1 << (bits - 1)) - 1  # from here down to ``top`` every range size needs ``bits`` bits
        for index in range(top, lowest - 1, -1):
            other = getrandbits(bits)
            while other > index:
                other = getrandbits(bits)
            if other != index:
                items[index], items[other] = items[other], items[index]
                odd ^= 1
        top = lowest - 1
    return odd


def inversion_parity(tiles: Sequence[int]) -> int:
    """Parity of the inversions of a permutation of 1..m, from its cycle count in O(m)."""
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


def is_solvable(cells: Sequence[int], cols: int) -> bool:
    """Can the tiles be slid to ``goal_board``? Tile inversions even when the width is odd; with an even width, tile
    inversions plus the blank's distance from the bottom row even."""
    parity = inversion_parity([value for value in cells if value])
    if cols % 2 == 0:
        parity += len(cells) // cols - 1 - cells.index(0) // cols
    return parity % 2 == 0


def swap_two_tiles(cells: list[Cell], rng: random.Random, blank: Cell = 0) -> None:  # type: ignore[assignment]
    """Exchange two random tiles, never the blank, in place: flips solvability. A board with fewer than two tiles is
    left alone, so that a generator asked for the smallest size still writes a valid file.

    ``rng.sample`` asks its population only for its length and items, so the range of the tiles' ranks draws what the
    list of the tile cells drew, and rank i is cell i, or i+1 from the blank on: no list of 10^6 cells (0.1 to 0.2 s)
    is made for two of them.
    """
    if len(cells) < 3:
        return
    at = cells.index(blank)
    first, second = (rank + (rank >= at) for rank in rng.sample(range(len(cells) - 1), 2))
    cells[first], cells[second] = cells[second], cells[first]


def is_permutation(values: list[int], size: int) -> bool:
    """Are ``size`` non-negative ``values`` 0..size-1 once each? Each value marks its byte (a quarter of the time of a
    set of them and their maximum); a value out of range raises, a repeated one leaves a byte unmarked."""
    seen = bytearray(size)
    try:
        for value in values:
            seen[value] = 1
    except IndexError:
        return False
    return 0 not in seen


def show(data: bytes, limit: int) -> str:
    """Up to ``limit`` bytes of a contestant's output, printable and on one line, for a checker's message."""
    return repr(data[:limit])[1:] + ("..." if len(data) > limit else "")
