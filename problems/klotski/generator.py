"""Test generator for "Klotski".

Usage: generator.py CATEGORY [options]; one complete input file on stdout.
The output depends only on the arguments: every random choice comes from
random.Random built from the category and --seed. --size is the number of
boards of a file in every category that has a choice, so that a stress tool
can shrink a failing file board by board; `random` and `farthest` stop
early rather than pass the file's bound of MAX_POSITIONS reachable positions
(so a line meant for one large board still works when stress asks for ten).

  classic  --size K [--first I] [--mirror]
        the named classic layouts I, I+1, ..., I+K-1 of CLASSICS (4 wide,
        5 high), optionally mirrored left to right (same optimum)
  all      --rows R --cols C [--with-walls]
        every arrangement of an R x C board (one 2x2 piece, any other pieces,
        empty cells, and with --with-walls wall cells), in a fixed order
  random   --rows R --cols C --size N --seed S [--walls K] [--empty E]
           [--truth yes|no|mix|any] [--min-positions P] [--max-positions P]
        N random boards with K walls and E empty cells whose number of
        reachable positions lies in [min, max] and whose exit is reachable
        (yes), not reachable (no), both in turn (mix) or either (any)
  farthest --rows R --cols C --size N --seed S [--walls K] [--empty E]
           [--min-positions P] [--max-positions P]
        N boards, each the position farthest from the exit in the component
        of a random solvable board: the longest optimum that component has
  deepest  --size N
        the N positions farthest from the exit among all positions reachable
        from the classic start (the component of 25 955 positions)

A position is one integer: the anchor (top-left cell) of the 2x2 piece in
the low bits, then one bit mask of anchors per other shape; pieces of the
same shape are interchangeable, exactly as the statement counts positions.
Letters are given to the pieces in reading order of their anchors.
"""

from __future__ import annotations  # `X | None` annotations on Python 3.9 too (PyPy3 in Debian 12)

import argparse
import functools
import random
import sys
from dataclasses import dataclass

KING, HORIZONTAL, VERTICAL, SOLDIER = range(4)
HEIGHT = (2, 1, 2, 1)
WIDTH = (2, 2, 1, 1)
KING_BITS = 6
FIELD = 36
SHIFT = (0, KING_BITS, KING_BITS + FIELD, KING_BITS + 2 * FIELD)
FIELD_MASK = (1 << FIELD) - 1
NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
MAX_BOARDS = 10_000
MAX_POSITIONS = 200_000
ATTEMPTS = 20_000

# The named classic layouts (4 columns, 5 rows), as commonly printed; the
# optimum under the statement's rule (one move = one piece along any path)
# is checked by tests/test_klotski_oracle.py.
CLASSICS = [
    ("heng dao li ma (横刀立马)", ["BAAC", "BAAC", "DEEF", "DGHF", "I..J"]),
    ("zhi hui ruo ding (指挥若定)", ["BAAC", "BAAC", "GEEH", "DIJF", "D..F"]),
    ("jiang yong cao ying (将拥曹营)", [".AA.", "BAAC", "BDEC", "GDEH", "FFIJ"]),
    ("qi tou bing jin (齐头并进)", ["BAAC", "BAAC", "GHIJ", "DEEF", "D..F"]),
    ("bing fen san lu (兵分三路)", ["GAAH", "BAAC", "BEEC", "DIJF", "D..F"]),
    ("yu sheng xi li (雨声淅沥)", ["BAAG", "BAAH", "DEEF", "DC.F", "IC.J"]),
    ("zuo you bu bing (左右布兵)", ["GAAH", "IAAJ", "BCDE", "BCDE", ".FF."]),
    ("tao hua yuan zhong (桃花园中)", ["GAAH", "BAAC", "BDEC", "IDEJ", ".FF."]),
    ("yi lu jin jun (一路进军)", ["BAAG", "BAAH", "CDEI", "CDEJ", ".FF."]),
    ("yi lu shun feng (一路顺风)", ["BAAG", "BAAH", "DEEF", "DICF", ".JC."]),
]


