"""An exact judge of tangram placements written apart from the package, for the tests to hold the checker against.

Nothing is shared with problems/tangram/lib: numbers a + b√2 are pairs of
fractions with their own parser, pieces are built from the statement's
table with cos and sin of k·45° in Q(√2), and the decision is made by areas
instead of the checker's separating axes and edge tests: a piece lies inside
the figure iff the part of the figure clipped to the piece (Sutherland-
Hodgman, exact, the piece being convex) has the piece's whole area; two
pieces overlap iff the part of one clipped to the other has positive area;
and the figure is covered iff its area is 16.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class R2:
    """a + b√2."""

    a: Fraction
    b: Fraction

    def __add__(self, o: R2) -> R2:
        return R2(self.a + o.a, self.b + o.b)

    def __sub__(self, o: R2) -> R2:
        return R2(self.a - o.a, self.b - o.b)

    def __mul__(self, o: R2) -> R2:
        return R2(self.a * o.a + 2 * self.b * o.b, self.a * o.b + self.b * o.a)

    def __truediv__(self, o: R2) -> R2:
        n = o.a * o.a - 2 * o.b * o.b
        top = self * R2(o.a, -o.b)
        return R2(top.a / n, top.b / n)

    def positive(self) -> bool:
        if self.a >= 0 and self.b >= 0:
            return self.a > 0 or self.b > 0
        if self.a <= 0 and self.b <= 0:
            return False
        return (self.a * self.a > 2 * self.b * self.b) == (self.a > 0)


def r2(a: Fraction | int = 0, b: Fraction | int = 0) -> R2:
    return R2(Fraction(a), Fraction(b))


ZERO = r2()
TOKEN = re.compile(r"(-?[0-9./]+)?(?:([+-]?)([0-9./]+)s)?")


def number(text: str) -> R2:
    match = TOKEN.fullmatch(text)
    if not match or not text:
        raise ValueError(text)
    a = Fraction(match[1]) if match[1] else Fraction(0)
    b = Fraction(match[3]) * (-1 if match[2] == "-" else 1) if match[3] else Fraction(0)
    return R2(a, b)


SHAPES = {
    "L": [(0, 0), (4, 0), (2, 2)],
    "M": [(0, 0), (2, 0), (0, 2)],
    "S": [(0, 0), (2, 0), (1, 1)],
    "Q": [(r2(), r2()), (r2(0, 1), r2()), (r2(0, 1), r2(0, 1)), (r2(), r2(0, 1))],
    "P": [(0, 0), (2, 0), (3, 1), (1, 1)],
}
PIECES = ["L1", "L2", "M", "S1", "S2", "Q", "P"]
H = Fraction(1, 2)
COS = [r2(1), r2(0, H), r2(0), r2(0, -H), r2(-1), r2(0, -H), r2(0), r2(0, H)]  # cos(k·45°)
SIN = COS[6:] + COS[:6]  # sin(k·45°) = cos((k - 2)·45°)

Point = tuple[R2, R2]


def _point(p: tuple) -> Point:
    return (p[0] if isinstance(p[0], R2) else r2(p[0]), p[1] if isinstance(p[1], R2) else r2(p[1]))


def piece(name: str, rot: int, flip: int, x: R2, y: R2) -> list[Point]:
    pts = [_point(p) for p in SHAPES[name[0]]]
    if flip:
        pts = [(ZERO - px, py) for px, py in pts][::-1]
    c, s = COS[rot % 8], SIN[rot % 8]
    return [(px * c - py * s + x, px * s + py * c + y) for px, py in pts]


def area(poly: list[Point]) -> R2:
    total = ZERO
    for i, (x1, y1) in enumerate(poly):
        x2, y2 = poly[(i + 1) % len(poly)]
        total = total + x1 * y2 - y1 * x2
    return total * r2(H)


def clip(subject: list[Point], convex: list[Point]) -> list[Point]:
    out = subject
    for i, p in enumerate(convex):
        q = convex[(i + 1) % len(convex)]

        def side(v: Point, p: Point = p, q: Point = q) -> R2:
            return (q[0] - p[0]) * (v[1] - p[1]) - (q[1] - p[1]) * (v[0] - p[0])

        kept: list[Point] = []
        for j, s in enumerate(out):
            e = out[(j + 1) % len(out)]
            ss, se = side(s), side(e)
            s_in, e_in = not (ZERO - ss).positive(), not (ZERO - se).positive()
            if s_in:
                kept.append(s)
            if s_in != e_in:
                t = ss / (ss - se)
                kept.append((s[0] + (e[0] - s[0]) * t, s[1] + (e[1] - s[1]) * t))
        out = kept
        if not out:
            break
    return out


def read_figures(text: str) -> list[list[list[Point]]]:
    tokens = text.split()
    at, figures = 1, []
    for _ in range(int(tokens[0])):
        parts = []
        for _ in range(int(tokens[at])):
            n = int(tokens[at + 1])
            at += 1
            parts.append([(number(tokens[at + 1 + 2 * i]), number(tokens[at + 2 + 2 * i])) for i in range(n)])
            at += 2 * n
        at += 1
        figures.append(parts)
    return figures


def judge(figure: list[list[Point]], lines: list[str]) -> bool:
    """Is the placement (seven lines) an exact tiling of the figure?"""
    names = [line.split()[0] for line in lines]
    if sorted(names) != sorted(PIECES):
        return False
    pieces = []
    for line in lines:
        name, rot, flip, x, y = line.split()
        pieces.append(piece(name, int(rot), int(flip), number(x), number(y)))
    for p in pieces:
        inside = sum((area(clip(part, p)) for part in figure), ZERO)
        if inside != area(p):
            return False
    for i, p in enumerate(pieces):
        for q in pieces[i + 1 :]:
            if area(clip(p, q)).positive():
                return False
    return sum((area(part) for part in figure), ZERO) == r2(16)


def answers(text: str, count: int) -> list[list[str] | None]:
    """Per figure, its seven placement lines, or None for `impossible`."""
    lines = [line.strip() for line in text.split("\n")]
    out: list[list[str] | None] = []
    at = 0
    for _ in range(count):
        if lines[at] == "impossible":
            out.append(None)
            at += 1
        else:
            out.append(lines[at : at + 7])
            at += 7
    return out
