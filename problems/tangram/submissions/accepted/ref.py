"""Tangram: lay the seven pieces on each figure, or say it cannot be done (reference, Python).

Exact arithmetic in Z[√2]: every coordinate of a figure is multiplied by D,
the least common multiple of its denominators, so a number is a pair of
integers (a, b) standing for (a + b√2) / D, and every piece vertex, turned by
any multiple of 45°, stays such a pair.

The search only ever compares such numbers, so it works on one integer per
number, its key a·K + b·R with R = ⌊√2·K⌋: keys add like the numbers, and
with K large enough for the figure (see Keys) a key has the sign of its
number. Every edge, of a figure or a piece, points in one of the eight
directions k·45°, so which side of an edge a point lies on is the sign of a
sum of key differences too. No products, no square roots and no fractions
are left in the search: small integers, fast under CPython and PyPy alike.

Search: the lowest (then leftmost) point of the part of the figure still
uncovered is a vertex of the figure or of a placed piece, and the piece
covering the first free 45° sector there has that point as its own lowest
vertex, with its first sector there. So at each step every remaining piece
has at most one place per orientation; it is taken if it crosses no figure
edge and overlaps no placed piece. The search is complete: it fails only if
no arrangement exists. A figure whose area is not 16 is impossible at once.
"""

import sys
from fractions import Fraction
from math import gcd, isqrt

# canonical shapes, counterclockwise, as (xa, xb, ya, yb): x = xa + xb√2, y = ya + yb√2
SHAPES = {
    "L": [(0, 0, 0, 0), (4, 0, 0, 0), (2, 0, 2, 0)],
    "M": [(0, 0, 0, 0), (2, 0, 0, 0), (0, 0, 2, 0)],
    "S": [(0, 0, 0, 0), (2, 0, 0, 0), (1, 0, 1, 0)],
    "Q": [(0, 0, 0, 0), (0, 1, 0, 0), (0, 1, 0, 1), (0, 0, 0, 1)],
    "P": [(0, 0, 0, 0), (2, 0, 0, 0), (3, 0, 1, 0), (1, 0, 1, 0)],
}
NAMES = {"L": ["L1", "L2"], "M": ["M"], "S": ["S1", "S2"], "Q": ["Q"], "P": ["P"]}
UNITS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]  # (dx, dy) of direction k·45°
DIRS = {unit: k for k, unit in enumerate(UNITS)}


class Keys:
    """Points as (key of y, key of x), so that tuple order is the search's order: lower, then further left.

    A number w = A + B√2 ≠ 0 has |A² - 2B²| ≥ 1, so |w| ≥ 1/(|A| + √2|B|), and its key is A·K + B·R =
    K·w + B·e with -1 < e ≤ 0. Where |A|, |B| ≤ W, K ≥ 2.5·W² makes |K·w| > |B·e|: the key has the sign of
    w. The numbers compared are differences of coordinates and side values dx·Δy - dy·Δx, whose parts are
    at most 4M where M bounds every coordinate part of every point the search makes: a figure's own, plus
    at most twice the largest part of a piece vertex for each of the seven pieces and the one being tried.
    So K = 64·M² is enough. Keys are Python ints: exact however large, and machine words for the usual D.
    """

    def __init__(self, figure, shapes):
        biggest = max(abs(c) for poly in figure for p in poly for c in p)
        piece = max(abs(c) for shape in shapes for p in shape for c in p)
        bound = biggest + 16 * piece
        self.k = 64 * bound * bound
        self.r = isqrt(2 * self.k * self.k)

    def point(self, p):
        xa, xb, ya, yb = p
        return (ya * self.k + yb * self.r, xa * self.k + xb * self.r)


def sgn(v):
    return (v > 0) - (v < 0)


def direction(p, q):
    """The direction k from p to q, which lie on a line at a multiple of 45°."""
    return DIRS[(sgn(q[1] - p[1]), sgn(q[0] - p[0]))]


def side(a, u, r):
    """Positive when r is left of the line through a along unit u, zero on it: (u x (r - a)) in keys."""
    return u[0] * (r[0] - a[0]) - u[1] * (r[1] - a[1])


def sectors(first, last):
    """The mask of the 45° sectors from direction first counterclockwise up to direction last."""
    mask, d = 0, first
    while d != last:
        mask |= 1 << d
        d = (d + 1) % 8
    return mask


def outline(pts):
    """A counterclockwise polygon as (vertices, edge units, vertex masks, edge masks): the sectors inside it
    at each vertex, and the half plane left of each edge, as at a point inside that edge."""
    n = len(pts)
    dirs = [direction(pts[i], pts[(i + 1) % n]) for i in range(n)]
    vmasks = [sectors(dirs[i], direction(pts[i], pts[i - 1])) for i in range(n)]
    return pts, [UNITS[d] for d in dirs], vmasks, [sectors(d, (d + 4) % 8) for d in dirs]


