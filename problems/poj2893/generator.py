"""Test generator for POJ 2893 "M x N Puzzle".

Usage: generator.py CATEGORY [options]; one complete input file on stdout.
The output depends only on the arguments (every random choice comes from
random.Random built from the category and --seed). Categories:

  exhaustive --rows R --cols C         every arrangement of an R x C board (R*C <= 8)
  random     --rows R --cols C [--truth yes|no|any] --seed S
  reversed   --rows R --cols C         tiles in decreasing order, blank last
  goal       --rows R --cols C         the goal itself
  goal-swap  --rows R --cols C --seed S    goal with two tiles exchanged
  long-cycle --rows R --cols C [--truth ...] --seed S
             cells form one single cycle (deep-recursion trap)
  overflow   --rows R --cols C --truth yes|no --seed S
             odd inversion count whose 32-bit wrap is negative
  traps      --rows R --cols C --per-row K --seed S
             K YES and K NO boards with the blank in every row
  mixed      --count K --size S --seed S [--huge-rows R --huge-cols C
             --huge-at first|middle|last]   many small boards (sides 2..S), one huge one

--size S is the side of a square board (--rows and --cols default to it) and
the largest side of the small boards of `mixed`, so that a stress tool can
shrink any category. Sides are 2..999 as in POJ 2893; single rows and columns
belong to the problem "reach". Boards are flat lists in row-major order; 0 is
the blank.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from math import isqrt
from pathlib import Path

sys.path.append(
    str(Path(__file__).resolve().parents[1] / "_lib" / "python")
)  # by hand; the judge ships tiles.py beside this file
from tiles import shuffle, swap_two_tiles  # noqa: E402

MIN_SIDE = 2
MAX_SIDE = 999
INT32_SPAN = 1 << 32
INT32_HALF = 1 << 31


def tile_inversion_parity(cells: list[int]) -> int:
    """Parity of the inversions among tiles, in O(L) through permutation cycles.

    The permutation sends each cell to the goal cell of its content; sending
    the blank to the last cell adds L-1-blank inversions, removed at the end.
    """
    size = len(cells)
    blank = cells.index(0)
    target = [value - 1 for value in cells]
    target[blank] = size - 1
    seen = bytearray(size)
    cycles = 0
    for start in range(size):
        if seen[start]:
            continue
        cycles += 1
        cell = start
        while not seen[cell]:
            seen[cell] = 1
            cell = target[cell]
    return (size - cycles + size - 1 - blank) & 1


def row_term(rows: int, cols: int, blank_row: int) -> int:
    """Parity of (M-1-r)*(N-1): the blank row only counts for even widths."""
    return ((rows - 1 - blank_row) * (cols - 1)) & 1


def is_solvable(rows: int, cols: int, cells: list[int], parity: int | None = None) -> bool:
    """Ground truth, used to steer the YES/NO balance of the generated data; `parity` is the tile inversion parity
    when already known (``shuffled_board``)."""
    blank_row = cells.index(0) // cols
    if parity is None:
        parity = tile_inversion_parity(cells)
    return (parity + row_term(rows, cols, blank_row)) % 2 == 0


def goal_board(rows: int, cols: int) -> list[int]:
    """Tiles 1..L-1 in order, blank in the last cell."""
    return list(range(1, rows * cols)) + [0]


def force_truth(
    rows: int, cols: int, cells: list[int], want: bool, rng: random.Random, parity: int | None = None
) -> None:
    """Change `cells` in place, as little as possible, so that its answer is `want`: one swap flips it."""
    if is_solvable(rows, cols, cells, parity) != want:
        swap_two_tiles(cells, rng)


def random_board(rows: int, cols: int, rng: random.Random) -> list[int]:
    """A uniformly random arrangement."""
    return shuffled_board(rows, cols, rng)[0]


def shuffled_board(rows: int, cols: int, rng: random.Random) -> tuple[list[int], int]:
    """``random_board`` and its ``tile_inversion_parity``, known from the shuffle instead of walked again.

    The cells hold 0..L-1 permuted with the shuffle's parity; the cycle walk
    renames value v to v-1 and the blank to L-1 (an L-cycle, parity L-1)
    and adds L-1-blank, so the result is the shuffle's parity plus blank.
    """
    cells = list(range(rows * cols))
    odd = shuffle(cells, rng)
    return cells, (odd + cells.index(0)) & 1


def pick_truth(truth: str, rng: random.Random) -> bool:
    """Resolve --truth; `any` is a fair coin so that data stays balanced."""
    if truth == "any":
        return rng.random() < 0.5
    return truth == "yes"


def make_random(args: argparse.Namespace, rng: random.Random) -> list[int]:
    """A random board with the requested answer."""
    cells, parity = shuffled_board(args.rows, args.cols, rng)
    force_truth(args.rows, args.cols, cells, pick_truth(args.truth, rng), rng, parity)
    return cells


def make_reversed(rows: int, cols: int) -> list[int]:
    """Tiles in decreasing order: the largest possible inversion count."""
    return list(range(rows * cols - 1, 0, -1)) + [0]


def make_goal_swap(rows: int, cols: int, rng: random.Random) -> list[int]:
    """One swap away from the goal: never solvable."""
    cells = goal_board(rows, cols)
    swap_two_tiles(cells, rng)
    return cells


def blank_parity_ok(rows: int, cols: int, cell: int, want: bool, perm_parity: int) -> bool:
    """Would a blank in `cell` give answer `want`, if the full permutation has parity perm_parity?

    Full permutation parity = inv + (L-1-blank), so inv parity follows from the blank.
    """
    size = rows * cols
    inv_parity = (perm_parity + size - 1 - cell) & 1
    solvable = (inv_parity + row_term(rows, cols, cell // cols)) % 2 == 0
    return solvable == want


def make_long_cycle(args: argparse.Namespace, rng: random.Random) -> list[int]:
    """Cells c0 -> c1 -> ... -> c(L-1) -> c0 form one cycle of length L.

    Cell c(i) holds the content whose goal cell is c(i+1). The full permutation
    parity is therefore L-1 whatever the order; the answer is steered only by
    which cell precedes the blank's goal cell (the last cell) in the cycle.
    """
    rows, cols = args.rows, args.cols
    size = rows * cols
    want = pick_truth(args.truth, rng)
    others = list(range(size - 1))
    shuffle(others, rng)
    chosen = rng.randrange(size - 1)
    while not blank_parity_ok(rows, cols, others[chosen], want, (size - 1) & 1):
        chosen = rng.randrange(size - 1)
    others[chosen], others[-1] = others[-1], others[chosen]
    order = [size - 1] + others
    cells = [0] * size
    for index, cell in enumerate(order):
        goal_cell = order[(index + 1) % size]
        cells[cell] = 0 if goal_cell == size - 1 else goal_cell + 1
    return cells


def exact_code(length: int, total: int, rng: random.Random) -> list[int]:
    """A random Lehmer code c with 0 <= c[i] <= length-1-i and sum(c) == total."""
    caps = [length - 1 - i for i in range(length)]
    ratio = total / max(1, sum(caps))
    code = [min(cap, int(cap * ratio * 2 * rng.random())) for cap in caps]
    excess = sum(code) - total
    positions = list(range(length))
    while excess:
        shuffle(positions, rng)
        for i in positions:
            if excess > 0 and code[i] > 0:
                step = min(excess, code[i], 1 + code[i] // 2)
            elif excess < 0 and code[i] < caps[i]:
                step = -min(-excess, caps[i] - code[i], 1 + (caps[i] - code[i]) // 2)
            else:
                continue
            code[i] -= step
            excess -= step
            if not excess:
                break
    return code


def decode_lehmer(code: list[int]) -> list[int]:
    """Permutation of 0..k-1 whose i-th entry has code[i] smaller entries after it."""
    free = list(range(len(code)))
    return [free.pop(c) for c in code]


def overflow_target(max_inv: int, rng: random.Random) -> int:
    """An odd count K <= max_inv whose int32 wrap is negative."""
    if max_inv < INT32_HALF + 1:
        raise SystemExit("board too small: its inversion count cannot exceed 2^31")
    while True:
        high = rng.randrange(0, max_inv // INT32_SPAN + 1) * INT32_SPAN
        target = high + (rng.randrange(INT32_HALF, INT32_SPAN) | 1)
        if target <= max_inv:
            return target


def wrap_int32(value: int) -> int:
    """What a 32-bit two's complement accumulator ends with."""
    return (value + INT32_HALF) % INT32_SPAN - INT32_HALF


