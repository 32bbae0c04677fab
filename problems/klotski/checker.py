"""Output validator for "Klotski" (Kattis protocol).

    checker.py INPUT ANSWER FEEDBACK_DIR < OUTPUT

Exit 42 if the output is right, 43 if it is wrong, with a one-line reason in
FEEDBACK_DIR/judgemessage.txt; exit 1 (a judge error) if the contestant's
legal moves solve a board in fewer moves than the jury's optimum, or solve a
board the jury calls impossible: the jury is wrong then, not the contestant.

Many shortest move sequences exist, so the jury's moves are never compared:
only its first line per board is read, the optimum or `impossible`. The
output is read as bytes, at most MAX_OUTPUT_BYTES (more is wrong). It is
split into lines; trailing spaces, tabs and carriage returns are ignored on
each, and only empty lines may follow the last board. Per board: `impossible`
exactly, or a count K (digits, no leading zeros) and then K move lines
`X PATH`: a letter X naming a piece of the board, one space, and at least
one of U, D, L, R, the directions in which that piece takes its unit steps,
at most H*W of them (a path that never repeats a position is never longer).
Every step is simulated: after each one the piece must lie on the board and
cover only empty cells or its own. The count must be the jury's optimum and
the moves must leave the 2x2 piece on the exit (the two bottom rows, the two
middle columns).
"""

from __future__ import annotations  # `X | None` annotations on Python 3.9 too (PyPy3 in Debian 12)

import re
import sys
from pathlib import Path

ACCEPTED = 42
WRONG_ANSWER = 43
JURY_ERROR = 1
MAX_OUTPUT_BYTES = 4 << 20
TRAILING = b" \t\r"
IMPOSSIBLE = b"impossible"
COUNT = re.compile(rb"0|[1-9][0-9]{0,8}")
MOVE = re.compile(rb"([A-Za-z]) ([UDLR]+)")
STEP = {ord("U"): (-1, 0), ord("D"): (1, 0), ord("L"): (0, -1), ord("R"): (0, 1)}
SHOW = 30


class Wrong(Exception):
    """The output is wrong; the message says where and why."""


class JuryWrong(Exception):
    """The output proves the jury's answer wrong."""


def show(data: bytes) -> str:
    """A short, single-line, printable rendering of contestant bytes for messages."""
    return repr(data[:SHOW])[1:] + ("..." if len(data) > SHOW else "")


def read_boards(path: str) -> list[list[list[str]]]:
    """The (validated) input: each board as a grid of characters."""
    tokens = Path(path).read_text(encoding="ascii").split()
    boards, at = [], 1
    for _ in range(int(tokens[0])):
        rows = int(tokens[at])
        boards.append([list(row) for row in tokens[at + 2 : at + 2 + rows]])
        at += 2 + rows
    return boards


def read_optima(path: str, count: int) -> list[int | None]:
    """The jury's first line per board: the optimum, or None for `impossible`."""
    lines = Path(path).read_text(encoding="ascii").split("\n")
    optima: list[int | None] = []
    at = 0
    for _ in range(count):
        head = lines[at].strip()
        at += 1
        if head == IMPOSSIBLE.decode():
            optima.append(None)
        else:
            optima.append(int(head))
            at += int(head)
    return optima


class Lines:
    """The contestant's lines, trailing white space removed, numbered from 1."""

    def __init__(self, output: bytes) -> None:
        self.lines = [line.rstrip(TRAILING) for line in output.split(b"\n")]
        if self.lines[-1] == b"":
            self.lines.pop()
        self.at = 0

    def next(self, board: int) -> tuple[int, bytes]:
        """(number, text) of the next line; a missing line is wrong."""
        if self.at >= len(self.lines):
            raise Wrong(f"line {self.at + 1}: missing: the output ends inside the answer to board {board}")
        self.at += 1
        return self.at, self.lines[self.at - 1]

    def rest(self) -> None:
        """Only empty lines may follow the last answer."""
        for number, line in enumerate(self.lines[self.at :], start=self.at + 1):
            if line:
                raise Wrong(f"line {number}: unexpected output after the last board: {show(line)}")


