"""Test generator for "reach" (can one sliding-tile board be turned into another?).

Usage: generator.py CATEGORY [options]; one complete input file on stdout.
The output depends only on the arguments: every random choice comes from
random.Random built from the category and --seed. --size S is the side of a
square board (--rows and --cols default to it) and the largest side of the
small pairs of `mixed`, so that a stress tool can shrink any category; the
other size arguments are --count (pairs per file) and --steps (walk length).

  exhaustive --rows R --cols C [--to-goal]
        every ordered pair of arrangements of an R x C board ((R*C)!^2 pairs);
        with --to-goal every arrangement against the goal (POJ 2893's question)
  pairs  --rows R --cols C --count K [--kinds oo,ee,oe,eo] [--row-gap any|odd|even]
        boards with both sides >= 2 whose parity classes follow --kinds in turn
        (o: I(s) odd, e: even; oo and ee are YES, oe and eo are NO);
        --row-gap fixes the parity of the distance between the blanks' rows
  line   --rows R --cols C --count K [--flavours f1,f2,...] [--to-goal]
        single rows or columns (R == 1 or C == 1), flavours in LINE_FLAVOURS;
        --to-goal renames the tiles so that the target is the goal (tiles
        1, 2, ..., L-1 in order, blank last): POJ 2893's question on a line
  walk   --rows R --cols C --count K --steps T
        the target is the start after T random moves (YES); every second pair
        then has two target tiles exchanged (NO)
  overflow --rows R --cols C --count K
        one board of each pair has an odd key I(s) that a 32-bit int wraps to
        a negative value, the other a small key (odd: YES, even: NO)
  mixed  --count K --size S [--huge-rows R --huge-cols C --huge-at first|middle|last]
        many small pairs of random shapes (fewer than K if the file's bound of
        cells would be passed), optionally one huge pair

A board is a flat list in row-major order, 0 is the blank. I(s) is the number
of inversions among the tiles plus (blank row) * (N - 1).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from bisect import bisect_right
from math import factorial, isqrt
from pathlib import Path

sys.path.append(
    str(Path(__file__).resolve().parents[1] / "_lib" / "python")
)  # by hand; the judge ships tiles.py beside this file
from tiles import shuffle, swap_two_tiles  # noqa: E402

MAX_CELLS = 1_000_000
MAX_TOTAL_CELLS = 2_200_000
MAX_CASES = 100_000
INT32_SPAN = 1 << 32
INT32_HALF = 1 << 31
YES_KINDS = ("oo", "ee")
ALL_KINDS = ("oo", "ee", "oe", "eo")
LINE_FLAVOURS = {
    "moved-blank": True,
    "transposition": False,
    "blank-ends": True,
    "three-cycle": False,
    "identical": True,
    "adjacent-swap": False,
    "double-transposition": False,
}

Board = list[int]
Case = tuple[int, int, Board, Board]


def is_line(rows: int, cols: int) -> bool:
    """A single row or column cannot reorder its tiles: it has its own rule."""
    return rows == 1 or cols == 1


def tiles_of(board: Board) -> list[int]:
    """The tiles in reading order, blank left out."""
    return [value for value in board if value]


def tile_parity(board: Board) -> int:
    """Parity of the inversions among the tiles, in O(L) from the cycles of tile v -> slot v-1."""
    tiles = tiles_of(board)
    seen = bytearray(len(tiles))
    cycles = 0
    for start in range(len(tiles)):
        if seen[start]:
            continue
        cycles += 1
        slot = start
        while not seen[slot]:
            seen[slot] = 1
            slot = tiles[slot] - 1
    return (len(tiles) - cycles) & 1


def class_parity(cols: int, board: Board) -> int:
    """I(s) mod 2 for a board with both sides >= 2."""
    return (tile_parity(board) + (board.index(0) // cols) * (cols - 1)) & 1


def reachable(rows: int, cols: int, start: Board, target: Board) -> bool:
    """Ground truth, used to steer the YES/NO balance of the data."""
    if is_line(rows, cols):
        return tiles_of(start) == tiles_of(target)
    return class_parity(cols, start) == class_parity(cols, target)


def with_blank(tiles: list[int], cell: int) -> Board:
    """The board holding `tiles` in reading order with the blank in `cell`."""
    return tiles[:cell] + [0] + tiles[cell:]


def shuffled_tiles(size: int, rng: random.Random) -> list[int]:
    """The tiles 1..size-1 in a uniformly random order."""
    return shuffled_tiles_and_parity(size, rng)[0]


def shuffled_tiles_and_parity(size: int, rng: random.Random) -> tuple[list[int], int]:
    """``shuffled_tiles`` and their ``tile_parity``: the shuffle's own parity, as they start in order."""
    tiles = list(range(1, size))
    return tiles, shuffle(tiles, rng)


