"""Tests of the Tangram checker (Kattis protocol) and references, held against an independent exact judge.

`checker.py INPUT ANSWER FEEDBACK_DIR < OUTPUT` must accept every exact tiling,
whichever of the many it is (turned, mirrored, pieces renamed or reordered),
reject every other output with exit 43 and a one-line reason saying what is
wrong (which pieces overlap, which sticks out where, how much area is left),
draw a wrong placement into FEEDBACK_DIR/attachments/, and exit 1 when the
contestant lays out a figure the jury calls impossible. `tangram_exact.py`
decides the same questions by clipped areas with code of its own; the two
must agree on every placement tried here, and on every reference's answer
to the convex figures.
"""

from __future__ import annotations

import base64
import json
import random
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
import tangram_exact as exact
from conftest import REPO_ROOT, built, cli, needs, reference_commands

pytestmark = pytest.mark.oracle

PACKAGE = REPO_ROOT / "problems" / "tangram"
CHECKER = PACKAGE / "checker.py"
GENERATOR = PACKAGE / "generator.py"
ACCEPT, WRONG, JURY_ERROR = 42, 43, 1

SQUARE = "1\n1\n4\n0 0\n4 0\n4 4\n0 4\n"
TURNED = "1\n1\n4\n0 0\n2s 2s\n0 4s\n-2s 2s\n"
JURY = ["L1 0 0 0 0", "L2 6 0 0 4", "S1 2 0 4 0", "Q 1 0 3 1", "S2 4 0 3 3", "M 4 0 4 4", "P 0 1 3 3"]


def generate(*args: str) -> str:
    return subprocess.run([sys.executable, str(GENERATOR), *args], capture_output=True, text=True, check=True).stdout


def run_checker(
    tmp_path: Path, figures: str, output: str, answer: str, attachments: bool = True
) -> tuple[int, str, Path]:
    """The checker's exit code, its one-line message, and its feedback folder (with the attachments folder this judge
    makes, or without it, as problemtools gives it)."""
    (tmp_path / "in").write_text(figures)
    (tmp_path / "ans").write_text(answer)
    feedback = tmp_path / "feedback"
    shutil.rmtree(feedback, ignore_errors=True)  # a fresh folder per run, as the judge gives
    feedback.mkdir()
    if attachments:
        (feedback / "attachments").mkdir()
    proc = subprocess.run(
        [sys.executable, str(CHECKER), str(tmp_path / "in"), str(tmp_path / "ans"), str(feedback)],
        input=output.encode(),
        capture_output=True,
        timeout=120,
    )
    message = (feedback / "judgemessage.txt").read_text()
    assert message.endswith("\n") and message.count("\n") == 1, f"message must be one line: {message!r}"
    assert proc.returncode in (ACCEPT, WRONG, JURY_ERROR), proc.stderr.decode()[-2000:]
    return proc.returncode, message.strip(), feedback


def lines(*placements: str) -> str:
    return "\n".join(placements) + "\n"


# ---- many right answers ---------------------------------------------------------------------------------------


def turned_90_about_centre(line: str) -> str:
    """The same tiling of the square turned by 90° about (2, 2): ROT + 2, translation (x, y) -> (4 - y, x)."""
    name, rot, flip, x, y = line.split()
    return f"{name} {(int(rot) + 2) % 8} {flip} {4 - int(y)} {x}"


def mirrored(line: str) -> str:
    """The tiling mirrored in x = 2: the flip toggles, the turn reverses, x -> 4 - x."""
    name, rot, flip, x, y = line.split()
    return f"{name} {(-int(rot)) % 8} {1 - int(flip)} {4 - int(x)} {y}"


def turned_45(line: str) -> str:
    """The tiling turned 45° about the origin, for the turned square: ROT + 1, (x, y) -> ((x - y)/√2, (x + y)/√2)."""
    name, rot, flip, x, y = line.split()
    half = Fraction(int(x) - int(y), 2), Fraction(int(x) + int(y), 2)
    return f"{name} {(int(rot) + 1) % 8} {flip} {half[0]}s {half[1]}s".replace(" 0s", " 0")


