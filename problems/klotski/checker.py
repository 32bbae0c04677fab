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
The cheap claims are judged first, before a
move is read: a count over the jury's optimum is wrong at once, and so is a
count for a board the jury calls impossible that is larger than the
positions the file's boards can still have (the statement bounds them by
MAX_POSITIONS in all, and a shortest solution never visits a position twice),
so no output makes the checker simulate more moves than the optima and that
bound allow. Then every step is simulated on a grid with a border: after each
one the piece must lie on the board and cover only empty cells or its own.
The moves must leave the 2x2 piece on the exit (the two bottom rows, the two
middle columns).
"""

from __future__ import annotations  # `X | None` annotations on Python 3.9 too (PyPy3 in Debian 12)

import os
import sys

ACCEPTED = 42
WRONG_ANSWER = 43
JURY_ERROR = 1
MAX_OUTPUT_BYTES = 4 << 20
MAX_POSITIONS = 200_000  # positions reachable from all the boards of a file, at most (the statement's bound)
TRAILING = b" \t\r"
IMPOSSIBLE = b"impossible"
DIRECTIONS = b"UDLR"
EMPTY, WALL, BORDER = ord("."), ord("#"), 0
SHOW = 30


class Wrong(Exception):
    """The output is wrong; the message says where and why."""


class JuryWrong(Exception):
    """The output proves the jury's answer wrong."""


def is_count(text: bytes) -> bool:
    """Digits, at most nine, without a leading zero. Checked by hand rather than by a regular expression: importing
    ``re`` was a third of this checker's start-up, paid on every case of every submission."""
    return text.isdigit() and len(text) <= 9 and (text[0] != ord("0") or text == b"0")


def move_path(text: bytes) -> bytes | None:
    """The PATH of a move line `X PATH` (an ASCII letter, one space, at least one of U D L R); None if it is not one."""
    path = text[2:]
    if text[:1].isalpha() and text[1:2] == b" " and path and not path.translate(None, DIRECTIONS):
        return path
    return None


def show(data: bytes) -> str:
    """A short, single-line, printable rendering of contestant bytes for messages."""
    return repr(data[:SHOW])[1:] + ("..." if len(data) > SHOW else "")


def read_boards(path: str) -> list[list[list[str]]]:
    """The (validated) input: each board as a grid of characters."""
    with open(path, encoding="ascii") as stream:  # not pathlib: its import was a fifth of this per-case program's run
        tokens = stream.read().split()
    boards, at = [], 1
    for _ in range(int(tokens[0])):
        rows = int(tokens[at])
        boards.append([list(row) for row in tokens[at + 2 : at + 2 + rows]])
        at += 2 + rows
    return boards


def read_optima(path: str, count: int) -> list[int | None]:
    """The jury's first line per board: the optimum, or None for `impossible`."""
    with open(path, encoding="ascii") as stream:
        lines = stream.read().split("\n")
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