def blank_rows(rows: int, gap: str, rng: random.Random) -> tuple[int, int]:
    """Rows of the two blanks whose distance has the parity `gap` asks for."""
    first = rng.randrange(rows)
    while True:
        second = rng.randrange(rows)
        if gap == "any" or (first - second) % 2 == (1 if gap == "odd" else 0):
            return first, second


def class_board(rows: int, cols: int, row: int, parity: int, rng: random.Random) -> Board:
    """A random board with the blank in `row` and I(s) of the given parity."""
    tiles, odd = shuffled_tiles_and_parity(rows * cols, rng)
    board = with_blank(tiles, row * cols + rng.randrange(cols))
    if (odd + row * (cols - 1)) & 1 != parity:  # class_parity(cols, board) without walking the tiles again
        swap_two_tiles(board, rng)
    return board


def make_pair_2d(rows: int, cols: int, kind: str, gap: str, rng: random.Random) -> Case:
    """A pair of boards of the parity classes named by `kind` (e.g. "oe")."""
    first_row, second_row = blank_rows(rows, gap, rng)
    start = class_board(rows, cols, first_row, int(kind[0] == "o"), rng)
    target = class_board(rows, cols, second_row, int(kind[1] == "o"), rng)
    return rows, cols, start, target


def permuted_tiles(tiles: list[int], flavour: str, rng: random.Random) -> list[int]:
    """The tiles of a line target: the start's order, or that order changed as `flavour` says."""
    result = list(tiles)
    count = len(result)
    if flavour == "transposition":
        first, second = rng.sample(range(count), 2)
        result[first], result[second] = result[second], result[first]
    elif flavour == "adjacent-swap":
        first = rng.randrange(count - 1)
        result[first], result[first + 1] = result[first + 1], result[first]
    elif flavour == "three-cycle":
        a, b, c = rng.sample(range(count), 3)
        result[a], result[b], result[c] = result[b], result[c], result[a]
    elif flavour == "double-transposition":
        a, b, c, d = rng.sample(range(count), 4)
        result[a], result[b] = result[b], result[a]
        result[c], result[d] = result[d], result[c]
    return result


def feasible_flavour(flavour: str, tile_count: int) -> str:
    """The flavour itself or, when the line has too few tiles for it, a swap (still NO) or a YES flavour."""
    needs = {"transposition": 2, "adjacent-swap": 2, "three-cycle": 3, "double-transposition": 4}
    if tile_count >= needs.get(flavour, 0):
        return flavour
    return "transposition" if tile_count >= 2 else "moved-blank"


def make_line(rows: int, cols: int, flavour: str, rng: random.Random) -> Case:
    """A line pair; even permutations (3-cycles, double swaps) fool the 2D parity rule."""
    size = rows * cols
    flavour = feasible_flavour(flavour, size - 1)
    tiles = shuffled_tiles(size, rng)
    if flavour == "blank-ends":
        start_cell, target_cell = 0, size - 1
    else:
        start_cell, target_cell = rng.randrange(size), rng.randrange(size)
        if flavour == "moved-blank" and size > 1:
            while target_cell == start_cell:
                target_cell = rng.randrange(size)
    if flavour == "identical":
        target_cell = start_cell
    start = with_blank(tiles, start_cell)
    target = with_blank(permuted_tiles(tiles, flavour, rng), target_cell)
    return rows, cols, start, target


def neighbours(rows: int, cols: int, cell: int) -> list[int]:
    """Cells orthogonally adjacent to `cell`."""
    row, col = divmod(cell, cols)
    found = []
    if row > 0:
        found.append(cell - cols)
    if row < rows - 1:
        found.append(cell + cols)
    if col > 0:
        found.append(cell - 1)
    if col < cols - 1:
        found.append(cell + 1)
    return found


