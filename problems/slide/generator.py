"""Test generator for "Slide" (the n^2-1 puzzle solved by construction).

Usage: generator.py CATEGORY --size N [options]; one board on stdout. The
output depends only on the arguments (every random choice comes from
random.Random seeded with the category and --seed). Categories:

  exhaustive --size N --index K    the K-th arrangement in lexicographic order (N <= 3)
  random     --size N [--truth yes|no|any] --seed S
  reversed   --size N              tiles in decreasing order, blank last
  goal       --size N              the goal itself (answer: an empty line)
  goal-swap  --size N --seed S     the goal with two tiles exchanged (always unsolvable)
  corner     --size N --corner tl|tr|bl|br [--truth ...] --seed S
             random tiles, blank in the given corner
  long-cycle --size N [--truth ...] --seed S
             the cells form one single cycle (every tile away from home)
  trap       --size N --kind row|col --seed S
             the goal with the last two tiles of one row (or the two tiles
             of one column of the last two rows) exchanged, plus a second
             exchange in the final 2x2 block: always solvable, and it hits
             the one position where a row-by-row construction must use its
             special pattern

--size is an argument of every category so that a stress tool can shrink any
case. Boards are flat lists in row-major order; 0 is the blank.
"""

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.append(
    str(Path(__file__).resolve().parents[1] / "_lib" / "python")
)  # by hand; the judge ships tiles.py beside this file
import tiles  # noqa: E402

MIN_SIZE = 2
MAX_SIZE = 10
CORNERS = ("tl", "tr", "bl", "br")


def is_solvable(n: int, cells: list[int]) -> bool:
    """Ground truth, used to steer the solvable/unsolvable balance."""
    return tiles.is_solvable(cells, n)


def goal_board(n: int) -> list[int]:
    """1, 2, ..., n^2-1 row by row, blank last."""
    return tiles.goal_board(n, n)


swap_two_tiles = tiles.swap_two_tiles


def pick_truth(truth: str, rng: random.Random) -> bool:
    """The answer a board must have; 'any' is decided by the seed."""
    return rng.random() < 0.5 if truth == "any" else truth == "yes"


def force_truth(n: int, cells: list[int], truth: str, rng: random.Random) -> None:
    """Make the board solvable or not as asked, by one tile exchange if needed."""
    if is_solvable(n, cells) != pick_truth(truth, rng):
        swap_two_tiles(cells, rng)


def nth_permutation(size: int, index: int) -> list[int]:
    """The index-th permutation of 0..size-1 in lexicographic order."""
    free = list(range(size))
    result = []
    for remaining in range(size, 0, -1):
        block = math.factorial(remaining - 1)
        position, index = divmod(index, block)
        result.append(free.pop(position))
    return result


def make_exhaustive(n: int, index: int) -> list[int]:
    """One arrangement of the small boards, so a test can enumerate them one file each."""
    if n > 3:
        raise SystemExit("exhaustive is limited to --size 2 or 3")
    total = math.factorial(n * n)
    if not 0 <= index < total:
        raise SystemExit(f"--index must be in 0..{total - 1}")
    return nth_permutation(n * n, index)


def make_random(n: int, truth: str, rng: random.Random) -> list[int]:
    """A uniformly shuffled board with the requested answer."""
    cells = list(range(n * n))
    rng.shuffle(cells)
    force_truth(n, cells, truth, rng)
    return cells


def make_corner(n: int, corner: str, truth: str, rng: random.Random) -> list[int]:
    """Random tiles with the blank in one corner: its row decides the answer for even n."""
    row = 0 if corner[0] == "t" else n - 1
    col = 0 if corner[1] == "l" else n - 1
    cells = list(range(1, n * n))
    rng.shuffle(cells)
    cells.insert(row * n + col, 0)
    force_truth(n, cells, truth, rng)
    return cells


def make_long_cycle(n: int, truth: str, rng: random.Random) -> list[int]:
    """Every cell holds the value of the next cell in one random cycle through all cells.

    The cycle's parity is fixed, so the answer depends on where the blank
    lands; cycles are redrawn until the answer is the requested one.
    """
    want = pick_truth(truth, rng)
    while True:
        order = list(range(n * n))
        rng.shuffle(order)
        goal = goal_board(n)
        cells = [0] * (n * n)
        for position, cell in enumerate(order):
            cells[cell] = goal[order[(position + 1) % len(order)]]
        if is_solvable(n, cells) == want:
            return cells


def make_goal_swap(n: int, rng: random.Random) -> list[int]:
    """The goal with two tiles exchanged: one transposition, never solvable."""
    cells = goal_board(n)
    swap_two_tiles(cells, rng)
    return cells


def make_trap(n: int, kind: str, rng: random.Random) -> list[int]:
    """Two exchanges on the goal (so solvable) that put one pair in its stuck position.

    A row trap exchanges the last two tiles of a row r <= n-3; a column trap
    exchanges the two tiles of a column c <= n-3 of the last two rows. The
    second exchange, in the top row of the final 2x2 block, restores parity.
    """
    if n < 3:
        raise SystemExit("trap needs --size >= 3")
    cells = goal_board(n)
    line = rng.randrange(n - 2)
    if kind == "row":
        first, second = line * n + n - 2, line * n + n - 1
    else:
        first, second = (n - 2) * n + line, (n - 1) * n + line
    cells[first], cells[second] = cells[second], cells[first]
    corner = (n - 2) * n + n - 2
    cells[corner], cells[corner + 1] = cells[corner + 1], cells[corner]
    return cells


def build(args: argparse.Namespace) -> list[int]:
    """Dispatch on the category; returns one board."""
    n = args.size
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise SystemExit(f"--size must be in {MIN_SIZE}..{MAX_SIZE}")
    rng = random.Random(f"slide/{args.category}/{args.seed}")
    makers = {
        "exhaustive": lambda: make_exhaustive(n, args.index),
        "random": lambda: make_random(n, args.truth, rng),
        "reversed": lambda: list(range(n * n - 1, 0, -1)) + [0],
        "goal": lambda: goal_board(n),
        "goal-swap": lambda: make_goal_swap(n, rng),
        "corner": lambda: make_corner(n, args.corner, args.truth, rng),
        "long-cycle": lambda: make_long_cycle(n, args.truth, rng),
        "trap": lambda: make_trap(n, args.kind, rng),
    }
    return makers[args.category]()


def render(n: int, cells: list[int]) -> str:
    """The input file: n, then n rows."""
    rows = [" ".join(map(str, cells[start : start + n])) for start in range(0, n * n, n)]
    return f"{n}\n" + "\n".join(rows) + "\n"


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command line; defaults keep every category usable with few arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "category", choices=["exhaustive", "random", "reversed", "goal", "goal-swap", "corner", "long-cycle", "trap"]
    )
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--truth", choices=["yes", "no", "any"], default="any")
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--corner", choices=CORNERS, default="tl")
    parser.add_argument("--kind", choices=["row", "col"], default="row")
    return parser.parse_args(argv)


def main() -> None:
    """Write one input file to stdout."""
    args = parse_args(sys.argv[1:])
    sys.stdout.write(render(args.size, build(args)))


if __name__ == "__main__":
    main()