RIGHT = {
    "jury": (SQUARE, JURY),
    "turned-90": (SQUARE, [turned_90_about_centre(line) for line in JURY]),
    "turned-180": (SQUARE, [turned_90_about_centre(turned_90_about_centre(line)) for line in JURY]),
    "mirrored": (SQUARE, [mirrored(line) for line in JURY]),
    "mirrored-and-turned": (SQUARE, [turned_90_about_centre(mirrored(line)) for line in JURY]),
    "equal-pieces-swapped": (
        SQUARE,
        [
            line.replace("L1", "Lx")
            .replace("L2", "L1")
            .replace("Lx", "L2")
            .replace("S1", "Sx")
            .replace("S2", "S1")
            .replace("Sx", "S2")
            for line in JURY
        ],
    ),
    "lines-reordered": (SQUARE, JURY[::-1]),
    "turned-square": (TURNED, [turned_45(line) for line in JURY]),
    "decimals-and-unreduced": (
        SQUARE,
        [line.replace(" 4 4", " 4.0 8/2").replace(" 3 3", " 3+0s 6/2") for line in JURY],
    ),
    "flip-of-a-triangle-as-a-turn": (SQUARE, [line.replace("S1 2 0 4 0", "S1 2 1 4 2") for line in JURY]),
}


@pytest.mark.parametrize("key", list(RIGHT))
def test_right_placements_are_accepted_and_the_independent_judge_agrees(tmp_path: Path, key: str) -> None:
    figure, placement = RIGHT[key]
    assert exact.judge(exact.read_figures(figure)[0], placement)
    code, message, feedback = run_checker(tmp_path, figure, lines(*placement), lines(*JURY))
    assert (code, message) == (ACCEPT, "all 1 figures answered correctly")
    assert list((feedback / "attachments").iterdir()) == []


# ---- each wrong answer, and the reason given ----------------------------------------------------------------------


def float12(line: str) -> str:
    """A placement of the turned square with its coordinates rounded to 12 decimals, as wa_float12.py prints them."""
    name, rot, flip, x, y = line.split()

    def decimal(text: str) -> str:
        value = exact.number(text)
        return f"{float(value.a) + float(value.b) * 2**0.5:.12f}"

    return f"{name} {rot} {flip} {decimal(x)} {decimal(y)}"


def wrong_cases() -> list[tuple[str, str, list[str], str]]:
    taller = generate("nearmiss", "--kind", "taller")
    turned_jury = [turned_45(line) for line in JURY]
    return [
        ("float-12-digits", TURNED, [float12(line) for line in turned_jury], "figure 1: piece "),
        (
            "triangle-flipped",
            SQUARE,
            [line.replace("S1 2 0 4 0", "S1 2 1 4 0") for line in JURY],
            "figure 1: piece S1 (small triangle, line 3) sticks out: its vertex (3, -1) lies outside the figure",
        ),
        (
            "large-triangle-twice",
            SQUARE,
            [line.replace("L2", "L1") for line in JURY],
            "figure 1: piece L1 is placed 2 times (lines 1, 2) and piece L2 not at all",
        ),
        (
            "sliver-gap",
            taller,
            JURY,
            "figure 1: the pieces lie inside the figure without overlapping, but they leave area "
            "19601/3465-4s (about 7.4e-9) of it uncovered",
        ),
        (
            "overlap",
            SQUARE,
            [line.replace("Q 1 0 3 1", "Q 1 0 3 0") for line in JURY],
            "figure 1: pieces L1 (large triangle, line 1) and Q (square, line 4) overlap in area 1 (about 1)",
        ),
        (
            "overlap-by-1e-9",
            SQUARE,
            [line.replace("M 4 0 4 4", "M 4 0 4 3999999999/1000000000") for line in JURY],
            "figure 1: pieces S1 (small triangle, line 3) and M (medium triangle, line 6) "
            "overlap in area 1/4000000000000000000 (about 2.5e-19)",
        ),
        (
            "sticks-out-through-an-edge",
            SQUARE,
            [line.replace("L2 6 0 0 4", "L2 6 0 -1 4") for line in JURY],
            "figure 1: piece L2 (large triangle, line 2) sticks out: its vertex (-1, 4) lies outside the figure",
        ),
        (
            "piece-missing",
            SQUARE,
            JURY[:6] + ["M 4 0 4 4"],
            "figure 1: piece M is placed 2 times (lines 6, 7) and piece P not at all",
        ),
    ]


