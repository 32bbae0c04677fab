"""Independent oracle for problems/klotski: the classic layouts' optima, and every accepted solution against it.

The oracle shares no code with the package: a position is the sorted tuple
of the places its pieces lie in (each place a bitmask of the cells it
covers), so pieces of one shape are interchangeable exactly as the statement
counts positions, and moves are found by a plain flood fill. It settles the optima the statement quotes
(81 moves for the classic start when any path of one piece is one move, 116
when every one-cell step is: the two figures usually published), checks the
ten named layouts the generator writes, and then holds every accepted
submission to its optima and the checker to its verdicts on boards nobody
chose by hand.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
from conftest import built, missing, reference_commands

pytestmark = pytest.mark.oracle

PROBLEM = Path(__file__).resolve().parents[2] / "problems" / "klotski"
CHECKER = PROBLEM / "checker.py"
GENERATOR = PROBLEM / "generator.py"
VALIDATOR = PROBLEM / "validator.py"
ACCEPTED = PROBLEM / "submissions" / "accepted"

Piece = tuple[int, int, int, int]
Position = tuple[int, ...]  # the numbers of the places its pieces lie in, sorted (see Puzzle)
Board = tuple[str, ...]

# The named layouts as commonly printed (4 columns, 5 rows) and their optima
# under "any path of one piece is one move", as this oracle finds them; 81 for
# heng dao li ma is also the figure usually published.
CLASSICS: list[tuple[str, Board, int]] = [
    ("heng dao li ma", ("BAAC", "BAAC", "DEEF", "DGHF", "I..J"), 81),
    ("zhi hui ruo ding", ("BAAC", "BAAC", "GEEH", "DIJF", "D..F"), 70),
    ("jiang yong cao ying", (".AA.", "BAAC", "BDEC", "GDEH", "FFIJ"), 72),
    ("qi tou bing jin", ("BAAC", "BAAC", "GHIJ", "DEEF", "D..F"), 60),
    ("bing fen san lu", ("GAAH", "BAAC", "BEEC", "DIJF", "D..F"), 72),
    ("yu sheng xi li", ("BAAG", "BAAH", "DEEF", "DC.F", "IC.J"), 47),
    ("zuo you bu bing", ("GAAH", "IAAJ", "BCDE", "BCDE", ".FF."), 54),
    ("tao hua yuan zhong", ("GAAH", "BAAC", "BDEC", "IDEJ", ".FF."), 70),
    ("yi lu jin jun", ("BAAG", "BAAH", "CDEI", "CDEJ", ".FF."), 58),
    ("yi lu shun feng", ("BAAG", "BAAH", "DEEF", "DICF", ".JC."), 39),
]
CLASSIC_COMPONENT = 25955  # positions reachable from the classic start (published)


class Puzzle:
    """The oracle's view of one board: where each shape fits, as bitmasks of cells, and the moves between positions.

    Every place a piece of a present shape can lie (inside the frame, off the walls) gets a number, in the sorted
    order of its (height, width, row, column), and a bitmask of the cells it covers; a position is the sorted tuple
    of its pieces' numbers, so pieces of one shape stay interchangeable. Testing a move is then one AND of two
    integers instead of building cell sets, which is what makes searching the classic components cheap.
    """

    def __init__(self, rows: Board) -> None:
        self.height, self.width = len(rows), len(rows[0])
        walls = sum(1 << self.bit(r, c) for r in range(self.height) for c in range(self.width) if rows[r][c] == "#")
        spots: dict[str, list[tuple[int, int]]] = {}
        for r, row in enumerate(rows):
            for c, letter in enumerate(row):
                if letter not in ".#":
                    spots.setdefault(letter, []).append((r, c))
        pieces = []
        for cells in spots.values():
            top, left = min(cells)
            pieces.append((max(r for r, _ in cells) - top + 1, max(c for _, c in cells) - left + 1, top, left))
        self.places: list[Piece] = []  # number -> the piece lying there
        self.masks: list[int] = []  # number -> the cells it covers
        number: dict[Piece, int] = {}
        for height, width in sorted({piece[:2] for piece in pieces}):
            for row in range(self.height - height + 1):
                for col in range(self.width - width + 1):
                    mask = sum(1 << self.bit(row + r, col + c) for r in range(height) for c in range(width))
                    if not mask & walls:
                        number[(height, width, row, col)] = len(self.places)
                        self.places.append((height, width, row, col))
                        self.masks.append(mask)
        # number -> the places of the same shape one cell up, down, left or right
        self.steps: list[tuple[int, ...]] = [
            tuple(
                number[near]
                for near in ((h, w, r - 1, c), (h, w, r + 1, c), (h, w, r, c - 1), (h, w, r, c + 1))
                if near in number
            )
            for h, w, r, c in self.places
        ]
        self.start: Position = tuple(sorted(number[piece] for piece in pieces))
        self.exit = number.get((2, 2, self.height - 2, self.width // 2 - 1), -1)  # -1: the exit is walled off

    def bit(self, row: int, col: int) -> int:
        """The bit of a cell in a mask."""
        return row * self.width + col

    def moves(self, position: Position, one_step: bool) -> set[Position]:
        """Positions one move away: one piece along any path, or (one_step) by one cell only."""
        masks, steps = self.masks, self.steps
        occupied = 0
        for place in position:
            occupied |= masks[place]
        found = set()
        for index, place in enumerate(position):
            others = occupied ^ masks[place]
            rest = position[:index] + position[index + 1 :]
            seen = {place}
            todo = [place]
            while todo:
                for moved in steps[todo.pop()]:
                    if moved not in seen and not masks[moved] & others:
                        seen.add(moved)
                        if not one_step:
                            todo.append(moved)
                        found.add(tuple(sorted(rest + (moved,))))
        return found

    def component(self, one_step: bool = False) -> dict[Position, list[Position]]:
        """Every position reachable from the start, with its neighbours."""
        graph: dict[Position, list[Position]] = {}
        queue = deque([self.start])
        while queue:
            position = queue.popleft()
            if position in graph:
                continue
            graph[position] = list(self.moves(position, one_step))
            queue.extend(following for following in graph[position] if following not in graph)
        return graph

    def distances(self, graph: dict[Position, list[Position]]) -> dict[Position, int]:
        """Optimal moves to the exit for the positions of the start's component (`graph`) that reach it."""
        distance = {position: 0 for position in graph if self.exit in position}
        queue = deque(distance)
        while queue:
            position = queue.popleft()
            for following in graph[position]:
                if following not in distance:
                    distance[following] = distance[position] + 1
                    queue.append(following)
        return distance


