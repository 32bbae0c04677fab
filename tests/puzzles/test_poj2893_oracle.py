"""Independent oracle for problems/poj2893 (M x N Puzzle).

A breadth-first search from the goal, moving the blank, finds exactly the
solvable states of every small shape (both sides >= 2, as in POJ 2893,
shapes with both sides even included); both reference solvers must agree on
every arrangement of those shapes. Property tests then cover larger random
boards: a move never changes the answer, and exchanging two tiles always
flips it. Nothing here shares code with the references, which run as
subprocesses with many boards per call.
"""

import itertools
import subprocess
from collections import deque
from pathlib import Path

import pytest
from conftest import reference_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.oracle

ACCEPTED = Path(__file__).resolve().parents[2] / "problems" / "poj2893" / "submissions" / "accepted"

Board = tuple[int, int, list[int]]

ORACLE_SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)]

PROPERTY_SETTINGS = settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="session")
def solvers() -> dict[str, list[str]]:
    """Both references as command lines; the C++ one built once, by the judge into its build cache."""
    return reference_commands("poj2893")


def encode(boards: list[Board]) -> bytes:
    """One multi-case input file holding every board, in the problem's format."""
    parts = []
    layouts: dict[tuple[int, int], str] = {}  # one format string per shape: the header and the rows of its cells
    for rows, cols, cells in boards:
        if (rows, cols) not in layouts:
            layouts[(rows, cols)] = f"{rows} {cols}\n" + ("%d" + " %d" * (cols - 1) + "\n") * rows
        parts.append(layouts[(rows, cols)] % tuple(cells))
    parts.append("0 0\n")
    return "".join(parts).encode()


def ask(command: list[str], boards: list[Board], text: bytes | None = None) -> list[bool]:
    """Run one solver on all boards at once (`text`: their input, when already encoded); True means it printed YES."""
    result = subprocess.run(command, input=text or encode(boards), capture_output=True, check=True, timeout=120)
    lines = result.stdout.decode().split("\n")
    assert lines[-1] == "", "output must end with a newline"
    assert len(lines) - 1 == len(boards), "one answer line per board expected"
    assert set(lines[:-1]) <= {"YES", "NO"}, "only YES and NO may be printed"
    return [line == "YES" for line in lines[:-1]]


def neighbours(rows: int, cols: int, cell: int) -> list[int]:
    """Cells orthogonally adjacent to `cell`."""
    row, col = divmod(cell, cols)
    result = []
    if row > 0:
        result.append(cell - cols)
    if row < rows - 1:
        result.append(cell + cols)
    if col > 0:
        result.append(cell - 1)
    if col < cols - 1:
        result.append(cell + 1)
    return result


def solvable_states(rows: int, cols: int) -> set[tuple[int, ...]]:
    """Every state that reaches the goal: BFS from the goal (moves are reversible)."""
    size = rows * cols
    adjacent = [neighbours(rows, cols, cell) for cell in range(size)]
    goal = tuple(range(1, size)) + (0,)
    seen = {goal}
    queue = deque([(goal, size - 1)])
    while queue:
        state, blank = queue.popleft()
        for cell in adjacent[blank]:
            moved = list(state)
            moved[blank], moved[cell] = moved[cell], 0
            following = tuple(moved)
            if following not in seen:
                seen.add(following)
                queue.append((following, cell))
    return seen


@pytest.mark.parametrize("rows,cols", ORACLE_SHAPES, ids=lambda value: str(value))
def test_references_match_bfs_on_every_state(solvers: dict[str, list[str]], rows: int, cols: int) -> None:
    """Both references answer YES exactly on the states the BFS reached."""
    reachable = solvable_states(rows, cols)
    states = list(itertools.permutations(range(rows * cols)))
    expected = [state in reachable for state in states]
    boards = [(rows, cols, list(state)) for state in states]
    text = encode(boards)  # once for both references: 362 880 boards for 3 x 3
    for name, command in solvers.items():
        got = ask(command, boards, text)
        wrong = [states[i] for i, (g, e) in enumerate(zip(got, expected)) if g != e]
        assert not wrong, f"{name} on {rows}x{cols}: {len(wrong)} wrong, e.g. {wrong[:3]}"


@st.composite
def boards(draw: st.DrawFn, min_side: int, max_side: int, min_cells: int) -> Board:
    """A random arrangement of a random shape with at least `min_cells` cells."""
    rows = draw(st.integers(min_side, max_side))
    low = max(min_side, -(-min_cells // rows))
    cols = draw(st.integers(low, max(low, max_side)))
    cells = draw(st.permutations(list(range(rows * cols))))
    return rows, cols, list(cells)


@st.composite
def moved_pairs(draw: st.DrawFn) -> tuple[Board, Board]:
    """A board and the board after one random move of the blank."""
    rows, cols, cells = draw(boards(2, 24, 4))
    blank = cells.index(0)
    cell = draw(st.sampled_from(neighbours(rows, cols, blank)))
    moved = list(cells)
    moved[blank], moved[cell] = moved[cell], 0
    return (rows, cols, cells), (rows, cols, moved)


@st.composite
def swapped_pairs(draw: st.DrawFn) -> tuple[Board, Board]:
    """A board and the same board with two tiles exchanged."""
    rows, cols, cells = draw(boards(2, 24, 4))
    tile_cells = [cell for cell, value in enumerate(cells) if value]
    first, second = draw(st.lists(st.sampled_from(tile_cells), min_size=2, max_size=2, unique=True))
    swapped = list(cells)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    return (rows, cols, cells), (rows, cols, swapped)


def answer_pairs(solvers: dict[str, list[str]], pairs: list[tuple[Board, Board]]) -> list[tuple[bool, bool]]:
    """Answers for both boards of every pair; the two references must also agree."""
    flat = [board for pair in pairs for board in pair]
    results = {name: ask(command, flat) for name, command in solvers.items()}
    assert results["ref.cpp"] == results["ref.py"], "the two references disagree"
    answers = results["ref.cpp"]
    return list(zip(answers[0::2], answers[1::2]))


@PROPERTY_SETTINGS
@given(pairs=st.lists(moved_pairs(), min_size=1, max_size=40))
def test_a_move_never_changes_the_answer(solvers: dict[str, list[str]], pairs: list[tuple[Board, Board]]) -> None:
    """A state and its neighbour are in the same class."""
    for index, (before, after) in enumerate(answer_pairs(solvers, pairs)):
        assert before == after, f"move changed the answer for {pairs[index]}"


@PROPERTY_SETTINGS
@given(pairs=st.lists(swapped_pairs(), min_size=1, max_size=40))
def test_a_tile_swap_always_flips_the_answer(solvers: dict[str, list[str]], pairs: list[tuple[Board, Board]]) -> None:
    """Exactly half the states are solvable and a swap crosses over."""
    for index, (before, after) in enumerate(answer_pairs(solvers, pairs)):
        assert before != after, f"swap kept the answer for {pairs[index]}"
