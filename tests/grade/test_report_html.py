"""Pieces of report.html a teacher reads at a glance: the score histogram's labels and a group's cell in the matrix."""

from __future__ import annotations

import re

from judge.grade.report_html import _subtotal, histogram

CHAR_WIDTH = 0.62  # of the font size: a generous average for digits and '%' in a sans-serif font


def test_histogram_labels_do_not_run_together() -> None:
    svg = histogram([10.0, 55.0, 95.0, 100.0], 100.0)
    labels = [
        (float(x), int(size), text)
        for x, size, text in re.findall(
            r'<text x="([\d.]+)" y="[\d.]+" font-size="(\d+)" text-anchor="middle">([^<]*%)</text>', svg
        )
    ]
    assert [text for _, _, text in labels] == [f"{10 * i}%" for i in range(11)]
    for (x1, size1, text1), (x2, size2, text2) in zip(labels, labels[1:]):
        right, left = x1 + len(text1) * size1 * CHAR_WIDTH / 2, x2 - len(text2) * size2 * CHAR_WIDTH / 2
        assert right < left, f"{text1!r} and {text2!r} overlap"


def test_a_group_worth_no_points_shows_cases_passed_not_a_green_zero() -> None:
    sample = {"name": "sample", "points": 0, "cases": ["s1", "s2"]}
    passed = _subtotal(sample, {"earned": 0.0, "passed": 2, "total": 2})
    failed = _subtotal(sample, {"earned": 0.0, "passed": 1, "total": 2})
    missing = _subtotal(sample, None)
    assert [cell[2] for cell in (passed, failed, missing)] == ["2/2", "1/2", "0/2"]
    assert [cell[0] for cell in (passed, failed, missing)] == [2, 1, 0]  # sorted by cases passed
    assert passed[1] != failed[1] != missing[1]  # colours differ


def test_a_scored_group_shows_the_points_earned() -> None:
    group = {"name": "large", "points": 60, "cases": ["a", "b"]}
    assert _subtotal(group, {"earned": 60.0, "passed": 2, "total": 2})[::2] == (60.0, "60")
    assert _subtotal(group, None)[::2] == (0.0, "0")


def test_histogram_labels_fit_inside_the_picture() -> None:
    """The last edge's "100%" is centred on the last bar's right edge: a picture ending there showed "10(" of it."""
    svg = histogram([10.0, 100.0], 100.0)
    width = float(re.search(r'<svg [^>]*width="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    for x, size, text in re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="(\d+)"[^>]*>([^<]*)</text>', svg):
        half = len(text) * int(size) * CHAR_WIDTH / 2
        assert 0 <= float(x) - half and float(x) + half <= width, f"{text!r} at {x} is cut at the picture's edge"