# The components searched so far, by frame, walls and shapes (Puzzle.places) and convention: the exit distances of
# each, and how many positions it has. Classics share some components, and every test that needs one finds it here
# once it is searched (a component takes about a second; the module searches each once).
SEARCHED: dict[tuple[tuple[Piece, ...], bool], list[tuple[int, dict[Position, int]]]] = {}


def search(rows: Board, one_step: bool = False) -> tuple[Position, int, dict[Position, int]]:
    """A board's start, the size of its component and the exit distances in it, searched once per component."""
    puzzle = Puzzle(rows)
    known = SEARCHED.setdefault((tuple(puzzle.places), one_step), [])
    for size, distance in known:
        if puzzle.start in distance:
            return puzzle.start, size, distance
    graph = puzzle.component(one_step)
    distance = puzzle.distances(graph)
    known.append((len(graph), distance))
    return puzzle.start, len(graph), distance


def classic_optimum(rows: Board, one_step: bool = False) -> int:
    """The optimum of a solvable board."""
    start, _, distance = search(rows, one_step)
    return distance[start]


def optimum(rows: Board) -> int | None:
    """The oracle's answer for one board: minimum number of moves, None if impossible."""
    puzzle = Puzzle(rows)
    return puzzle.distances(puzzle.component()).get(puzzle.start)


def encode(boards: list[Board]) -> bytes:
    """An input file holding the boards."""
    parts = [f"{len(boards)}\n"]
    for rows in boards:
        parts.append(f"{len(rows)} {len(rows[0])}\n" + "".join(row + "\n" for row in rows))
    return "".join(parts).encode()


