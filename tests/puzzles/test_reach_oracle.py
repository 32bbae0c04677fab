"""Independent oracle for problems/reach (Slide to Match).

The answer of `reach` is YES/NO (builtin `lines` checker), so instead of a
checker test this file confirms both reference solutions against ground
truth that knows no theorem: a breadth-first search over the arrangements of
small boards, moving the blank. Two arrangements answer YES exactly when the
search from the first one meets the second. Shapes with at most four cells
are checked on every ordered pair, 2 x 3 and 3 x 2 on every start against
sampled targets, 3 x 3 on sampled starts (the published counter-example
among them) against sampled targets, and the samples on their own shapes.
The generator's `--to-goal` files (POJ 2893's question, asked about single
lines) are checked the same way: the goal as every target, BFS as truth.
Property tests then cover larger boards: a random walk never changes the
answer, and exchanging two tiles of the target always flips it (both sides
>= 2) or makes it NO (lines). Nothing here shares code with the references,
which run as subprocesses with many cases per call.
"""

import itertools
import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
from conftest import reference_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
PROBLEM = REPO / "problems" / "reach"
ACCEPTED = PROBLEM / "submissions" / "accepted"
GENERATOR = PROBLEM / "generator.py"

State = tuple[int, ...]
Case = tuple[int, int, State, State]

TINY_SHAPES = [(1, 1), (2, 2)] + [shape for n in range(2, 5) for shape in ((1, n), (n, 1))]
COUNTER_START = (2, 1, 3, 4, 5, 6, 7, 8, 0)
COUNTER_TARGET = (2, 1, 3, 4, 5, 0, 7, 8, 6)

PROPERTY_SETTINGS = settings(
    max_examples=20,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="session")
def solvers() -> dict[str, list[str]]:
    """Both references as command lines; the C++ one built once, by the judge into its build cache."""
    return reference_commands("reach")


def encode(cases: list[Case]) -> bytes:
    """One multi-case input file in the problem's format."""
    parts = []
    for rows, cols, start, target in cases:
        parts.append(f"{rows} {cols}\n")
        for board in (start, target):
            for begin in range(0, rows * cols, cols):
                parts.append(" ".join(map(str, board[begin : begin + cols])) + "\n")
    parts.append("0 0\n")
    return "".join(parts).encode()


def ask(command: list[str], cases: list[Case]) -> list[bool]:
    """Run one solver on all cases at once; True means it printed YES."""
    result = subprocess.run(command, input=encode(cases), capture_output=True, check=True, timeout=120)
    lines = result.stdout.decode().split("\n")
    assert lines[-1] == "", "output must end with a newline"
    assert len(lines) - 1 == len(cases), "one answer line per case expected"
    assert set(lines[:-1]) <= {"YES", "NO"}, "only YES and NO may be printed"
    return [line == "YES" for line in lines[:-1]]


def assert_both_match(solvers: dict[str, list[str]], cases: list[Case], expected: list[bool]) -> None:
    """Every reference gives exactly the expected answers."""
    for name, command in solvers.items():
        got = ask(command, cases)
        wrong = [cases[i] for i, (g, e) in enumerate(zip(got, expected)) if g != e]
        assert not wrong, f"{name}: {len(wrong)} of {len(cases)} wrong, e.g. {wrong[:3]}"


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


def reachable_from(rows: int, cols: int, start: State) -> set[State]:
    """Every arrangement reachable from `start`: breadth-first search over blank moves."""
    adjacent = [neighbours(rows, cols, cell) for cell in range(rows * cols)]
    seen = {start}
    queue = deque([(start, start.index(0))])
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


def component_labels(rows: int, cols: int) -> dict[State, int]:
    """Component number of every arrangement of a shape, by repeated BFS."""
    labels: dict[State, int] = {}
    for state in itertools.permutations(range(rows * cols)):
        if state not in labels:
            number = len(set(labels.values()))
            labels.update(dict.fromkeys(reachable_from(rows, cols, state), number))
    return labels


@pytest.mark.parametrize("rows,cols", TINY_SHAPES, ids=lambda value: str(value))
def test_every_pair_of_tiny_shapes(solvers: dict[str, list[str]], rows: int, cols: int) -> None:
    """All ordered pairs of arrangements of 1 x n, n x 1 (n <= 4) and 2 x 2."""
    labels = component_labels(rows, cols)
    states = list(labels)
    cases = [(rows, cols, start, target) for start in states for target in states]
    expected = [labels[start] == labels[target] for _, _, start, target in cases]
    assert_both_match(solvers, cases, expected)


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 2)], ids=lambda value: str(value))
def test_every_start_of_six_cells(solvers: dict[str, list[str]], rows: int, cols: int) -> None:
    """Each of the 720 starts against 16 random targets, with the BFS component as the truth."""
    labels = component_labels(rows, cols)
    states = list(labels)
    rng = random.Random(f"reach-oracle/{rows}x{cols}")
    cases = [(rows, cols, start, target) for start in states for target in rng.sample(states, 16)]
    expected = [labels[start] == labels[target] for _, _, start, target in cases]
    assert True in expected and False in expected
    assert_both_match(solvers, cases, expected)


