"""Tests of the "eight" (HDU 1043) output checker and oracle checks of its references.

The checker is run as the judge runs it, as a program speaking the Kattis
protocol (`checker.py INPUT ANSWER FEEDBACK_DIR < OUTPUT`): every wrong output
must give exit 43 with a precise one-line reason, every right one exit 42,
and nothing may ever give another exit code. A breadth-first search from the
goal (independent of every program under test) is the oracle: it decides
which boards are solvable and how far each is from the goal.
"""

import functools
import random
import subprocess
import sys
from collections import deque
from itertools import combinations, permutations
from pathlib import Path

import pytest
from conftest import built

pytestmark = pytest.mark.oracle

PROBLEM = Path(__file__).resolve().parents[2] / "problems" / "eight"
CHECKER = PROBLEM / "checker.py"
ACCEPTED = PROBLEM / "submissions" / "accepted"
ACCEPT, WRONG = 42, 43
GOAL = "12345678x"
CAP = 1 << 20

# The statement's sample: board, one right answer.
SAMPLE = [
    ("2 3 4 1 5 x 7 6 8", "ullddrurdllurdruldr"),
    ("1 2 3 4 5 6 7 8 x", ""),
    ("1 2 3 4 5 6 7 x 8", "r"),
    ("1 2 3 4 5 6 8 7 x", "unsolvable"),
]
SAMPLE_BOARDS = [board for board, _ in SAMPLE]
RIGHT = [answer for _, answer in SAMPLE]


def sample_output(*replace: tuple[int, str], tail: str = "\n") -> bytes:
    """The right sample answers with some lines (1-based) replaced, joined by newlines."""
    lines = list(RIGHT)
    for number, text in replace:
        lines[number - 1] = text
    return ("\n".join(lines) + tail).encode()


def run_checker(tmp_path: Path, boards: list[str], output: bytes, answer: bytes = b"") -> tuple[int, str]:
    """Run the checker on one input and output; its exit code and its one-line message."""
    case = tmp_path / "case"
    feedback = case / "feedback"
    feedback.mkdir(parents=True, exist_ok=True)
    (feedback / "judgemessage.txt").unlink(missing_ok=True)
    (case / "in").write_text("".join(board + "\n" for board in boards))
    (case / "ans").write_bytes(answer)
    proc = subprocess.run(
        [sys.executable, str(CHECKER), str(case / "in"), str(case / "ans"), str(feedback)],
        input=output,
        capture_output=True,
        timeout=60,
    )
    message = (feedback / "judgemessage.txt").read_text()
    assert message.endswith("\n") and message.count("\n") == 1, f"message must be one line: {message!r}"
    assert proc.returncode in (ACCEPT, WRONG), f"exit {proc.returncode}: {proc.stderr.decode()[-2000:]}"
    return proc.returncode, message.strip()


@functools.cache
def depths() -> dict[str, int]:
    """Optimal number of moves of every solvable board (as a 9-character string), by BFS from the goal."""
    steps = [
        [
            near
            for near, ok in (
                (cell - 3, cell >= 3),
                (cell + 3, cell < 6),
                (cell - 1, cell % 3 > 0),
                (cell + 1, cell % 3 < 2),
            )
            if ok
        ]
        for cell in range(9)
    ]
    depth = {GOAL: 0}
    queue = deque([GOAL])
    while queue:
        board = queue.popleft()
        blank = board.index("x")
        for target in steps[blank]:
            cells = list(board)
            cells[blank], cells[target] = cells[target], "x"
            following = "".join(cells)
            if following not in depth:
                depth[following] = depth[board] + 1
                queue.append(following)
    return depth


def spaced(board: str) -> str:
    """A 9-character board in the input format."""
    return " ".join(board)


# ---------------------------------------------------------------- right outputs


