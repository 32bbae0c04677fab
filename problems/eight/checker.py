"""Output validator for HDU 1043 "Eight" (Kattis protocol).

    checker.py INPUT ANSWER FEEDBACK_DIR < OUTPUT

Exit 42 if the output is right, 43 otherwise, with a one-line reason in
FEEDBACK_DIR/judgemessage.txt. Many move sequences solve a board, so the
jury answer is not compared: the checker decides solvability itself (even
number of inversions among the tiles) and replays every move sequence.

The output is read as bytes, at most MAX_OUTPUT_BYTES (any encoding, any
garbage is a clean wrong answer). Lines are the pieces between newlines, so
the last newline is optional: line k answers board k. After the last board
only blank lines may follow. On every line trailing spaces, tabs and carriage
returns are ignored; anything else must be exactly `unsolvable` or a string of
at most MAX_MOVES letters u, d, l, r (the blank's moves) that keeps the blank
on the board and ends in the goal. An already solved board needs an empty line.
"""

import os
import sys

# by hand; the judge ships tiles.py beside this file. os.path, not pathlib, and no re: this runs once per case, and
# pathlib and re were a third of its start-up
sys.path.append(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "_lib", "python"))
import tiles  # noqa: E402

ACCEPTED = 42
WRONG_ANSWER = 43
MAX_MOVES = 10_000
MAX_OUTPUT_BYTES = 1 << 20
TRAILING = b" \t\r"
UNSOLVABLE = b"unsolvable"
MOVES = b"udlr"
GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0]
SHOW = 30


def step_table() -> list[list[int]]:
    """STEP[cell][letter byte]: the cell the blank moves to, or -1 if it would leave the board."""
    table = []
    for cell in range(9):
        row, col = divmod(cell, 3)
        steps = [-1] * 256
        steps[ord("u")] = cell - 3 if row > 0 else -1
        steps[ord("d")] = cell + 3 if row < 2 else -1
        steps[ord("l")] = cell - 1 if col > 0 else -1
        steps[ord("r")] = cell + 1 if col < 2 else -1
        table.append(steps)
    return table


STEP = step_table()


class Wrong(Exception):
    """The output is wrong; the message says where and why."""


def show(data: bytes) -> str:
    """A short, single-line, printable rendering of contestant bytes for messages."""
    return tiles.show(data, SHOW)


def show_byte(value: int) -> str:
    """One byte as a quoted character when printable, else in hex."""
    return repr(chr(value)) if 0x21 <= value <= 0x7E else f"byte 0x{value:02x}"


def render(cells: list[int]) -> str:
    """A board as `1 2 3 / 4 5 6 / 7 8 x` for messages."""
    tokens = ["x" if value == 0 else str(value) for value in cells]
    return " / ".join(" ".join(tokens[start : start + 3]) for start in range(0, 9, 3))


def read_boards(path: str) -> list[list[int]]:
    """The (validated) input: one board per line, the blank as 0."""
    with open(path, encoding="ascii") as stream:
        return [[0 if token == "x" else int(token) for token in line.split()] for line in stream if line.strip()]


def solvable(cells: list[int]) -> bool:
    """Even number of inversions among the eight tiles (the width 3 is odd)."""
    return tiles.is_solvable(cells, 3)


def replay(number: int, cells: list[int], moves: bytes) -> None:
    """Apply the moves to a copy of the board; raise Wrong unless they are legal and reach the goal."""
    if len(moves) > MAX_MOVES:
        raise Wrong(f"line {number}: {len(moves)} characters, more than the limit of {MAX_MOVES} moves")
    junk = moves.translate(None, MOVES)  # the bytes that are no move, in order: the first is the first one's value
    if junk:
        at = moves.index(junk[:1])
        raise Wrong(
            f"line {number}: column {at + 1}: {show_byte(moves[at])} is not a move"
            f" (expected only u, d, l, r, or the word 'unsolvable'; got {show(moves)})"
        )
    board = cells[:]
    blank = board.index(0)
    for index, letter in enumerate(moves):
        target = STEP[blank][letter]
        if target < 0:
            row, col = divmod(blank, 3)
            raise Wrong(
                f"line {number}: move {index + 1} '{chr(letter)}' leaves the board"
                f" (the blank is in row {row + 1}, column {col + 1})"
            )
        board[blank] = board[target]
        blank = target
    board[blank] = 0
    if board != GOAL:
        raise Wrong(
            f"line {number}: after {len(moves)} moves the board is {render(board)}, not the goal"
            if moves
            else f"line {number}: empty, but board {number} ({render(board)}) is not solved"
        )


def check_line(number: int, cells: list[int], line: bytes) -> None:
    """Judge the answer to one board."""
    content = line.rstrip(TRAILING)
    if not solvable(cells):
        if content != UNSOLVABLE:
            raise Wrong(
                f"line {number}: board {number} ({render(cells)}) is unsolvable,"
                f" expected 'unsolvable', got {show(content)}"
            )
    elif content == UNSOLVABLE:
        hint = ": it is already solved, expected an empty line" if cells == GOAL else ""
        raise Wrong(f"line {number}: 'unsolvable', but board {number} ({render(cells)}) is solvable{hint}")
    else:
        replay(number, cells, content)


def missing(number: int, boards: int, empty: bool) -> Wrong:
    """The error for the first board whose line the output does not have."""
    if empty:
        return Wrong(f"empty output, expected one line for each of the {boards} board(s)")
    return Wrong(f"line {number}: missing: the output has {number - 1} line(s) for {boards} boards")


def check(boards: list[list[int]], output: bytes) -> None:
    """Judge the whole output; raise Wrong at the first defect.

    The piece after the last newline is a line of its own only if it is not
    empty, or if it answers an already solved board (whose line is empty).
    """
    if len(output) > MAX_OUTPUT_BYTES:
        raise Wrong(f"output longer than the cap of {MAX_OUTPUT_BYTES} bytes")
    lines = output.split(b"\n")
    present = len(lines) - (lines[-1] == b"")
    for number, cells in enumerate(boards, start=1):
        if number > present and not (number == len(lines) and cells == GOAL):
            raise missing(number, len(boards), not output)
        check_line(number, cells, lines[number - 1])
    for number, line in enumerate(lines[len(boards) :], start=len(boards) + 1):
        if line.strip(TRAILING):
            raise Wrong(f"line {number}: extra output after the answer to the last board: {show(line)}")


def main() -> int:
    """Run the check; the verdict is the exit status, the reason goes to judgemessage.txt."""
    input_path, _answer_path, feedback_dir = sys.argv[1:4]
    boards = read_boards(input_path)
    output = sys.stdin.buffer.read(MAX_OUTPUT_BYTES + 1)
    try:
        check(boards, output)
    except Wrong as reason:
        verdict, message = WRONG_ANSWER, str(reason)
    else:
        verdict, message = ACCEPTED, f"all {len(boards)} boards answered correctly"
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w", encoding="utf-8") as out:
        out.write(message + "\n")
    return verdict


if __name__ == "__main__":
    sys.exit(main())
