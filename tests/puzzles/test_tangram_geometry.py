"""Tangram's sign tests: the double filter of qgeom never decides a sign the exact arithmetic decides otherwise.

`orient`, `<` and `<=` trust a double approximation only when it lies farther from zero than a proven error bound,
and decide exactly otherwise. The values here sit on both sides of that edge: Pell fractions p/q of √2 (p/q - √2 is
about 1/q², down to 1e-80 with the 40 digits a number may have), which only exact arithmetic tells from √2, and
values far apart, which the doubles must decide without fractions.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction

import pytest
from conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "problems" / "tangram" / "lib"))
import qgeom  # noqa: E402
from qgeom import Num, cross, orient  # noqa: E402

pytestmark = pytest.mark.oracle


def pell() -> list[tuple[int, int]]:
    """p, q with p/q the convergents of √2 (p² - 2q² = ±1), up to 40 digits."""
    pairs, p, q = [], 1, 1
    while len(str(p)) <= 40:
        pairs.append((p, q))
        p, q = p + 2 * q, p + q
    return pairs


def values() -> list[Num]:
    """Numbers within 1/q² of ±√2, k√2 and their sums, and plain ones far from those."""
    rng = random.Random(7)
    near = [Num(Fraction(p, q) * k, 0) for p, q in pell()[::6] for k in (1, -3)]
    near += [Num(p, -q) for p, q in pell()[::6]] + [Num(0, k) for k in (1, -1, 3)]
    far = [
        Num(Fraction(rng.randrange(-(10**6), 10**6), rng.randrange(1, 999)), rng.randrange(-50, 50)) for _ in range(10)
    ]
    return near + far + [Num(), Num(0, Fraction(1, 10**40))]


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of exact sign tests (Num.sign calls)."""
    calls = [0]
    exact = Num.sign

    def sign(self: Num) -> int:
        calls[0] += 1
        return exact(self)

    monkeypatch.setattr(qgeom.Num, "sign", sign)
    return calls


def test_comparisons_agree_with_the_exact_sign_and_far_ones_need_no_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    numbers = values()
    calls = counting(monkeypatch)
    for x in numbers:
        for y in numbers:
            truth = (x - y).sign()
            assert (x < y, x <= y) == (truth < 0, truth <= 0), (x, y)
    pairs = len(numbers) ** 2
    assert pairs < calls[0] < 2 * pairs  # the exact test decided some pairs (near ones), not all
    calls[0] = 0
    assert Num(3) < Num(0, 3) and Num(Fraction(10**20, 7)) <= Num(0, 10**20) and not Num(0, -1) < Num(-2)
    assert calls[0] == 0  # far apart: decided by the doubles


def test_orientation_agrees_with_the_exact_cross_product_near_and_far_from_a_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Points on the line y = √2·x and just off it (Pell points), shifted and far from the origin, and random ones."""
    rng = random.Random(11)
    shift = (Num(Fraction(10**9, 3), -5), Num(-7, Fraction(10**6, 11)))
    points = [(Num(), Num()), (Num(0, 1), Num(2)), (Num(1), Num(0, 1)), (Num(10**30), Num(0, 10**30))]
    points += [(Num(q), Num(p)) for p, q in pell()[::12]]
    points += [(x + shift[0], y + shift[1]) for x, y in points]
    points += [(Num(rng.randrange(-99, 99), rng.randrange(-9, 9)), Num(rng.randrange(-99, 99))) for _ in range(6)]
    calls = counting(monkeypatch)
    triples = [(o, a, b) for o in points[:9] for a in points[:9] for b in points[:9]]
    triples += [(o, a, b) for o in points[9:18] for a in points[9:18] for b in points[9:18]]
    triples += [tuple(rng.choice(points) for _ in range(3)) for _ in range(400)]
    for o, a, b in triples:
        assert orient(o, a, b) == cross(o, a, b).sign(), (o, a, b)
    assert len(triples) < calls[0] < 2 * len(triples)  # the truth above is one exact test each; the filter adds some
