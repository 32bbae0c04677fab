"""Brute-force oracle for problems/cube (POJ 1507, the M x M x M sliding cube).

The references decide solvability by a parity rule; here nothing is assumed:
a breadth-first search from the goal over every state of the 1- and 2-cube
decides reachability by real moves, and property tests check on random cubes
that a real move never changes the answer while exchanging two boxes always
does.  No code is shared with the references, which run as subprocesses.
"""

from __future__ import annotations

import itertools
import subprocess
from collections import deque
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import reference_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.oracle

PACKAGE = Path(__file__).resolve().parents[2] / "problems" / "cube"
ACCEPTED = PACKAGE / "submissions" / "accepted"
YES = "Puzzle can be solved."
NO = "Puzzle is unsolvable."

Board = tuple[int, ...]


@pytest.fixture(scope="module")
def solvers() -> dict[str, list[str]]:
    """Both references as command lines; the C++ one built once, by the judge into its build cache."""
    return reference_commands("cube")


def render(boards: Sequence[tuple[int, Sequence[int]]]) -> str:
    """A multi-case input in the statement's format."""
    parts = [f"{len(boards)}\n"]
    for m, cells in boards:
        parts.append(f"{m}\n")
        layer = m * m
        for z in range(m):
            parts.append(" ".join(map(str, cells[z * layer : (z + 1) * layer])) + "\n")
    return "".join(parts)


def answers(command: list[str], boards: Sequence[tuple[int, Sequence[int]]]) -> list[bool]:
    """Run one solver on many boards at once; True means 'can be solved'."""
    result = subprocess.run(command, input=render(boards), capture_output=True, text=True, timeout=60, check=True)
    lines = result.stdout.split("\n")
    assert lines[-1] == "", "output must end with a newline"
    assert all(line in (YES, NO) for line in lines[:-1]), "unexpected output line"
    assert len(lines) - 1 == len(boards), "one answer line per board"
    return [line == YES for line in lines[:-1]]


def neighbour_slots(m: int, slot: int) -> list[int]:
    """Slots sharing a face with ``slot``; x varies fastest in the flat order."""
    z, rest = divmod(slot, m * m)
    y, x = divmod(rest, m)
    result = []
    for value, stride in ((x, 1), (y, m), (z, m * m)):
        if value > 0:
            result.append(slot - stride)
        if value + 1 < m:
            result.append(slot + stride)
    return result


def slide(board: Board, target: int) -> Board:
    """Move the box at ``target`` into the empty slot (a legal move when they touch)."""
    cells = list(board)
    blank = cells.index(0)
    cells[blank], cells[target] = cells[target], 0
    return tuple(cells)


def reachable_from_goal(m: int) -> set:
    """Every state reachable from the tidy cube; moves are reversible, so this is the solvable set."""
    goal: Board = tuple(range(1, m**3)) + (0,)
    seen = {goal}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        for target in neighbour_slots(m, state.index(0)):
            nxt = slide(state, target)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def test_sample(solvers: dict[str, list[str]]) -> None:
    boards = [(2, [1, 2, 3, 4, 5, 7, 6, 0]), (2, [2, 1, 3, 5, 4, 6, 0, 7])]
    for command in solvers.values():
        assert answers(command, boards) == [False, True]


def test_all_states_of_small_cubes(solvers: dict[str, list[str]]) -> None:
    """Both references agree with BFS on the 1-cube and all 8! states of the 2-cube."""
    solvable = reachable_from_goal(2) | reachable_from_goal(1)
    assert len(solvable) == 20160 + 1, "BFS: exactly half of the 2-cube states plus the lone 1-cube"
    boards = [(1, (0,))] + [(2, state) for state in itertools.permutations(range(8))]
    expected = [tuple(cells) in solvable for _, cells in boards]
    for name, command in solvers.items():
        got = answers(command, boards)
        wrong = [boards[i] for i, (a, b) in enumerate(zip(got, expected)) if a != b]
        assert not wrong, f"{name} disagrees with BFS on {len(wrong)} states, e.g. {wrong[:3]}"


@st.composite
def cube_with_edits(draw: st.DrawFn) -> tuple[int, Board, Board, Board]:
    """A random cube (M <= 6), the same after one real move, and after exchanging two boxes."""
    m = draw(st.integers(min_value=1, max_value=6))
    board: Board = tuple(draw(st.permutations(range(m**3))))
    options = neighbour_slots(m, board.index(0))
    moved = slide(board, draw(st.sampled_from(options))) if options else board
    swapped = board
    if m >= 2:
        boxes = [i for i, v in enumerate(board) if v != 0]
        first, second = draw(st.lists(st.sampled_from(boxes), min_size=2, max_size=2, unique=True))
        cells = list(board)
        cells[first], cells[second] = cells[second], cells[first]
        swapped = tuple(cells)
    return m, board, moved, swapped


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(cube_with_edits(), min_size=1, max_size=15))
def test_moves_keep_and_swaps_flip(solvers: dict[str, list[str]], cubes: list[tuple[int, Board, Board, Board]]) -> None:
    boards = [(m, b) for m, board, moved, swapped in cubes for b in (board, moved, swapped)]
    for name, command in solvers.items():
        got = answers(command, boards)
        for k, (m, _, _, _) in enumerate(cubes):
            original, after_move, after_swap = got[3 * k : 3 * k + 3]
            assert after_move == original, f"{name}: a legal move changed the answer (M={m})"
            if m >= 2:
                assert after_swap != original, f"{name}: exchanging two boxes kept the answer (M={m})"
            else:
                assert original, f"{name}: the 1-cube is always tidy"
