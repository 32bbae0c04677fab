"""Tests of the Klotski output checker, run as the judge runs it (Kattis protocol).

`checker.py INPUT ANSWER FEEDBACK_DIR < OUTPUT` must accept every legal
sequence of the optimal length (whatever pieces, paths and white space it
uses), reject every other output with exit 43 and a one-line reason naming
the line and the defect, and exit 1 (a judge error) only when the output
proves the jury's answer wrong. The boards are the statement's sample, whose
answers are worked out by hand there.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.oracle

CHECKER = Path(__file__).resolve().parents[2] / "problems" / "klotski" / "checker.py"
SAMPLE = (Path(__file__).resolve().parents[2] / "problems" / "klotski" / "samples" / "1.in").read_bytes()
ACCEPT, WRONG, JURY_ERROR = 42, 43, 1
CAP = 4 << 20

# The jury's answer to the sample: 3 moves, impossible, 0 moves.
JURY = b"3\nF UR\nI UU\nG L\nimpossible\n0\n"
RIGHT = JURY


def run_checker(tmp_path: Path, output: bytes, answer: bytes = JURY, board_input: bytes = SAMPLE) -> tuple[int, str]:
    """The checker's exit code and its one-line message."""
    (tmp_path / "in").write_bytes(board_input)
    (tmp_path / "ans").write_bytes(answer)
    feedback = tmp_path / "feedback"
    feedback.mkdir(exist_ok=True)
    (feedback / "judgemessage.txt").unlink(missing_ok=True)
    proc = subprocess.run(
        [sys.executable, str(CHECKER), str(tmp_path / "in"), str(tmp_path / "ans"), str(feedback)],
        input=output,
        capture_output=True,
        timeout=60,
    )
    message = (feedback / "judgemessage.txt").read_text()
    assert message.endswith("\n") and message.count("\n") == 1, f"message must be one line: {message!r}"
    assert proc.returncode in (ACCEPT, WRONG, JURY_ERROR), proc.stderr.decode()[-2000:]
    return proc.returncode, message.strip()


def with_lines(*replace: tuple[int, str]) -> bytes:
    """The right output with some lines (1-based) replaced."""
    lines = RIGHT.decode().split("\n")
    for number, text in replace:
        lines[number - 1] = text
    return "\n".join(lines).encode()


@pytest.mark.parametrize(
    "output",
    [
        RIGHT,
        b"3\nF URLR\nI UU\nG L\nimpossible\n0\n",
        b"3\nF UR\nI UUDU\nG LRL\nimpossible\n0\n",
        RIGHT.rstrip(b"\n"),
        RIGHT.replace(b"\n", b"\r\n"),
        RIGHT.replace(b"\n", b" \t\n"),
        RIGHT + b"\n\n \n",
    ],
    ids=[
        "jury",
        "detour-in-a-move",
        "back-and-forth-steps",
        "no-final-newline",
        "crlf",
        "trailing-white-space",
        "empty-lines-at-the-end",
    ],
)
def test_right_outputs_are_accepted(tmp_path: Path, output: bytes) -> None:
    """Any legal sequence of the optimal length passes: other orders, other paths, tolerated white space."""
    assert run_checker(tmp_path, output) == (ACCEPT, "all 3 boards answered with optimal moves")


