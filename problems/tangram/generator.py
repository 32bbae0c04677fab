"""Test generator for "Tangram".

Usage: generator.py CATEGORY [options]; one complete input file on stdout.
The output depends only on the arguments: every random choice comes from
random.Random(seed). --size is the number of figures where there is a choice.

  convex   --first I --size K [--turn] [--seed S]
        the convex figures CONVEX[I .. I+K-1] (every convex polygon made of 16
        right isosceles triangles of area 1; the first THIRTEEN are the ones
        the pieces make, Wang and Hsiung 1942); --turn turns them 45° (integer
        coordinates instead of multiples of √2); --seed moves each by a random
        exact offset (rational parts with odd denominators, √2 parts)
  square   [--turn] [--seed S]
        the classic square of side 4 (or turned 45°)
  lookalike --first I --size K [--seed S]
        outlines LOOKALIKES[I .. I+K-1] of area 16 drawn like tangram
        pictures (a house, an arrow, ...) that the pieces cannot make
  random   --size K --seed S [--parts P] [--turn] [--box B]
        K outlines of random arrangements of the seven pieces, grown piece by
        piece edge to edge; with --parts P each is split into P parts far
        apart; with --box B only arrangements within a B x B box (compact,
        like the classic pictures); every one can be laid out (a placement is
        known by construction)
  random ... --swap A=B
        the same, grown with piece A replaced by a copy of piece B of the same
        area (M=Q: two squares, no medium triangle): area 16, outlines the
        true pieces mostly cannot make
  nearmiss --kind NAME [--seed S]
        figures a placement off by about 1e-9 almost fits (NEAR_MISSES)

A figure is printed as its number of polygons, then per polygon its number
of vertices and the vertices counterclockwise, one `X Y` per line, numbers
in the canonical form of the statement (qgeom.format_number).
"""

from __future__ import annotations

import argparse
import random
import sys
from fractions import Fraction
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent / "lib"))  # by hand; the judge ships the library beside this file
from qgeom import NAMES, Num, Point, area, direction, edges, format_number, interiors_meet, on_segment, place  # noqa: E402

# Convex polygons of 16 half-unit triangles on the lattice with legs along the axes (vertices in units of √2).
CONVEX = [
    [(0, 0), (2, 0), (2, 4), (0, 4)],  # rectangle 1:2
    [(0, 0), (0, 4), (-4, 4)],  # triangle
    [(0, 0), (2, 2), (0, 4), (-2, 2)],  # square (turned)
    [(0, 0), (0, 4), (-1, 5), (-3, 3)],
    [(0, 0), (0, 4), (-2, 6), (-2, 2)],  # parallelogram
    [(0, 0), (0, 5), (-2, 5), (-2, 2)],
    [(0, 0), (0, 6), (-2, 4), (-2, 2)],
    [(0, 0), (0, 3), (-2, 5), (-3, 4), (-3, 3)],
    [(0, 0), (1, 1), (1, 4), (0, 5), (-1, 4), (-1, 1)],
    [(0, 0), (2, 2), (2, 3), (-2, 3), (-2, 2)],
    [(0, 0), (1, 0), (1, 2), (-1, 4), (-2, 4), (-2, 2)],
    [(0, 0), (1, 0), (2, 1), (2, 3), (-1, 3), (-1, 1)],
    [(0, 0), (2, 0), (2, 2), (1, 3), (-1, 3), (-1, 1)],
    # the six convex figures of area 16 the pieces cannot make
    [(0, 0), (0, 1), (-8, 9), (-8, 8)],
    [(0, 0), (0, 2), (-3, 5), (-5, 5)],
    [(0, 0), (0, 2), (-4, 6), (-4, 4)],
    [(0, 0), (0, 8), (-1, 9), (-1, 1)],
    [(0, 0), (1, 1), (-3, 5), (-4, 4)],
    [(0, 0), (1, 0), (1, 8), (0, 8)],
]
FORMABLE = 13