@pytest.mark.parametrize(
    "output",
    [
        sample_output(),
        sample_output(tail=""),
        sample_output(tail="\n\n\n"),
        sample_output(tail="\n \t\r\n"),
        "\r\n".join(RIGHT).encode() + b"\r\n",
        b"\n".join(line.encode() + b"  \t" for line in RIGHT),
        sample_output((1, "lr" + RIGHT[0]), (2, "lrlr"), (3, "lrr")),
        sample_output((2, "ud" * 5000)),
    ],
    ids=[
        "reference",
        "no-final-newline",
        "extra-empty-lines",
        "extra-blank-lines",
        "crlf",
        "trailing-whitespace",
        "detours",
        "exactly-10000-moves",
    ],
)
def test_right_outputs_are_accepted(tmp_path: Path, output: bytes) -> None:
    """Any legal solution passes, whatever its length up to the cap and whatever trailing white space."""
    code, message = run_checker(tmp_path, SAMPLE_BOARDS, output)
    assert (code, message) == (ACCEPT, "all 4 boards answered correctly")


@pytest.mark.parametrize(
    "boards, output",
    [
        (["1 2 3 4 5 6 7 8 x"], b""),
        (["1 2 3 4 5 6 7 8 x"], b"\n"),
        (["1 2 3 4 5 6 7 x 8", "1 2 3 4 5 6 7 8 x"], b"r\n"),
        (["1 2 3 4 5 6 7 x 8", "1 2 3 4 5 6 7 8 x"], b"r\n\n"),
        (["1 2 3 4 5 6 8 7 x"], b"unsolvable"),
    ],
    ids=[
        "solved-empty-output",
        "solved-newline",
        "solved-last-no-newline",
        "solved-last-newline",
        "unsolvable-no-newline",
    ],
)
def test_last_newline_is_optional(tmp_path: Path, boards: list[str], output: bytes) -> None:
    """Lines are the pieces between newlines, so a solved last board needs no final newline."""
    assert run_checker(tmp_path, boards, output)[0] == ACCEPT


# ---------------------------------------------------------------- wrong outputs

