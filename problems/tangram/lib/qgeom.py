"""Exact plane geometry over Q(√2) for "Tangram": numbers, the seven pieces, and the tests the checker needs.

Every piece edge points in one of the eight directions k·45°, so every
coordinate the puzzle meets is a + b√2 with rational a and b, and every sign
is decided exactly: a + b√2 > 0 compares a² with 2b² when the signs differ.
Floating point never decides alone: the hot tests (`orient`, `<`, `<=`) first
look at a double approximation with a proven error bound (`_close`) and take
its sign only when the value is farther from zero than the bound, which is the
common case and costs a few float operations instead of a dozen fractions; a
value near zero (a touching vertex, an edge off by 1e-9) is decided exactly.
Decimals for display come from `approx`, which rounds by integer arithmetic.
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import inf, isqrt

MAX_DIGITS = 40
SQRT2_FLOAT = 1.4142135623730951  # √2 rounded to a double: relative error under 2**-53
# With u = 2**-53: a double approximation of a + b√2 is within 4u·m of it, m = |a| + 1.5|b| (the two conversions, the
# product with √2 and the sum each round once, Fraction's float is correctly rounded); a difference of two such is
# within 5u·(m1 + m2), and a cross product (d1·d2 - d3·d4, each |d| at most its m1 + m2 = P) within 12u·(P1·P2 +
# P3·P4). FILTER is over 70 times 12u: a double farther from zero than FILTER times those magnitudes has the sign of
# the exact value. A part too large for a double makes m infinite, and the exact test decides.
FILTER = 1e-13


class Num:
    """a + b√2 with rational a and b, immutable."""

    __slots__ = ("a", "b", "_float")

    def __init__(self, a: Fraction | int = 0, b: Fraction | int = 0) -> None:
        self.a = a if type(a) is Fraction else Fraction(a)  # the arithmetic below already makes fractions: no copy
        self.b = b if type(b) is Fraction else Fraction(b)
        self._float: tuple[float, float] | None = None

    def floating(self) -> tuple[float, float]:
        """(a double near the value, a bound on the magnitude of its terms, |a| + 1.5|b|), made once per number: the
        value is within 4·2**-53 times the bound of the exact one (an infinite bound when a part overflows a double)."""
        if self._float is None:
            try:
                a, b = float(self.a), float(self.b)
                self._float = (a + b * SQRT2_FLOAT, abs(a) + 1.5 * abs(b))
            except OverflowError:
                self._float = (0.0, inf)
        return self._float

    def __add__(self, other: Num) -> Num:
        return Num(self.a + other.a, self.b + other.b)

    def __sub__(self, other: Num) -> Num:
        return Num(self.a - other.a, self.b - other.b)

    def __neg__(self) -> Num:
        return Num(-self.a, -self.b)

    def __mul__(self, other: Num) -> Num:
        return Num(self.a * other.a + 2 * self.b * other.b, self.a * other.b + self.b * other.a)

    def __truediv__(self, other: Num) -> Num:
        norm = other.a * other.a - 2 * other.b * other.b  # never 0 for other != 0: √2 is irrational
        if norm == 0:
            raise ZeroDivisionError("division by zero in Q(√2)")
        top = self * Num(other.a, -other.b)
        return Num(top.a / norm, top.b / norm)

    def scale(self, k: Fraction | int) -> Num:
        return Num(self.a * k, self.b * k)

    def sign(self) -> int:
        sa = (self.a > 0) - (self.a < 0)
        sb = (self.b > 0) - (self.b < 0)
        if sa == sb or sb == 0:
            return sa
        if sa == 0:
            return sb
        return sa if self.a * self.a > 2 * self.b * self.b else sb

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Num) and self.a == other.a and self.b == other.b

    def __hash__(self) -> int:
        return hash((self.a, self.b))

    def __lt__(self, other: Num) -> bool:
        return _compare(self, other) < 0

    def __le__(self, other: Num) -> bool:
        return _compare(self, other) <= 0

    def __repr__(self) -> str:
        return format_number(self)


def _compare(x: Num, y: Num) -> int:
    """The sign of x - y: from the doubles when they are farther apart than their error (`FILTER`), else exactly."""
    fx, mx = x.floating()
    fy, my = y.floating()
    difference = fx - fy
    if abs(difference) > FILTER * (mx + my):
        return 1 if difference > 0 else -1
    if x.a == y.a and x.b == y.b:  # equal coordinates are common in a tiling, and cheaper to see than a difference
        return 0
    return (x - y).sign()


ZERO = Num()
ROOT2 = Num(0, 1)
HALF_ROOT2 = Num(0, Fraction(1, 2))

_RATIONAL_IN = r"(?:0|[1-9][0-9]*)(?:/[1-9][0-9]*)?"
_RATIONAL_OUT = r"[0-9]+(?:/[0-9]+|\.[0-9]+)?"
NUMBER_IN = re.compile(
    rf"(?P<a>-?{_RATIONAL_IN})(?:(?P<sign>[+-])(?P<b>{_RATIONAL_IN})s)?|(?P<neg>-?)(?P<b2>{_RATIONAL_IN})s"
)
NUMBER_OUT = re.compile(
    rf"(?P<a>-?{_RATIONAL_OUT})(?:(?P<sign>[+-])(?P<b>{_RATIONAL_OUT})s)?|(?P<neg>-?)(?P<b2>{_RATIONAL_OUT})s"
)


def _rational(text: str) -> Fraction:
    if "/" in text:
        top, bottom = text.split("/")
        if int(bottom) == 0:
            raise ValueError("a denominator is 0")
        return Fraction(int(top), int(bottom))
    return Fraction(text)  # an integer or a finite decimal, both exact


def parse_number(text: str, canonical: bool = False) -> Num:
    """A number `A`, `A+Bs`, `A-Bs` or `Bs` (s stands for √2); ValueError if the text is not one.

    canonical: the input's form (integers without leading zeros, fractions in
    lowest terms with a denominator over 1, no zero part written, no -0);
    otherwise the output's (also decimals, any fraction with a non-zero denominator).
    """
    if len(text) > 2 * MAX_DIGITS + 8 or any(len(run) > MAX_DIGITS for run in re.findall(r"[0-9]+", text)):
        raise ValueError(f"more than {MAX_DIGITS} digits")
    match = (NUMBER_IN if canonical else NUMBER_OUT).fullmatch(text)
    if not match:
        raise ValueError("not a number of the form A, A+Bs, A-Bs or Bs")
    if match["b2"] is not None:
        a, b = Fraction(0), _rational(match["b2"]) * (-1 if match["neg"] else 1)
        parts = [match["b2"]]
    else:
        a = _rational(match["a"])
        b = _rational(match["b"]) * (-1 if match["sign"] == "-" else 1) if match["b"] else Fraction(0)
        parts = [match["a"].lstrip("-")] + ([match["b"]] if match["b"] else [])
    if canonical:
        for part in parts:
            if "/" in part and (Fraction(part).denominator != int(part.split("/")[1]) or part.endswith("/1")):
                raise ValueError(f"{part} is not a fraction in lowest terms with a denominator over 1")
        if (
            text.startswith("-0")
            and not text.startswith("-0/")
            or (match["b"] is not None and b == 0)
            or (match["b2"] is not None and b == 0)
            or (match["a"] is not None and a == 0 and match["b"])
        ):
            raise ValueError("a zero part is written (write 0 only for the number zero)")
    return Num(a, b)


def _format_rational(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def format_number(value: Num) -> str:
    """The canonical text of a number (the inverse of parse_number with canonical=True)."""
    if value.b == 0:
        return _format_rational(value.a)
    coef = _format_rational(abs(value.b)) + "s"
    if value.a == 0:
        return ("-" if value.b < 0 else "") + coef
    return _format_rational(value.a) + ("-" if value.b < 0 else "+") + coef


def approx(value: Num, places: int = 4) -> str:
    """A decimal rounding of the exact value, for people and pictures (no floating point: integer square roots)."""
    scale = 10**places
    big = 10**30
    root = Fraction(isqrt(2 * big * big), big)  # √2 to 30 places, enough for what is shown
    exact = value.a + value.b * root
    units = round(exact * scale)
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), scale)
    return f"{sign}{whole}.{frac:0{places}d}".rstrip("0").rstrip(".") if places else f"{sign}{whole}"


def approx_small(value: Num) -> str:
    """A magnitude for tiny areas ('about 4e-9'), where fixed places would show 0."""
    big = 10**40
    exact = abs(value.a + value.b * Fraction(isqrt(2 * big * big), big))
    if exact >= Fraction(1, 1000):
        return approx(value)
    if exact == 0:
        return "0"
    exponent = 0
    while exact < 1:
        exact *= 10
        exponent -= 1
    while exact >= 10:
        exact /= 10
        exponent += 1
    mantissa = Fraction(round(exact * 10), 10)
    return f"{_format_decimal(mantissa)}e{exponent}" if exponent else _format_decimal(mantissa)


def _format_decimal(value: Fraction) -> str:
    whole, rest = divmod(value.numerator * 10 // value.denominator, 10)
    return f"{whole}.{rest}" if rest else f"{whole}"


Point = tuple[Num, Num]


class PieceKind:
    """A piece of the set: its names and its shape with one vertex at the origin, counterclockwise.

    A plain class, not a dataclass: the checker starts once per case, and importing dataclasses (with inspect)
    would cost it more than the geometry of a small case."""

    __slots__ = ("letter", "title", "names", "shape")

    def __init__(self, letter: str, title: str, names: tuple[str, ...], shape: tuple[Point, ...]) -> None:
        self.letter, self.title, self.names, self.shape = letter, title, names, shape


def _pt(x: int | Num, y: int | Num) -> Point:
    return (x if isinstance(x, Num) else Num(x), y if isinstance(y, Num) else Num(y))


KINDS = (
    PieceKind("L", "large triangle", ("L1", "L2"), (_pt(0, 0), _pt(4, 0), _pt(2, 2))),
    PieceKind("M", "medium triangle", ("M",), (_pt(0, 0), _pt(2, 0), _pt(0, 2))),
    PieceKind("S", "small triangle", ("S1", "S2"), (_pt(0, 0), _pt(2, 0), _pt(1, 1))),
    PieceKind("Q", "square", ("Q",), (_pt(0, 0), _pt(ROOT2, 0), _pt(ROOT2, ROOT2), _pt(0, ROOT2))),
    PieceKind("P", "parallelogram", ("P",), (_pt(0, 0), _pt(2, 0), _pt(3, 1), _pt(1, 1))),
)
KIND_OF = {name: kind for kind in KINDS for name in kind.names}
NAMES = tuple(name for kind in KINDS for name in kind.names)


def rotate45(p: Point) -> Point:
    """p turned 45° counterclockwise about the origin: ((x - y)/√2, (x + y)/√2)."""
    x, y = p
    return ((x - y) * HALF_ROOT2, (x + y) * HALF_ROOT2)


_ORIENTED: dict[tuple[str, int, int], tuple[Point, ...]] = {}


def oriented(name: str, rotation: int, flip: int) -> tuple[Point, ...]:
    """The vertices (counterclockwise) of piece `name` mirrored (x -> -x) if flip, then turned rotation·45° about the
    origin: made once per kind and orientation (turning is most of the cost of a placement), then shared."""
    kind = KIND_OF[name]
    key = (kind.letter, rotation % 8, flip)
    if key not in _ORIENTED:
        points = list(kind.shape)
        if flip:
            points = [(-px, py) for px, py in reversed(points)]
        for _ in range(rotation % 8):
            points = [rotate45(p) for p in points]
        _ORIENTED[key] = tuple(points)
    return _ORIENTED[key]


def place(name: str, rotation: int, flip: int, x: Num, y: Num) -> list[Point]:
    """The vertices (counterclockwise) of piece `name` mirrored (x -> -x) if flip, turned rotation·45°, then moved by
    (x, y)."""
    return [(px + x, py + y) for px, py in oriented(name, rotation, flip)]


def cross(o: Point, a: Point, b: Point) -> Num:
    """(a - o) × (b - o): positive when o, a, b turn counterclockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def orient(o: Point, a: Point, b: Point) -> int:
    """The sign of cross(o, a, b): from doubles when the product is farther from zero than its error bound (`FILTER`),
    else exactly; the checker spends most of its time here."""
    (ox, mox), (oy, moy) = o[0].floating(), o[1].floating()
    (ax, max_), (ay, may) = a[0].floating(), a[1].floating()
    (bx, mbx), (by, mby) = b[0].floating(), b[1].floating()
    value = (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
    if abs(value) > FILTER * ((max_ + mox) * (mby + moy) + (may + moy) * (mbx + mox)):
        return 1 if value > 0 else -1
    if a == o or b == o or a == b:  # a vertex tested against an edge it ends: zero, seen without fractions
        return 0
    return cross(o, a, b).sign()


def area(polygon: list[Point]) -> Num:
    """Signed area (positive for counterclockwise)."""
    total = ZERO
    for i, p in enumerate(polygon):
        q = polygon[(i + 1) % len(polygon)]
        total = total + (p[0] * q[1] - p[1] * q[0])
    return total.scale(Fraction(1, 2))


def on_segment(p: Point, a: Point, b: Point) -> bool:
    """p on the closed segment ab."""
    return (
        orient(a, b, p) == 0
        and min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])
    )