def random_walk(rows: int, cols: int, board: Board, steps: int, rng: random.Random) -> Board:
    """The board after `steps` random legal moves: a target reachable by construction."""
    moved = list(board)
    blank = moved.index(0)
    if len(moved) == 1:
        return moved
    for _ in range(steps):
        cell = rng.choice(neighbours(rows, cols, blank))
        moved[blank], moved[cell] = moved[cell], 0
        blank = cell
    return moved


def make_walk(rows: int, cols: int, steps: int, want: bool, rng: random.Random) -> Case:
    """A walked pair; for NO, two target tiles are then exchanged (lines need two tiles)."""
    size = rows * cols
    start = with_blank(shuffled_tiles(size, rng), rng.randrange(size))
    target = random_walk(rows, cols, start, steps, rng)
    if not want and size >= 3:
        swap_two_tiles(target, rng)
    return rows, cols, start, target


def count_inversions(sequence: list[int]) -> int:
    """Exact inversion count; blocks keep it near C speed (0.1 s for 10^5 values).

    Each value is located by bisection in the sorted values of the earlier
    blocks and in the sorted prefix of its own block.
    """
    block = max(256, 2 * isqrt(len(sequence)))
    total = 0
    done: list[int] = []
    for begin in range(0, len(sequence), block):
        local: list[int] = []
        for value in sequence[begin : begin + block]:
            total += len(done) - bisect_right(done, value)
            position = bisect_right(local, value)
            total += len(local) - position
            local.insert(position, value)
        done.extend(local)
        done.sort()
    return total


def wrap_int32(value: int) -> int:
    """What a 32-bit two's complement accumulator holds after adding up to `value`."""
    return (value + INT32_HALF) % INT32_SPAN - INT32_HALF


def even_term_row(rows: int, cols: int, rng: random.Random) -> int:
    """A random row r with r*(N-1) even, so that I(s) and the inversions share parity and sign."""
    candidates = [row for row in range(rows) if row * (cols - 1) % 2 == 0]
    return rng.choice(candidates)


def adjacent_swap(tiles: list[int], index: int) -> int:
    """Exchange tiles index and index+1 in place; returns the change of the inversion count."""
    tiles[index], tiles[index + 1] = tiles[index + 1], tiles[index]
    return 1 if tiles[index] > tiles[index + 1] else -1


def wrapping_board(rows: int, cols: int, rng: random.Random) -> Board:
    """A random board whose inversions and key are odd and wrap to a negative int32."""
    tiles = shuffled_tiles(rows * cols, rng)
    inversions = count_inversions(tiles)
    if inversions % 2 == 0:
        inversions += adjacent_swap(tiles, rng.randrange(len(tiles) - 1))
    row = even_term_row(rows, cols, rng)
    key = inversions + row * (cols - 1)
    if not (wrap_int32(inversions) < 0 and wrap_int32(key) < 0):
        raise SystemExit(
            f"overflow: a random {rows}x{cols} board has {inversions} inversions,"
            " outside [2^31, 2^32); use 95 000 to 131 000 cells"
        )
    return with_blank(tiles, row * cols + rng.randrange(cols))


def small_key_board(rows: int, cols: int, parity: int, rng: random.Random) -> Board:
    """A nearly sorted board (L random neighbour swaps) whose key has the given parity and fits an int32."""
    size = rows * cols
    tiles = list(range(1, size))
    inversions = 0
    for _ in range(size):
        inversions += adjacent_swap(tiles, rng.randrange(size - 2))
    if inversions % 2 != parity:
        inversions += adjacent_swap(tiles, rng.randrange(size - 2))
    row = even_term_row(rows, cols, rng)
    assert 0 <= inversions + row * (cols - 1) < INT32_HALF
    return with_blank(tiles, row * cols + rng.randrange(cols))