WRONG_OUTPUTS = [
    ("bad-letter", sample_output((3, "R")), "line 3: column 1: 'R' is not a move"),
    ("spaces-between-moves", sample_output((1, "u l")), "line 1: column 2: byte 0x20 is not a move"),
    ("leading-space", sample_output((3, " r")), "line 3: column 1: byte 0x20 is not a move"),
    ("trailing-garbage", sample_output((3, "r;")), "line 3: column 2: ';' is not a move"),
    ("non-utf8", b"\xff\xfe\n\nr\nunsolvable\n", "line 1: column 1: byte 0xff is not a move"),
    ("nul-byte", sample_output((3, "r\0")), "line 3: column 2: byte 0x00 is not a move"),
    (
        "off-board-first-move",
        sample_output((3, "d")),
        "line 3: move 1 'd' leaves the board (the blank is in row 3, column 2)",
    ),
    (
        "off-board-later",
        sample_output((1, "uu" + RIGHT[0])),
        "line 1: move 2 'u' leaves the board (the blank is in row 1, column 3)",
    ),
    (
        "off-board-right",
        sample_output((2, "r")),
        "line 2: move 1 'r' leaves the board (the blank is in row 3, column 3)",
    ),
    (
        "wrong-final-state",
        sample_output((3, "rl")),
        "line 3: after 2 moves the board is 1 2 3 / 4 5 6 / 7 x 8, not the goal",
    ),
    (
        "one-move-short",
        sample_output((1, RIGHT[0][:-1])),
        "line 1: after 18 moves the board is 1 2 3 / 4 5 6 / 7 x 8, not the goal",
    ),
    ("empty-for-unsolved", sample_output((3, "")), "line 3: empty, but board 3 (1 2 3 / 4 5 6 / 7 x 8) is not solved"),
    (
        "unsolvable-for-solvable",
        sample_output((1, "unsolvable")),
        "line 1: 'unsolvable', but board 1 (2 3 4 / 1 5 x / 7 6 8) is solvable",
    ),
    (
        "unsolvable-for-solved",
        sample_output((2, "unsolvable")),
        "line 2: 'unsolvable', but board 2 (1 2 3 / 4 5 6 / 7 8 x) is solvable: it is already solved,"
        " expected an empty line",
    ),
    (
        "moves-for-unsolvable",
        sample_output((4, "ud")),
        "line 4: board 4 (1 2 3 / 4 5 6 / 8 7 x) is unsolvable, expected 'unsolvable', got 'ud'",
    ),
    (
        "empty-for-unsolvable",
        sample_output((4, "")),
        "line 4: board 4 (1 2 3 / 4 5 6 / 8 7 x) is unsolvable, expected 'unsolvable', got ''",
    ),
    (
        "capitalised-unsolvable",
        sample_output((4, "Unsolvable")),
        "line 4: board 4 (1 2 3 / 4 5 6 / 8 7 x) is unsolvable, expected 'unsolvable', got 'Unsolvable'",
    ),
    (
        "unsolvable-with-garbage",
        sample_output((4, "unsolvable.")),
        "line 4: board 4 (1 2 3 / 4 5 6 / 8 7 x) is unsolvable, expected 'unsolvable', got 'unsolvable.'",
    ),
    ("over-move-cap", sample_output((2, "ud" * 5001)), "line 2: 10002 characters, more than the limit of 10000 moves"),
    (
        "over-move-cap-garbage",
        sample_output((3, "#" * 20000)),
        "line 3: 20000 characters, more than the limit of 10000 moves",
    ),
    ("over-output-cap", sample_output() + b"\n" * CAP, f"output longer than the cap of {CAP} bytes"),
    ("huge-line", b"u" * (5 * CAP), f"output longer than the cap of {CAP} bytes"),
    ("empty-output", b"", "empty output, expected one line for each of the 4 board(s)"),
    ("only-newlines-missing", b"\n", "line 1: empty, but board 1 (2 3 4 / 1 5 x / 7 6 8) is not solved"),
    (
        "missing-last-line",
        sample_output(tail="").rsplit(b"\n", 1)[0] + b"\n",
        "line 4: missing: the output has 3 line(s) for 4 boards",
    ),
    ("missing-lines", b"ullddrurdllurdruldr\n", "line 3: missing: the output has 2 line(s) for 4 boards"),
    ("missing-lines-no-newline", b"ullddrurdllurdruldr\n\nr", "line 4: missing: the output has 3 line(s) for 4 boards"),
    (
        "first-lines-dropped",
        b"\n".join(line.encode() for line in RIGHT[2:]),
        "line 1: move 1 'r' leaves the board (the blank is in row 2, column 3)",
    ),
    ("extra-line", sample_output() + b"ud\n", "line 5: extra output after the answer to the last board: 'ud'"),
    (
        "extra-unsolvable",
        sample_output() + b"\n\nunsolvable",
        "line 7: extra output after the answer to the last board: 'unsolvable'",
    ),
    (
        "skipped-solved-line",
        b"ullddrurdllurdruldr\nr\nunsolvable\n",
        "line 2: move 1 'r' leaves the board (the blank is in row 3, column 3)",
    ),
    ("all-on-one-line", b"ullddrurdllurdruldr r unsolvable\n", "line 1: column 20: byte 0x20 is not a move"),
]


@pytest.mark.parametrize(
    "output, reason", [case[1:] for case in WRONG_OUTPUTS], ids=[case[0] for case in WRONG_OUTPUTS]
)
def test_wrong_outputs_are_rejected(tmp_path: Path, output: bytes, reason: str) -> None:
    """Each kind of wrong output gets 43 and a message naming the line and the defect."""
    code, message = run_checker(tmp_path, SAMPLE_BOARDS, output)
    assert code == WRONG and message.startswith(reason), message


def test_message_shows_long_contestant_text_briefly(tmp_path: Path) -> None:
    """Contestant text is quoted short and escaped, so the message stays one readable line."""
    code, message = run_checker(tmp_path, SAMPLE_BOARDS, sample_output((4, "x" * 5000 + "\x1b[2J")))
    assert code == WRONG
    assert message.startswith("line 4: board 4 (1 2 3 / 4 5 6 / 8 7 x) is unsolvable, expected 'unsolvable', got 'xxx")
    assert message.endswith("...") and len(message) < 200


def test_random_garbage_never_breaks_the_protocol(tmp_path: Path) -> None:
    """Random mixes of move letters, white space and binary bytes are always a clean 43."""
    rng = random.Random(1043)
    alphabet = b"udlr\n \r\tunsolvablex\xff\x00"
    for _ in range(25):
        output = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 200)))
        code, message = run_checker(tmp_path, SAMPLE_BOARDS, output)
        assert code == WRONG and message, output


