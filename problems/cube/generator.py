"""Test generator for POJ 1507 "Commedia dell' arte" (the M x M x M sliding cube).

Usage: ``generator.py CATEGORY --size M [options]``; writes one complete
multi-case input file to stdout.  The bytes depend only on the arguments:
every random choice comes from random.Random built from the category and
--seed, so the judge can regenerate large files on demand.

A board is a flat list of M^3 numbers; cell (x, y, z) is index x + M*y + M*M*z,
the order in which the input lists them.  0 is the free slot.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.append(
    str(Path(__file__).resolve().parents[1] / "_lib" / "python")
)  # by hand; the judge ships tiles.py beside this file
from tiles import shuffle, swap_two_tiles  # noqa: E402

MAX_M = 100
MAX_T = 50_000
MAX_CELLS = 1_100_000
INT32_WRAP = 1 << 32
INT32_SIGN = 1 << 31

Board = list[int]


def cell_count(m: int) -> int:
    """Number of slots of an m-cube."""
    return m * m * m


def coordinates(m: int, index: int) -> tuple[int, int, int]:
    """(x, y, z) of a flat index; x varies fastest, as in the input."""
    return index % m, (index // m) % m, index // (m * m)


def tile_inversion_parity(board: Board) -> int:
    """Parity of the inversions among the tiles, the blank left out.

    Why cycles: the board read as a permutation of 0..L-1 has parity
    (L - #cycles) mod 2, which equals the parity of its inversions; the blank
    (value 0) at index p is smaller than the p values before it, so it adds
    exactly p inversions, which we take back.  O(L), no big counts.
    """
    size = len(board)
    seen = bytearray(size)
    cycles = 0
    for start in range(size):
        if not seen[start]:
            cycles += 1
            j = start
            while not seen[j]:
                seen[j] = 1
                j = board[j]
    return (size - cycles + board.index(0)) & 1


def distance_parity(m: int, blank: int) -> int:
    """Parity that the blank's position adds: dy + dz for even M, nothing for odd M."""
    if m % 2:
        return 0
    _, y, z = coordinates(m, blank)
    return ((m - 1 - y) + (m - 1 - z)) & 1


def solvable(m: int, board: Board, parity: int | None = None) -> bool:
    """Whether the goal can be reached (the rule the statement's notes explain); ``parity`` is the tile inversion
    parity when already known (``shuffled_board``)."""
    if parity is None:
        parity = tile_inversion_parity(board)
    return (parity + distance_parity(m, board.index(0))) % 2 == 0


def place_blank(tiles: list[int], blank: int) -> Board:
    """Board with the tiles in reading order and the blank at index ``blank``."""
    return tiles[:blank] + [0] + tiles[blank:]


def random_board(m: int, rng: random.Random, blank: int | None = None) -> Board:
    """Uniformly shuffled tiles; the blank at ``blank`` or anywhere."""
    return shuffled_board(m, rng, blank)[0]


def shuffled_board(m: int, rng: random.Random, blank: int | None = None) -> tuple[Board, int]:
    """``random_board`` and its ``tile_inversion_parity``: the tiles start in order, so it is the shuffle's own parity,
    known without walking a million cells again."""
    size = cell_count(m)
    tiles = list(range(1, size))
    odd = shuffle(tiles, rng)
    return place_blank(tiles, rng.randrange(size) if blank is None else blank), odd


def with_truth(m: int, board: Board, want: bool | None, rng: random.Random, parity: int | None = None) -> Board:
    """Force the answer to ``want`` (None keeps it) by swapping two tiles if needed.

    The 1-cube's only state is solvable; it is kept whatever ``want`` says.
    """
    if want is not None and m >= 2 and solvable(m, board, parity) != want:
        swap_two_tiles(board, rng)
    return board


def truth_cycle(truth: str, index: int) -> bool | None:
    """The wanted answer of the index-th board: fixed, alternating, or free."""
    if truth == "yes":
        return True
    if truth == "no":
        return False
    if truth == "mix":
        return index % 2 == 0
    return None


def format_case(m: int, board: Board) -> str:
    """The input text of one case: M, then one line per layer z."""
    layer = m * m
    lines = [str(m)]
    lines.extend(" ".join(map(str, board[z * layer : (z + 1) * layer])) for z in range(m))
    return "\n".join(lines) + "\n"


def write_cases(cases: list[tuple[int, Board]]) -> None:
    """Check our own limits, then print the file."""
    if not 1 <= len(cases) <= MAX_T:
        raise SystemExit(f"{len(cases)} cases: outside 1..{MAX_T}")
    total = sum(cell_count(m) for m, _ in cases)
    if total > MAX_CELLS:
        raise SystemExit(f"{total} cells: more than {MAX_CELLS}")
    out = sys.stdout
    out.write(f"{len(cases)}\n")
    for m, board in cases:
        out.write(format_case(m, board))


def gen_random(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """``--count`` shuffled boards with the blank anywhere."""
    rng = seeded(args)
    cases = []
    for i in range(args.count):
        board, parity = shuffled_board(args.size, rng)
        cases.append((args.size, with_truth(args.size, board, truth_cycle(args.truth, i), rng, parity)))
    return cases


def gen_exhaustive(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """Every arrangement of a 1- or 2-cube, in lexicographic order."""
    if args.size > 2:
        raise SystemExit("exhaustive: only sizes 1 and 2 fit in one file")
    return [(args.size, list(p)) for p in itertools.permutations(range(cell_count(args.size)))]


def gen_positions(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """For every blank slot one solvable and one unsolvable board (every layer, row, column)."""
    rng = seeded(args)
    cases = []
    for blank in range(cell_count(args.size)):
        wants = [True, False] if rng.random() < 0.5 else [False, True]
        for want in wants:
            cases.append((args.size, with_truth(args.size, random_board(args.size, rng, blank), want, rng)))
    return cases


def axis_trap_slots(m: int, kind: str) -> list[int]:
    """Blank slots whose x distance is odd while dy + dz is even (xodd), or the converse (yzodd).

    Why: a solver that adds the wrong axes (x+y, x+y+z) or adds a distance for
    odd M disagrees with the truth exactly on such slots.
    """
    slots = []
    for index in range(cell_count(m)):
        x, y, z = coordinates(m, index)
        dx, dyz = (m - 1 - x) & 1, ((m - 1 - y) + (m - 1 - z)) & 1
        if (kind == "xodd" and dx == 1 and dyz == 0) or (kind == "yzodd" and dx == 0 and dyz == 1):
            slots.append(index)
    return slots


def gen_axis(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """``--count`` boards with the blank on axis-trap slots, answers alternating."""
    rng = seeded(args)
    slots = axis_trap_slots(args.size, args.kind) or [0]  # the 1-cube has no trap slot
    return [
        (
            args.size,
            with_truth(args.size, random_board(args.size, rng, rng.choice(slots)), truth_cycle(args.truth, i), rng),
        )
        for i in range(args.count)
    ]


def goal_board(m: int) -> Board:
    """The solved cube."""
    return list(range(1, cell_count(m))) + [0]


def gen_goal(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """The solved cube itself."""
    return [(args.size, goal_board(args.size))]


def gen_goal_swap(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """The solved cube with two tiles exchanged: never solvable."""
    board = goal_board(args.size)
    swap_two_tiles(board, seeded(args))
    return [(args.size, board)]


def gen_reversed(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """The solved cube read backwards (blank first), or reversed tiles with the blank at the goal."""
    tiles = list(range(cell_count(args.size) - 1, 0, -1))
    blank = 0 if args.blank == "first" else len(tiles)
    return [(args.size, place_blank(tiles, blank))]


def neighbours(m: int, index: int) -> list[int]:
    """Face neighbours of a slot."""
    x, y, z = coordinates(m, index)
    result = []
    for coord, step in ((x, 1), (y, m), (z, m * m)):
        if coord > 0:
            result.append(index - step)
        if coord < m - 1:
            result.append(index + step)
    return result


def gen_walk(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """The goal scrambled by real moves (solvable), optionally spoiled by one tile swap."""
    rng = seeded(args)
    board = goal_board(args.size)
    blank = len(board) - 1
    if args.size > 1:
        for _ in range(args.steps):
            nxt = rng.choice(neighbours(args.size, blank))
            board[blank], board[nxt] = board[nxt], 0
            blank = nxt
    if args.swap:
        swap_two_tiles(board, rng)
    return [(args.size, board)]


def gen_long_cycle(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """Tiles forming one cycle of length n (or n-1, one tile fixed) so that the answer is ``--truth``.

    Why: an n-cycle has parity n-1; dropping one tile from the cycle flips it,
    which is how an odd cube (where only the tiles matter) gets either answer.
    """
    rng = seeded(args)
    m = args.size
    if m < 2:
        return [(m, [0])]
    size = cell_count(m)
    n = size - 1
    blank = rng.randrange(size)
    want_inv = distance_parity(m, blank) ^ (0 if args.truth == "yes" else 1)
    fixed = rng.randrange(n) if (n - 1) & 1 != want_inv else None
    order = [i for i in range(n) if i != fixed]
    shuffle(order, rng)  # linked end to end: a uniformly random single cycle
    target = list(range(n))
    for here, there in zip(order, order[1:] + order[:1]):
        target[here] = there
    board = place_blank([v + 1 for v in target], blank)
    return [(m, board)]


def block_layout(n: int, rng: random.Random) -> tuple[list[tuple[int, int, int, bool]], int]:
    """Tiles 1..n as value blocks in random order, each block rotated and maybe reversed.

    Returns the blocks (first value, size, rotation, reversed) in reading
    order and the exact inversion count, found without an O(n log n) count:
    a block of size s rotated by t has t(s-t) inversions (reversed: s(s-1)/2
    minus that), and two blocks out of order add the product of their sizes.
    """
    width = max(2, int(n**0.5))
    starts = list(range(1, n + 1, width))
    sizes = [min(width, n + 1 - s) for s in starts]
    order = list(range(len(starts)))
    shuffle(order, rng)
    fenwick = [0] * (len(order) + 1)
    placed = 0
    count = 0
    blocks = []
    for block in order:
        below = 0
        i = block
        while i > 0:
            below += fenwick[i]
            i -= i & -i
        count += sizes[block] * (placed - below)
        i = block + 1
        while i <= len(order):
            fenwick[i] += sizes[block]
            i += i & -i
        placed += sizes[block]
        s = sizes[block]
        turn = rng.randrange(s)
        backwards = rng.random() < 0.5
        count += s * (s - 1) // 2 - turn * (s - turn) if backwards else turn * (s - turn)
        blocks.append((starts[block], s, turn, backwards))
    return blocks, count


def wraps_negative_odd(count: int, n: int) -> bool:
    """True when an int32 accumulator ends negative and odd (so ``inv % 2 == 1`` is false).

    Cubes too small to reach 2^31 inversions (M < 41) only need an odd count,
    so that shrunken versions of the case still generate.
    """
    if n * (n - 1) // 2 < INT32_SIGN:
        return count % 2 == 1
    return count % 2 == 1 and count % INT32_WRAP >= INT32_SIGN


def overflow_tiles(n: int, rng: random.Random) -> list[int]:
    """A tile order whose exact inversion count is odd and wraps to a negative int32."""
    for _ in range(10_000):
        blocks, count = block_layout(n, rng)
        if wraps_negative_odd(count, n):
            tiles: list[int] = []
            for first, s, turn, backwards in blocks:
                segment = list(range(first + s - 1, first - 1, -1)) if backwards else list(range(first, first + s))
                tiles.extend(segment[turn:] + segment[:turn])
            return tiles
    raise SystemExit("overflow: no layout found")


def gen_overflow(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """An odd inversion count that a 32-bit counter sees as a negative number, answer ``--truth``.

    Odd M: the answer is the inversion parity alone, so only 'no' traps exist.
    """
    rng = seeded(args)
    m = args.size
    if m < 2:
        return [(m, [0])]
    size = cell_count(m)
    want_distance = 1 if args.truth == "yes" else 0
    if m % 2 and want_distance:
        raise SystemExit("overflow: an odd cube with an odd count is never solvable")
    slots = [b for b in range(size) if distance_parity(m, b) == want_distance]
    blank = rng.choice(slots)
    return [(m, place_blank(overflow_tiles(size - 1, rng), blank))]


def gen_mixed(args: argparse.Namespace) -> list[tuple[int, Board]]:
    """One big random case among many small ones (sizes 1..--small-max), to catch unreset state.

    Size 1 is kept rare: it is always solvable and would tip the yes/no balance.
    """
    rng = seeded(args)
    small: list[tuple[int, Board]] = []
    cells = 0
    while cells < args.extra_cells and len(small) < MAX_T - 1:
        m = 1 if rng.random() < 0.1 or args.small_max < 2 else rng.randint(2, args.small_max)
        want = None if m == 1 else rng.random() < 0.5
        small.append((m, with_truth(m, random_board(m, rng), want, rng)))
        cells += cell_count(m)
    board, parity = shuffled_board(args.size, rng)
    big = (args.size, with_truth(args.size, board, rng.random() < 0.5, rng, parity))
    where = {"start": 0, "middle": len(small) // 2, "end": len(small)}[args.where]
    return small[:where] + [big] + small[where:]


CATEGORIES: dict[str, Callable[[argparse.Namespace], list[tuple[int, Board]]]] = {
    "random": gen_random,
    "exhaustive": gen_exhaustive,
    "positions": gen_positions,
    "axis": gen_axis,
    "goal": gen_goal,
    "goal-swap": gen_goal_swap,
    "reversed": gen_reversed,
    "walk": gen_walk,
    "long-cycle": gen_long_cycle,
    "overflow": gen_overflow,
    "mixed": gen_mixed,
}


def seeded(args: argparse.Namespace) -> random.Random:
    """The generator's random source: built from the problem, the category and --seed, as in every package."""
    return random.Random(f"cube/{args.category}/{args.seed}")


def parse_args(argv: Iterable[str]) -> argparse.Namespace:
    """Command line; every category takes --size so a stress tool can shrink it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("category", choices=sorted(CATEGORIES))
    parser.add_argument("--size", type=int, required=True, help="cube edge M (big case for mixed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=1, help="boards per file (random, axis)")
    parser.add_argument(
        "--truth",
        choices=["yes", "no", "mix", "any"],
        default="any",
        help="wanted answer; mix alternates, any keeps chance (long-cycle, overflow: yes or no)",
    )
    parser.add_argument("--kind", choices=["xodd", "yzodd"], default="xodd", help="axis trap kind")
    parser.add_argument("--blank", choices=["first", "last"], default="first", help="reversed: blank slot")
    parser.add_argument("--steps", type=int, default=100_000, help="walk: blank moves")
    parser.add_argument("--swap", action="store_true", help="walk: exchange two tiles at the end")
    parser.add_argument("--small-max", type=int, default=4, help="mixed: largest small cube")
    parser.add_argument("--extra-cells", type=int, default=60_000, help="mixed: cells in small cubes")
    parser.add_argument("--where", choices=["start", "middle", "end"], default="middle", help="mixed: big case slot")
    args = parser.parse_args(list(argv))
    if not 1 <= args.size <= MAX_M:
        parser.error(f"--size must be in 1..{MAX_M}")
    return args


def main() -> None:
    args = parse_args(sys.argv[1:])
    write_cases(CATEGORIES[args.category](args))


if __name__ == "__main__":
    main()
