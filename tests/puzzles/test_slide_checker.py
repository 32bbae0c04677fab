"""The output validator of problems/slide, run exactly as the judge runs it.

Every kind of wrong output must get exit 43 with a precise one-line reason,
never a crash or another exit code; every valid answer (the reference's, a
longer one with detours, the tolerated whitespace) must get 42. A
breadth-first search over all 2x2 and 3x3 boards, sharing no code with the
package, confirms both references' solvable/unsolvable answers, and their
move lists are replayed here independently of the checker.
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
from conftest import reference_commands

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
PROBLEM = REPO / "problems" / "slide"
CHECKER = PROBLEM / "checker.py"
CASES = REPO / "cases" / "slide"
ACCEPTED = PROBLEM / "submissions" / "accepted"
CAP = 100_000

SAMPLE = "3\n4 1 3\n7 2 5\n0 8 6\n"
SAMPLE_MOVES = "UURDRD"
UNSOLVABLE = "2\n2 1\n3 0\n"
GOAL = "3\n1 2 3\n4 5 6\n7 8 0\n"
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def render(n: int, cells: list[int] | tuple[int, ...]) -> str:
    """A board in the input format."""
    return f"{n}\n" + "".join(" ".join(map(str, cells[r * n : r * n + n])) + "\n" for r in range(n))


def run_checker(tmp_path: Path, board: str, output: bytes) -> tuple[int, str]:
    """Exit code and judgemessage.txt of one checker run; any code but 42/43 fails the test."""
    case_in = tmp_path / "case.in"
    case_in.write_text(board)
    answer = tmp_path / "case.ans"
    answer.write_text("unused by the checker\n")
    feedback = tmp_path / "feedback"
    feedback.mkdir(exist_ok=True)
    message_file = feedback / "judgemessage.txt"
    message_file.unlink(missing_ok=True)
    result = subprocess.run(
        [sys.executable, str(CHECKER), str(case_in), str(answer), str(feedback)],
        input=output,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode in (42, 43), result.stderr.decode(errors="replace")
    message = message_file.read_text()
    assert message.count("\n") == 1 and message.endswith("\n"), repr(message)
    return result.returncode, message.strip()


WRONG_OUTPUTS = [
    pytest.param(SAMPLE, b"UURDRX\n", "move 6: 'X' is not one of L, R, U, D", id="bad-letter"),
    pytest.param(SAMPLE, b"uurdrd\n", "move 1: 'u' is not one of L, R, U, D (moves are upper-case)", id="lower-case"),
    pytest.param(SAMPLE, b"U U R D R D\n", "move 2: ' ' is not one of", id="spaces-between-moves"),
    pytest.param(SAMPLE, b"U,U,R,D,R,D\n", "move 2: ',' is not one of", id="commas"),
    pytest.param(
        SAMPLE, b"DURDRD\n", "move 1 'D' leaves the board (blank at row 3, column 1 of 3)", id="off-the-board"
    ),
    pytest.param(
        SAMPLE,
        b"UURDR\n",
        "after 5 moves the board is not solved: row 2, column 3 holds 0, expected 6",
        id="one-move-short",
    ),
    pytest.param(SAMPLE, b"DDLULU\n", "move 1 'D' leaves the board", id="tile-direction"),
    pytest.param(SAMPLE, b"UURDRDU\n", "after 7 moves the board is not solved", id="one-move-too-many"),
    pytest.param(SAMPLE, b"", "with no moves the board is not solved", id="empty-output"),
    pytest.param(SAMPLE, b"\n\n\n", "with no moves the board is not solved", id="only-newlines"),
    pytest.param(
        SAMPLE, b"UURDRD\nfoo\n", "line 2: unexpected output after the answer line: 'foo'", id="trailing-garbage"
    ),
    pytest.param(
        SAMPLE,
        b"UURDRD\n\n  \t\nx",
        "line 4: unexpected output after the answer line: 'x'",
        id="garbage-after-blank-lines",
    ),
    pytest.param(SAMPLE, b"UURDRD\nUURDRD\n", "line 2: unexpected output", id="extra-line"),
    pytest.param(
        SAMPLE,
        b"UURDRD\n\x00\xff",
        "line 2: unexpected output after the answer line: '\\x00\\xff'",
        id="binary-after-answer",
    ),
    pytest.param(SAMPLE, b"\xff\xfe\x00UURDRD\n", "move 1: '\\xff' is not one of", id="binary-garbage"),
    pytest.param(SAMPLE, b"No Answer!\n", "'No Answer!' but the board is solvable", id="false-no-answer"),
    pytest.param(
        SAMPLE,
        ("UD" * 49_998 + SAMPLE_MOVES + "\n").encode(),
        "line 1: 100002 characters, more than the cap of 100000 moves",
        id="over-the-cap",
    ),
    pytest.param(
        SAMPLE, b"L" * (1 << 20), "line 1: 1048576 characters, more than the cap of 100000 moves", id="huge-line"
    ),
    pytest.param(SAMPLE, b" " * (3 << 20), "output longer than 2097152 bytes", id="huge-output"),
    pytest.param(
        UNSOLVABLE, b"LURD\n", "the board is unsolvable, expected 'No Answer!', got 'LURD'", id="moves-for-unsolvable"
    ),
    pytest.param(UNSOLVABLE, b"", "the board is unsolvable, expected 'No Answer!', got ''", id="empty-for-unsolvable"),
    pytest.param(UNSOLVABLE, b"no answer!\n", "expected 'No Answer!', got 'no answer!'", id="no-answer-case"),
    pytest.param(UNSOLVABLE, b"No Answer\n", "expected 'No Answer!', got 'No Answer'", id="no-answer-bang"),
    pytest.param(UNSOLVABLE, b"No  Answer!\n", "got 'No  Answer!'", id="no-answer-two-spaces"),
    pytest.param(UNSOLVABLE, b"No Answer!\nNo Answer!\n", "line 2: unexpected output", id="no-answer-twice"),
    pytest.param(GOAL, b"LR\nx\n", "line 2: unexpected output", id="goal-with-garbage"),
    pytest.param(GOAL, b"L\n", "after 1 move the board is not solved", id="goal-one-move"),
]


@pytest.mark.parametrize(("board", "output", "reason"), WRONG_OUTPUTS)
def test_wrong_output_is_rejected_with_reason(tmp_path: Path, board: str, output: bytes, reason: str) -> None:
    code, message = run_checker(tmp_path, board, output)
    assert code == 43, message
    assert reason in message


VALID_OUTPUTS = [
    pytest.param(SAMPLE, SAMPLE_MOVES.encode() + b"\n", id="reference"),
    pytest.param(SAMPLE, SAMPLE_MOVES.encode(), id="no-final-newline"),
    pytest.param(SAMPLE, b" \t" + SAMPLE_MOVES.encode() + b" \r\n\n \n", id="tolerated-whitespace"),
    pytest.param(SAMPLE, b"URLD" + SAMPLE_MOVES.encode() + b"LRUUDD\n", id="detours"),
    pytest.param(SAMPLE, ("UD" * 49_997 + SAMPLE_MOVES + "\n").encode(), id="exactly-the-cap"),
    pytest.param(UNSOLVABLE, b"No Answer!\r\n", id="no-answer-crlf"),
    pytest.param(GOAL, b"\n", id="goal-empty-line"),
    pytest.param(GOAL, b"", id="goal-empty-output"),
    pytest.param(GOAL, b"LRUD" + b"ULDR" * 3 + b"\n", id="goal-round-trip"),
]


@pytest.mark.parametrize(("board", "output"), VALID_OUTPUTS)
def test_valid_output_is_accepted(tmp_path: Path, board: str, output: bytes) -> None:
    code, message = run_checker(tmp_path, board, output)
    assert code == 42, message


def test_every_reference_answer_is_accepted_and_one_short_is_not(tmp_path: Path) -> None:
    """The .ans of every case passes; dropping the last move of every third one fails."""
    inputs = sorted(CASES.glob("*/*.in"))
    assert len(inputs) >= 50
    for index, case_in in enumerate(inputs):
        answer = case_in.with_suffix(".ans").read_bytes()
        code, message = run_checker(tmp_path, case_in.read_text(), answer)
        assert code == 42, f"{case_in.name}: {message}"
        moves = answer.strip()
        if index % 3 == 0 and moves and moves != b"No Answer!":
            code, message = run_checker(tmp_path, case_in.read_text(), moves[:-1] + b"\n")
            assert code == 43 and "not solved" in message, f"{case_in.name}: {message}"


@functools.cache
def reachable(n: int) -> set[tuple[int, ...]]:
    """Every board reachable from the goal by moving the blank (moves are reversible)."""
    start = tuple(range(1, n * n)) + (0,)
    seen = {start}
    queue = deque([(start, n * n - 1)])
    while queue:
        board, blank = queue.popleft()
        row, col = divmod(blank, n)
        for d_row, d_col in STEP.values():
            if 0 <= row + d_row < n and 0 <= col + d_col < n:
                other = (row + d_row) * n + col + d_col
                cells = list(board)
                cells[blank], cells[other] = cells[other], 0
                state = tuple(cells)
                if state not in seen:
                    seen.add(state)
                    queue.append((state, other))
    return seen


def replay(n: int, cells: tuple[int, ...], moves: str) -> bool:
    """True iff the moves stay on the board and end on the goal."""
    board = list(cells)
    blank = board.index(0)
    for move in moves:
        row, col = divmod(blank, n)
        d_row, d_col = STEP[move]
        if not (0 <= row + d_row < n and 0 <= col + d_col < n):
            return False
        other = (row + d_row) * n + col + d_col
        board[blank], board[other] = board[other], 0
        blank = other
    return board == list(range(1, n * n)) + [0]


@pytest.fixture(scope="module")
def references() -> dict[str, list[str]]:
    """Command lines of both references; the C++ one built once, by the judge into its build cache."""
    return reference_commands("slide")


def solve(command: list[str], n: int, cells: tuple[int, ...]) -> str:
    """One reference's single output line for one board."""
    result = subprocess.run(command, input=render(n, cells).encode(), capture_output=True, check=True, timeout=30)
    text = result.stdout.decode()
    assert text.endswith("\n") and text.count("\n") == 1, repr(text[:80])
    return text[:-1]