class Board:
    """A board as a flat grid of bytes with a border around it, and where each piece is (the grid is changed in place).

    A piece is its anchor (its first cell in row order) and the offsets of its
    cells from it; a step adds the direction's offset to the anchor, and a
    path is simulated by lifting the piece off the grid and asking, for each
    anchor it reaches, whether its cells are empty there (remembered per
    move: a path that goes back and forth asks once per place).
    """

    def __init__(self, rows: list[list[str]]) -> None:
        self.height, self.width = len(rows), len(rows[0])
        self.stride = stride = self.width + 2
        self.cells = bytearray([BORDER]) * (stride * (self.height + 2))
        where: dict[int, list[int]] = {}
        for r, row in enumerate(rows, start=1):
            for c, char in enumerate(row, start=1):
                self.cells[r * stride + c] = ord(char)
                if char not in ".#":
                    where.setdefault(ord(char), []).append(r * stride + c)
        self.pieces = {letter: (at[0], tuple(i - at[0] for i in at)) for letter, at in where.items()}
        self.step = {ord("U"): -stride, ord("D"): stride, ord("L"): -1, ord("R"): 1}

    def play(self, number: int, letter: int, path: bytes) -> None:
        """Move the piece step by step along the path; raise Wrong at the first illegal step."""
        if letter not in self.pieces:
            raise Wrong(f"line {number}: there is no piece '{chr(letter)}' on this board")
        anchor, offsets = self.pieces[letter]
        cells, step = self.cells, self.step
        for offset in offsets:
            cells[anchor + offset] = EMPTY
        free: dict[int, bool] = {}
        at = anchor
        for index, direction in enumerate(path, start=1):
            at += step[direction]
            fits = free.get(at)
            if fits is None:
                fits = free[at] = all(cells[at + offset] == EMPTY for offset in offsets)
            if not fits:
                raise self.blocked(number, chr(letter), index, direction, at, offsets)
        for offset in offsets:
            cells[at + offset] = letter
        self.pieces[letter] = (at, offsets)

    def blocked(self, number: int, letter: str, index: int, direction: int, at: int, offsets: tuple[int, ...]) -> Wrong:
        """Why the piece cannot stand at anchor ``at``: the first of its cells (in row order) that is not empty."""
        where = f"line {number}: step {index} ({chr(direction)}) of '{letter}'"
        cell = next(at + offset for offset in offsets if self.cells[at + offset] != EMPTY)
        row, col = divmod(cell, self.stride)
        held = self.cells[cell]
        if held == BORDER:
            return Wrong(f"{where} leaves the board")
        if held == WALL:
            return Wrong(f"{where} runs into the wall at row {row}, column {col}")
        return Wrong(f"{where} runs into piece '{chr(held)}' at row {row}, column {col}")

    def king_home(self) -> bool:
        """True iff the 2x2 piece covers the two middle cells of the two bottom rows."""
        first = (self.height - 1) * self.stride + self.width // 2
        letter = self.cells[first]
        piece = self.pieces.get(letter)
        return piece is not None and piece == (first, (0, 1, self.stride, self.stride + 1))


def check_board(board: int, grid: list[list[str]], optimum: int | None, lines: Lines, positions: int) -> int:
    """Judge the answer to one board, consuming its lines; ``positions`` is how many positions this board can have at
    most. Returns the number of moves."""
    number, head = lines.next(board)
    if head == IMPOSSIBLE:
        if optimum is not None:
            raise Wrong(f"line {number}: board {board} is solvable in {optimum} moves, not impossible")
        return 0
    if not is_count(head):
        raise Wrong(f"line {number}: expected the number of moves of board {board} or 'impossible', got {show(head)}")
    count = int(head)
    if optimum is not None and count > optimum:
        raise Wrong(f"board {board}: {count} moves, but {optimum} suffice (line {number})")
    if optimum is None and count >= positions:
        raise Wrong(
            f"board {board}: {count} moves, but the boards of this file have at most {MAX_POSITIONS} positions in all,"
            f" at most {positions} of them this board's, so no shortest solution is that long (line {number})"
        )
    state = Board(grid)
    cells = len(grid) * len(grid[0])
    for _ in range(count):
        number, text = lines.next(board)
        path = move_path(text)
        if path is None:
            raise Wrong(
                f"line {number}: expected a move 'X PATH' (a letter, one space, letters U D L R), got {show(text)}"
            )
        if len(path) > cells:
            raise Wrong(f"line {number}: a path of {len(path)} steps, more than the {cells} cells of the board")
        state.play(number, text[0], path)
    if not state.king_home():
        raise Wrong(f"board {board}: after {count} move{'' if count == 1 else 's'} the 2x2 piece is not on the exit")
    if optimum is None:
        raise JuryWrong(f"board {board}: the contestant solves it in {count} moves, the jury says impossible")
    if count < optimum:
        raise JuryWrong(f"board {board}: the contestant solves it in {count} moves, the jury needs {optimum}")
    return count


def check(boards: list[list[list[str]]], optima: list[int | None], output: bytes) -> None:
    """Judge the whole output; raise Wrong at the first defect."""
    if len(output) > MAX_OUTPUT_BYTES:
        raise Wrong(f"output longer than the cap of {MAX_OUTPUT_BYTES} bytes")
    lines = Lines(output)
    positions = MAX_POSITIONS  # what the boards not yet judged can have: each has its moves' count and one more
    for board, (grid, optimum) in enumerate(zip(boards, optima), start=1):
        positions -= check_board(board, grid, optimum, lines, positions - (len(boards) - board)) + 1
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
    os.makedirs(feedback_dir, exist_ok=True)
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w", encoding="utf-8") as out:
        out.write(message + "\n")
    return verdict


if __name__ == "__main__":
    sys.exit(main())