def make_overflow(rows: int, cols: int, index: int, rng: random.Random) -> Case:
    """Pair `index`: YES on even indices, NO on odd ones; the wrapping board comes first in half of each."""
    if is_line(rows, cols):
        raise SystemExit("overflow needs both sides >= 2")
    want = index % 2 == 0
    wrapping = wrapping_board(rows, cols, rng)
    small = small_key_board(rows, cols, 1 if want else 0, rng)
    if (index // 2) % 2:
        return rows, cols, small, wrapping
    return rows, cols, wrapping, small


def goal_board(size: int) -> Board:
    """Tiles 1..size-1 in order, the blank last: the target of POJ 2893."""
    return list(range(1, size)) + [0]


def make_exhaustive(rows: int, cols: int, to_goal: bool) -> list[Case]:
    """Every ordered pair of arrangements of a tiny board, or every arrangement against the goal."""
    size = rows * cols
    targets = 1 if to_goal else factorial(size)
    if factorial(size) * targets > MAX_CASES:
        raise SystemExit(f"exhaustive: {factorial(size) * targets} pairs exceed {MAX_CASES} cases")
    boards = [list(p) for p in itertools.permutations(range(size))]
    if to_goal:
        return [(rows, cols, start, goal_board(size)) for start in boards]
    return [(rows, cols, start, target) for start in boards for target in boards]


def towards_goal(case: Case) -> Case:
    """The same line question with the goal as target.

    The tiles are renamed so that the target's read 1, 2, ..., L-1, which
    keeps the answer; the target's blank then moves to the end, which on a
    line changes nothing (the blank passes every tile without reordering).
    """
    rows, cols, start, target = case
    rename = {tile: index for index, tile in enumerate(tiles_of(target), start=1)}
    rename[0] = 0
    return rows, cols, [rename[value] for value in start], goal_board(rows * cols)


def small_pair(max_side: int, want: bool, rng: random.Random) -> Case:
    """A pair of a random small shape with the answer `want`; NO redraws shapes of under 3 cells."""
    rows, cols = rng.randint(1, max_side), rng.randint(1, max_side)
    while not want and rows * cols < 3 and max_side > 1:
        rows, cols = rng.randint(1, max_side), rng.randint(1, max_side)
    if not is_line(rows, cols):
        kind = rng.choice(YES_KINDS if want else ("oe", "eo"))
        return make_pair_2d(rows, cols, kind, "any", rng)
    flavours = [name for name, truth in LINE_FLAVOURS.items() if truth == want]
    return make_line(rows, cols, rng.choice(flavours), rng)


def huge_pair(rows: int, cols: int, rng: random.Random) -> Case:
    """The one big pair of a `mixed` file, of any class or flavour."""
    if is_line(rows, cols):
        return make_line(rows, cols, rng.choice(list(LINE_FLAVOURS)), rng)
    return make_pair_2d(rows, cols, rng.choice(ALL_KINDS), "any", rng)


def make_mixed(args: argparse.Namespace, rng: random.Random) -> list[Case]:
    """Many small pairs (YES and NO in turn) and optionally one huge pair: a state-reset trap.

    The small pairs stop early rather than pass the file's bound of cells
    (the huge pair's included), so a line written for tiny pairs still gives
    a valid file when stress asks for larger ones.
    """
    cells = 2 * args.huge_rows * args.huge_cols
    cases = []
    for index in range(args.count):
        pair = small_pair(args.size, index % 2 == 0, rng)
        cells += 2 * pair[0] * pair[1]
        if cells > MAX_TOTAL_CELLS:
            break
        cases.append(pair)
    if args.huge_rows and args.huge_cols:
        where = {"first": 0, "middle": len(cases) // 2, "last": len(cases)}[args.huge_at]
        cases.insert(where, huge_pair(args.huge_rows, args.huge_cols, rng))
    return cases


def split_list(text: str, allowed: tuple[str, ...] | list[str]) -> list[str]:
    """A comma-separated option, every item checked against `allowed`."""
    items = text.split(",")
    for item in items:
        if item not in allowed:
            raise SystemExit(f"unknown item {item!r}; expected one of {', '.join(allowed)}")
    return items


def make_shaped(args: argparse.Namespace, rng: random.Random) -> list[Case]:
    """The categories that repeat one shape --count times."""
    rows, cols = args.rows, args.cols
    if args.category == "pairs":
        if is_line(rows, cols):
            raise SystemExit("pairs needs both sides >= 2 (use line)")
        kinds = split_list(args.kinds, ALL_KINDS)
        if args.row_gap == "odd" and rows < 2:
            raise SystemExit("--row-gap odd needs two rows")
        return [make_pair_2d(rows, cols, kinds[i % len(kinds)], args.row_gap, rng) for i in range(args.count)]
    if args.category == "line":
        if not is_line(rows, cols):
            raise SystemExit("line needs --rows 1 or --cols 1")
        flavours = split_list(args.flavours, list(LINE_FLAVOURS))
        cases = [make_line(rows, cols, flavours[i % len(flavours)], rng) for i in range(args.count)]
        return [towards_goal(case) for case in cases] if args.to_goal else cases
    if args.category == "walk":
        return [make_walk(rows, cols, args.steps, i % 2 == 0, rng) for i in range(args.count)]
    return [make_overflow(rows, cols, i, rng) for i in range(args.count)]


def check_bounds(cases: list[Case]) -> None:
    """Refuse a file the validator would reject."""
    if not 1 <= len(cases) <= MAX_CASES:
        raise SystemExit(f"a file holds 1..{MAX_CASES} cases, not {len(cases)}")
    for rows, cols, _, _ in cases:
        if rows < 1 or cols < 1 or rows * cols > MAX_CELLS:
            raise SystemExit(f"shape {rows}x{cols} outside 1 <= M, N and M*N <= {MAX_CELLS}")
    total = sum(2 * rows * cols for rows, cols, _, _ in cases)
    if total > MAX_TOTAL_CELLS:
        raise SystemExit(f"{total} cells in one file exceed {MAX_TOTAL_CELLS}")


JOINED_AT_ONCE = 1000  # values a single join takes in a long row or column


def joined(values: Board, separator: str) -> str:
    """The values written out with ``separator`` between them, a thousand at a time: one join over the 10^6 strings
    of a single row or column took 0.35 s, the same in pieces 0.22 s."""
    return separator.join(
        [
            separator.join(map(str, values[begin : begin + JOINED_AT_ONCE]))
            for begin in range(0, len(values), JOINED_AT_ONCE)
        ]
    )


def render_board(cols: int, board: Board) -> str:
    """M lines of N integers; a single column is joined as one row of lines (10^6 lines)."""
    if cols == 1:
        return joined(board, "\n") + "\n"
    if cols <= JOINED_AT_ONCE:
        return "".join(" ".join(map(str, board[begin : begin + cols])) + "\n" for begin in range(0, len(board), cols))
    return "".join(joined(board[begin : begin + cols], " ") + "\n" for begin in range(0, len(board), cols))


def render(cases: list[Case]) -> str:
    """The input file: per case `M N`, the start board, the target board; then `0 0`."""
    parts = []
    for rows, cols, start, target in cases:
        parts.append(f"{rows} {cols}\n")
        parts.append(render_board(cols, start))
        parts.append(render_board(cols, target))
    parts.append("0 0\n")
    return "".join(parts)


def build(args: argparse.Namespace) -> list[Case]:
    """Dispatch on the category; returns the cases of one file."""
    rng = random.Random(f"reach/{args.category}/{args.seed}")
    if args.to_goal and args.category not in ("exhaustive", "line"):
        raise SystemExit("--to-goal applies to exhaustive and line only")
    if args.category == "exhaustive":
        return make_exhaustive(args.rows, args.cols, args.to_goal)
    if args.category == "mixed":
        return make_mixed(args, rng)
    return make_shaped(args, rng)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command line; defaults keep every category usable with few arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("category", choices=["exhaustive", "pairs", "line", "walk", "overflow", "mixed"])
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cols", type=int)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(ALL_KINDS))
    parser.add_argument("--row-gap", choices=["any", "odd", "even"], default="any")
    parser.add_argument("--flavours", default=",".join(LINE_FLAVOURS))
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--to-goal", action="store_true")
    parser.add_argument("--huge-rows", type=int, default=0)
    parser.add_argument("--huge-cols", type=int, default=0)
    parser.add_argument("--huge-at", choices=["first", "middle", "last"], default="first")
    args = parser.parse_args(argv)
    args.rows = args.size if args.rows is None else args.rows
    args.cols = args.size if args.cols is None else args.cols
    return args


def main() -> None:
    """Write one input file to stdout."""
    cases = build(parse_args(sys.argv[1:]))
    check_bounds(cases)
    sys.stdout.write(render(cases))


if __name__ == "__main__":
    main()
