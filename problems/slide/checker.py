"""Output validator for "Slide" (Kattis protocol).

Usage: checker.py INPUT ANSWER FEEDBACK_DIR < contestant_output
Exit 42 accepted, 43 wrong answer; the reason goes, as one line, into
FEEDBACK_DIR/judgemessage.txt. The ANSWER file (the reference's moves) is not
needed: any move sequence that solves the board within the cap is right, and
whether the board is solvable is decided here from the input.

Accepted output: one line holding either `No Answer!` (exactly, for an
unsolvable board) or a string over L R U D, the moves of the blank, of at most
MAX_MOVES letters that turns the board into the goal (empty for the goal
itself). Whitespace tolerance: spaces, tabs and a carriage return around the
answer on its line are ignored, the final newline may be missing (so an empty
output is an empty line), and only spaces, tabs, carriage returns and
newlines may follow the first line. Everything else is a wrong answer; no
output, however large or malformed, makes this program fail: it reads at most
READ_CAP + 1 bytes (more than READ_CAP is wrong: a valid answer is far
shorter) and works on bytes, never decoding them.
"""

import os
import sys

# by hand; the judge ships tiles.py beside this file. os.path, not pathlib: this runs once per case, and pathlib
# (with the re it imports) was a third of its start-up
sys.path.append(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "_lib", "python"))
import tiles  # noqa: E402

ACCEPTED = 42
WRONG = 43
MAX_MOVES = 100_000
READ_CAP = 2 << 20
NO_ANSWER = b"No Answer!"
LINE_SPACE = b" \t\r"
ANY_SPACE = b" \t\r\n"
STEPS = {ord("U"): (-1, 0), ord("D"): (1, 0), ord("L"): (0, -1), ord("R"): (0, 1)}
SHOW = 40


class Wrong(Exception):
    """A wrong answer, with the one-line reason shown to the contestant."""


def show(data: bytes) -> str:
    """A short printable form of some output bytes, whatever they are (bytes repr without the b)."""
    return tiles.show(data, SHOW)


def read_board(path: str) -> tuple[int, list[int]]:
    """The validated input: n, then the n*n cells row by row."""
    with open(path, "rb") as stream:
        numbers = [int(token) for token in stream.read().split()]
    n = numbers[0]
    return n, numbers[1 : 1 + n * n]


def is_solvable(n: int, cells: list[int]) -> bool:
    """Tile inversions even (odd n); tile inversions plus the blank's row from the bottom even (even n)."""
    return tiles.is_solvable(cells, n)


def split_answer(output: bytes) -> bytes:
    """The first line without surrounding spaces; anything but whitespace after it is wrong."""
    end = output.find(b"\n")
    first, rest = (output, b"") if end < 0 else (output[:end], output[end + 1 :])
    garbage = rest.lstrip(ANY_SPACE)
    if garbage:
        line = 2 + rest[: len(rest) - len(garbage)].count(b"\n")
        first_garbage = garbage.split(b"\n", 1)[0]
        raise Wrong(f"line {line}: unexpected output after the answer line: {show(first_garbage)}")
    return first.strip(LINE_SPACE)


def bad_letter(index: int, letter: int) -> Wrong:
    """The reason for a character that is not a move."""
    hint = " (moves are upper-case)" if chr(letter) in "lrud" else ""
    return Wrong(f"line 1: move {index}: {show(bytes([letter]))} is not one of L, R, U, D{hint}")


def play(n: int, cells: list[int], moves: bytes) -> list[int]:
    """Apply the blank's moves, rejecting any unknown letter and any move off the board."""
    board = cells[:]
    blank = board.index(0)
    row, col = divmod(blank, n)
    for index, letter in enumerate(moves, start=1):
        step = STEPS.get(letter)
        if step is None:
            raise bad_letter(index, letter)
        new_row, new_col = row + step[0], col + step[1]
        if not (0 <= new_row < n and 0 <= new_col < n):
            raise Wrong(
                f"line 1: move {index} {chr(letter)!r} leaves the board"
                f" (blank at row {row + 1}, column {col + 1} of {n})"
            )
        target = new_row * n + new_col
        board[blank], board[target] = board[target], 0
        blank, row, col = target, new_row, new_col
    return board


def judge(n: int, cells: list[int], output: bytes) -> str:
    """Accept or raise Wrong; returns the message for an accepted answer."""
    if len(output) > READ_CAP:
        raise Wrong(f"output longer than {READ_CAP} bytes")
    answer = split_answer(output)
    solvable = is_solvable(n, cells)
    if answer == NO_ANSWER:
        if solvable:
            raise Wrong("line 1: 'No Answer!' but the board is solvable")
        return "correctly reported unsolvable"
    if not solvable:
        raise Wrong(f"line 1: the board is unsolvable, expected 'No Answer!', got {show(answer)}")
    if len(answer) > MAX_MOVES:
        raise Wrong(f"line 1: {len(answer)} characters, more than the cap of {MAX_MOVES} moves")
    board = play(n, cells, answer)
    goal = list(range(1, n * n)) + [0]
    if board != goal:
        cell = next(index for index, value in enumerate(board) if value != goal[index])
        done = f"after {len(answer)} move{'' if len(answer) == 1 else 's'}" if answer else "with no moves"
        raise Wrong(
            f"line 1: {done} the board is not solved: row {cell // n + 1},"
            f" column {cell % n + 1} holds {board[cell]}, expected {goal[cell]}"
        )
    return f"solved in {len(answer)} moves"


def main() -> None:
    """Read the input and the capped output, write the one-line reason, exit 42 or 43."""
    input_path, _answer_path, feedback_dir = sys.argv[1:4]
    n, cells = read_board(input_path)
    output = sys.stdin.buffer.read(READ_CAP + 1)
    try:
        message, code = judge(n, cells, output), ACCEPTED
    except Wrong as wrong:
        message, code = str(wrong), WRONG
    os.makedirs(feedback_dir, exist_ok=True)
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as out:
        out.write(message + "\n")
    sys.exit(code)


if __name__ == "__main__":
    main()