def counts(output: bytes, boards: int) -> list[int | None]:
    """The count line of every board in an output (None for `impossible`), skipping the move lines."""
    lines = output.decode().split("\n")
    found: list[int | None] = []
    at = 0
    for _ in range(boards):
        head = lines[at]
        at += 1
        found.append(None if head == "impossible" else int(head))
        at += 0 if head == "impossible" else int(head)
    assert lines[at:] == [""], "nothing but the answers, newline-terminated"
    return found


def mirrored(rows: Board) -> Board:
    """The board reflected left to right: the exit is symmetric, so the optimum is the same."""
    return tuple(row[::-1] for row in rows)


def random_boards(seed: int, count: int) -> list[Board]:
    """Small random boards (4 x 4, 5 x 4 with walls, 3 x 6, 6 x 2), many of them impossible."""
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        height, width, walls, empty = rng.choice([(4, 4, 0, 2), (4, 4, 1, 3), (5, 4, 2, 2), (3, 6, 1, 2), (6, 2, 0, 2)])
        grid = [["" for _ in range(width)] for _ in range(height)]
        row, col = rng.randrange(height - 1), rng.randrange(width - 1)
        names = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        king = next(names)
        for r, c in ((row, col), (row, col + 1), (row + 1, col), (row + 1, col + 1)):
            grid[r][c] = king
        free = [(r, c) for r in range(height) for c in range(width) if not grid[r][c]]
        for index, (r, c) in enumerate(rng.sample(free, walls + empty)):
            grid[r][c] = "#" if index < walls else "."
        for r in range(height):
            for c in range(width):
                if grid[r][c]:
                    continue
                letter = next(names)
                grid[r][c] = letter
                shape = rng.choice("hvs")
                if shape == "h" and c + 1 < width and not grid[r][c + 1]:
                    grid[r][c + 1] = letter
                elif shape == "v" and r + 1 < height and not grid[r + 1][c]:
                    grid[r + 1][c] = letter
        boards.append(tuple("".join(row_cells) for row_cells in grid))
    return boards


def run_checker(tmp_path: Path, boards: list[Board], output: bytes, answer: bytes) -> int:
    """The checker's exit code on one output, as the judge runs it (Kattis protocol)."""
    (tmp_path / "in").write_bytes(encode(boards))
    (tmp_path / "ans").write_bytes(answer)
    feedback = tmp_path / "feedback"
    feedback.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, str(CHECKER), str(tmp_path / "in"), str(tmp_path / "ans"), str(feedback)],
        input=output,
        capture_output=True,
        timeout=120,
    ).returncode


def jury_answer(values: list[int | None]) -> bytes:
    """An answer file the checker reads: per board the optimum (moves elided as dummy lines) or `impossible`."""
    return "".join("impossible\n" if v is None else f"{v}\n" + "X U\n" * v for v in values).encode()


@pytest.fixture(scope="module")
def solvers() -> dict[str, list[str]]:
    """Every accepted submission as a command line: the references, and the Java solution when a JDK is present,
    built by the judge into its build cache (``built``: verify has usually built them already)."""
    commands = reference_commands("klotski")
    if missing("javac") is None:
        commands["bfs.java"] = built(ACCEPTED / "bfs.java")
    return commands


# ---------------------------------------------------------------- the numbers the statement quotes


def test_classic_start_needs_81_moves_and_116_one_cell_steps() -> None:
    """The two figures quoted for heng dao li ma, one per convention, and the size of its component."""
    assert search(CLASSICS[0][1])[1] == CLASSIC_COMPONENT
    assert search(CLASSICS[0][1], one_step=True)[1] == CLASSIC_COMPONENT
    assert classic_optimum(CLASSICS[0][1]) == 81
    assert classic_optimum(CLASSICS[0][1], one_step=True) == 116


@pytest.mark.parametrize("name, rows, moves", CLASSICS, ids=[name for name, _, _ in CLASSICS])
def test_named_layouts_have_their_optima(name: str, rows: Board, moves: int) -> None:
    """Each named layout needs exactly its number of moves."""
    assert classic_optimum(rows) == moves