def play(grid: list[list[str]], number: int, letter: str, path: bytes) -> None:
    """Move piece `letter` step by step along `path`; raise Wrong at the first illegal step."""
    rows, cols = len(grid), len(grid[0])
    cells = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == letter]
    if not cells:
        raise Wrong(f"line {number}: there is no piece '{letter}' on this board")
    for index, step in enumerate(path, start=1):
        dr, dc = STEP[step]
        moved = [(r + dr, c + dc) for r, c in cells]
        for r, c in moved:
            where = f"line {number}: step {index} ({chr(step)}) of '{letter}'"
            if not (0 <= r < rows and 0 <= c < cols):
                raise Wrong(f"{where} leaves the board")
            if grid[r][c] == "#":
                raise Wrong(f"{where} runs into the wall at row {r + 1}, column {c + 1}")
            if grid[r][c] not in (".", letter):
                raise Wrong(f"{where} runs into piece '{grid[r][c]}' at row {r + 1}, column {c + 1}")
        for r, c in cells:
            grid[r][c] = "."
        for r, c in moved:
            grid[r][c] = letter
        cells = moved


def king_home(grid: list[list[str]]) -> bool:
    """True iff the 2x2 piece covers the two middle cells of the two bottom rows."""
    rows, cols = len(grid), len(grid[0])
    exit_cells = [grid[r][c] for r in (rows - 2, rows - 1) for c in (cols // 2 - 1, cols // 2)]
    letter = exit_cells[0]
    return letter not in ".#" and exit_cells.count(letter) == 4 and sum(row.count(letter) for row in grid) == 4


def check_board(board: int, grid: list[list[str]], optimum: int | None, lines: Lines) -> None:
    """Judge the answer to one board, consuming its lines."""
    number, head = lines.next(board)
    if head == IMPOSSIBLE:
        if optimum is not None:
            raise Wrong(f"line {number}: board {board} is solvable in {optimum} moves, not impossible")
        return
    if not COUNT.fullmatch(head):
        raise Wrong(f"line {number}: expected the number of moves of board {board} or 'impossible', got {show(head)}")
    count = int(head)
    for _ in range(count):
        number, text = lines.next(board)
        move = MOVE.fullmatch(text)
        if not move:
            raise Wrong(
                f"line {number}: expected a move 'X PATH' (a letter, one space, letters U D L R), got {show(text)}"
            )
        cells = len(grid) * len(grid[0])
        if len(move[2]) > cells:
            raise Wrong(f"line {number}: a path of {len(move[2])} steps, more than the {cells} cells of the board")
        play(grid, number, move[1].decode(), move[2])
    if not king_home(grid):
        raise Wrong(f"board {board}: after {count} move{'' if count == 1 else 's'} the 2x2 piece is not on the exit")
    if optimum is None:
        raise JuryWrong(f"board {board}: the contestant solves it in {count} moves, the jury says impossible")
    if count < optimum:
        raise JuryWrong(f"board {board}: the contestant solves it in {count} moves, the jury needs {optimum}")
    if count > optimum:
        raise Wrong(f"board {board}: {count} moves, but {optimum} suffice")


def check(boards: list[list[list[str]]], optima: list[int | None], output: bytes) -> None:
    """Judge the whole output; raise Wrong at the first defect."""
    if len(output) > MAX_OUTPUT_BYTES:
        raise Wrong(f"output longer than the cap of {MAX_OUTPUT_BYTES} bytes")
    lines = Lines(output)
    for board, (grid, optimum) in enumerate(zip(boards, optima), start=1):
        check_board(board, grid, optimum, lines)
    lines.rest()


def main() -> int:
    """Run the check; the verdict is the exit status, the reason goes to judgemessage.txt."""
    input_path, answer_path, feedback_dir = sys.argv[1:4]
    boards = read_boards(input_path)
    optima = read_optima(answer_path, len(boards))
    output = sys.stdin.buffer.read(MAX_OUTPUT_BYTES + 1)
    try:
        check(boards, optima, output)
    except Wrong as reason:
        verdict, message = WRONG_ANSWER, str(reason)
    except JuryWrong as reason:
        verdict, message = JURY_ERROR, f"jury answer wrong: {reason}"
    else:
        verdict, message = ACCEPTED, f"all {len(boards)} boards answered with optimal moves"
    feedback = Path(feedback_dir)
    feedback.mkdir(parents=True, exist_ok=True)
    (feedback / "judgemessage.txt").write_text(message + "\n", encoding="utf-8")
    return verdict


if __name__ == "__main__":
    sys.exit(main())