# ---------------------------------------------------------------- references and the oracle


@pytest.fixture(scope="module")
def solvers() -> dict[str, list[str]]:
    """The C++ references built once (by the judge into its build cache), and the Python reference, as argv lists."""
    commands = {"ref.py": [sys.executable, str(ACCEPTED / "ref.py")]}
    for name in ("ref.cpp", "bfs_table.cpp"):
        commands[name] = built(ACCEPTED / name)
    return commands


def solve(command: list[str], boards: list[str]) -> list[str]:
    """Run a solver on boards given as 9-character strings; its answer lines."""
    text = "".join(spaced(board) + "\n" for board in boards)
    proc = subprocess.run(command, input=text.encode(), capture_output=True, timeout=120, check=True)
    lines = proc.stdout.decode().split("\n")
    assert lines[-1] == "" and len(lines) == len(boards) + 1, "one newline-terminated line per board"
    return lines[:-1]


def oracle_sample(seed: int, per_depth: int, unsolvable: int) -> list[str]:
    """Up to `per_depth` solvable boards of every optimal length 0..31, and unsolvable boards."""
    rng = random.Random(seed)
    by_depth: dict[int, list[str]] = {}
    for board, depth in sorted(depths().items()):
        by_depth.setdefault(depth, []).append(board)
    boards = [
        board
        for depth in sorted(by_depth)
        for board in rng.sample(by_depth[depth], min(per_depth, len(by_depth[depth])))
    ]
    every = ["".join(p) for p in permutations(GOAL)]
    boards += rng.sample([board for board in every if board not in depths()], unsolvable)
    rng.shuffle(boards)
    return boards


def test_parity_rule_matches_the_search() -> None:
    """Even inversion count among the tiles <=> reachable from the goal, on all 9! boards."""
    reachable = depths()
    assert len(reachable) == 181440 and max(reachable.values()) == 31
    for permutation in permutations(GOAL):
        tiles = [tile for tile in permutation if tile != "x"]
        even = sum(first > second for first, second in combinations(tiles, 2)) % 2 == 0  # pairs in order
        assert even == ("".join(permutation) in reachable)


@pytest.mark.parametrize(
    "name, seed, per_depth, unsolvable, stretch",
    [
        ("ref.cpp", 1, 120, 1000, 1),
        ("bfs_table.cpp", 2, 120, 1000, 1),
        ("ref.py", 3, 15, 400, 3),
    ],
)
def test_references_agree_with_the_oracle(
    tmp_path: Path, solvers: dict[str, list[str]], name: str, seed: int, per_depth: int, unsolvable: int, stretch: int
) -> None:
    """Right verdicts, solution lengths within `stretch` times the optimum, and the checker accepts them all."""
    boards = oracle_sample(seed, per_depth, unsolvable)
    answers = solve(solvers[name], boards)
    for board, answer in zip(boards, answers):
        depth = depths().get(board)
        if depth is None:
            assert answer == "unsolvable", board
        else:
            assert depth <= len(answer) <= stretch * depth, (board, answer)
    for start in range(0, len(boards), 1000):
        chunk = boards[start : start + 1000]
        output = "".join(answer + "\n" for answer in answers[start : start + 1000]).encode()
        assert run_checker(tmp_path, [spaced(board) for board in chunk], output)[0] == ACCEPT


def test_different_valid_answers_on_the_largest_case(tmp_path: Path, solvers: dict[str, list[str]]) -> None:
    """The jury's .ans and the BFS table's different answers both pass on the 1000 farthest boards."""
    case = Path(__file__).resolve().parents[2] / "cases" / "eight" / "hardest" / "deepest-1000"
    if not case.with_suffix(".in").exists():
        pytest.skip("cases not generated")
    boards = [line.replace(" ", "") for line in case.with_suffix(".in").read_text().split("\n") if line]
    jury = case.with_suffix(".ans").read_bytes()
    other = "".join(answer + "\n" for answer in solve(solvers["bfs_table.cpp"], boards)).encode()
    assert other != jury
    for output in (jury, other):
        assert run_checker(tmp_path, [spaced(board) for board in boards], output, jury)[0] == ACCEPT
