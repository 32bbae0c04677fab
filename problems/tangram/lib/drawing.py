"""SVG pictures of a figure and pieces laid on it: the statement's samples and the checker's picture of a wrong answer.

Exact values are rounded to decimals by `qgeom.approx` (integer arithmetic),
so a picture never needs floating point. The picture holds only numbers and
the fixed piece names: nothing a submission wrote is copied into it.
"""

from __future__ import annotations

from fractions import Fraction

from qgeom import KIND_OF, Num, Point, approx

_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;", ord("'"): "&#x27;"}


def escape(text: str) -> str:
    """html.escape(text) (quotes too), written out: importing html costs the checker, which starts once per case and
    draws only for a wrong answer, more than the rest of its start-up."""
    return text.translate(_ESCAPES)


COLOURS = {"L": "#4e79a7", "M": "#f28e2b", "S": "#59a14f", "Q": "#edc948", "P": "#b07aa1"}
PIXELS = 360


def _xy(p: Point) -> str:
    return f"{approx(p[0])},{approx(-p[1])}"


def _path(polygon: list[Point]) -> str:
    return "M" + " L".join(_xy(p) for p in polygon) + " Z"


def _centre(polygon: list[Point]) -> Point:
    share = Fraction(1, len(polygon))
    x, y = Num(), Num()
    for px, py in polygon:
        x, y = x + px.scale(share), y + py.scale(share)
    return x, y


def picture(
    figure: list[list[Point]],
    pieces: list[tuple[str, list[Point]]],
    title: str = "",
    overlaps: list[list[Point]] = (),
    bad: list[int] = (),
    spots: list[Point] = (),
    lines: list[tuple[Point, Point]] = (),
) -> str:
    """The figure (grey; where no piece lies it shows through), the pieces (coloured, named), and in red:
    overlaps, the outlines of the pieces at fault (indices into pieces), points and figure edges to look at."""
    points = [p for polygon in figure for p in polygon] + [p for _, polygon in pieces for p in polygon]
    xs = sorted(p[0] for p in points)
    ys = sorted(p[1] for p in points)
    left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
    width = max(Fraction(approx(right - left)), Fraction(1))
    height = max(Fraction(approx(top - bottom)), Fraction(1))
    margin = Fraction(1, 2)
    box = f"{approx(left)} {approx(-top)}"
    size = f"{approx(Num(width + 2 * margin))} {approx(Num(height + 2 * margin))}"
    shown_height = PIXELS * (height + 2 * margin) / (width + 2 * margin)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PIXELS}" height="{round(shown_height)}" '
        f'viewBox="{_shift(box, margin)} {size}" font-family="sans-serif">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    stroke = approx(Num(Fraction(max(width, height)) / 150))
    out.append(f'<g stroke-linejoin="round" stroke-width="{stroke}">')
    for polygon in figure:
        out.append(f'<path d="{_path(polygon)}" fill="#ffcdd2" stroke="#555"/>')
    for name, polygon in pieces:
        colour = COLOURS[KIND_OF[name].letter]
        out.append(f'<path d="{_path(polygon)}" fill="{colour}" fill-opacity="0.8" stroke="#222"/>')
    for polygon in overlaps:
        out.append(f'<path d="{_path(polygon)}" fill="#d50000" stroke="#d50000"/>')
    for index in bad:
        out.append(
            f'<path d="{_path(pieces[index][1])}" fill="none" stroke="#d50000" '
            f'stroke-width="{approx(Num(3 * Fraction(stroke)))}"/>'
        )
    for a, b in lines:
        out.append(
            f'<path d="M{_xy(a)} L{_xy(b)}" stroke="#d50000" stroke-dasharray="{stroke} {stroke}" '
            f'stroke-width="{approx(Num(3 * Fraction(stroke)))}"/>'
        )
    for p in spots:
        out.append(
            f'<circle cx="{approx(p[0])}" cy="{approx(-p[1])}" r="{approx(Num(8 * Fraction(stroke)))}" '
            'fill="none" stroke="#d50000"/>'
        )
    out.append("</g>")
    font = approx(Num(Fraction(max(width, height)) / 14))
    for name, polygon in pieces:
        x, y = _centre(polygon)
        out.append(
            f'<text x="{approx(x)}" y="{approx(-y)}" font-size="{font}" '
            f'text-anchor="middle" dominant-baseline="middle">{name}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _shift(box: str, margin: Fraction) -> str:
    """The view box's corner moved out by the margin."""
    x, y = box.split()
    return f"{approx(Num(Fraction(x) - margin))} {approx(Num(Fraction(y) - margin))}"