def strictly_between(p, a, b, u):
    if p == a or p == b or side(a, u, p):
        return False
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def rotate(p):
    xa, xb, ya, yb = p
    assert (xa - ya) % 2 == 0 and (xa + ya) % 2 == 0
    return (xb - yb, (xa - ya) // 2, xb + yb, (xa + ya) // 2)


def orientations(kind, scale):
    """Every distinct placement shape of a piece at the origin, exact: (rotation, flip, vertices). Two are the
    same when one is the other moved, which their vertex sets seen from their least vertex tell."""
    seen, out = set(), []
    for flip in (0, 1):
        pts = SHAPES[kind]
        if flip:
            pts = [(-xa, -xb, ya, yb) for xa, xb, ya, yb in reversed(pts)]
        for rot in range(8):
            key = min(tuple(sorted(tuple(c - o for c, o in zip(p, ref)) for p in pts)) for ref in pts)
            if key not in seen:
                seen.add(key)
                out.append((rot, flip, [tuple(c * scale for c in p) for p in pts]))
            pts = [rotate(p) for p in pts]
    return out


def winding(p, pts, units):
    total = 0
    n = len(pts)
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        a_le, b_le = a[0] <= p[0], b[0] <= p[0]
        if a_le and not b_le and side(a, units[i], p) > 0:
            total += 1
        elif b_le and not a_le and side(a, units[i], p) < 0:
            total -= 1
    return total


def point_mask(p, polys, interior):
    """The sectors at p covered by the polygons (vertex: its angle; edge: the left half-plane; inside: all if
    interior)."""
    cover = 0
    for pts, units, vmasks, emasks in polys:
        if p in pts:
            cover |= vmasks[pts.index(p)]
            continue
        n = len(pts)
        for i in range(n):
            if strictly_between(p, pts[i], pts[(i + 1) % n], units[i]):
                cover |= emasks[i]
                break
        else:
            if interior and winding(p, pts, units):
                cover |= 255
    return cover


def box(pts):
    """(min x, max x, min y, max y) of points."""
    xs, ys = [p[1] for p in pts], [p[0] for p in pts]
    return min(xs), max(xs), min(ys), max(ys)


def in_box(p, bounds):
    """p lies in the closed box bounds."""
    return bounds[0] <= p[1] <= bounds[1] and bounds[2] <= p[0] <= bounds[3]


def apart(a, b):
    """Boxes that share no interior point."""
    return a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2]


def overlap(a, b):
    """Interiors of two convex counterclockwise polygons (outlines) meet."""
    for first, second in ((a, b), (b, a)):
        for p, u in zip(first[0], first[1]):
            if all(side(p, u, r) <= 0 for r in second[0]):
                return False
    return True


def enters(a, b, u, poly):
    """Segment ab, along unit u, meets the interior of a convex counterclockwise polygon (an outline)."""
    for p, up in zip(poly[0], poly[1]):
        if side(p, up, a) <= 0 and side(p, up, b) <= 0:
            return False
    sides = [side(a, u, r) for r in poly[0]]
    return min(sides) < 0 < max(sides)