WRONG_CASES = wrong_cases()


def test_without_the_judges_attachments_folder_the_checker_writes_only_files(tmp_path: Path) -> None:
    """problemtools reads every entry of the feedback folder as a file and stops at a folder: where the judge made no
    attachments folder, a wrong placement is still rejected with its reason, and nothing but files is written."""
    name, figure, placement, reason = WRONG_CASES[0]
    code, message, feedback = run_checker(tmp_path, figure, lines(*placement), lines(*JURY), attachments=False)
    assert code == WRONG and message.startswith(reason), name
    assert [entry.name for entry in feedback.iterdir()] == ["judgemessage.txt"]


@pytest.mark.parametrize("figure, placement, reason", [c[1:] for c in WRONG_CASES], ids=[c[0] for c in WRONG_CASES])
def test_wrong_placements_are_rejected_with_the_reason_and_a_picture(
    tmp_path: Path, figure: str, placement: list[str], reason: str
) -> None:
    assert not exact.judge(exact.read_figures(figure)[0], placement)
    code, message, feedback = run_checker(tmp_path, figure, lines(*placement), lines(*JURY))
    assert code == WRONG and message.startswith(reason), message
    if "float" in reason:
        assert "sticks out" in message or "overlap" in message
    svg = (feedback / "attachments" / "figure-1.svg").read_text()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and "script" not in svg
    assert root.find("{http://www.w3.org/2000/svg}title").text == message
    if "sticks out" in message or "overlap" in message:
        assert 'stroke="#d50000"' in svg  # the piece at fault outlined in red


@pytest.mark.parametrize(
    "output, reason",
    [
        ("impossible\n", "line 1: figure 1 can be laid out, it is not impossible"),
        ("", "line 1: missing: the output ends inside the answer to figure 1"),
        (lines(*JURY[:3]), "line 4: missing: the output ends inside the answer to figure 1"),
        (lines(*JURY, "L1 0 0 0 0"), "line 8: unexpected output after the last figure"),
        (lines("L1 8 0 0 0", *JURY[1:]), "line 1: the rotation must be one of 0 to 7"),
        (lines("L1 0 2 0 0", *JURY[1:]), "line 1: the flip must be 0 or 1"),
        (lines("X1 0 0 0 0", *JURY[1:]), "line 1: X1 is not a piece"),
        (lines("L1 0 0 0", *JURY[1:]), "line 1: expected a placement 'NAME ROT FLIP X Y'"),
        (lines("L1  0 0 0 0", *JURY[1:]), "line 1: expected a placement 'NAME ROT FLIP X Y'"),
        (lines("L1 0 0 1/0 0", *JURY[1:]), "line 1: 1/0 is not a number"),
        (lines("L1 0 0 0 s", *JURY[1:]), "line 1: s is not a number"),
        (lines("L1 0 0 0 1e5", *JURY[1:]), "line 1: 1e5 is not a number"),
        (lines("L1 0 0 " + "9" * 41 + " 0", *JURY[1:]), "line 1: " + "9" * 30 + "... is not a number"),
        (lines(*JURY[:3], "impossible"), "line 4: 'impossible' inside the seven placements of figure 1"),
    ],
    ids=[
        "impossible-for-possible",
        "empty",
        "too-few-lines",
        "extra-line",
        "rotation-8",
        "flip-2",
        "no-such-piece",
        "four-fields",
        "two-spaces",
        "zero-denominator",
        "bare-s",
        "exponent",
        "too-many-digits",
        "impossible-inside",
    ],
)
def test_malformed_outputs_are_rejected_naming_the_line(tmp_path: Path, output: str, reason: str) -> None:
    code, message, _ = run_checker(tmp_path, SQUARE, output, lines(*JURY))
    assert code == WRONG and message.startswith(reason), message


