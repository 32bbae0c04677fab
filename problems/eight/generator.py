"""Test generator for HDU 1043 "Eight".

Usage: generator.py CATEGORY [--size N] [--seed S] [--mix]; one complete
input file on stdout. The output depends only on the arguments (every random
choice comes from random.Random built from the category and the seed).

  near     --size D          every board at most D moves from the goal, by depth
  deepest  --size N          the N boards farthest from the goal (31, 30, 29, ... moves)
  depths   --size N --seed S N solvable boards, spread evenly over the depths 0..31
  random   --size N --seed S N random boards, solvable and unsolvable alternating
                             (--truth solvable|unsolvable: only one kind)
  swapped  --size N --seed S N unsolvable boards: a board at most 3 moves from
                             the goal with two tiles exchanged
  ordered  --size N          the first N of: tiles 1..8 in order, then in reverse,
                             with the blank in each of the nine cells (18, all solvable)

--mix follows every board of near, deepest and depths by an unsolvable twin
(two of its tiles exchanged), so such a file is half solvable. Sizes are
arguments so that a stress tool can shrink any category. Depths come from one
breadth-first search from the goal over the 9!/2 solvable boards; moves are
reversible, so a board's BFS depth is its optimal number of moves.
"""

import argparse
import random
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.append(
    str(Path(__file__).resolve().parents[1] / "_lib" / "python")
)  # by hand; the judge ships tiles.py beside this file
import tiles  # noqa: E402

GOAL = "12345678x"
MAX_BOARDS = 1000
NEIGHBOURS = tuple(
    tuple(
        near
        for near in (cell - 3, cell + 3, cell - 1 if cell % 3 else -1, cell + 1 if cell % 3 < 2 else -1)
        if 0 <= near < 9
    )
    for cell in range(9)
)


def slide(board: str, blank: int, target: int) -> str:
    """The board after the blank at `blank` swaps with the tile at `target`."""
    cells = list(board)
    cells[blank], cells[target] = cells[target], cells[blank]
    return "".join(cells)


def layers_from_goal(max_depth: int = 99) -> list[list[str]]:
    """Boards grouped by their distance from the goal, in deterministic BFS order."""
    seen = {GOAL}
    layers = [[GOAL]]
    while len(layers) <= max_depth:
        frontier = []
        for board in layers[-1]:
            blank = board.index("x")
            for target in NEIGHBOURS[blank]:
                following = slide(board, blank, target)
                if following not in seen:
                    seen.add(following)
                    frontier.append(following)
        if not frontier:
            break
        layers.append(frontier)
    return layers


def solvable(board: str) -> bool:
    """The shared parity rule on this generator's 9-character boards."""
    return tiles.is_solvable([0 if tile == "x" else int(tile) for tile in board], 3)


def swap_two_tiles(board: str, rng: random.Random) -> str:
    """The board with two random tiles (never the blank) exchanged: its solvability flipped."""
    cells = list(board)
    tiles.swap_two_tiles(cells, rng, blank="x")
    return "".join(cells)


def with_twins(boards: list[str], rng: random.Random) -> list[str]:
    """Each board followed by its unsolvable twin (two tiles exchanged)."""
    return [twin for board in boards for twin in (board, swap_two_tiles(board, rng))]


def make_near(depth: int) -> list[str]:
    """All boards within `depth` moves of the goal, nearest first."""
    return [board for layer in layers_from_goal(depth) for board in layer]


def make_deepest(count: int) -> list[str]:
    """The `count` boards with the longest optimal solutions, deepest first."""
    boards: list[str] = []
    for layer in reversed(layers_from_goal()):
        boards.extend(sorted(layer)[: count - len(boards)])
    return boards


def make_depths(count: int, rng: random.Random) -> list[str]:
    """`count` boards, board i at depth i mod 32 (so every depth appears), in random order."""
    layers = layers_from_goal()
    boards = [rng.choice(layers[index % len(layers)]) for index in range(count)]
    rng.shuffle(boards)
    return boards


def random_board(want_solvable: bool, rng: random.Random) -> str:
    """A uniformly random board of the requested kind."""
    cells = list(GOAL)
    rng.shuffle(cells)
    board = "".join(cells)
    if solvable(board) != want_solvable:
        board = swap_two_tiles(board, rng)
    return board


def make_random(count: int, truth: str, rng: random.Random) -> list[str]:
    """Random boards; `truth` both alternates solvable and unsolvable."""
    kinds = {"both": (True, False), "solvable": (True,), "unsolvable": (False,)}[truth]
    return [random_board(kinds[index % len(kinds)], rng) for index in range(count)]


def make_swapped(count: int, rng: random.Random) -> list[str]:
    """Unsolvable boards that look almost solved: they trap searches without a parity test."""
    near = make_near(3)
    return [swap_two_tiles(rng.choice(near), rng) for _ in range(count)]


def make_ordered() -> list[str]:
    """Tiles in order and in reverse (28 inversions, even) with the blank in every cell."""
    boards = []
    for order in ("12345678", "87654321"):
        for blank in range(9):
            boards.append(order[:blank] + "x" + order[blank:])
    return boards


def build(args: argparse.Namespace) -> list[str]:
    """Dispatch on the category; the boards of one file, as 9-character strings."""
    rng = random.Random(f"eight/{args.category}/{args.seed}")
    makers = {
        "near": lambda: make_near(args.size),
        "deepest": lambda: make_deepest(args.size),
        "depths": lambda: make_depths(args.size, rng),
        "random": lambda: make_random(args.size, args.truth, rng),
        "swapped": lambda: make_swapped(args.size, rng),
        "ordered": lambda: make_ordered()[: args.size],
    }
    boards = makers[args.category]()
    if args.mix:
        if args.category not in ("near", "deepest", "depths"):
            raise SystemExit("--mix only applies to near, deepest and depths")
        boards = with_twins(boards, rng)
    if not 1 <= len(boards) <= MAX_BOARDS:
        raise SystemExit(f"{len(boards)} boards; a file holds 1..{MAX_BOARDS}")
    return boards


def render(boards: list[str]) -> Iterator[str]:
    """One input line per board: nine tokens separated by single spaces."""
    for board in boards:
        yield " ".join(board) + "\n"


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command line; every category works with its defaults."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("category", choices=["near", "deepest", "depths", "random", "swapped", "ordered"])
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--truth", choices=["both", "solvable", "unsolvable"], default="both")
    parser.add_argument("--mix", action="store_true")
    return parser.parse_args(argv)


def main() -> None:
    """Write one input file to stdout."""
    sys.stdout.write("".join(render(build(parse_args(sys.argv[1:])))))


if __name__ == "__main__":
    main()