class Solver:
    def __init__(self, figure, scale):
        exact = {kind: orientations(kind, scale) for kind in SHAPES}
        keys = Keys(figure, [shape for kind in SHAPES for _, _, shape in exact[kind]])
        self.exact = {}  # key point -> its exact (xa, xb, ya, yb), for the figure and every piece laid
        parts = []
        for poly in figure:
            pts = [keys.point(p) for p in poly]
            self.exact.update(zip(pts, poly))
            parts.append(outline(pts))
        self.figure = parts
        self.fedges = [
            (pts[i], pts[(i + 1) % len(pts)], units[i]) for pts, units, _, _ in parts for i in range(len(pts))
        ]
        self.fboxes = [box(edge[:2]) for edge in self.fedges]
        # per orientation: rotation, flip, exact vertices, the outline in keys, its lowest vertex, its box
        self.kinds = {}
        for kind in SHAPES:
            self.kinds[kind] = []
            for rot, flip, shape in exact[kind]:
                pts = [keys.point(p) for p in shape]
                self.kinds[kind].append((rot, flip, shape, outline(pts), pts.index(min(pts)), box(pts)))
        self.left = {kind: len(NAMES[kind]) for kind in SHAPES}
        self.placed = []  # (kind, rot, flip, outline, box, exact translation)
        self.inside = {}  # point -> the sectors of the figure there, computed once
        self.order = sorted(self.exact)

    def figure_mask(self, p):
        if p not in self.inside:
            self.inside[p] = point_mask(p, self.figure, True)
        return self.inside[p]

    def lowest_free(self, order):
        """The index in order of its first point with a free sector, and those sectors. Pieces only ever add
        cover, and a new piece's vertices all come at or after the point it was laid at, so the caller passes
        only the points from there on (with the new vertices merged in) rather than all points again."""
        for at, p in enumerate(order):
            free = self.figure_mask(p)
            if free:
                near = [piece[3] for piece in self.placed if in_box(p, piece[4])]
                if near:
                    free &= ~point_mask(p, near, False)
            if free:
                return at, free
        return None, 0

    def fits(self, piece, bounds):
        for other in self.placed:
            if not apart(bounds, other[4]) and overlap(piece, other[3]):
                return False
        for (a, b, u), edge_box in zip(self.fedges, self.fboxes):
            if not apart(bounds, edge_box) and enters(a, b, u, piece):
                return False
        return True

    def search(self, order):
        """Lay the remaining pieces, order being the points that may still have free sectors, sorted."""
        if len(self.placed) == 7:
            return True
        at, free = self.lowest_free(order)
        if at is None:
            return False
        v, rest = order[at], order[at:]
        first = (free & -free).bit_length() - 1
        for kind in SHAPES:
            if not self.left[kind]:
                continue
            for rot, flip, shape, (pts, units, vmasks, emasks), low, sbox in self.kinds[kind]:
                mask = vmasks[low]
                if mask & ~free or not (mask >> first) & 1 or (mask >> ((first - 1) % 8)) & 1:
                    continue
                ty, tx = v[0] - pts[low][0], v[1] - pts[low][1]
                verts = [(ty + y, tx + x) for y, x in pts]
                bounds = (sbox[0] + tx, sbox[1] + tx, sbox[2] + ty, sbox[3] + ty)
                piece = (verts, units, vmasks, emasks)
                if not self.fits(piece, bounds):
                    continue
                t = tuple(c - o for c, o in zip(self.exact[v], shape[low]))
                self.exact.update((p, tuple(c + d for c, d in zip(t, e))) for p, e in zip(verts, shape))
                self.placed.append((kind, rot, flip, piece, bounds, t))
                self.left[kind] -= 1
                if self.search(sorted(set(rest).union(verts))):
                    return True
                self.left[kind] += 1
                self.placed.pop()
        return False


def parse_rational(text):
    if "/" in text:
        top, bottom = text.split("/")
        return Fraction(int(top), int(bottom))
    return Fraction(int(text))


def parse_number(text):
    """(a, b) of a + b√2 from `A`, `A+Bs`, `A-Bs` or `Bs`."""
    if not text.endswith("s"):
        return parse_rational(text), Fraction(0)
    body = text[:-1]
    cut = max(body.rfind("+"), body.rfind("-"))
    if cut <= 0:
        return Fraction(0), parse_rational(body.lstrip("-")) * (-1 if body.startswith("-") else 1)
    b = parse_rational(body[cut + 1 :]) * (-1 if body[cut] == "-" else 1)
    return parse_rational(body[:cut]), b


def show(a, b):
    def rational(value):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"

    if b == 0:
        return rational(a)
    coef = rational(abs(b)) + "s"
    if a == 0:
        return ("-" if b < 0 else "") + coef
    return rational(a) + ("-" if b < 0 else "+") + coef


def area_is_16(figure, scale):
    total_a = total_b = 0
    for poly in figure:
        n = len(poly)
        for i in range(n):
            p, q = poly[i], poly[(i + 1) % n]
            total_a += p[0] * q[2] + 2 * p[1] * q[3] - p[2] * q[0] - 2 * p[3] * q[1]
            total_b += p[0] * q[3] + p[1] * q[2] - p[2] * q[1] - p[3] * q[0]
    return total_b == 0 and total_a == 32 * scale * scale


def solve(raw):
    scale = 1
    for poly in raw:
        for point in poly:
            for value in (point[0][0], point[0][1], point[1][0], point[1][1]):
                scale = scale * value.denominator // gcd(scale, value.denominator)
    figure = [
        [(int(x[0] * scale), int(x[1] * scale), int(y[0] * scale), int(y[1] * scale)) for x, y in poly] for poly in raw
    ]
    if not area_is_16(figure, scale):
        return ["impossible"]
    solver = Solver(figure, scale)
    if not solver.search(solver.order):
        return ["impossible"]
    names = {kind: list(NAMES[kind]) for kind in NAMES}
    lines = []
    for kind, rot, flip, _, _, t in solver.placed:
        x = show(Fraction(t[0], scale), Fraction(t[1], scale))
        y = show(Fraction(t[2], scale), Fraction(t[3], scale))
        lines.append(f"{names[kind].pop(0)} {rot} {flip} {x} {y}")
    return lines


def main():
    tokens = sys.stdin.read().split()
    at = 0

    def take():
        nonlocal at
        at += 1
        return tokens[at - 1]

    out = []
    for _ in range(int(take())):
        figure = []
        for _ in range(int(take())):
            figure.append([(parse_number(take()), parse_number(take())) for _ in range(int(take()))])
        out.extend(solve(figure))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