def test_impossible_is_checked_against_the_jury_and_a_tiling_of_an_impossible_figure_is_a_judge_error(
    tmp_path: Path,
) -> None:
    house = "1\n1\n5\n0 0\n4 0\n4 3\n2 5\n0 3\n"
    assert run_checker(tmp_path, house, "impossible\n", "impossible\n")[:2] == (
        ACCEPT,
        "all 1 figures answered correctly",
    )
    code, message, _ = run_checker(tmp_path, SQUARE, lines(*JURY), "impossible\n")
    assert (code, message) == (
        JURY_ERROR,
        "jury answer wrong: figure 1: the contestant lays it out, the jury says impossible",
    )


def test_the_checker_and_the_independent_judge_agree_on_random_changes(tmp_path: Path) -> None:
    """One piece of a jury tiling changed at random (moved by a little, turned, flipped, renamed): same verdict."""
    figures_text = generate("random", "--size", "3", "--seed", "11")
    figures = exact.read_figures(figures_text)
    jury_text = subprocess.run(
        [sys.executable, str(PACKAGE / "submissions" / "accepted" / "ref.py")],
        input=figures_text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    jury = exact.answers(jury_text, len(figures))
    rng = random.Random(5)
    steps = ["1/2", "-1/2", "1s", "-1/2s", "1/1000000", "0"]
    verdicts = []
    for trial in range(12):
        index = trial % len(figures)
        placement = list(jury[index])
        at = rng.randrange(7)
        name, rot, flip, x, y = placement[at].split()
        change = trial % 4
        if change == 0:
            moved = exact.number(x).a + Fraction(rng.choice(steps[:2]))
            x = f"{moved}{'+' if exact.number(x).b >= 0 else '-'}{abs(exact.number(x).b)}s"
        elif change == 1:
            rot = str((int(rot) + rng.randrange(1, 8)) % 8)
        elif change == 2:
            flip = str(1 - int(flip))
        else:
            name = rng.choice(exact.PIECES)
        placement[at] = f"{name} {rot} {flip} {x} {y}"
        one = "1\n" + "\n".join(_figure_lines(figures_text, index)) + "\n"
        expected = exact.judge(figures[index], placement)
        code, message, _ = run_checker(tmp_path, one, lines(*placement), lines(*jury[index]))
        assert code == (ACCEPT if expected else WRONG), (placement, message)
        verdicts.append(expected)
    assert False in verdicts  # the changes do make wrong placements (a flip of a triangle or a rename may not)


def _figure_lines(text: str, index: int) -> list[str]:
    """The lines of figure `index` (0-based) of an input file."""
    rows = text.split("\n")
    at = 1
    for number in range(index + 1):
        start = at
        parts = int(rows[at])
        at += 1
        for _ in range(parts):
            at += 1 + int(rows[at])
        if number == index:
            return rows[start:at]
    raise AssertionError(index)


# ---- the references on the thirteen convex figures ---------------------------------------------------------------


@pytest.fixture(scope="module")
def references() -> dict[str, list[str]]:
    """The three references as command lines, built once for both tests of them, by the judge into its build cache
    (g++ and javac cost seconds, and verify has usually paid them; the tests' @needs("javac") skips before this
    runs)."""
    return {**reference_commands("tangram"), "ref.java": built(PACKAGE / "submissions" / "accepted" / "ref.java")}


@needs("javac")
@pytest.mark.parametrize("turn", [False, True], ids=["as-generated", "turned-45"])
def test_every_reference_lays_out_exactly_the_thirteen_convex_figures(
    references: dict[str, list[str]], turn: bool
) -> None:
    """Wang and Hsiung: of the convex figures of area 16 made of half-unit triangles, the pieces make exactly 13."""
    text = generate("convex", "--first", "0", "--size", "19", *(["--turn"] if turn else []))
    figures = exact.read_figures(text)
    judged: dict[tuple[int, tuple[str, ...]], bool] = {}  # the exact judge's verdicts: references that lay a figure
    for name, command in references.items():  # out alike (today all three do) are judged once
        output = subprocess.run(command, input=text, capture_output=True, text=True, check=True, timeout=600).stdout
        got = exact.answers(output, len(figures))
        laid = [i for i, placement in enumerate(got) if placement is not None]
        assert laid == list(range(13)), name
        for i in laid:
            key = (i, tuple(got[i]))
            if key not in judged:
                judged[key] = exact.judge(figures[i], got[i])
            assert judged[key], (name, i)


# ---- the picture through the judge -----------------------------------------------------------------------------


def test_judge_json_carries_the_checker_s_picture(tmp_path: Path) -> None:
    """A general attachment, not a tangram feature of the judge: the SVG reaches `judge --json` as base64."""
    report = tmp_path / "report.json"
    wrong = PACKAGE / "submissions" / "wrong_answer" / "wa_large_twice.cpp"
    run = cli("judge", "tangram", str(wrong), "--first-fail", "--json", str(report))
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    failing = next(c for c in json.loads(report.read_text())["cases"] if c["verdict"] == "WA")
    assert failing["message"] == "figure 1: piece L1 is placed 2 times (lines 1, 2) and piece L2 not at all"
    [attached] = failing["attachments"]
    assert attached["name"] == "figure-1.svg" and attached["media_type"] == "image/svg+xml"
    svg = base64.b64decode(attached["base64"]).decode()
    assert ET.fromstring(svg).find("{http://www.w3.org/2000/svg}title").text == failing["message"]
    assert "figure-1.svg (image/svg+xml" in run.stdout


# ---- the package's wrong submissions, run for real ---------------------------------------------------------------


@pytest.mark.parametrize(
    "submission, case, reason",
    [
        (
            "wa_float12",
            "convex/convex-moved",
            "figure 1: piece L1 (large triangle, line 1) sticks out: its vertex (11085786437627/250000000000",
        ),
        (
            "wa_triangle_flip",
            "sample/sample-1",
            "figure 1: piece L1 (large triangle, line 1) sticks out: its vertex (8, 0) lies outside the figure",
        ),
        (
            "wa_large_twice",
            "sample/sample-1",
            "figure 1: piece L1 is placed 2 times (lines 1, 2) and piece L2 not at all",
        ),
        (
            "wa_sliver",
            "nearmiss/taller",
            "figure 1: the pieces lie inside the figure without overlapping, but they leave area 19601/3465-4s",
        ),
    ],
)
def test_each_wrong_submission_is_rejected_for_its_own_bug(
    tmp_path: Path, submission: str, case: str, reason: str
) -> None:
    command = built(PACKAGE / "submissions" / "wrong_answer" / f"{submission}.cpp")  # verify has usually built it
    figures = (REPO_ROOT / "cases" / "tangram" / f"{case}.in").read_text()
    output = subprocess.run(command, input=figures, capture_output=True, text=True, check=True, timeout=60).stdout
    answer = (REPO_ROOT / "cases" / "tangram" / f"{case}.ans").read_text()
    code, message, feedback = run_checker(tmp_path, figures, output, answer)
    assert code == WRONG and message.startswith(reason), message
    assert (feedback / "attachments" / "figure-1.svg").exists()