def run_width(count: int) -> int:
    """Run length for tiles_with_inversions: small enough that the neighbour
    swaps of the ascending runs cover a whole width^2 step."""
    return max(2, isqrt(count) // 4)


def tiles_with_inversions(count: int, target: int, rng: random.Random) -> list[int]:
    """Tiles 1..count in an order with exactly `target` inversions.

    The tiles are cut into `blocks` runs of `width` consecutive values (plus a
    sorted tail of the largest values, which adds nothing). A run order with
    I inversions adds width^2 * I, each descending run width*(width-1)/2, and
    each swap of two neighbours inside an ascending run exactly 1, which is
    enough to land on the target exactly.
    """
    width = run_width(count)
    blocks = count // width
    pair = width * (width - 1) // 2
    descending = sorted(rng.sample(range(blocks), rng.randrange(0, blocks // 4 + 1)))
    while len(descending) * pair > target:
        descending.pop()
    rest = target - len(descending) * pair
    run_inv = rest // (width * width)
    bumps = rest - run_inv * width * width
    if run_inv > blocks * (blocks - 1) // 2:
        raise SystemExit("internal error: inversion target out of reach")
    swaps = [0] * blocks
    for position in sorted(set(range(blocks)).difference(descending)):
        swaps[position] = min(bumps, width // 2)
        bumps -= swaps[position]
    if bumps:
        raise SystemExit("internal error: inversion target out of reach")
    order = decode_lehmer(exact_code(blocks, run_inv, rng))
    flipped = set(descending)
    tiles: list[int] = []
    for position, run in enumerate(order):
        values = list(range(run * width + 1, run * width + width + 1))
        if position in flipped:
            values.reverse()
        for k in range(swaps[position]):
            values[2 * k], values[2 * k + 1] = values[2 * k + 1], values[2 * k]
        tiles.extend(values)
    tiles.extend(range(blocks * width + 1, count + 1))
    return tiles


def make_overflow(args: argparse.Namespace, rng: random.Random) -> list[int]:
    """A board whose true inversion count is odd but wraps to a negative int32.

    A solver that accumulates in `int` then tests `inv % 2 == 1` sees an even
    count. With an odd width the truth is always NO; with an even width the
    blank row decides, so both truths are possible.
    """
    rows, cols = args.rows, args.cols
    want = args.truth == "yes"
    if want and cols % 2:
        raise SystemExit("overflow --truth yes needs an even number of columns")
    count = rows * cols - 1
    width = run_width(count)
    blocks = count // width
    target = overflow_target(width * width * (blocks * (blocks - 1) // 2), rng)
    tiles = tiles_with_inversions(count, target, rng)
    assert target % 2 == 1 and wrap_int32(target) < 0
    rows_fitting = [r for r in range(rows) if (1 + row_term(rows, cols, r)) % 2 == (0 if want else 1)]
    blank = rng.choice(rows_fitting) * cols + rng.randrange(cols)
    tiles.insert(blank, 0)
    return tiles


def make_traps(args: argparse.Namespace, rng: random.Random) -> list[list[int]]:
    """Per blank row, K solvable and K unsolvable random boards."""
    rows, cols = args.rows, args.cols
    boards = []
    for blank_row in range(rows):
        for want in (True, False) * args.per_row:
            cells = [value for value in random_board(rows, cols, rng) if value]
            cells.insert(blank_row * cols + rng.randrange(cols), 0)
            if is_solvable(rows, cols, cells) != want:
                swap_two_tiles(cells, rng)
            boards.append(cells)
    return boards


def small_board(max_side: int, want: bool, rng: random.Random) -> tuple[int, int, list[int]]:
    """A random small board of random shape (sides 2..max_side) with the answer `want`."""
    rows, cols = rng.randint(MIN_SIDE, max_side), rng.randint(MIN_SIDE, max_side)
    cells, parity = shuffled_board(rows, cols, rng)
    force_truth(rows, cols, cells, want, rng, parity)
    return rows, cols, cells


def make_mixed(args: argparse.Namespace, rng: random.Random) -> list[tuple[int, int, list[int]]]:
    """Many small boards and, optionally, one huge one (state-reset trap)."""
    cases = [small_board(args.size, index % 2 == 0, rng) for index in range(args.count)]
    if args.huge_rows and args.huge_cols:
        rows, cols = args.huge_rows, args.huge_cols
        huge, parity = shuffled_board(rows, cols, rng)
        force_truth(rows, cols, huge, pick_truth("any", rng), rng, parity)
        where = {"first": 0, "middle": len(cases) // 2, "last": len(cases)}[args.huge_at]
        cases.insert(where, (rows, cols, huge))
    return cases


def render(cases: list[tuple[int, int, list[int]]]) -> str:
    """The input file: each case as `M N` then M rows, then `0 0`."""
    parts = []
    for rows, cols, cells in cases:
        parts.append(f"{rows} {cols}\n")
        for start in range(0, rows * cols, cols):
            parts.append(" ".join(map(str, cells[start : start + cols])) + "\n")
    parts.append("0 0\n")
    return "".join(parts)


def check_side(name: str, value: int) -> None:
    """Refuse sizes the validator would reject."""
    if not MIN_SIDE <= value <= MAX_SIDE:
        raise SystemExit(f"--{name} must be in {MIN_SIDE}..{MAX_SIDE}")


def build(args: argparse.Namespace) -> list[tuple[int, int, list[int]]]:
    """Dispatch on the category; returns the cases of one file."""
    rng = random.Random(f"poj2893/{args.category}/{args.seed}")
    rows, cols = args.rows, args.cols
    if args.category == "mixed":
        check_side("size", args.size)
        if args.huge_rows or args.huge_cols:
            check_side("huge-rows", args.huge_rows)
            check_side("huge-cols", args.huge_cols)
        return make_mixed(args, rng)
    check_side("rows", rows)
    check_side("cols", cols)
    if args.category == "exhaustive":
        if rows * cols > 8:
            raise SystemExit("exhaustive is limited to 8 cells")
        return [(rows, cols, list(p)) for p in itertools.permutations(range(rows * cols))]
    if args.category == "traps":
        return [(rows, cols, cells) for cells in make_traps(args, rng)]
    makers = {
        "random": lambda: make_random(args, rng),
        "reversed": lambda: make_reversed(rows, cols),
        "goal": lambda: goal_board(rows, cols),
        "goal-swap": lambda: make_goal_swap(rows, cols, rng),
        "long-cycle": lambda: make_long_cycle(args, rng),
        "overflow": lambda: make_overflow(args, rng),
    }
    return [(rows, cols, makers[args.category]())]


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command line; defaults keep every category usable with few arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "category",
        choices=["exhaustive", "random", "reversed", "goal", "goal-swap", "long-cycle", "overflow", "traps", "mixed"],
    )
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cols", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--truth", choices=["yes", "no", "any"], default="any")
    parser.add_argument("--per-row", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--huge-rows", type=int, default=0)
    parser.add_argument("--huge-cols", type=int, default=0)
    parser.add_argument("--huge-at", choices=["first", "middle", "last"], default="first")
    args = parser.parse_args(argv)
    args.rows = args.size if args.rows is None else args.rows
    args.cols = args.size if args.cols is None else args.cols
    return args


def main() -> None:
    """Write one input file to stdout."""
    sys.stdout.write(render(build(parse_args(sys.argv[1:]))))


if __name__ == "__main__":
    main()