def test_generator_writes_the_named_layouts_and_the_deepest_positions() -> None:
    """`classic` writes these layouts in this order; `deepest` the positions of the component farthest from the exit."""
    written: list[Board] = []
    for first in (0, 5):
        text = subprocess.run(
            [sys.executable, str(GENERATOR), "classic", "--size", "5", "--first", str(first)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
        written += [tuple(text[2 + 6 * i : 7 + 6 * i]) for i in range(5)]
    assert written == [rows for _, rows, _ in CLASSICS]
    text = subprocess.run(
        [sys.executable, str(GENERATOR), "deepest", "--size", "2"], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    deepest = max(search(CLASSICS[0][1])[2].values())
    for index in range(2):
        assert classic_optimum(tuple(text[2 + 6 * index : 7 + 6 * index])) == deepest


def test_validator_bounds_the_reachable_positions() -> None:
    """Seven boards of the classic component (181 685 positions) are valid, eight (207 640) are over the bound."""
    boards = [rows for _, rows, _ in CLASSICS]
    runs = {
        count: subprocess.run(
            [sys.executable, str(VALIDATOR)], input=encode(boards[:count]), capture_output=True, timeout=300
        )
        for count in (7, 8)
    }
    assert runs[7].returncode == 42, runs[7].stderr
    assert runs[8].returncode == 43
    assert runs[8].stderr.decode().startswith("line 45: the boards up to this one reach more than 200000 positions")


# ---------------------------------------------------------------- the accepted submissions against the oracle


@pytest.mark.parametrize("mirror", [False, True], ids=["as-printed", "mirrored"])
def test_accepted_solutions_find_the_classic_optima(
    tmp_path: Path, solvers: dict[str, list[str]], mirror: bool
) -> None:
    """Every accepted submission prints the classic optima, with moves the checker accepts (five boards a file)."""
    for first in (0, 5):
        boards = [mirrored(rows) if mirror else rows for _, rows, _ in CLASSICS[first : first + 5]]
        expected = [moves for _, _, moves in CLASSICS[first : first + 5]]
        for name, command in solvers.items():
            output = subprocess.run(command, input=encode(boards), capture_output=True, timeout=120, check=True).stdout
            assert counts(output, len(boards)) == expected, name
            assert run_checker(tmp_path, boards, output, jury_answer(expected)) == 42, name


def test_accepted_solutions_agree_with_the_oracle_on_random_boards(
    tmp_path: Path, solvers: dict[str, list[str]]
) -> None:
    """On 120 random small boards: the oracle's optimum or `impossible`, and moves the checker accepts."""
    boards = random_boards(2020, 120)
    expected = [optimum(rows) for rows in boards]
    assert 20 <= expected.count(None) <= 100, "both answers must be well represented"
    for name, command in solvers.items():
        output = subprocess.run(command, input=encode(boards), capture_output=True, timeout=120, check=True).stdout
        assert counts(output, len(boards)) == expected, name
        assert run_checker(tmp_path, boards, output, jury_answer(expected)) == 42, name


def test_different_optimal_sequences_are_all_accepted(tmp_path: Path, solvers: dict[str, list[str]]) -> None:
    """Another optimal solution of every classic layout: the mirror image of the one found for the mirrored board."""
    boards = [rows for _, rows, _ in CLASSICS[:5]]
    expected = [moves for _, _, moves in CLASSICS[:5]]
    direct = subprocess.run(
        solvers["ref.cpp"], input=encode(boards), capture_output=True, timeout=120, check=True
    ).stdout
    reflected = subprocess.run(
        solvers["ref.cpp"],
        input=encode([mirrored(rows) for rows in boards]),
        capture_output=True,
        timeout=120,
        check=True,
    ).stdout
    swap = bytes.maketrans(b"LR", b"RL")
    other = b"\n".join(line[:2] + line[2:].translate(swap) if b" " in line else line for line in reflected.split(b"\n"))
    assert other != direct
    for output in (direct, other):
        assert run_checker(tmp_path, boards, output, jury_answer(expected)) == 42