# Outlines of area 16 drawn like tangram pictures, with integer corners, that the pieces cannot make.
LOOKALIKES = {
    "house": [[(0, 0), (4, 0), (4, 3), (2, 5), (0, 3)]],
    "arrow": [[(0, 0), (2, 0), (2, 6), (3, 6), (1, 8), (-1, 6), (0, 6)]],
    "boat": [[(0, 0), (5, 0), (7, 2), (2, 2), (2, 4), (0, 2), (-2, 2)]],
    "tower": [[(0, 0), (6, 0), (6, 2), (4, 2), (4, 4), (2, 4), (2, 2), (0, 2)]],
    "bar": [[(0, 0), (16, 0), (16, 1), (0, 1)]],
}

ROOT2_NEAR = Fraction(19601, 13860)  # a convergent of √2, above it by 1.84e-9
EPS = Num(ROOT2_NEAR, -1)  # 19601/13860 - √2: a positive number near 1e-9 with a small denominator


def near_misses() -> dict[str, list[list[tuple[Num, Num]]]]:
    """Figures a placement off by ~1e-9 almost fits: the square widened or narrowed by EPS, the 2√2 x 4√2
    rectangle with √2 replaced by a close fraction (both impossible), and solvable rectangles moved by EPS (only exact
    placements fit)."""

    def rect(w: Num, h: Num, x: Num = Num(), y: Num = Num()) -> list[list[tuple[Num, Num]]]:
        return [[(x, y), (x + w, y), (x + w, y + h), (x, y + h)]]

    return {
        "wider": rect(Num(4) + EPS, Num(4)),
        "narrower": rect(Num(4) - EPS, Num(4)),
        "taller": rect(Num(4), Num(4) + EPS),
        "rational-root2": rect(Num(2 * ROOT2_NEAR), Num(0, 4)),
        "moved": rect(Num(4), Num(4), EPS, -EPS),
        "moved-turned": rect(Num(0, 2), Num(0, 4), EPS + Num(1), Num(0, 3) - EPS),
    }


def convex_figure(index: int, turn: bool) -> list[list[Point]]:
    """CONVEX[index] at full size: scaled by √2, or turned 45° (then (x, y)·√2 turned is (x - y, x + y))."""
    if turn:
        return [[(Num(x - y), Num(x + y)) for x, y in CONVEX[index]]]
    return [[(Num(0, x), Num(0, y)) for x, y in CONVEX[index]]]


def offset(rng: random.Random) -> tuple[Num, Num]:
    """A random exact offset: rational parts with small odd denominators (least common multiple at most 9·7·5·11), √2
    parts."""

    def one() -> Num:
        return Num(Fraction(rng.randrange(-60, 60), rng.choice([1, 3, 5, 7, 9, 11])), rng.randrange(-8, 9))

    return one(), one()


def moved(figure: list[list[Point]], by: tuple[Num, Num]) -> list[list[Point]]:
    return [[(x + by[0], y + by[1]) for x, y in ring] for ring in figure]


def outline(pieces: list[list[Point]]) -> list[list[Point]] | None:
    """The boundary of the union of pieces laid edge to edge, as counterclockwise polygons; None if two parts touch
    at a point only, or the union has a hole (neither is a figure of the statement)."""
    corners = [p for polygon in pieces for p in polygon]
    segments: dict[tuple[Point, Point], int] = {}
    for polygon in pieces:
        for a, b in edges(polygon):
            cuts = sorted({p for p in corners if on_segment(p, a, b)}, key=lambda p: _distance_key(a, p))
            for p, q in zip(cuts, cuts[1:]):
                if (q, p) in segments:
                    del segments[(q, p)]
                else:
                    segments[(p, q)] = 1
    starts: dict[Point, Point] = {}
    for p, q in segments:
        if p in starts:
            return None
        starts[p] = q
    rings = []
    while starts:
        first, ring = next(iter(starts)), []
        p = first
        while True:
            ring.append(p)
            p = starts.pop(p)
            if p == first:
                break
        straight = [
            p for i, p in enumerate(ring) if direction(ring[i - 1], p) != direction(p, ring[(i + 1) % len(ring)])
        ]
        if area(straight).sign() < 0:
            return None
        rings.append(straight)
    return rings


def _distance_key(a: Point, p: Point) -> tuple:
    """Order of points along a segment from a: by |dx| then |dy| (exact, both grow along the segment)."""
    dx, dy = p[0] - a[0], p[1] - a[1]
    return (_Key(dx if dx.sign() >= 0 else -dx), _Key(dy if dy.sign() >= 0 else -dy))


