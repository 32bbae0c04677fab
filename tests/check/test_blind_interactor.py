"""The Blindfold interactor, driven directly through pipes by scripted submissions (no judge involved).

`interactor INPUT ANSWER FEEDBACK_DIR/` reads the submission's commands on
stdin and answers on stdout. These tests prove what the judge relies on: the
statement's sample transcript is exactly what it says and writes; every
move is simulated and counted against the board's fewest moves; every broken
rule (a look or a move too many, a move off the board, a wrong `!`, garbage,
an early end, trailing output, a submission that stops reading) is exit 43
with a one-line message naming the round; a defective input file is the
jury's fault (exit 1). The last test solves a generated file with a search
of its own and checks the interactor's totals.
"""

from __future__ import annotations

import subprocess
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import built, needs

PACKAGE = Path(__file__).resolve().parents[2] / "problems" / "blind"
SAMPLE = PACKAGE / "samples" / "1.in"
ACCEPTED, WRONG, JURY_ERROR = 42, 43, 1

pytestmark = needs("g++")


@dataclass
class Outcome:
    code: int
    message: str
    replies: str


@pytest.fixture(scope="module")
def interactor() -> Path:
    """The interactor as the judge builds and runs it, from the judge's content-addressed build cache
    (``harness.built``): verify of blind or an earlier run has usually made it, where a g++ -O2 of this module's own
    cost each run most of a CPU-second."""
    (command,) = built(PACKAGE / "interactor.cpp")
    return Path(command)


