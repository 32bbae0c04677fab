"""Strict input validator for "Tangram".

Exit 42 if stdin is exactly: a line with T (1 <= T <= MAX_FIGURES), then T
figures, each a line with K (1 <= K <= 7, its polygons) and per polygon a
line with N (3 <= N) and N lines `X Y`, at most MAX_VERTICES vertices per
figure. Every number is in the canonical form of the statement (`A`, `A+Bs`,
`A-Bs`, `Bs`; A and B integers or fractions in lowest terms, no zero part
written) with |A|, |B| <= MAX_PART, and the least common multiple of the
denominators of a figure is at most MAX_DENOMINATOR. Every polygon is simple
and counterclockwise, every edge points in one of the eight directions k·45°,
no vertex is straight (180°); the polygons of a figure share no point (no
touching, no nesting). Integers have no sign but `-`, no leading zeros; every
line ends with `\\n`; nothing follows the last figure. Otherwise exit 43 with
a one-line reason naming the line.
"""

from __future__ import annotations

import re
import sys
from math import lcm
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent / "lib"))  # by hand; the judge ships the library beside this file
from qgeom import Num, Point, area, direction, edges, on_segment, orient, parse_number, winding  # noqa: E402

MAX_FIGURES = 20
MAX_PARTS = 7
MAX_VERTICES = 64
MAX_PART = 100
MAX_DENOMINATOR = 10**6
VALID = 42
INVALID = 43
COUNT = re.compile(r"[1-9][0-9]{0,3}")


class Invalid(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")


class Reader:
    def __init__(self, data: bytes) -> None:
        if not data.endswith(b"\n"):
            raise Invalid(data.count(b"\n") + 1, "the last line does not end with a newline")
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError as error:
            raise Invalid(data[: error.start].count(b"\n") + 1, "a byte that is not ASCII") from None
        self.lines = text[:-1].split("\n")
        self.at = 0

    def line(self) -> tuple[int, str]:
        if self.at >= len(self.lines):
            raise Invalid(self.at + 1, "the input ends too early")
        self.at += 1
        return self.at, self.lines[self.at - 1]

    def count(self, low: int, high: int, what: str) -> int:
        number, text = self.line()
        if not COUNT.fullmatch(text) or not low <= int(text) <= high:
            raise Invalid(number, f"expected {what}, an integer from {low} to {high}, got {text[:30]!r}")
        return int(text)


def number(line: int, text: str) -> Num:
    try:
        value = parse_number(text, canonical=True)
    except ValueError as error:
        raise Invalid(line, f"{text[:30]!r} is not a canonical number: {error}") from None
    if abs(value.a) > MAX_PART or abs(value.b) > MAX_PART:
        raise Invalid(line, f"{text[:30]!r}: a part is over {MAX_PART} in absolute value")
    return value


def crosses(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Closed segments pq and rs share a point."""
    d1, d2, d3, d4 = orient(p, q, r), orient(p, q, s), orient(r, s, p), orient(r, s, q)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return (
        (d1 == 0 and on_segment(r, p, q))
        or (d2 == 0 and on_segment(s, p, q))
        or (d3 == 0 and on_segment(p, r, s))
        or (d4 == 0 and on_segment(q, r, s))
    )


def boxes_apart(e: tuple[Point, Point], f: tuple[Point, Point]) -> bool:
    return (
        max(e[0][0], e[1][0]) < min(f[0][0], f[1][0])
        or max(f[0][0], f[1][0]) < min(e[0][0], e[1][0])
        or max(e[0][1], e[1][1]) < min(f[0][1], f[1][1])
        or max(f[0][1], f[1][1]) < min(e[0][1], e[1][1])
    )


def check_polygon(first_line: int, polygon: list[Point]) -> None:
    n = len(polygon)
    sides = edges(polygon)
    for i, (p, q) in enumerate(sides):
        d = direction(p, q)
        if d < 0:
            raise Invalid(
                first_line + i, "the edge to the next vertex has no length or is not at a multiple of 45 degrees"
            )
        before = direction(*sides[i - 1])
        if before == d:
            raise Invalid(first_line + i, "a straight vertex (its two edges point the same way)")
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                if _folds(sides[i], sides[j]):
                    raise Invalid(first_line + i, "the polygon is not simple: two adjacent edges overlap")
                continue
            if not boxes_apart(sides[i], sides[j]) and crosses(*sides[i], *sides[j]):
                raise Invalid(
                    first_line + j,
                    f"the polygon is not simple: the edge from this vertex meets the edge from line {first_line + i}",
                )
    if area(polygon).sign() <= 0:
        raise Invalid(first_line, "the polygon is not counterclockwise")


def _folds(e: tuple[Point, Point], f: tuple[Point, Point]) -> bool:
    """Adjacent edges that run back along each other."""
    return (direction(*e) - direction(*f)) % 8 == 4


def check_apart(figure: list[tuple[int, list[Point]]]) -> None:
    for i, (line_i, a) in enumerate(figure):
        for line_j, b in figure[i + 1 :]:
            for e in edges(a):
                for f in edges(b):
                    if not boxes_apart(e, f) and crosses(*e, *f):
                        raise Invalid(line_j, f"this polygon touches or crosses the polygon of line {line_i}")
            if winding(b[0], a) or winding(a[0], b):
                raise Invalid(line_j, f"this polygon and the polygon of line {line_i} lie one inside the other")


def validate(data: bytes) -> None:
    reader = Reader(data)
    for _ in range(reader.count(1, MAX_FIGURES, "the number of figures")):
        figure, denominators, vertices = [], 1, 0
        for _ in range(reader.count(1, MAX_PARTS, "the number of polygons of a figure")):
            n = reader.count(3, MAX_VERTICES, "the number of vertices of a polygon")
            vertices += n
            if vertices > MAX_VERTICES:
                raise Invalid(reader.at, f"the figure has more than {MAX_VERTICES} vertices")
            start = reader.at + 1
            polygon = []
            for _ in range(n):
                line, text = reader.line()
                fields = text.split(" ")
                if len(fields) != 2:
                    raise Invalid(line, f"expected a vertex 'X Y', got {text[:30]!r}")
                x, y = number(line, fields[0]), number(line, fields[1])
                for value in (x.a, x.b, y.a, y.b):
                    denominators = lcm(denominators, value.denominator)
                if denominators > MAX_DENOMINATOR:
                    raise Invalid(
                        line, f"the denominators of this figure have a least common multiple over {MAX_DENOMINATOR}"
                    )
                polygon.append((x, y))
            if len(set(polygon)) != n:
                raise Invalid(start, "a vertex repeats")
            check_polygon(start, polygon)
            figure.append((start, polygon))
        check_apart(figure)
    if reader.at != len(reader.lines):
        raise Invalid(reader.at + 1, "unexpected text after the last figure")


def main() -> int:
    try:
        validate(sys.stdin.buffer.read())
    except Invalid as reason:
        print(reason, file=sys.stderr)
        return INVALID
    return VALID


if __name__ == "__main__":
    sys.exit(main())
