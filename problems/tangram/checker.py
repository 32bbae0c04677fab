"""Output validator for "Tangram" (Kattis protocol), exact: arithmetic in Q(√2); floating point only as a filter
that never decides a sign nearer zero than its proven error bound (qgeom.orient).

    checker.py INPUT ANSWER FEEDBACK_DIR < OUTPUT

Exit 42 if the output is right, 43 if it is wrong, with a one-line reason in
FEEDBACK_DIR/judgemessage.txt and, when a placement is wrong, a picture of it
over the figure in FEEDBACK_DIR/attachments/figure-K.svg when the judge made
that folder (this one does, and keeps the picture with the case's result;
problemtools would stop at a folder it did not expect). Exit 1 (a judge error) if the contestant lays out a
figure the jury calls impossible: the jury is wrong then.

Many arrangements fit a figure, so the jury's placements are never compared:
only whether it found one. Per figure the output is `impossible` or seven
lines `NAME ROT FLIP X Y`. A placement is right when every piece L1 L2 M S1
S2 Q P is used exactly once, every piece lies inside the figure (no vertex
outside, no figure edge through its interior, its interior not outside), no
two pieces share interior points, and the figure's area is 16, the pieces'
total: disjoint pieces inside the figure with the figure's whole area cover it.
"""

from __future__ import annotations

import os
import re
import sys
from fractions import Fraction

# by hand; the judge ships the library beside this file. os.path, not pathlib: importing pathlib was a tenth of a run,
# paid on every case of every submission
sys.path.append(os.path.join(os.path.dirname(os.path.realpath(__file__)), "lib"))
from drawing import picture  # noqa: E402
from qgeom import (
    KIND_OF,
    NAMES,
    ZERO,
    Num,
    Point,
    approx_small,
    area,
    bounds,
    boxes_apart,
    clip,
    edges,  # noqa: E402
    inside_figure,
    interiors_meet,
    parse_number,
    place,
    segment_enters,
)

ACCEPTED = 42
WRONG_ANSWER = 43
JURY_ERROR = 1
MAX_OUTPUT_BYTES = 1 << 20
TRAILING = " \t\r"
IMPOSSIBLE = "impossible"
ROTATION = re.compile(r"[0-7]")
FLIP = re.compile(r"[01]")
SHOW = 30
SIXTEEN = Num(16)


class Wrong(Exception):
    """The output is wrong; the message says where and why, the picture (if any) shows it."""

    def __init__(self, message: str, figure: int = 0, svg: str = "") -> None:
        super().__init__(message)
        self.figure = figure
        self.svg = svg


class JuryWrong(Exception):
    """The output proves the jury's answer wrong."""


def show(text: str) -> str:
    """A short, single-line, printable rendering of contestant text for messages."""
    return repr(text[:SHOW])[1:-1] + ("..." if len(text) > SHOW else "")


def point_text(p: Point) -> str:
    return f"({p[0]}, {p[1]})"


def read_figures(path: str) -> list[list[list[Point]]]:
    """The (validated) input: each figure as a list of counterclockwise polygons."""
    with open(path, encoding="ascii") as file:
        tokens = file.read().split()
    at = 0

    def take() -> str:
        nonlocal at
        at += 1
        return tokens[at - 1]

    figures = []
    for _ in range(int(take())):
        polygons = []
        for _ in range(int(take())):
            polygons.append([(parse_number(take()), parse_number(take())) for _ in range(int(take()))])
        figures.append(polygons)
    return figures


def read_jury(path: str, count: int) -> list[bool]:
    """Per figure, whether the jury laid it out (True) or called it impossible."""
    with open(path, encoding="ascii") as file:
        lines = [line.strip() for line in file.read().split("\n")]
    possible, at = [], 0
    for _ in range(count):
        possible.append(lines[at] != IMPOSSIBLE)
        at += 7 if possible[-1] else 1
    return possible


