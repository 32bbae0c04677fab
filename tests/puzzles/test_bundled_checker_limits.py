"""Every bundled problem's checker judges the largest outputs its output limit allows, within its own limits.

A checker that does all its work before it looks at the claim turns a wrong
answer into a judge error: klotski's checker used to simulate 4 MiB of legal
moves (4.9 to 6.8 s of CPU, over its 5 s limit) before it compared the
claimed count with the optimum. Here each bundled problem is judged, through
the judge and with real submissions, on a copy holding its first sample
only: one submission prints the largest right output the output limit allows
(made as heavy for the checker as the format permits, then padded with the
white space the format forgives), one the largest wrong one. The right one
must be AC and the wrong one WA: never JE, which is what a checker over its
CPU limit gives. For klotski the heaviest output of all is judged too: every
move of the most moves a board the jury calls impossible may claim, each
legal, so the checker must simulate all of them to find that they solve
nothing.
"""

from __future__ import annotations

import shutil
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, JudgeRunner

pytestmark = pytest.mark.slow

PROBLEMS = REPO_ROOT / "problems"
CASES = REPO_ROOT / "cases"


@dataclass(frozen=True)
class Sample:
    """A problem's first sample and its output limit in bytes, less a little room."""

    input: bytes
    answer: bytes
    limit: int


Output = Callable[[Sample], bytes]