def edges(polygon: list[Point]) -> list[tuple[Point, Point]]:
    return [(p, polygon[(i + 1) % len(polygon)]) for i, p in enumerate(polygon)]


def bounds(points: list[Point]) -> tuple[Num, Num, Num, Num]:
    """(least x, greatest x, least y, greatest y)."""
    xs = sorted(p[0] for p in points)
    ys = sorted(p[1] for p in points)
    return xs[0], xs[-1], ys[0], ys[-1]


def boxes_apart(a: tuple[Num, Num, Num, Num], b: tuple[Num, Num, Num, Num]) -> bool:
    """Boxes with no interior point in common (touching allowed): a cheap test before the exact ones."""
    return a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2]


def interiors_meet(a: list[Point], b: list[Point]) -> bool:
    """Two convex counterclockwise polygons share interior points (separating axes from the edges of both, touching
    allowed)."""
    for first, second in ((a, b), (b, a)):
        for p, q in edges(first):
            if all(orient(p, q, r) <= 0 for r in second):
                return False
    return True


def segment_enters(a: Point, b: Point, convex: list[Point]) -> bool:
    """The closed segment ab meets the interior of the convex counterclockwise polygon."""
    for p, q in edges(convex):
        if orient(p, q, a) <= 0 and orient(p, q, b) <= 0:
            return False
    sides = {orient(a, b, r) for r in convex}
    return not (sides <= {0, 1} or sides <= {0, -1})