def test_sampled_starts_of_three_by_three(solvers: dict[str, list[str]]) -> None:
    """BFS from three 3 x 3 starts (the counter-example's first); 400 random targets each."""
    rng = random.Random("reach-oracle/3x3")
    everything = list(itertools.permutations(range(9)))
    starts = [COUNTER_START, (1, 2, 3, 4, 5, 6, 7, 8, 0), rng.choice(everything)]
    cases: list[Case] = []
    expected: list[bool] = []
    for start in starts:
        component = reachable_from(3, 3, start)
        assert len(component) == len(everything) // 2
        targets = rng.sample(everything, 400)
        if start == COUNTER_START:
            targets.append(COUNTER_TARGET)
        cases += [(3, 3, start, target) for target in targets]
        expected += [target in component for target in targets]
    assert COUNTER_TARGET in reachable_from(3, 3, COUNTER_START)
    assert_both_match(solvers, cases, expected)


def read_cases(text: str) -> list[Case]:
    """Parse an input file of the problem (the samples)."""
    numbers = iter(map(int, text.split()))
    cases = []
    while True:
        rows, cols = next(numbers), next(numbers)
        if rows == 0 and cols == 0:
            return cases
        start = tuple(next(numbers) for _ in range(rows * cols))
        target = tuple(next(numbers) for _ in range(rows * cols))
        cases.append((rows, cols, start, target))


@pytest.mark.parametrize("sample", sorted((PROBLEM / "samples").glob("*.in")), ids=lambda p: p.name)
def test_samples_by_search(solvers: dict[str, list[str]], sample: Path) -> None:
    """The samples' answers, found by BFS on their own shapes, and the references agree."""
    cases = read_cases(sample.read_text())
    expected = [target in reachable_from(rows, cols, start) for rows, cols, start, target in cases]
    assert_both_match(solvers, cases, expected)


@pytest.mark.parametrize(
    "arguments",
    [
        ["exhaustive", "--rows", "1", "--cols", "5", "--to-goal"],
        ["exhaustive", "--rows", "5", "--cols", "1", "--to-goal"],
        ["line", "--rows", "1", "--cols", "8", "--count", "70", "--to-goal", "--seed", "3"],
        ["line", "--rows", "7", "--cols", "1", "--count", "70", "--to-goal", "--seed", "4"],
    ],
    ids=lambda arguments: "-".join(arguments[:5:2]),
)
def test_poj2893_question_on_lines(solvers: dict[str, list[str]], arguments: list[str]) -> None:
    """`--to-goal` files ask whether a line reaches the goal: the goal is every target, BFS and references agree."""
    text = subprocess.run(
        [sys.executable, str(GENERATOR), *arguments], capture_output=True, text=True, check=True
    ).stdout
    cases = read_cases(text)
    rows, cols = cases[0][:2]
    goal = tuple(range(1, rows * cols)) + (0,)
    assert all(target == goal for _, _, _, target in cases)
    reachable = reachable_from(rows, cols, goal)
    expected = [start in reachable for _, _, start, _ in cases]
    assert True in expected and False in expected
    assert_both_match(solvers, cases, expected)


def walk(rows: int, cols: int, board: list[int], moves: list[int]) -> list[int]:
    """Apply blank moves; each entry picks one of the blank's current neighbours."""
    moved = list(board)
    blank = moved.index(0)
    for choice in moves:
        options = neighbours(rows, cols, blank)
        if not options:
            break
        cell = options[choice % len(options)]
        moved[blank], moved[cell] = moved[cell], 0
        blank = cell
    return moved


@st.composite
def walked_pairs(draw: st.DrawFn) -> tuple[Case, Case]:
    """A board of any shape, the board after a random walk, and that board with two tiles exchanged."""
    rows = draw(st.integers(1, 30))
    cols = draw(st.integers(1, 30))
    if rows * cols < 3:
        cols = 3
    board = list(draw(st.permutations(list(range(rows * cols)))))
    walked = walk(rows, cols, board, draw(st.lists(st.integers(0, 3), max_size=300)))
    tile_cells = [cell for cell, value in enumerate(walked) if value]
    first, second = draw(st.lists(st.sampled_from(tile_cells), min_size=2, max_size=2, unique=True))
    swapped = list(walked)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    return (rows, cols, tuple(board), tuple(walked)), (rows, cols, tuple(board), tuple(swapped))


@PROPERTY_SETTINGS
@given(pairs=st.lists(walked_pairs(), min_size=1, max_size=30))
def test_walks_reach_and_swaps_do_not(solvers: dict[str, list[str]], pairs: list[tuple[Case, Case]]) -> None:
    """A walked target is YES; the same target with two tiles exchanged is NO."""
    cases = [case for pair in pairs for case in pair]
    expected = [True, False] * len(pairs)
    assert_both_match(solvers, cases, expected)
