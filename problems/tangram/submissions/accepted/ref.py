"""Tangram: lay the seven pieces on each figure, or say it cannot be done (reference, Python).

Exact arithmetic in Z[√2]: every coordinate of a figure is multiplied by D,
the least common multiple of its denominators, so a number is a pair of
integers (a, b) standing for (a + b√2) / D, and every piece vertex, turned by
any multiple of 45°, stays such a pair.

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
from math import gcd

# canonical shapes, counterclockwise, as (xa, xb, ya, yb): x = xa + xb√2, y = ya + yb√2
SHAPES = {
    "L": [(0, 0, 0, 0), (4, 0, 0, 0), (2, 0, 2, 0)],
    "M": [(0, 0, 0, 0), (2, 0, 0, 0), (0, 0, 2, 0)],
    "S": [(0, 0, 0, 0), (2, 0, 0, 0), (1, 0, 1, 0)],
    "Q": [(0, 0, 0, 0), (0, 1, 0, 0), (0, 1, 0, 1), (0, 0, 0, 1)],
    "P": [(0, 0, 0, 0), (2, 0, 0, 0), (3, 0, 1, 0), (1, 0, 1, 0)],
}
NAMES = {"L": ["L1", "L2"], "M": ["M"], "S": ["S1", "S2"], "Q": ["Q"], "P": ["P"]}
DIRS = {(1, 0): 0, (1, 1): 1, (0, 1): 2, (-1, 1): 3, (-1, 0): 4, (-1, -1): 5, (0, -1): 6, (1, -1): 7}


def sign(a, b):
    """Sign of a + b√2."""
    if a >= 0 and b >= 0:
        return 1 if a or b else 0
    if a <= 0 and b <= 0:
        return -1
    if a > 0:
        return 1 if a * a > 2 * b * b else -1
    return 1 if 2 * b * b > a * a else -1


def cross(o, p, q):
    """Sign of (p - o) x (q - o)."""
    ax, bx, ay, by = p[0] - o[0], p[1] - o[1], p[2] - o[2], p[3] - o[3]
    cx, dx, cy, dy = q[0] - o[0], q[1] - o[1], q[2] - o[2], q[3] - o[3]
    # (ax + bx r)(cy + dy r) - (ay + by r)(cx + dx r), r = √2
    return sign(ax * cy + 2 * bx * dy - ay * cx - 2 * by * dx, ax * dy + bx * cy - ay * dx - by * cx)


def less(p, q):
    """p before q: lower, then further left."""
    s = sign(p[2] - q[2], p[3] - q[3])
    if s:
        return s < 0
    return sign(p[0] - q[0], p[1] - q[1]) < 0


def ordered(points):
    """The points sorted by less, by insertion: functools.cmp_to_key would do, but PyPy builds a new class on
    every call to it, which costs far more than these few comparisons and keeps its JIT from settling."""
    out = []
    for p in points:
        at = len(out)
        while at and less(p, out[at - 1]):
            at -= 1
        out.insert(at, p)
    return out


def merge(old, new):
    """The union of two lists sorted by less, sorted, each point once."""
    out, i, n = [], 0, len(old)
    for q in new:
        while i < n and less(old[i], q):
            out.append(old[i])
            i += 1
        if i == n or old[i] != q:
            out.append(q)
    out.extend(old[i:])
    return out


def direction(p, q):
    return DIRS[(sign(q[0] - p[0], q[1] - p[1]), sign(q[2] - p[2], q[3] - p[3]))]


def sectors(first, last):
    """The mask of the 45° sectors from direction first counterclockwise up to direction last."""
    mask, d = 0, first
    while d != last:
        mask |= 1 << d
        d = (d + 1) % 8
    return mask


def vertex_masks(poly):
    n = len(poly)
    return [sectors(direction(poly[i], poly[(i + 1) % n]), direction(poly[i], poly[i - 1])) for i in range(n)]


def strictly_between(p, a, b):
    if p == a or p == b or cross(a, b, p):
        return False
    lo_x, hi_x = (a, b) if less_x(a, b) else (b, a)
    lo_y, hi_y = (a, b) if sign(a[2] - b[2], a[3] - b[3]) <= 0 else (b, a)
    return (
        sign(p[0] - lo_x[0], p[1] - lo_x[1]) >= 0
        and sign(hi_x[0] - p[0], hi_x[1] - p[1]) >= 0
        and sign(p[2] - lo_y[2], p[3] - lo_y[3]) >= 0
        and sign(hi_y[2] - p[2], hi_y[3] - p[3]) >= 0
    )


def less_x(a, b):
    return sign(a[0] - b[0], a[1] - b[1]) <= 0


def rotate(p):
    xa, xb, ya, yb = p
    assert (xa - ya) % 2 == 0 and (xa + ya) % 2 == 0
    return (xb - yb, (xa - ya) // 2, xb + yb, (xa + ya) // 2)


def orientations(kind, scale):
    """Every distinct placement shape of a piece at the origin: (rotation, flip, vertices, lowest index, the sector
    masks of its vertices, its vertex indices in the order of less, the indices of its extreme vertices for box).
    All but the vertices stay the same when the piece is moved, so they are worked out once here."""
    seen, out = set(), []
    for flip in (0, 1):
        pts = SHAPES[kind]
        if flip:
            pts = [(-xa, -xb, ya, yb) for xa, xb, ya, yb in reversed(pts)]
        for rot in range(8):
            low = 0
            for i in range(len(pts)):
                if less(pts[i], pts[low]):
                    low = i
            shifted = [tuple(c - o for c, o in zip(p, pts[low])) for p in pts]
            key = frozenset(shifted)
            if key not in seen:
                seen.add(key)
                scaled = [tuple(c * scale for c in p) for p in pts]
                rank = [scaled.index(p) for p in ordered(scaled)]
                out.append((rot, flip, scaled, low, vertex_masks(scaled), rank, extremes(scaled)))
            pts = [rotate(p) for p in pts]
    return out


def winding(p, poly):
    total = 0
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        ay, by, py = (a[2], a[3]), (b[2], b[3]), (p[2], p[3])
        a_le = sign(ay[0] - py[0], ay[1] - py[1]) <= 0
        b_le = sign(by[0] - py[0], by[1] - py[1]) <= 0
        if a_le and not b_le and cross(a, b, p) > 0:
            total += 1
        elif b_le and not a_le and cross(a, b, p) < 0:
            total -= 1
    return total


def point_mask(p, polys, masks, interior):
    """The sectors at p covered by the polygons (vertex: its angle; edge: the left half-plane; inside: all if
    interior)."""
    cover = 0
    for poly, pmasks in zip(polys, masks):
        n = len(poly)
        hit = False
        for i in range(n):
            if poly[i] == p:
                cover |= pmasks[i]
                hit = True
                break
        if hit:
            continue
        for i in range(n):
            a, b = poly[i], poly[(i + 1) % n]
            if strictly_between(p, a, b):
                cover |= sectors(direction(a, b), (direction(a, b) + 4) % 8)
                hit = True
                break
        if not hit and interior and winding(p, poly):
            cover |= 255
    return cover


def extremes(points):
    """The indices of the points with the least x, the greatest x, the least y and the greatest y."""
    found = [0, 0, 0, 0]
    for i, p in enumerate(points):
        for slot, (c, want) in enumerate(((0, -1), (0, 1), (2, -1), (2, 1))):
            q = points[found[slot]]
            if sign(p[c] - q[c], p[c + 1] - q[c + 1]) == want:
                found[slot] = i
    return found


def box(points, ends):
    """(min x, max x, min y, max y) of points, each a pair (a, b) of a + b√2, from the indices ends of extremes."""
    lo_x, hi_x, lo_y, hi_y = (points[i] for i in ends)
    return (lo_x[0], lo_x[1]), (hi_x[0], hi_x[1]), (lo_y[2], lo_y[3]), (hi_y[2], hi_y[3])


def in_box(p, bounds):
    """p lies in the closed box bounds."""
    return (
        sign(p[0] - bounds[0][0], p[1] - bounds[0][1]) >= 0
        and sign(bounds[1][0] - p[0], bounds[1][1] - p[1]) >= 0
        and sign(p[2] - bounds[2][0], p[3] - bounds[2][1]) >= 0
        and sign(bounds[3][0] - p[2], bounds[3][1] - p[3]) >= 0
    )


def apart(a, b):
    """Boxes that share no interior point."""
    return (
        sign(a[1][0] - b[0][0], a[1][1] - b[0][1]) <= 0
        or sign(b[1][0] - a[0][0], b[1][1] - a[0][1]) <= 0
        or sign(a[3][0] - b[2][0], a[3][1] - b[2][1]) <= 0
        or sign(b[3][0] - a[2][0], b[3][1] - a[2][1]) <= 0
    )


def overlap(a, b):
    """Interiors of two convex counterclockwise polygons meet."""
    for first, second in ((a, b), (b, a)):
        n = len(first)
        for i in range(n):
            p, q = first[i], first[(i + 1) % n]
            if all(cross(p, q, r) <= 0 for r in second):
                return False
    return True


def enters(a, b, poly):
    """Segment ab meets the interior of a convex counterclockwise polygon."""
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        if cross(p, q, a) <= 0 and cross(p, q, b) <= 0:
            return False
    sides = {cross(a, b, r) for r in poly}
    return not (sides <= {0, 1} or sides <= {0, -1})


class Solver:
    def __init__(self, figure, scale):
        self.figure = figure
        self.fmasks = [vertex_masks(poly) for poly in figure]
        self.fedges = [(poly[i], poly[(i + 1) % len(poly)]) for poly in figure for i in range(len(poly))]
        self.fboxes = [box(edge, extremes(edge)) for edge in self.fedges]
        self.kinds = {kind: orientations(kind, scale) for kind in SHAPES}
        self.left = {kind: len(NAMES[kind]) for kind in SHAPES}
        self.placed = []  # (kind, rot, flip, vertices, masks, translation, box)
        self.inside = {}  # point -> the sectors of the figure there, computed once
        self.order = ordered({p for poly in figure for p in poly})

    def figure_mask(self, p):
        if p not in self.inside:
            self.inside[p] = point_mask(p, self.figure, self.fmasks, True)
        return self.inside[p]

    def lowest_free(self, order):
        """The index in order of its first point with a free sector, and those sectors. Pieces only ever add
        cover, and a new piece's vertices all come at or after the point it was laid at, so the caller passes
        only the points from there on (with the new vertices merged in) rather than sorting all again."""
        for at, p in enumerate(order):
            free = self.figure_mask(p)
            if free:
                near = [piece for piece in self.placed if in_box(p, piece[6])]
                if near:
                    free &= ~point_mask(p, [piece[3] for piece in near], [piece[4] for piece in near], False)
            if free:
                return at, free
        return None, 0

    def fits(self, verts, bounds):
        for piece in self.placed:
            if not apart(bounds, piece[6]) and overlap(verts, piece[3]):
                return False
        return not any(
            not apart(bounds, edge_box) and enters(a, b, verts) for (a, b), edge_box in zip(self.fedges, self.fboxes)
        )

    def search(self, order):
        """Lay the remaining pieces, order being the points that may still have free sectors, sorted by less."""
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
            for rot, flip, shape, low, masks, rank, ends in self.kinds[kind]:
                mask = masks[low]
                if mask & ~free or not (mask >> first) & 1 or (mask >> ((first - 1) % 8)) & 1:
                    continue
                t = tuple(vc - sc for vc, sc in zip(v, shape[low]))
                verts = [tuple(c + d for c, d in zip(p, t)) for p in shape]
                bounds = box(verts, ends)
                if not self.fits(verts, bounds):
                    continue
                self.placed.append((kind, rot, flip, verts, masks, t, bounds))
                self.left[kind] -= 1
                if self.search(merge(rest, [verts[i] for i in rank])):
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
    for kind, rot, flip, _, _, t, _ in solver.placed:
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