def winding(p: Point, polygon: list[Point]) -> int:
    """Winding number of a polygon around a point not on its boundary."""
    total = 0
    for a, b in edges(polygon):
        if a[1] <= p[1] < b[1] and orient(a, b, p) > 0:
            total += 1
        elif b[1] <= p[1] < a[1] and orient(a, b, p) < 0:
            total -= 1
    return total


def inside_figure(p: Point, figure: list[list[Point]]) -> str:
    """'in', 'out' or 'edge' for a point and a figure of disjoint counterclockwise polygons."""
    if any(on_segment(p, a, b) for polygon in figure for a, b in edges(polygon)):
        return "edge"
    return "in" if any(winding(p, polygon) for polygon in figure) else "out"


def clip(subject: list[Point], convex: list[Point]) -> list[Point]:
    """The part of a convex polygon inside another convex counterclockwise polygon (Sutherland-Hodgman), exactly."""
    out = subject
    for p, q in edges(convex):
        if not out:
            break
        kept: list[Point] = []
        for i, s in enumerate(out):
            e = out[(i + 1) % len(out)]
            s_in, e_in = cross(p, q, s).sign() >= 0, cross(p, q, e).sign() >= 0
            if s_in:
                kept.append(s)
            if s_in != e_in:
                cs, ce = cross(p, q, s), cross(p, q, e)
                t = cs / (cs - ce)
                kept.append((s[0] + (e[0] - s[0]) * t, s[1] + (e[1] - s[1]) * t))
        out = kept
    return out


def direction(p: Point, q: Point) -> int:
    """k for an edge pointing at k·45° (counterclockwise from +x); -1 if it points elsewhere or has no length."""
    dx, dy = (q[0] - p[0]), (q[1] - p[1])
    sx, sy = dx.sign(), dy.sign()
    if (sx, sy) == (0, 0) or (sx and sy and dx * dx != dy * dy):
        return -1
    return {(1, 0): 0, (1, 1): 1, (0, 1): 2, (-1, 1): 3, (-1, 0): 4, (-1, -1): 5, (0, -1): 6, (1, -1): 7}[(sx, sy)]