@functools.cache
def oracle_boards() -> list[tuple[int, tuple[int, ...], bool]]:
    """All 24 2x2 boards and 24 random 3x3 boards (12 of each answer), with the BFS truth."""
    boards = []
    small = reachable(2)
    for order in sorted(set(_permutations(4))):
        boards.append((2, order, order in small))
    medium = reachable(3)
    rng = random.Random(3240)
    counts = {True: 0, False: 0}
    while min(counts.values()) < 12:
        cells = list(range(9))
        rng.shuffle(cells)
        truth = tuple(cells) in medium
        if counts[truth] < 12:
            counts[truth] += 1
            boards.append((3, tuple(cells), truth))
    return boards


def _permutations(size: int) -> list[tuple[int, ...]]:
    """All arrangements of 0..size-1 (tiny sizes only)."""
    if size == 1:
        return [(0,)]
    return [head[:i] + (size - 1,) + head[i:] for head in _permutations(size - 1) for i in range(size)]


@pytest.mark.parametrize("name", ["ref.cpp", "ref.py"])
def test_references_agree_with_breadth_first_search(references: dict[str, list[str]], name: str) -> None:
    boards = oracle_boards()
    assert len(reachable(2)) == 12 and len(reachable(3)) == 181_440
    for n, cells, truth in boards:
        answer = solve(references[name], n, cells)
        if truth:
            assert answer != "No Answer!", (n, cells)
            assert len(answer) <= CAP and replay(n, cells, answer), (n, cells, answer)
        else:
            assert answer == "No Answer!", (n, cells, answer)


def test_checker_truth_agrees_with_breadth_first_search(tmp_path: Path) -> None:
    """`No Answer!` is accepted exactly on the boards the search cannot reach."""
    for n, cells, truth in oracle_boards()[::3]:
        code, message = run_checker(tmp_path, render(n, cells), b"No Answer!\n")
        assert code == (43 if truth else 42), (n, cells, message)


def test_cpp_reference_solves_random_boards_of_every_size(references: dict[str, list[str]]) -> None:
    """Solvable random boards of n = 2..10 (and the stuck positions the trap cases aim at)."""
    rng = random.Random(7)
    longest = 0
    for index in range(90):
        n = 2 + index % 9
        cells = list(range(n * n))
        rng.shuffle(cells)
        answer = solve(references["ref.cpp"], n, tuple(cells))
        if answer == "No Answer!":
            continue
        assert replay(n, tuple(cells), answer), (n, cells)
        longest = max(longest, len(answer))
    assert 0 < longest <= CAP