WRONG_OUTPUTS = [
    ("longer-than-optimal", b"4\nF UR\nI U\nI U\nG L\nimpossible\n0\n", "board 1: 4 moves, but 3 suffice"),
    ("count-one-short", with_lines((1, "2")), "board 1: after 2 moves the 2x2 piece is not on the exit"),
    # a count over the optimum is wrong before any move is read
    ("count-one-over", with_lines((1, "4")), "board 1: 4 moves, but 3 suffice (line 1)"),
    ("count-over-with-illegal-moves", with_lines((1, "4"), (2, "F D")), "board 1: 4 moves, but 3 suffice (line 1)"),
    # board 2 may have 200000 positions less board 1's 4 (3 moves) and board 3's one: a count of 199995 is wrong unread
    (
        "count-over-the-positions-for-impossible",
        with_lines((5, "199995")),
        "board 2: 199995 moves, but the boards of this file have at most 200000 positions in all",
    ),
    ("count-within-the-positions-is-read", with_lines((5, "199994")), "line 6: expected a move 'X PATH'"),
    ("not-solved", b"2\nF UR\nI UU\nimpossible\n0\n", "board 1: after 2 moves the 2x2 piece is not on the exit"),
    (
        "impossible-for-solvable",
        b"impossible\nimpossible\n0\n",
        "line 1: board 1 is solvable in 3 moves, not impossible",
    ),
    (
        "moves-for-impossible",
        with_lines((5, "1"), (6, "A R")),
        "board 2: after 1 move the 2x2 piece is not on the exit",
    ),
    ("zero-for-impossible", with_lines((5, "0")), "board 2: after 0 moves the 2x2 piece is not on the exit"),
    ("into-a-piece", with_lines((2, "F R")), "line 2: step 1 (R) of 'F' runs into piece 'G' at row 3, column 3"),
    ("through-a-piece", with_lines((3, "I UUU")), "line 3: step 3 (U) of 'I' runs into piece 'B' at row 1, column 2"),
    ("off-the-board", with_lines((3, "I D")), "line 3: step 1 (D) of 'I' leaves the board"),
    (
        "into-a-wall-of-board-2",
        b"3\nF UR\nI UU\nG L\n1\nA DD\n0\n",
        "line 6: step 1 (D) of 'A' runs into the wall at row 3, column 2",
    ),
    ("no-such-piece", with_lines((2, "Z UR")), "line 2: there is no piece 'Z' on this board"),
    ("empty-board-cell-as-piece", with_lines((2, ". UR")), "line 2: expected a move 'X PATH'"),
    ("lower-case-direction", with_lines((2, "F ur")), "line 2: expected a move 'X PATH'"),
    ("no-space", with_lines((2, "FUR")), "line 2: expected a move 'X PATH'"),
    ("two-spaces", with_lines((2, "F  UR")), "line 2: expected a move 'X PATH'"),
    ("empty-path", with_lines((2, "F ")), "line 2: expected a move 'X PATH'"),
    ("leading-space", with_lines((2, " F UR")), "line 2: expected a move 'X PATH'"),
    ("path-too-long", with_lines((2, "F UR" + "LR" * 8)), "line 2: a path of 18 steps, more than the 16 cells"),
    ("leading-zero-count", with_lines((1, "03")), "line 1: expected the number of moves of board 1 or 'impossible'"),
    ("signed-count", with_lines((1, "+3")), "line 1: expected the number of moves of board 1 or 'impossible'"),
    ("huge-count", with_lines((1, "99999999999")), "line 1: expected the number of moves of board 1 or 'impossible'"),
    ("capitalised-impossible", with_lines((5, "Impossible")), "line 5: expected the number of moves of board 2"),
    (
        "missing-last-board",
        b"3\nF UR\nI UU\nG L\nimpossible\n",
        "line 6: missing: the output ends inside the answer to board 3",
    ),
    ("missing-move-lines", b"3\nF UR\n", "line 3: missing: the output ends inside the answer to board 1"),
    ("empty-output", b"", "line 1: missing: the output ends inside the answer to board 1"),
    ("extra-output", RIGHT + b"0\n", "line 7: unexpected output after the last board: '0'"),
    ("non-ascii", with_lines((2, "F U\xc3\xa9")), "line 2: expected a move 'X PATH'"),
    ("over-the-cap", RIGHT + b"\n" * CAP, f"output longer than the cap of {CAP} bytes"),
]


@pytest.mark.parametrize(
    "output, reason", [case[1:] for case in WRONG_OUTPUTS], ids=[case[0] for case in WRONG_OUTPUTS]
)
def test_wrong_outputs_are_rejected(tmp_path: Path, output: bytes, reason: str) -> None:
    """Each kind of wrong output gets 43 and a message naming the line and the defect."""
    code, message = run_checker(tmp_path, output)
    assert code == WRONG and message.startswith(reason), message


@pytest.mark.parametrize(
    "answer, reason",
    [
        (
            b"4\nX U\nX U\nX U\nX U\nimpossible\n0\n",
            "jury answer wrong: board 1: the contestant solves it in 3 moves, the jury needs 4",
        ),
        (
            b"impossible\nimpossible\n0\n",
            "jury answer wrong: board 1: the contestant solves it in 3 moves, the jury says impossible",
        ),
    ],
    ids=["shorter-than-the-jury", "solved-where-the-jury-gave-up"],
)
def test_output_proving_the_jury_wrong_is_a_judge_error(tmp_path: Path, answer: bytes, reason: str) -> None:
    """A legal solution beating the jury's answer is never accepted, and never blamed on the contestant."""
    assert run_checker(tmp_path, RIGHT, answer=answer) == (JURY_ERROR, reason)


def test_random_garbage_never_breaks_the_protocol(tmp_path: Path) -> None:
    """Random mixes of counts, letters, directions, white space and binary bytes are always a clean 43."""
    rng = random.Random(2024)
    alphabet = [
        b"3",
        b"0",
        b"1",
        b"\n",
        b" ",
        b"F",
        b"G",
        b"UR",
        b"L",
        b"D",
        b"impossible",
        b"\r",
        b"\xff",
        b"\x00",
        b"#",
    ]
    for _ in range(30):
        output = b"".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        code, message = run_checker(tmp_path, output)
        assert code == WRONG and message, output
