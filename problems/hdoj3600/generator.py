"""Seeded test generator for HDOJ 3600 "Simple Puzzle".

Usage: generator.py CATEGORY [options]; writes one complete input file
(boards, then the terminating "0") to stdout.  The bytes depend only on the
arguments: every random choice comes from random.Random built from the
category and --seed.  Every category takes --size, the largest board side,
so a stress tool can shrink any case.

Categories:
  exhaustive --size N [--part K --parts P]    every permutation of an N x N
      board in lexicographic order (N <= 3), optionally only slice K of P
  ordered --size N [--min-size M]             tiles in goal order, the blank
      in every cell, for every side M..N
  sweep --size N [--min-size M] --seed S      for every side, every blank cell
      and both answers, one random board
  random --size N [--min-size M] --count K --seed S
      K random boards with sides in M..N, answers alternating YES / NO
  special --size N --seed S                   structured boards: goal, goal
      with one swap, reversed tiles, blank in a top corner, single long
      cycles, blank in the top row
  overflow --size N --truth yes|no --count K --seed S
      boards whose tile inversion count is odd and in [2^31, 2^32): a 32-bit
      signed counter wraps to an odd negative value (needs N >= 257)
  multi --size N --count K --at first|middle|last --seed S
      one random N x N board among K random boards of sides 1..8
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.append(
    str(Path(__file__).resolve().parents[1] / "_lib" / "python")
)  # by hand; the judge ships tiles.py beside this file
from tiles import shuffle  # noqa: E402

Board = list[int]
INT32 = 2**31
MAX_SIDE = 300


def board_text(cells: Board) -> str:
    """Format one board the way the statement specifies."""
    side = math.isqrt(len(cells))
    rows = (" ".join(map(str, cells[r * side : (r + 1) * side])) for r in range(side))
    return f"{side}\n" + "\n".join(rows) + "\n"


def write_file(boards: Iterator[Board]) -> None:
    """Write all boards and the terminator in one go (deterministic bytes)."""
    out = sys.stdout
    for cells in boards:
        out.write(board_text(cells))
    out.write("0\n")


def cell_parity(cells: Board) -> int:
    """Parity of the map cell -> goal cell of its value (blank goes last)."""
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
            j = (cells[j] - 1) % size
    return (size - cycles) & 1


def is_solvable(cells: Board, parity: int | None = None) -> bool:
    """Truth of a board: permutation parity equals the blank's taxicab parity; ``parity`` is the ``cell_parity`` when
    already known (``shuffled_board``)."""
    side = math.isqrt(len(cells))
    row, col = divmod(cells.index(0), side)
    return (cell_parity(cells) if parity is None else parity) == (2 * side - 2 - row - col) & 1


def force_truth(cells: Board, want: bool, rng: random.Random, parity: int | None = None) -> Board:
    """Swap two random tiles if needed so the answer is `want` (sides >= 2)."""
    if len(cells) < 4 or is_solvable(cells, parity) == want:
        return cells
    tiles = [i for i in rng.sample(range(len(cells)), 3) if cells[i] != 0]
    a, b = tiles[0], tiles[1]
    cells[a], cells[b] = cells[b], cells[a]
    return cells


def random_board(side: int, rng: random.Random) -> Board:
    """A uniformly random permutation of 0..side^2-1."""
    return shuffled_board(side, rng)[0]


def shuffled_board(side: int, rng: random.Random) -> tuple[Board, int]:
    """``random_board`` and its ``cell_parity``, known from the shuffle instead of walked again: the cells start in
    order, and mapping each value v to cell v-1 (the blank to the last) adds one cycle through all L cells."""
    cells = list(range(side * side))
    odd = shuffle(cells, rng)
    return cells, (odd + len(cells) - 1) & 1


def with_blank(tiles: list[int], index: int) -> Board:
    """Insert the blank at `index` of the row-major cell order."""
    return tiles[:index] + [0] + tiles[index:]


def gen_exhaustive(args: argparse.Namespace) -> Iterator[Board]:
    """All boards of one small side, or one contiguous slice of them."""
    if args.size > 3:
        raise SystemExit("exhaustive: --size must be at most 3")
    total = math.factorial(args.size * args.size)
    if not 1 <= args.part <= args.parts:
        raise SystemExit("exhaustive: need 1 <= --part <= --parts")
    begin = total * (args.part - 1) // args.parts
    end = total * args.part // args.parts
    perms = itertools.permutations(range(args.size * args.size))
    return (list(p) for p in itertools.islice(perms, begin, end))


def gen_ordered(args: argparse.Namespace) -> Iterator[Board]:
    """Tiles in goal order with the blank in each cell: only the blank moves."""
    for side in range(args.min_size, args.size + 1):
        tiles = list(range(1, side * side))
        for index in range(side * side):
            yield with_blank(tiles, index)


def gen_sweep(args: argparse.Namespace) -> Iterator[Board]:
    """Blank in every cell with both answers: the blank-row formula traps."""
    rng = seeded(args)
    for side in range(args.min_size, args.size + 1):
        for index in range(side * side):
            for want in (True, False):
                tiles = list(range(1, side * side))
                shuffle(tiles, rng)
                yield force_truth(with_blank(tiles, index), want, rng)


def gen_random(args: argparse.Namespace) -> Iterator[Board]:
    """Random boards with alternating answers (1 x 1 boards are always YES)."""
    rng = seeded(args)
    for k in range(args.count):
        side = rng.randint(args.min_size, args.size)
        cells, parity = shuffled_board(side, rng)
        yield force_truth(cells, k % 2 == 0, rng, parity)


def long_cycle(side: int, want: bool, rng: random.Random) -> Board:
    """A board whose cell permutation is one cycle through all cells."""
    size = side * side
    while True:
        order = list(range(size))
        shuffle(order, rng)
        cells = [0] * size
        for a, b in zip(order, order[1:] + order[:1]):
            cells[a] = (b + 1) % size
        if size < 4 or is_solvable(cells) == want:
            return cells


def gen_special(args: argparse.Namespace) -> Iterator[Board]:
    """Structured boards at one side: extreme inversion counts and cycles."""
    rng = seeded(args)
    side = args.size
    size = side * side
    in_order = list(range(1, size))
    backwards = in_order[::-1]
    yield in_order + [0]
    if size >= 4:
        swapped = in_order + [0]
        swapped[0], swapped[1] = swapped[1], swapped[0]
        yield swapped
        far = in_order + [0]
        far[0], far[size - 2] = far[size - 2], far[0]
        yield far
    yield with_blank(in_order, 0)
    yield with_blank(in_order, side - 1)
    yield backwards + [0]
    yield with_blank(backwards, 0)
    yield long_cycle(side, True, rng)
    yield long_cycle(side, False, rng)
    for want in (True, False):
        tiles = in_order[:]
        shuffle(tiles, rng)
        yield force_truth(with_blank(tiles, rng.randrange(side)), want, rng)


def count_inversions(seq: list[int]) -> int:
    """Exact inversion count with a Fenwick tree (values are 1..len)."""
    top = len(seq)
    tree = [0] * (top + 1)
    total = 0
    for seen, value in enumerate(seq):
        k = value
        smaller = 0
        while k:
            smaller += tree[k]
            k &= k - 1
        total += seen - smaller
        k = value
        while k <= top:
            tree[k] += 1
            k += k & -k
    return total


def descending_blocks(count: int, rng: random.Random) -> list[int]:
    """3 or 4 value blocks in descending order, each shuffled inside.

    With B nearly equal blocks the cross-block inversions alone are about
    count^2 (B-1) / (2B) >= count^2 / 3, above 2^31 for sides >= 283.
    """
    blocks = rng.choice((3, 4))
    bounds = [count * i // blocks for i in range(blocks + 1)]
    tiles: list[int] = []
    for i in reversed(range(blocks)):
        part = list(range(bounds[i] + 1, bounds[i + 1] + 1))
        shuffle(part, rng)
        tiles.extend(part)
    return tiles


def shuffled_windows(count: int, rng: random.Random) -> list[int]:
    """Reversed tiles with random windows shuffled, keeping about half of
    the room between the maximum inversion count and 2^31."""
    tiles = list(range(count, 0, -1))
    budget = (count * (count - 1) // 2 - INT32) // 2
    widest = max(2, min(count, math.isqrt(budget)))
    spent = 0
    while spent < budget:
        width = rng.randint(2, widest)
        start = rng.randrange(count - width + 1)
        window = tiles[start : start + width]
        shuffle(window, rng)
        tiles[start : start + width] = window
        spent += width * (width - 1) // 4
    return tiles


def overflow_board(side: int, want: bool, rng: random.Random) -> Board:
    """A board whose odd inversion count wraps negative in a signed int32."""
    count = side * side - 1
    if count * (count - 1) // 2 < INT32:
        raise SystemExit("overflow: --size must be at least 257")
    if want and side % 2 == 1:
        raise SystemExit("overflow: odd inversions on an odd side always mean NO")
    use_blocks = count * count // 3 >= INT32 and rng.random() < 0.5
    tiles = descending_blocks(count, rng) if use_blocks else shuffled_windows(count, rng)
    inversions = count_inversions(tiles)
    if inversions % 2 == 0:  # an adjacent swap moves the count by exactly 1
        i = rng.randrange(count - 1)
        inversions += -1 if tiles[i] > tiles[i + 1] else 1
        tiles[i], tiles[i + 1] = tiles[i + 1], tiles[i]
    wrapped = (inversions + INT32) % (2 * INT32) - INT32
    assert INT32 <= inversions < 2 * INT32 and inversions % 2 == 1 and wrapped < 0
    if side % 2 == 1:
        rows = list(range(side))
    else:
        rows = [r for r in range(side) if (side - 1 - r) % 2 == int(want)]
    cells = with_blank(tiles, rng.choice(rows) * side + rng.randrange(side))
    assert is_solvable(cells) == want
    return cells


def gen_overflow(args: argparse.Namespace) -> Iterator[Board]:
    """Boards that defeat a 32-bit inversion counter, all with one answer."""
    rng = seeded(args)
    want = args.truth == "yes"
    return (overflow_board(args.size, want, rng) for _ in range(args.count))


def gen_multi(args: argparse.Namespace) -> Iterator[Board]:
    """One huge board among many small ones: catches state kept across cases."""
    rng = seeded(args)
    huge_at = {"first": 0, "middle": args.count // 2, "last": args.count}[args.at]
    for k in range(args.count + 1):
        side = args.size if k == huge_at else rng.randint(1, min(8, args.size))
        cells, parity = shuffled_board(side, rng)
        yield force_truth(cells, k % 2 == 0, rng, parity)


def side_type(text: str) -> int:
    """argparse type for a board side."""
    value = int(text)
    if not 1 <= value <= MAX_SIDE:
        raise argparse.ArgumentTypeError(f"side must be in 1..{MAX_SIDE}")
    return value


def seeded(args: argparse.Namespace) -> random.Random:
    """The generator's random source: built from the problem, the category and --seed, as in every package."""
    return random.Random(f"hdoj3600/{args.category}/{args.seed}")


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Build the command line: one sub-command per case category."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="category", required=True)
    specs: dict[str, tuple[str, ...]] = {
        "exhaustive": ("part",),
        "ordered": ("min",),
        "sweep": ("min", "seed"),
        "random": ("min", "count", "seed"),
        "special": ("seed",),
        "overflow": ("count", "seed", "truth"),
        "multi": ("count", "seed", "at"),
    }
    for name, options in specs.items():
        cmd = sub.add_parser(name)
        cmd.add_argument("--size", type=side_type, required=True)
        if "part" in options:
            cmd.add_argument("--part", type=int, default=1)
            cmd.add_argument("--parts", type=int, default=1)
        if "min" in options:
            cmd.add_argument("--min-size", type=side_type, default=None)
        if "count" in options:
            cmd.add_argument("--count", type=int, required=True)
        if "seed" in options:
            cmd.add_argument("--seed", type=int, required=True)
        if "truth" in options:
            cmd.add_argument("--truth", choices=("yes", "no"), required=True)
        if "at" in options:
            cmd.add_argument("--at", choices=("first", "middle", "last"), default="first")
    args = parser.parse_args(argv)
    if getattr(args, "min_size", 0) is None:
        args.min_size = args.size
    if getattr(args, "min_size", 1) > args.size:
        parser.error("--min-size must not exceed --size")
    return args


GENERATORS: dict[str, Callable[[argparse.Namespace], Iterator[Board]]] = {
    "exhaustive": gen_exhaustive,
    "ordered": gen_ordered,
    "sweep": gen_sweep,
    "random": gen_random,
    "special": gen_special,
    "overflow": gen_overflow,
    "multi": gen_multi,
}


def main() -> None:
    """Generate the file selected by the command line."""
    args = parse_args(sys.argv[1:])
    write_file(GENERATORS[args.category](args))


if __name__ == "__main__":
    main()