class Lines:
    """The contestant's lines, trailing white space removed, numbered from 1."""

    def __init__(self, output: str) -> None:
        self.lines = [line.rstrip(TRAILING) for line in output.split("\n")]
        if self.lines[-1] == "":
            self.lines.pop()
        self.at = 0

    def next(self, figure: int) -> tuple[int, str]:
        if self.at >= len(self.lines):
            raise Wrong(f"line {self.at + 1}: missing: the output ends inside the answer to figure {figure}")
        self.at += 1
        return self.at, self.lines[self.at - 1]

    def rest(self) -> None:
        for number, line in enumerate(self.lines[self.at :], start=self.at + 1):
            if line:
                raise Wrong(f"line {number}: unexpected output after the last figure: {show(line)}")


def parse_placement(number: int, text: str) -> tuple[str, list[Point]]:
    """One line `NAME ROT FLIP X Y` as the piece's name and its vertices."""
    fields = text.split(" ")
    if len(fields) != 5:
        raise Wrong(
            f"line {number}: expected a placement 'NAME ROT FLIP X Y' (five fields, one space apart), got {show(text)}"
        )
    name, rotation, flip, x, y = fields
    if name not in KIND_OF:
        raise Wrong(f"line {number}: {show(name)} is not a piece (the pieces are {' '.join(NAMES)})")
    if not ROTATION.fullmatch(rotation):
        raise Wrong(
            f"line {number}: the rotation must be one of 0 to 7 (multiples of 45 degrees), got {show(rotation)}"
        )
    if not FLIP.fullmatch(flip):
        raise Wrong(f"line {number}: the flip must be 0 or 1, got {show(flip)}")
    try:
        vx, vy = parse_number(x), parse_number(y)
    except ValueError as error:
        bad = x if not _parses(x) else y
        raise Wrong(f"line {number}: {show(bad)} is not a number A, A+Bs, A-Bs or Bs: {error}") from None
    return name, place(name, int(rotation), int(flip), vx, vy)


def _parses(text: str) -> bool:
    try:
        parse_number(text)
    except ValueError:
        return False
    return True


def label(name: str, number: int) -> str:
    return f"{name} ({KIND_OF[name].title}, line {number})"


def check_names(figure: int, numbers: list[int], names: list[str]) -> None:
    """Each piece exactly once."""
    for name in NAMES:
        at = [n for n, used in zip(numbers, names) if used == name]
        if len(at) > 1:
            missing = [m for m in NAMES if m not in names]
            raise Wrong(
                f"figure {figure}: piece {name} is placed {len(at)} times (lines {', '.join(map(str, at))})"
                + (f" and piece {', '.join(missing)} not at all" if missing else "")
            )


def sticking_out(
    polygon: list[Point], figure: list[list[Point]]
) -> tuple[str, list[Point], list[tuple[Point, Point]]] | None:
    """Why a piece is not inside the figure (and where), or None if it is."""
    for p in polygon:
        if inside_figure(p, figure) == "out":
            return f"its vertex {point_text(p)} lies outside the figure", [p], []
    box = bounds(polygon)
    for ring in figure:
        for a, b in edges(ring):
            if not boxes_apart(bounds([a, b]), box) and segment_enters(a, b, polygon):
                return f"the figure's edge from {point_text(a)} to {point_text(b)} runs through it", [], [(a, b)]
    share = Fraction(1, len(polygon))
    centre = (sum((p[0] for p in polygon), ZERO).scale(share), sum((p[1] for p in polygon), ZERO).scale(share))
    if inside_figure(centre, figure) == "out":
        return f"it lies outside the figure, around {point_text(centre)}", [centre], []
    return None