def bits(mask: int) -> list[int]:
    """The cells of a mask, lowest first."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


class Frame:
    """What depends on the board's size alone, shared by every board of that size (a search for a random board
    may try hundreds): where pieces fit, and the moves pieces have among given empty cells.

    A piece moves through its own cells and the empty ones only, so its moves depend on nothing else: walls and
    the other pieces merely fill the rest. The searches therefore look the moves of a position up by its empty
    cells and the few bits of the position that say which pieces touch them, and flood-fill a piece only the
    first time it is met beside such cells. Flood-filling every piece of every position, as the generator once
    did, made its largest case take 48 s of CPU; it takes under 10 s this way.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells = rows * cols
        self.full = (1 << self.cells) - 1
        self.steps = [self.neighbours(cell) for cell in range(self.cells)]
        self.foot = [[self.footprint(shape, cell) for cell in range(self.cells)] for shape in range(4)]
        self.neighbourhoods: dict[int, Neighbourhood] = {}  # by the empty cells

    def neighbours(self, cell: int) -> list[int]:
        """Cells one unit step away on the board."""
        row, col = divmod(cell, self.cols)
        found = []
        if row > 0:
            found.append(cell - self.cols)
        if row + 1 < self.rows:
            found.append(cell + self.cols)
        if col > 0:
            found.append(cell - 1)
        if col + 1 < self.cols:
            found.append(cell + 1)
        return found

    def footprint(self, shape: int, cell: int) -> int:
        """Cells covered by a piece of `shape` anchored at `cell`; 0 if it does not fit on the board."""
        row, col = divmod(cell, self.cols)
        if row + HEIGHT[shape] > self.rows or col + WIDTH[shape] > self.cols:
            return 0
        return sum(1 << ((row + r) * self.cols + col + c) for r in range(HEIGHT[shape]) for c in range(WIDTH[shape]))

    def bordering(self, empty: int) -> Neighbourhood:
        """The moves of the pieces that touch these empty cells, each piece on its own (see Neighbourhood)."""
        touched = 0
        for cell in bits(empty):
            for near in self.steps[cell]:
                touched |= 1 << near
        king = [63] * 64
        king_moves: list[tuple[int, ...]] = [()] * 64
        for anchor, foot in enumerate(self.foot[KING]):
            if foot & touched:
                king[anchor] = anchor
                king_moves[anchor] = self.piece_moves(KING, anchor, empty)
        mask = 0
        others = []
        for shape in (HORIZONTAL, VERTICAL, SOLDIER):
            for anchor, foot in enumerate(self.foot[shape]):
                if foot & touched:
                    bit = 1 << (anchor + SHIFT[shape])
                    mask |= bit
                    others.append((bit, self.piece_moves(shape, anchor, empty)))
        found = self.neighbourhoods[empty] = Neighbourhood(mask, king, king_moves, others, {})
        return found

    def piece_moves(self, shape: int, anchor: int, empty: int) -> tuple[int, ...]:
        """Where one piece reaches through its own and the `empty` cells, as the numbers a position is xor-ed with
        (the 2x2 piece's field holds its anchor itself, so xor works for it too)."""
        foot = self.foot[shape]
        room = empty | foot[anchor]
        seen = {anchor}
        todo = [anchor]
        found = []
        while todo:
            cell = todo.pop()
            for near in self.steps[cell]:
                if near not in seen and foot[near] and not foot[near] & ~room:
                    seen.add(near)
                    todo.append(near)
                    found.append(anchor ^ near if shape == KING else (1 << anchor | 1 << near) << SHIFT[shape])
        return tuple(found)


@dataclass(frozen=True)
class Neighbourhood:
    """The moves of positions with one set of empty cells, by the pieces that touch those cells.

    Only a piece next to an empty cell can move. `mask` holds the bits of a
    position that can hold such a piece of the three smaller shapes, and
    `others` each such bit with that piece's moves; `king` is the 2x2 piece's
    anchor if it touches the empty cells, else 63, and `king_moves` its
    moves, both by its anchor. `known` keeps the moves of every position met
    by its key: the bits of `mask`, with `king` in the 2x2 piece's field.
    """

    mask: int
    king: list[int]
    king_moves: list[tuple[int, ...]]
    others: list[tuple[int, tuple[int, ...]]]
    known: dict[int, tuple[int, ...]]

    def moves(self, position: int) -> tuple[int, ...]:
        """Every move of a position, as the numbers it is xor-ed with."""
        return self.king_moves[position & 63] + tuple(
            move for bit, steps in self.others if position & bit for move in steps
        )


@functools.cache
def frame(rows: int, cols: int) -> Frame:
    """The one Frame of a board size, so that every board of that size tried shares what it learnt."""
    return Frame(rows, cols)


def pieces(position: int, full: int) -> list[tuple[int, int]]:
    """(shape, anchor) of every piece, the 2x2 piece first."""
    found = [(KING, position & 63)]
    for shape in (HORIZONTAL, VERTICAL, SOLDIER):
        found += [(shape, cell) for cell in bits(position >> SHIFT[shape] & full)]
    return found


