"""Draw the statement's pictures from data: each sample figure, and beside it the reference's placement.

Usage (from the repository root, after `run_judge.py generate tangram`):

    python problems/tangram/pictures.py

writes problems/tangram/pictures/sample-1-K.svg (the figure K alone) and
sample-1-K-solved.svg (with the pieces of the jury's answer, when there is
one), from samples/1.in and cases/tangram/sample/sample-1.ans, so the
pictures can never disagree with the sample.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE / "lib"))
sys.path.append(str(HERE))
from checker import read_figures  # noqa: E402
from drawing import picture  # noqa: E402
from qgeom import parse_number, place  # noqa: E402


def main() -> None:
    figures = read_figures(str(HERE / "samples" / "1.in"))
    answer = (HERE.parents[1] / "cases" / "tangram" / "sample" / "sample-1.ans").read_text(encoding="ascii").split("\n")
    out = HERE / "pictures"
    out.mkdir(exist_ok=True)
    at = 0
    for index, figure in enumerate(figures, start=1):
        (out / f"sample-1-{index}.svg").write_text(picture(figure, [], f"figure {index}"), encoding="utf-8")
        if answer[at] == "impossible":
            at += 1
            continue
        pieces = []
        for line in answer[at : at + 7]:
            name, rotation, flip, x, y = line.split()
            pieces.append((name, place(name, int(rotation), int(flip), parse_number(x), parse_number(y))))
        at += 7
        (out / f"sample-1-{index}-solved.svg").write_text(
            picture(figure, pieces, f"figure {index}, laid out"), encoding="utf-8"
        )


if __name__ == "__main__":
    main()