class _Key:
    """Exact ordering of Q(√2) numbers for sorted()."""

    def __init__(self, value: Num) -> None:
        self.value = value

    def __lt__(self, other: _Key) -> bool:
        return self.value < other.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and self.value == other.value


def grow(names: list[str], rng: random.Random, turn: bool) -> list[list[Point]]:
    """Pieces laid one by one, each sharing part of an edge with one already laid, overlapping none."""
    first = place(names[0], rng.randrange(0, 8, 1 if turn else 2), rng.randrange(2), Num(), Num())
    laid = [first]
    for name in names[1:]:
        while True:
            host = rng.choice(laid)
            a, b = rng.choice(edges(host))
            shape = place(name, rng.randrange(8), rng.randrange(2), Num(), Num())
            want = (direction(a, b) + 4) % 8
            matching = [(u, w) for u, w in edges(shape) if direction(u, w) == want]
            if not matching:
                continue
            u, w = rng.choice(matching)
            anchor, corner = (b, u) if rng.randrange(2) else (a, w)
            shift = (anchor[0] - corner[0], anchor[1] - corner[1])
            candidate = [(x + shift[0], y + shift[1]) for x, y in shape]
            if not any(interiors_meet(candidate, other) for other in laid):
                laid.append(candidate)
                break
    return laid


def fits_box(figure: list[list[Point]], box: int) -> bool:
    points = [p for ring in figure for p in ring]
    return all(max(p[k] for p in points) - min(p[k] for p in points) <= Num(box) for k in (0, 1))


def random_figure(rng: random.Random, parts: int, turn: bool, box: int, swap: str) -> list[list[Point]]:
    while True:
        names = list(NAMES)
        if swap:
            gone, copy = swap.split("=")
            names[names.index(gone)] = copy
        rng.shuffle(names)
        cuts = sorted(rng.sample(range(1, 7), parts - 1))
        groups = [names[i:j] for i, j in zip([0] + cuts, cuts + [7])]
        figure: list[list[Point]] = []
        for number, group in enumerate(groups):
            rings = outline(grow(group, rng, turn))
            if rings is None or len(rings) != 1:
                break
            figure += moved(rings, (Num(30 * number), Num()))
        else:
            if all(len(ring) <= 40 for ring in figure) and (not box or fits_box(figure, box)):
                return figure


def write(figures: list[list[list[Point]]]) -> str:
    out = [str(len(figures))]
    for figure in figures:
        out.append(str(len(figure)))
        for ring in figure:
            out.append(str(len(ring)))
            out += [f"{format_number(x)} {format_number(y)}" for x, y in ring]
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="Tangram test generator")
    parser.add_argument("category", choices=["convex", "square", "lookalike", "random", "nearmiss"])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--size", type=int, default=1)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--parts", type=int, default=1)
    parser.add_argument("--turn", action="store_true")
    parser.add_argument("--kind", default="wider")
    parser.add_argument("--box", type=int, default=0)
    parser.add_argument("--swap", default="")
    args = parser.parse_args()
    rng = random.Random(args.seed if args.seed is not None else 0)
    if args.category == "convex":
        figures = [convex_figure(i % len(CONVEX), args.turn) for i in range(args.first, args.first + args.size)]
    elif args.category == "square":
        side = Num(0, 2) if args.turn else Num(4)
        turned = [(Num(), Num()), (side, side), (Num(), side + side), (-side, side)]
        figures = [[turned if args.turn else [(Num(), Num()), (side, Num()), (side, side), (Num(), side)]]]
    elif args.category == "lookalike":
        names = list(LOOKALIKES)
        figures = [
            [[(Num(x), Num(y)) for x, y in ring] for ring in LOOKALIKES[names[i % len(names)]]]
            for i in range(args.first, args.first + args.size)
        ]
    elif args.category == "random":
        figures = [random_figure(rng, args.parts, args.turn, args.box, args.swap) for _ in range(args.size)]
    else:
        figures = [near_misses()[args.kind]]
    if args.seed is not None and args.category in ("convex", "square", "lookalike"):
        figures = [moved(figure, offset(rng)) for figure in figures]
    sys.stdout.write(write(figures))


if __name__ == "__main__":
    main()
