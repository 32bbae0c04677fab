"""Brute-force oracle for HDOJ 3600 "Simple Puzzle".

A breadth-first search from the goal board (moves are reversible, so the
states it reaches are exactly the solvable ones) decides every state of the
1 x 1, 2 x 2 and 3 x 3 boards; both reference solvers, run as subprocesses,
must agree on every state.  Hypothesis then checks the two invariants the
parity argument rests on, on random boards of sides 2..30: sliding the blank
one step keeps the answer, swapping two tiles flips it.
"""

import functools
import itertools
import math
import subprocess
from pathlib import Path

import pytest
from conftest import reference_commands
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.oracle

PROBLEM = Path(__file__).resolve().parents[2] / "problems" / "hdoj3600"
ACCEPTED = PROBLEM / "submissions" / "accepted"
MAX_CELLS_PER_FILE = 1_000_000
SOLVERS = ("ref.cpp", "ref.py")

State = tuple[int, ...]


@pytest.fixture(scope="module")
def commands() -> dict[str, list[str]]:
    """Both references as command lines; the C++ one built once, by the judge into its build cache."""
    return reference_commands("hdoj3600")


@functools.cache
def layout(side: int) -> str:
    """The format string of one board of this side in the input format (side line, then the rows)."""
    return f"{side}\n" + ("%d" + " %d" * (side - 1) + "\n") * side


def board_text(board: State) -> str:
    """One board in the input format (side line, then the rows)."""
    return layout(int(round(len(board) ** 0.5))) % tuple(board)


def inputs(boards: list[State]) -> list[tuple[int, bytes]]:
    """The input files holding the boards, each with its number of boards: as many boards a file as
    MAX_CELLS_PER_FILE allows."""
    chunk = max(1, MAX_CELLS_PER_FILE // max(len(b) for b in boards))
    files = []
    for begin in range(0, len(boards), chunk):
        part = boards[begin : begin + chunk]
        files.append((len(part), ("".join(board_text(b) for b in part) + "0\n").encode()))
    return files


def answers(command: list[str], boards: list[State], files: list[tuple[int, bytes]] | None = None) -> list[bool]:
    """Run a solver on many boards, one subprocess per file-sized chunk (`files`: the boards' inputs, if made)."""
    result: list[bool] = []
    for count, text in files or inputs(boards):
        proc = subprocess.run(command, input=text, capture_output=True, timeout=120, check=True)
        lines = proc.stdout.decode().split("\n")
        assert lines[-1] == "", "output must end with a newline"
        assert len(lines) - 1 == count, "one answer line per board"
        assert set(lines[:-1]) <= {"YES", "NO"}, f"unexpected output {set(lines[:-1])}"
        result.extend(line == "YES" for line in lines[:-1])
    return result


@functools.cache
def every_state(side: int) -> tuple[list[State], list[tuple[int, bytes]]]:
    """Every board of a side, and their input files: made once for both references."""
    boards = list(itertools.permutations(range(side * side)))
    return boards, inputs(boards)


def neighbours(side: int) -> list[list[int]]:
    """For each cell, the cells sharing an edge with it."""
    table = []
    for cell in range(side * side):
        row, col = divmod(cell, side)
        near = [
            (row + dr) * side + col + dc
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= row + dr < side and 0 <= col + dc < side
        ]
        table.append(near)
    return table


@functools.cache
def solvable_states(side: int) -> frozenset[State]:
    """Every state the blank can reach from the goal, by breadth-first search."""
    size = side * side
    goal = tuple(range(1, size)) + (0,)
    adjacent = neighbours(side)
    seen = {goal}
    frontier = [(goal, size - 1)]
    while frontier:
        following = []
        for state, blank in frontier:
            for other in adjacent[blank]:
                cells = list(state)
                cells[blank], cells[other] = cells[other], 0
                moved = tuple(cells)
                if moved not in seen:
                    seen.add(moved)
                    following.append((moved, other))
        frontier = following
    return frozenset(seen)


@pytest.mark.parametrize("side", [1, 2, 3])
def test_search_finds_half_of_the_states(side: int) -> None:
    """Sanity of the oracle itself: 1 state for 1 x 1, half of all otherwise."""
    expected = 1 if side == 1 else math.factorial(side * side) // 2
    assert len(solvable_states(side)) == expected


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("side", [1, 2, 3])
def test_reference_matches_search(side: int, solver: str, commands: dict[str, list[str]]) -> None:
    """Every state of the small boards: the reference equals the search."""
    boards, files = every_state(side)
    truth = solvable_states(side)
    got = answers(commands[solver], boards, files)
    wrong = [b for b, yes in zip(boards, got) if yes != (b in truth)]
    assert not wrong, f"{solver} wrong on {len(wrong)} boards, e.g. {wrong[:3]}"


@st.composite
def boards_with_variants(draw: st.DrawFn) -> tuple[State, State, State]:
    """A random board, the board after one blank move, and after a tile swap."""
    side = draw(st.integers(min_value=2, max_value=30))
    board = tuple(draw(st.permutations(range(side * side))))
    blank = board.index(0)
    other = draw(st.sampled_from(neighbours(side)[blank]))
    moved = list(board)
    moved[blank], moved[other] = moved[other], 0
    tiles = [i for i in range(side * side) if i != blank]
    first = draw(st.sampled_from(tiles))
    second = draw(st.sampled_from([i for i in tiles if i != first]))
    swapped = list(board)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    return board, tuple(moved), tuple(swapped)


@settings(max_examples=25, deadline=None)
@given(st.lists(boards_with_variants(), min_size=1, max_size=20))
def test_move_keeps_and_swap_flips(commands: dict[str, list[str]], cases: list[tuple[State, State, State]]) -> None:
    """Both references: a blank move never changes the answer, a swap always does."""
    boards = [board for triple in cases for board in triple]
    for solver in SOLVERS:
        got = answers(commands[solver], boards)
        for k, (board, _, _) in enumerate(cases):
            base, moved, swapped = got[3 * k : 3 * k + 3]
            assert moved == base, f"{solver}: a blank move changed the answer of {board}"
            assert swapped != base, f"{solver}: a tile swap kept the answer of {board}"
