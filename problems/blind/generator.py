"""Test generator for "Blindfold": the hidden boards the interactor holds.

Usage: generator.py CATEGORY [options]; one complete input file on stdout.
The output depends only on the arguments: every random choice comes from
random.Random built from the category and --seed. --size is the number of
boards in every category, so that a stress tool can shrink a failing file
board by board. The file is the interactor's, never the contestant's: each
board comes with the fewest moves that solve it (-1 when none do), worked
out here by a breadth-first search from the goal.

  all     --rows R --cols C [--size N]
        every arrangement of an R x C board in lexicographic order (the
        first N of them with --size)
  random  --rows R --cols C --size N --seed S [--truth yes|no|mix|any]
        N uniformly random boards that can be solved (yes), cannot (no),
        both in turn (mix) or either (any)
  mixed   --size N --seed S
        N random boards of random shapes, solvable or not
  depths  --rows R --cols C --size N --seed S
        N solvable boards spread evenly over the distances 0 .. the largest
  deepest --rows R --cols C --size N --seed S
        N boards drawn from the farthest distance of the shape (then the
        next farthest when the farthest has too few)
"""

import argparse
import itertools
import random
import sys
from collections import deque

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
MAX_BOARDS = 1000
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def goal(rows: int, cols: int) -> bytes:
    return bytes(list(range(1, rows * cols)) + [0])


def distances(rows: int, cols: int) -> dict[bytes, int]:
    """The fewest moves from every solvable board to the goal (a board is its cells in reading order, 0 the blank)."""
    start = goal(rows, cols)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        blank = board.index(0)
        r, c = divmod(blank, cols)
        for dr, dc in STEPS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols:
                cells = bytearray(board)
                other = nr * cols + nc
                cells[blank], cells[other] = cells[other], 0
                nxt = bytes(cells)
                if nxt not in dist:
                    dist[nxt] = dist[board] + 1
                    queue.append(nxt)
    return dist


def unsolvable_twin(board: bytes) -> bytes:
    """The board with its first two tiles exchanged: the other half of the arrangements, none of which can be solved."""
    cells = bytearray(board)
    first, second = [i for i, tile in enumerate(cells) if tile][:2]
    cells[first], cells[second] = cells[second], cells[first]
    return bytes(cells)


def random_board(rng: random.Random, rows: int, cols: int, dist: dict[bytes, int], solvable: bool) -> bytes:
    cells = list(range(rows * cols))
    rng.shuffle(cells)
    board = bytes(cells)
    return board if (board in dist) == solvable else unsolvable_twin(board)


def emit(boards: list[tuple[int, int, bytes, int]]) -> None:
    out = [f"{len(boards)}"]
    for rows, cols, board, moves in boards:
        out.append(f"{rows} {cols} {moves}")
        out += [" ".join(str(tile) for tile in board[r * cols : (r + 1) * cols]) for r in range(rows)]
    sys.stdout.write("\n".join(out) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("category", choices=["all", "random", "mixed", "depths", "deepest"])
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--cols", type=int, default=3)
    parser.add_argument("--size", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--truth", choices=["yes", "no", "mix", "any"], default="any")
    args = parser.parse_args()
    if args.category != "mixed" and (args.rows, args.cols) not in SHAPES:
        parser.error(f"shape {args.rows}x{args.cols}: one of {SHAPES}")
    size = args.size if args.size is not None else MAX_BOARDS
    if not 1 <= size <= MAX_BOARDS:
        parser.error(f"--size must be in 1..{MAX_BOARDS}")
    rng = random.Random(f"{args.category}/{args.seed}")
    rows, cols = args.rows, args.cols
    tables: dict[tuple[int, int], dict[bytes, int]] = {}

    def table(shape: tuple[int, int]) -> dict[bytes, int]:
        if shape not in tables:
            tables[shape] = distances(*shape)
        return tables[shape]

    chosen: list[tuple[int, int, bytes]] = []
    if args.category == "all":
        every = itertools.permutations(range(rows * cols))
        chosen = [(rows, cols, bytes(p)) for p in itertools.islice(every, size)]
    elif args.category in ("random", "mixed"):
        for index in range(size):
            shape = rng.choice(SHAPES) if args.category == "mixed" else (rows, cols)
            truth = {"yes": True, "no": False, "mix": index % 2 == 0, "any": rng.random() < 0.5}[args.truth]
            chosen.append((*shape, random_board(rng, *shape, table(shape), truth)))
    else:
        dist = table((rows, cols))
        layers: dict[int, list[bytes]] = {}
        for board, moves in sorted(dist.items()):
            layers.setdefault(moves, []).append(board)
        deepest = max(layers)
        if args.category == "depths":
            wanted = [round(i * deepest / max(1, size - 1)) for i in range(size)]
        else:
            order = sorted(layers, reverse=True)
            pool = [board for moves in order for board in layers[moves]][: max(size, len(layers[deepest]))]
            wanted = []
            chosen = [(rows, cols, board) for board in rng.sample(pool, min(size, len(pool)))]
        for moves in wanted:
            near = min(layers, key=lambda d: (abs(d - moves), d))
            chosen.append((rows, cols, rng.choice(layers[near])))
    emit([(r, c, board, table((r, c)).get(board, -1)) for r, c, board in chosen])


if __name__ == "__main__":
    main()