def check_figure(index: int, figure: list[list[Point]], possible: bool, lines: Lines) -> None:
    """Judge the answer to one figure, consuming its lines."""
    number, head = lines.next(index)
    if head == IMPOSSIBLE:
        if possible:
            raise Wrong(f"line {number}: figure {index} can be laid out, it is not impossible")
        return
    numbers, pieces = [], []
    for count in range(7):
        if count:
            number, head = lines.next(index)
        if head == IMPOSSIBLE:
            raise Wrong(
                f"line {number}: 'impossible' inside the seven placements of figure {index} (only {count} given)"
            )
        pieces.append(parse_placement(number, head))
        numbers.append(number)
    names = [name for name, _ in pieces]
    try:
        check_names(index, numbers, names)
        check_geometry(index, figure, pieces, numbers)
    except Wrong as wrong:
        if not wrong.svg:
            wrong.figure, wrong.svg = index, picture(figure, pieces, str(wrong))
        raise
    if not possible:
        raise JuryWrong(f"figure {index}: the contestant lays it out, the jury says impossible")


def check_geometry(
    index: int, figure: list[list[Point]], pieces: list[tuple[str, list[Point]]], numbers: list[int]
) -> None:
    for at, (name, polygon) in enumerate(pieces):
        why = sticking_out(polygon, figure)
        if why is not None:
            reason, spots, bad_lines = why
            message = f"figure {index}: piece {label(name, numbers[at])} sticks out: {reason}"
            raise Wrong(message, index, picture(figure, pieces, message, bad=[at], spots=spots, lines=bad_lines))
    boxes = [bounds(polygon) for _, polygon in pieces]
    for i, (first, a) in enumerate(pieces):
        for j in range(i + 1, len(pieces)):
            second, b = pieces[j]
            if not boxes_apart(boxes[i], boxes[j]) and interiors_meet(a, b):
                common = clip(a, b)
                size = area(common)
                message = (
                    f"figure {index}: pieces {label(first, numbers[i])} and {label(second, numbers[j])} overlap"
                    f" in area {size} (about {approx_small(size)})"
                )
                raise Wrong(message, index, picture(figure, pieces, message, overlaps=[common], bad=[i, j]))
    total = sum((area(ring) for ring in figure), ZERO)
    if total != SIXTEEN:
        gap = total - SIXTEEN
        message = (
            f"figure {index}: the pieces lie inside the figure without overlapping, but they leave area {gap}"
            f" (about {approx_small(gap)}) of it uncovered: the figure's area is {total}, the pieces' 16"
        )
        raise Wrong(message, index, picture(figure, pieces, message, spots=[p for ring in figure for p in ring]))


def check(figures: list[list[list[Point]]], possible: list[bool], output: bytes) -> None:
    """Judge the whole output; raise Wrong at the first defect."""
    if len(output) > MAX_OUTPUT_BYTES:
        raise Wrong(f"output longer than the cap of {MAX_OUTPUT_BYTES} bytes")
    try:
        text = output.decode("ascii")
    except UnicodeDecodeError as error:
        raise Wrong(f"byte {error.start + 1}: the output is not ASCII text") from None
    lines = Lines(text)
    for index, (figure, jury) in enumerate(zip(figures, possible), start=1):
        check_figure(index, figure, jury, lines)
    lines.rest()


def main() -> int:
    """Run the check; the verdict is the exit status, the reason goes to judgemessage.txt, the picture to
    attachments/."""
    input_path, answer_path, feedback_dir = sys.argv[1:4]
    figures = read_figures(input_path)
    possible = read_jury(answer_path, len(figures))
    output = sys.stdin.buffer.read(MAX_OUTPUT_BYTES + 1)
    os.makedirs(feedback_dir, exist_ok=True)
    attachments = os.path.join(feedback_dir, "attachments")
    try:
        check(figures, possible, output)
    except Wrong as reason:
        verdict, message = WRONG_ANSWER, str(reason)
        if reason.svg and os.path.isdir(attachments):  # only where the judge offers to keep attachments
            with open(os.path.join(attachments, f"figure-{reason.figure}.svg"), "w", encoding="utf-8") as file:
                file.write(reason.svg)
    except JuryWrong as reason:
        verdict, message = JURY_ERROR, f"jury answer wrong: {reason}"
    else:
        verdict, message = ACCEPTED, f"all {len(figures)} figures answered correctly"
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w", encoding="utf-8") as file:
        file.write(message + "\n")
    return verdict


if __name__ == "__main__":
    sys.exit(main())