class Geometry:
    """A board's shape and walls: the searches through its positions."""

    def __init__(self, rows: int, cols: int, walls: int) -> None:
        self.rows, self.cols, self.walls = rows, cols, walls
        self.frame = frame(rows, cols)
        self.goal = (rows - 2) * cols + cols // 2 - 1

    def layers(self, starts: list[int], cap: int, shun_exit: bool = False) -> list[list[int]] | None:
        """Every position reachable from `starts`, by distance: layer d holds those d moves from the nearest start.

        None beyond `cap` positions, and with `shun_exit` as soon as the exit
        is reached: what a search for impossible boards can stop at early.
        Neither depends on the order positions are met in, which leaves the
        search free to take any. The one loop every search spends its time in,
        hence the local names.
        """
        goal, cols, free = self.goal, self.cols, self.frame.full & ~self.walls
        king_foot, neighbourhoods = self.frame.foot[KING], self.frame.neighbourhoods
        bordering = self.frame.bordering
        horizontal_shift, vertical_shift, soldier_shift = SHIFT[HORIZONTAL], SHIFT[VERTICAL], SHIFT[SOLDIER]
        if shun_exit and any(position & 63 == goal for position in starts):
            return None
        seen = set(starts)
        found = [list(starts)]
        total = len(seen)
        while True:
            following_layer: list[int] = []
            for position in found[-1]:
                king = position & 63
                horizontal = position >> horizontal_shift & FIELD_MASK
                vertical = position >> vertical_shift & FIELD_MASK
                empty = free & ~(
                    king_foot[king]
                    | horizontal
                    | horizontal << 1
                    | vertical
                    | vertical << cols
                    | position >> soldier_shift
                )
                near = neighbourhoods.get(empty) or bordering(empty)
                key = position & near.mask | near.king[king]
                steps = near.known.get(key)
                if steps is None:
                    steps = near.known[key] = near.moves(position)
                for move in steps:
                    following = position ^ move
                    if following not in seen:
                        if shun_exit and following & 63 == goal:
                            return None
                        seen.add(following)
                        following_layer.append(following)
                if total + len(following_layer) > cap:
                    return None
            if not following_layer:
                return found
            total += len(following_layer)
            found.append(following_layer)

    def component(self, start: int, cap: int, shun_exit: bool = False) -> list[int] | None:
        """Every position reachable from `start`, nearest first; None as `layers` says."""
        found = self.layers([start], cap, shun_exit)
        return None if found is None else [position for layer in found for position in layer]

    def exit_layers(self, component: list[int]) -> list[list[int]]:
        """The positions of a component by their optimal number of moves to the exit; none if it is out of reach.

        Moves are reversible, so one search from all exit positions at once gives them all.
        """
        exits = [position for position in component if position & 63 == self.goal]
        found = self.layers(exits, len(component)) if exits else []
        assert found is not None
        return found

    def render(self, position: int) -> list[str]:
        """The board as rows of letters, pieces named in reading order of their anchors."""
        cols = self.cols
        grid = [["#" if self.walls >> (r * cols + c) & 1 else "." for c in range(cols)] for r in range(self.rows)]
        placed = sorted(pieces(position, self.frame.full), key=lambda piece: piece[1])
        for name, (shape, anchor) in zip(NAMES, placed):
            for cell in bits(self.frame.foot[shape][anchor]):
                grid[cell // cols][cell % cols] = name
        return ["".join(row) for row in grid]


def parse_rows(rows: list[str]) -> tuple[Geometry, int]:
    """A lettered board as its geometry and position."""
    height, width = len(rows), len(rows[0])
    walls = sum(1 << (r * width + c) for r in range(height) for c in range(width) if rows[r][c] == "#")
    geometry = Geometry(height, width, walls)
    position = 0
    for r in range(height):
        for c in range(width):
            letter = rows[r][c]
            if letter in ".#" or (r and rows[r - 1][c] == letter) or (c and rows[r][c - 1] == letter):
                continue
            wide = c + 1 < width and rows[r][c + 1] == letter
            tall = r + 1 < height and rows[r + 1][c] == letter
            shape = KING if wide and tall else HORIZONTAL if wide else VERTICAL if tall else SOLDIER
            cell = r * width + c
            position += cell if shape == KING else 1 << (cell + SHIFT[shape])
    return geometry, position


Board = list[str]
Counted = list[tuple[Board, int]]  # boards with their number of reachable positions


def make_classic(args: argparse.Namespace) -> list[Board]:
    """Named layouts, in the order of CLASSICS, optionally mirrored."""
    chosen = CLASSICS[args.first : args.first + args.size]
    if len(chosen) != args.size:
        raise SystemExit(f"classic: only {len(CLASSICS)} layouts")
    return [[row[::-1] for row in rows] if args.mirror else list(rows) for _, rows in chosen]


def arrangements(rows: int, cols: int, walls: bool) -> list[Board]:
    """Every board of the shape: one 2x2 piece, other pieces, empty cells (and walls), cell by cell."""
    options = [(1, 1, "."), (1, 1, "s")] + ([(1, 1, "#")] if walls else []) + [(1, 2, "h"), (2, 1, "v"), (2, 2, "k")]
    found: list[Board] = []
    grid: list[str | None] = [None] * (rows * cols)

    def fill(cell: int, king: bool) -> None:
        while cell < len(grid) and grid[cell] is not None:
            cell += 1
        if cell == len(grid):
            if king:
                found.append(letter_cells(rows, cols, grid))
            return
        row, col = divmod(cell, cols)
        for height, width, kind in options:
            if kind == "k" and king or row + height > rows or col + width > cols:
                continue
            covered = [(row + r) * cols + col + c for r in range(height) for c in range(width)]
            if any(grid[other] is not None for other in covered):
                continue
            for other in covered:
                grid[other] = f"{kind}{cell}"
            fill(cell + 1, king or kind == "k")
            for other in covered:
                grid[other] = None

    fill(0, False)
    return found


def letter_cells(rows: int, cols: int, grid: list[str | None]) -> Board:
    """Rows of a board whose cells hold a kind and the piece's anchor; pieces lettered in reading order."""
    names: dict[str, str] = {}
    text = []
    for tag in grid:
        assert tag is not None
        if tag[0] in ".#":
            text.append(tag[0])
        else:
            text.append(names.setdefault(tag, NAMES[len(names)]))
    return ["".join(text[r * cols : (r + 1) * cols]) for r in range(rows)]


def random_board(rows: int, cols: int, walls: int, empty: int, rng: random.Random) -> Board:
    """The 2x2 piece somewhere, `walls` walls and `empty` empty cells, the rest tiled by random pieces."""
    grid: list[str | None] = [None] * (rows * cols)
    row, col = rng.randrange(rows - 1), rng.randrange(cols - 1)
    for cell in (row * cols + col, row * cols + col + 1, (row + 1) * cols + col, (row + 1) * cols + col + 1):
        grid[cell] = f"k{row * cols + col}"
    free = [cell for cell, tag in enumerate(grid) if tag is None]
    if walls + empty > len(free):
        raise SystemExit(f"{walls} walls and {empty} empty cells do not fit beside the 2x2 piece")
    for index, cell in enumerate(rng.sample(free, walls + empty)):
        grid[cell] = "#" if index < walls else "."
    weights = rng.choice(((1, 1, 1), (1, 2, 2), (2, 1, 2), (1, 1, 4), (2, 2, 1)))
    for cell in range(len(grid)):
        if grid[cell] is not None:
            continue
        row, col = divmod(cell, cols)
        kinds = ["s"]
        chances = [weights[2]]
        if col + 1 < cols and grid[cell + 1] is None:
            kinds.append("h")
            chances.append(weights[0])
        if row + 1 < rows and grid[cell + cols] is None:
            kinds.append("v")
            chances.append(weights[1])
        kind = rng.choices(kinds, chances)[0]
        grid[cell] = f"{kind}{cell}"
        if kind == "h":
            grid[cell + 1] = grid[cell]
        elif kind == "v":
            grid[cell + cols] = grid[cell]
    return letter_cells(rows, cols, grid)


def wanted(truth: str, index: int) -> bool | None:
    """The exit's reachability board `index` must have; None for either."""
    if truth == "any":
        return None
    if truth == "mix":
        return index % 2 == 0
    return truth == "yes"


def room(boards: Counted, args: argparse.Namespace) -> int:
    """The positions the next board may reach: its own bound, or what the file's bound leaves."""
    return min(args.max_positions, MAX_POSITIONS - sum(count for _, count in boards))


def give_up(boards: Counted, args: argparse.Namespace, what: str) -> bool:
    """After ATTEMPTS failures: stop the file if the file's bound was what blocked the board, else fail."""
    if boards and room(boards, args) < args.max_positions:
        return True
    raise SystemExit(f"{args.category}: no {what} {len(boards) + 1} meets the conditions in {ATTEMPTS} attempts")


def make_random(args: argparse.Namespace, rng: random.Random) -> Counted:
    """Random boards meeting the truth and size conditions, found by rejection."""
    boards: Counted = []
    for index in range(args.size):
        want = wanted(args.truth, index)
        if room(boards, args) < args.min_positions:
            break
        for _ in range(ATTEMPTS):
            rows = random_board(args.rows, args.cols, args.walls, args.empty, rng)
            geometry, start = parse_rows(rows)
            component = geometry.component(start, room(boards, args), shun_exit=want is False)
            if component is None or len(component) < args.min_positions:
                continue
            if want is None or any(p & 63 == geometry.goal for p in component) == want:
                boards.append((rows, len(component)))
                break
        else:
            if give_up(boards, args, "board"):
                break
    return boards


def make_farthest(args: argparse.Namespace, rng: random.Random) -> Counted:
    """For each of --size random solvable boards, the position of its component farthest from the exit."""
    boards: Counted = []
    for _ in range(args.size):
        if room(boards, args) < args.min_positions:
            break
        for _ in range(ATTEMPTS):
            geometry, start = parse_rows(random_board(args.rows, args.cols, args.walls, args.empty, rng))
            component = geometry.component(start, room(boards, args))
            if component is None or len(component) < args.min_positions:
                continue
            layers = geometry.exit_layers(component)
            if layers:
                boards.append((geometry.render(min(layers[-1])), len(component)))
                break
        else:
            if give_up(boards, args, "solvable board"):
                break
    return boards


def make_deepest(count: int) -> list[Board]:
    """The `count` positions of the classic component farthest from the exit, deepest first."""
    geometry, start = parse_rows(CLASSICS[0][1])
    component = geometry.component(start, MAX_POSITIONS)
    assert component is not None
    ranked = [position for layer in reversed(geometry.exit_layers(component)) for position in sorted(layer)]
    return [geometry.render(position) for position in ranked[:count]]


def counted(boards: list[Board]) -> Counted:
    """The boards with their numbers of reachable positions; stops as soon as the file's bound is passed."""
    result = []
    total = 0
    for rows in boards:
        geometry, start = parse_rows(rows)
        component = geometry.component(start, MAX_POSITIONS - total)
        if component is None:
            raise SystemExit(f"the boards reach more than {MAX_POSITIONS} positions in all")
        total += len(component)
        result.append((rows, len(component)))
    return result


def build(args: argparse.Namespace) -> Counted:
    """Dispatch on the category; the boards of one file."""
    rng = random.Random(f"klotski/{args.category}/{args.seed}")
    if args.category == "classic":
        return counted(make_classic(args))
    if args.category == "all":
        return counted(arrangements(args.rows, args.cols, args.with_walls))
    if args.category == "deepest":
        return counted(make_deepest(args.size))
    if args.cols % 2 or not (2 <= args.rows <= 6 and 2 <= args.cols <= 6):
        raise SystemExit("boards are 2..6 rows high and 2, 4 or 6 columns wide")
    if args.category == "random":
        return make_random(args, rng)
    return make_farthest(args, rng)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command line; every category works with its defaults."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("category", choices=["classic", "all", "random", "farthest", "deepest"])
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--mirror", action="store_true")
    parser.add_argument("--walls", type=int, default=0)
    parser.add_argument("--with-walls", action="store_true")
    parser.add_argument("--empty", type=int, default=2)
    parser.add_argument("--truth", choices=["yes", "no", "any", "mix"], default="mix")
    parser.add_argument("--min-positions", type=int, default=1)
    parser.add_argument("--max-positions", type=int, default=20_000)
    return parser.parse_args(argv)


def main() -> None:
    """Write one input file to stdout."""
    boards = build(parse_args(sys.argv[1:]))
    if not 1 <= len(boards) <= MAX_BOARDS:
        raise SystemExit(f"{len(boards)} boards; a file holds 1..{MAX_BOARDS}")
    total = sum(count for _, count in boards)
    if total > MAX_POSITIONS:
        raise SystemExit(f"the boards reach {total} positions in all, more than {MAX_POSITIONS}")
    parts = [f"{len(boards)}\n"]
    for rows, _ in boards:
        parts.append(f"{len(rows)} {len(rows[0])}\n" + "".join(row + "\n" for row in rows))
    sys.stdout.write("".join(parts))


if __name__ == "__main__":
    main()