def padded(text: bytes, sample: Sample, filler: bytes = b"\n") -> bytes:
    """``text`` followed by as much ``filler`` as the limit leaves room for."""
    return text + filler * ((sample.limit - len(text)) // len(filler))


def back_and_forth(blank_column: int, width: int, moves: int, letters: tuple[str, str]) -> str:
    """``moves`` moves of the blank (an even number) that return it where it was: left-right, or right-left in the
    first column."""
    pair = letters[0] + letters[1] if blank_column > 0 else letters[1] + letters[0]
    return pair * (moves // 2)


# lines: the answer with trailing blanks on every line and empty lines to the limit; a 1 MB token that hung `float`
def lines_right(sample: Sample) -> bytes:
    return padded(sample.answer.replace(b"\n", b" \t\n"), sample)


def lines_wrong(sample: Sample) -> bytes:
    return b"1" * (sample.limit - 1) + b"x"


# klotski: the jury's answer to its sample is 3 moves, impossible, 0 moves
def klotski_right(sample: Sample) -> bytes:
    """The jury's moves, each the longest path a 4x4 board allows (16 steps, a detour back and forth)."""
    moves = b"F UR" + b"LR" * 7 + b"\nI UU" + b"DU" * 7 + b"\nG L\n"
    return padded(b"3\n" + moves + b"impossible\n0\n", sample)


def klotski_wrong(sample: Sample) -> bytes:
    """The output that used to be JE: far more legal moves than the optimum (F steps up and back)."""
    move = b"F " + b"UD" * 8 + b"\n"
    count = (sample.limit - 8) // len(move)
    return b"%d\n" % count + move * count


def klotski_heaviest(sample: Sample) -> bytes:
    """Board 2 is impossible: the most moves a count may claim there (the file's 200,000 positions less what the
    other boards take), every one legal (A steps right and back), solving nothing."""
    count = 200_000 - 4 - 1 - 1
    return b"3\nF UR\nI UU\nG L\n%d\n" % count + (b"A " + b"RL" * 8 + b"\n") * count + b"0\n"


def eight_boards(sample: Sample) -> tuple[list[list[str]], list[str]]:
    return [line.split() for line in sample.input.decode().splitlines()], sample.answer.decode().split("\n")


def eight_lines(sample: Sample, solve_last: bool) -> bytes:
    """Each solvable board's answer after back-and-forth moves up to the 10,000 a line may have; with
    ``solve_last`` false the last such line is the back-and-forth moves alone."""
    boards, answers = eight_boards(sample)
    lines = []
    for cells, answer in zip(boards, answers):
        lines.append(
            answer
            if answer == "unsolvable"
            else back_and_forth(cells.index("x") % 3, 3, 10_000 - len(answer) - 1, ("l", "r")) + answer
        )
    if not solve_last:
        last = max(i for i, answer in enumerate(answers[: len(boards)]) if answer not in ("unsolvable", ""))
        lines[last] = back_and_forth(boards[last].index("x") % 3, 3, 10_000, ("l", "r"))
    return padded("\n".join(lines).encode() + b"\n", sample)


def slide_output(sample: Sample, solve: bool) -> bytes:
    """The sample's board solved after back-and-forth moves up to the 100,000 allowed (or those moves alone), then
    white space to the limit."""
    numbers = sample.input.split()
    n, cells = int(numbers[0]), [int(value) for value in numbers[1:]]
    answer = sample.answer.strip()
    assert answer != b"No Answer!", "the first sample must be solvable"
    moves = back_and_forth(cells.index(0) % n, n, 100_000 - len(answer) - 1, ("L", "R"))
    return padded(moves.encode() + (answer if solve else b"") + b"\n", sample, b" \n")


def tangram_wrong(sample: Sample) -> bytes:
    """The jury's placements with the last piece moved right by 10^-38: only exact arithmetic sees it."""
    lines = sample.answer.decode().rstrip("\n").split("\n")
    last = max(i for i, line in enumerate(lines) if len(line.split(" ")) == 5)
    name, turn, flip, x, y = lines[last].split(" ")
    lines[last] = f"{name} {turn} {flip} {x}+1/{10**38}s {y}"
    return padded(("\n".join(lines) + "\n").encode(), sample)


OUTPUTS: dict[str, dict[str, tuple[Output, str]]] = {
    **{
        name: {"right": (lines_right, "AC"), "wrong": (lines_wrong, "WA")}
        for name in ("cube", "hdoj3600", "poj2893", "reach")
    },
    "klotski": {
        "right": (klotski_right, "AC"),
        "wrong": (klotski_wrong, "WA"),
        "heaviest": (klotski_heaviest, "WA"),
    },
    "eight": {
        "right": (lambda s: eight_lines(s, solve_last=True), "AC"),
        "wrong": (lambda s: eight_lines(s, solve_last=False), "WA"),
    },
    "slide": {
        "right": (lambda s: slide_output(s, solve=True), "AC"),
        "wrong": (lambda s: slide_output(s, solve=False), "WA"),
    },
    "tangram": {"right": (lambda s: padded(s.answer, s), "AC"), "wrong": (tangram_wrong, "WA")},
}


def first_sample_only(problem: str, root: Path) -> tuple[Path, Sample]:
    """A copy of the bundled problem holding its first sample alone, answered by its Python reference (the folder
    beside it is shared: ``_lib``)."""
    copy = root / "problems" / problem
    shutil.copytree(PROBLEMS / problem, copy)
    if (PROBLEMS / "_lib").is_dir():
        shutil.copytree(PROBLEMS / "_lib", root / "problems" / "_lib")
    spec = yaml.safe_load((copy / "problem.yaml").read_text())
    spec["groups"] = [{"name": "sample", "points": 100, "cases": [{"name": "sample-1", "file": "samples/1.in"}]}]
    spec["solutions"] = ["submissions/accepted/ref.py"]
    (copy / "problem.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    limit = int(spec["limits"]["output"] * (1 << 20)) - 64
    return copy, Sample(
        (copy / "samples" / "1.in").read_bytes(), (CASES / problem / "sample" / "sample-1.ans").read_bytes(), limit
    )


def printer(folder: Path, output: bytes) -> Path:
    """A Python submission that prints ``output``, carried compressed in its source (the sandbox lets it read nothing
    else, and a source may not be as large as klotski's output)."""
    path = folder / "prints.py"
    packed = zlib.compress(output, 9)
    path.write_text(
        f"import sys, zlib\nsys.stdin.buffer.read()\nsys.stdout.buffer.write(zlib.decompress({packed!r}))\n"
    )
    return path


@pytest.mark.parametrize(("problem", "kind"), [(problem, kind) for problem, kinds in OUTPUTS.items() for kind in kinds])
def test_the_largest_outputs_are_judged_within_the_checkers_limits(
    judge: JudgeRunner, tmp_path: Path, problem: str, kind: str
) -> None:
    copy, sample = first_sample_only(problem, tmp_path / "root")
    make, verdict = OUTPUTS[problem][kind]
    output = make(sample)
    assert len(output) <= sample.limit, f"{len(output)} bytes, over the {sample.limit} the test allows itself"
    assert len(output) >= sample.limit // 2, f"{len(output)} bytes: not the largest output the limit allows"
    run = judge(copy, printer(tmp_path, output))
    assert run.cases[0]["verdict"] == verdict, run.describe()