def play(
    interactor: Path, tmp_path: Path, commands: bytes, board_input: Path = SAMPLE, close_replies: bool = False
) -> Outcome:
    """Run the interactor on ``board_input`` with the submission's whole output written at once, then closed.

    The interactor's replies are small, so the pipe holds them until the end;
    with ``close_replies`` the submission has stopped reading before it writes.
    """
    feedback = tmp_path / "feedback"
    feedback.mkdir(exist_ok=True)
    (feedback / "judgemessage.txt").unlink(missing_ok=True)
    answer = tmp_path / "empty.ans"
    answer.write_bytes(b"")
    proc = subprocess.Popen(
        [str(interactor), str(board_input), str(answer), f"{feedback}/"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    if close_replies:
        proc.stdout.close()
        try:
            proc.stdin.write(commands)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        proc.wait(timeout=30)
        replies = ""
    else:
        out, _ = proc.communicate(commands, timeout=30)
        replies = out.decode()
    message = (feedback / "judgemessage.txt").read_text()
    assert message.endswith("\n") and message.count("\n") == 1, f"the message must be one line: {message!r}"
    return Outcome(proc.returncode, message.strip(), replies)


def test_the_statements_sample_transcript_is_what_the_interactor_says_and_accepts(
    interactor: Path, tmp_path: Path
) -> None:
    lines = (PACKAGE / "samples" / "1.interaction").read_text().splitlines()
    ours = "".join(line[2:] + "\n" for line in lines if line.startswith("> "))
    judges = "".join(line[2:] + "\n" for line in lines if line.startswith("< "))
    outcome = play(interactor, tmp_path, ours.encode())
    assert (outcome.code, outcome.message) == (ACCEPTED, "3 boards, 3 moves, 16 queries")
    assert outcome.replies == judges
    statement = (PACKAGE / "statement.md").read_text()
    assert "\n".join(lines) in statement, "the statement shows the sample transcript as it is"


# The sample's rounds: 2x2 `1 2 / x 3` (R), 2x3 impossible, 3x3 `1 2 3 / 4 x 6 / 7 5 8` (D R).
ROUND_1 = "? 1 1\n? 1 2\n? 2 1\nR\n! done\n"
ROUND_2 = "! impossible\n"
ROUND_3 = "D\nR\n! done\n"


def test_moves_are_simulated_and_looks_show_the_board_as_it_is_now(interactor: Path, tmp_path: Path) -> None:
    outcome = play(
        interactor,
        tmp_path,
        ("R\n? 2 1\n? 2 2\n! done\n" + ROUND_2 + "? 2 2\nD\n? 2 2\n? 3 2\nR\n? 3 3\n! done\n").encode(),
    )
    assert (outcome.code, outcome.message) == (ACCEPTED, "3 boards, 3 moves, 6 queries")
    assert outcome.replies == "3\n2 2\n3\n0\n2 3\n3 3\n0\n5\n0\n0\n"


@pytest.mark.parametrize(
    "commands, message",
    [
        ("? 1 1\n? 1 2\n? 2 1\n? 2 2\n", "round 1: query 4; a 2x2 board allows 3"),
        ("L\n", "round 1: move 1 (L) takes the blank off the board from row 2, column 1"),
        ("R\nL\n", "round 1: move 2; the board is solved in 1"),
        ("! done\n", "round 1: `! done` after 0 moves, but the board is not solved"),
        ("! impossible\n", "round 1: `! impossible`, but 1 moves solve this board"),
        (ROUND_1 + "! done\n", "round 2: `! done`, but this board cannot be solved"),
        (ROUND_1 + "L\n", "round 2: move L on a board that cannot be solved"),
        (ROUND_1 + ROUND_2 + "R\nD\n! done\n", "round 3: `! done` after 2 moves, but the board is not solved"),
        (ROUND_1 + ROUND_2 + "D\nR\nR\n", "round 3: move 3; the board is solved in 2"),
        (ROUND_1 + ROUND_2 + ROUND_3 + "! done\n", "output after the last round: `!`"),
        (ROUND_1, "round 2: the submission's output ended before `!` (after 0 moves)"),
        ("R\n", "round 1: the submission's output ended before `!` (after 1 moves)"),
        ("R\n!", "round 1: the output ends after `!`"),
        ("R\n! solved\n", "round 1: `! solved`; expected `! done` or `! impossible`"),
        ("? 3 1\n", "round 1: row 3 is outside 1..2"),
        ("? 1 0\n", "round 1: column 0 is outside 1..2"),
        ("? 1 x\n", "round 1: `x` is not a column number"),
        ("? 1", "round 1: the output ends inside a query"),
        ("r\n", "round 1: unknown command `r`"),
        ("\x00\xff\n", "round 1: unknown command `\\x00\\xff`"),
        ("U" * 100, "garbage: a token longer than 24 bytes starting `" + "U" * 24 + "`"),
        ("", "round 1: the submission's output ended before `!` (after 0 moves)"),
    ],
)
def test_every_broken_rule_is_a_wrong_answer_naming_the_round(
    interactor: Path, tmp_path: Path, commands: str, message: str
) -> None:
    outcome = play(interactor, tmp_path, commands.encode("latin-1"))
    assert (outcome.code, outcome.message) == (WRONG, message)


def test_commands_may_be_spread_over_white_space_and_crlf(interactor: Path, tmp_path: Path) -> None:
    outcome = play(interactor, tmp_path, b"?  1\t1\r\n? 1 2 ? 2 1 R !\ndone\n\n! impossible D R ! done\n")
    assert (outcome.code, outcome.message) == (ACCEPTED, "3 boards, 3 moves, 3 queries")


def test_a_submission_that_stops_reading_is_a_wrong_answer_not_a_sigpipe_death(
    interactor: Path, tmp_path: Path
) -> None:
    outcome = play(interactor, tmp_path, ROUND_1.encode(), close_replies=True)
    assert outcome.code == WRONG
    assert outcome.message.endswith("the submission stopped reading its input")


@pytest.mark.parametrize("board_input", ["", "2\n2 2 1\n1 2\n0 3\n", "1\n2 2 1\n1 2\n"])
def test_a_defective_input_file_is_the_jurys_error(interactor: Path, tmp_path: Path, board_input: str) -> None:
    path = tmp_path / "bad.in"
    path.write_text(board_input)
    assert play(interactor, tmp_path, b"", board_input=path).code == JURY_ERROR


def fewest_moves(rows: int, cols: int, board: tuple[int, ...]) -> list[str] | None:
    """A shortest sequence of blank moves solving the board, by a search of this test's own (None: impossible)."""
    goal = tuple(range(1, rows * cols)) + (0,)
    came: dict[tuple[int, ...], tuple[tuple[int, ...], str] | None] = {board: None}
    queue = deque([board])
    while queue:
        here = queue.popleft()
        if here == goal:
            path: list[str] = []
            while came[here] is not None:
                here, step = came[here]  # type: ignore[misc]
                path.append(step)
            return path[::-1]
        blank = here.index(0)
        r, c = divmod(blank, cols)
        for step, nr, nc in (("U", r - 1, c), ("D", r + 1, c), ("L", r, c - 1), ("R", r, c + 1)):
            if 0 <= nr < rows and 0 <= nc < cols:
                cells = list(here)
                cells[blank], cells[nr * cols + nc] = cells[nr * cols + nc], 0
                nxt = tuple(cells)
                if nxt not in came:
                    came[nxt] = (here, step)
                    queue.append(nxt)
    return None


def test_a_generated_file_solved_by_shortest_moves_is_accepted_with_every_move_counted(
    interactor: Path, tmp_path: Path
) -> None:
    path = tmp_path / "mixed.in"
    path.write_bytes(
        subprocess.run(
            [
                sys.executable,
                str(PACKAGE / "generator.py"),
                "random",
                "--rows",
                "2",
                "--cols",
                "3",
                "--size",
                "40",
                "--seed",
                "9",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        ).stdout
    )
    numbers = [int(token) for token in path.read_text().split()]
    rounds, at, script, moves, looks = numbers[0], 1, [], 0, 0
    for _ in range(rounds):
        rows, cols, fewest = numbers[at : at + 3]
        board = tuple(numbers[at + 3 : at + 3 + rows * cols])
        at += 3 + rows * cols
        path_found = fewest_moves(rows, cols, board)
        assert (len(path_found) if path_found is not None else -1) == fewest, "the generator's distance is the search's"
        script += [f"? {1 + i // cols} {1 + i % cols}" for i in range(rows * cols - 1)]
        looks += rows * cols - 1
        script += (path_found or []) + ["! done" if path_found is not None else "! impossible"]
        moves += len(path_found or [])
    assert 0 < moves and any(line == "! impossible" for line in script)
    outcome = play(interactor, tmp_path, ("\n".join(script) + "\n").encode(), board_input=path)
    assert (outcome.code, outcome.message) == (ACCEPTED, f"{rounds} boards, {moves} moves, {looks} queries")
    detour = script.copy()
    first_move = next(i for i, line in enumerate(detour) if line in "UDLR")
    detour.insert(first_move, {"U": "D", "D": "U", "L": "R", "R": "L"}[detour[first_move]])
    detour.insert(first_move, detour[first_move + 1])
    wasteful = play(interactor, tmp_path, ("\n".join(detour) + "\n").encode(), board_input=path)
    assert wasteful.code == WRONG and "the board is solved in" in wasteful.message
