"""Similarity hints: pairs of submissions that are identical or nearly so once normalised, for a teacher to look at.

Near-linear in the class, so 5,000 students cost seconds, not hours: each
source is fingerprinted once (``fingerprints.py``: winnowing, as MOSS does)
into an inverted index, fingerprint → the submissions holding it. Only
submissions sharing a fingerprint are candidates, and only candidates whose
shared fingerprints could reach the threshold are compared in detail. Memory
is the index (two small arrays per submission), never the pairs: the best
``MAX_PAIRS`` are kept and the rest only counted.

What never counts: code the teacher handed out (``starter.py``: removed
from a student's fingerprints before anything else), and any fingerprint
found in more than ``common_limit(n)`` submissions of a language. That is
shared material (a template, the obvious loop every solution has), not a
sign that two students copied; as MOSS's ``-m`` it is dropped. The limit is
MOSS's default of 10, or 1% of a large class, so that a passage shared by a
small group of copies is still seen while the work stays bounded (a
fingerprint's postings are at most the limit long).

A pair's score is the larger of its two shares: the part of each source's
remaining fingerprinted text covered by fingerprints the other has. A hint
is not a verdict: solutions to one problem share code by nature, so only
pairs over ``THRESHOLD`` are shown, with the matching regions as line ranges
and text. Identical files score 1 unless they are nothing but handed-out code.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..lang import by_extension
from ..text import safe_text
from .discovery import Student
from .fingerprints import C_LIKE, SYNTAX, WINDOW, K, Prints, covered, fingerprint, normalise, spans
from .starter import Handout

THRESHOLD = 0.8  # the larger of the two shares; distinct solutions of the bundled problems share about half
MAX_PAIRS = 200
MAX_REGIONS, MAX_LINES = 8, 40
COMMON_MIN = 10  # MOSS's default for -m: a passage in more submissions than this is shared material
COMMON_SHARE = 0.01  # ... or in more than 1% of a large class
TOOL = f"tilejudge winnowing ({K}-grams, window {WINDOW})"


def common_limit(submissions: int) -> int:
    """The most submissions of one language a fingerprint may be in and still count."""
    return max(COMMON_MIN, math.ceil(COMMON_SHARE * submissions))


@dataclass
class _Doc:
    student: str
    source: Path
    language: str
    digest: str
    prints: Prints
    own: int = 0  # normalised characters fingerprinted after handed-out code is taken out
    cover: int = 0  # ... and after common fingerprints are too: a share's denominator
    repeats: int = 0  # fingerprints beyond the first of each hash: bounds how much a few shared hashes can cover


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return None


def _load(students: Sequence[Student], handout: Handout) -> dict[str, list[_Doc]]:
    """Every readable source of a known language, fingerprinted, by language (pairs are of one language)."""
    docs: dict[str, list[_Doc]] = {}
    for student in students:
        lang = by_extension(student.source) if student.source is not None else None
        text = _read(student.source) if student.source is not None and lang is not None else None
        if student.source is None or lang is None or text is None:
            continue
        prints = fingerprint(text, SYNTAX.get(lang.name, C_LIKE), handout.of(student.id))
        doc = _Doc(student.id, student.source, lang.name, student.digest, prints, covered(prints.positions))
        docs.setdefault(lang.name, []).append(doc)
    return docs


class _Best:
    """The best MAX_PAIRS pairs by (score desc, a, b), the others only counted: memory bounded whatever the class
    does."""

    def __init__(self) -> None:
        self.kept: list[tuple[float, str, str, dict[str, Any]]] = []
        self.total = 0

    def add(self, score: float, a: str, b: str, pair: dict[str, Any]) -> None:
        self.total += 1
        self.kept.append((-score, a, b, pair))
        if len(self.kept) >= 4 * MAX_PAIRS:
            self.trim()

    def trim(self) -> None:
        self.kept.sort(key=lambda t: t[:3])
        del self.kept[MAX_PAIRS:]


def _index(docs: list[_Doc]) -> tuple[dict[int, list[int]], int]:
    """Fingerprint → the documents holding it (ascending), without the common ones; and how many were dropped."""
    index: dict[int, list[int]] = {}
    for number, doc in enumerate(docs):
        for h in set(doc.prints.hashes):
            posting = index.get(h)
            if posting is None:
                index[h] = [number]
            else:
                posting.append(number)
    limit = common_limit(len(docs))
    common = [h for h, posting in index.items() if len(posting) > limit]
    for h in common:
        del index[h]
    for doc in docs:
        kept = [(h, p) for h, p in zip(doc.prints.hashes, doc.prints.positions) if h in index]
        doc.cover = covered(p for _, p in kept)
        doc.repeats = len(kept) - len({h for h, _ in kept})
    return index, len(common)


def _ordered(a: _Doc, b: _Doc, shares: tuple[float, float]) -> tuple[_Doc, _Doc, tuple[float, float]]:
    return (a, b, shares) if a.student <= b.student else (b, a, (shares[1], shares[0]))


def _identical(docs: list[_Doc], best: _Best) -> None:
    """Students who handed in the same file: a pair each, unless the file is nothing but handed-out code."""
    groups: dict[str, list[_Doc]] = {}
    for doc in docs:
        if doc.own > 0:
            groups.setdefault(doc.digest, []).append(doc)
    for group in groups.values():
        group.sort(key=lambda d: d.student)
        count = len(group) * (len(group) - 1) // 2
        shown = 0
        for i, a in enumerate(
            group
        ):  # only the first MAX_PAIRS in (a, b) order can be among the best: the rest are counted
            for b in group[i + 1 :]:
                if shown == MAX_PAIRS:
                    break
                best.add(
                    1.0,
                    a.student,
                    b.student,
                    {"a": a.student, "b": b.student, "score": 1.0, "shares": [1.0, 1.0], "identical": True},
                )
                shown += 1
        best.total += count - shown


def _share(doc: _Doc, shared: set[int]) -> float:
    return covered(p for h, p in zip(doc.prints.hashes, doc.prints.positions) if h in shared) / doc.cover


def _candidates(docs: list[_Doc], index: dict[int, list[int]], threshold: float, best: _Best) -> None:
    """Each document against the later ones it shares a fingerprint with; a pair whose shared hashes cannot cover
    ``threshold`` of either side (each covers at most K characters) is not compared in detail."""
    for i, doc in enumerate(docs):
        shared: dict[int, list[int]] = {}
        for h in set(doc.prints.hashes):
            posting = index.get(h)
            if posting is None:
                continue
            for j in posting[bisect.bisect_right(posting, i) :]:
                shared.setdefault(j, []).append(h)
        for j, hashes in shared.items():
            other = docs[j]
            if other.digest == doc.digest:
                continue
            if (
                K * (len(hashes) + doc.repeats) < threshold * doc.cover
                and K * (len(hashes) + other.repeats) < threshold * other.cover
            ):
                continue
            matched = set(hashes)
            shares = (_share(doc, matched), _share(other, matched))
            if max(shares) >= threshold:
                a, b, (sa, sb) = _ordered(doc, other, shares)
                best.add(
                    round(max(shares), 3),
                    a.student,
                    b.student,
                    {
                        "a": a.student,
                        "b": b.student,
                        "score": round(max(shares), 3),
                        "shares": [round(sa, 3), round(sb, 3)],
                        "identical": False,
                        "docs": (a, b, matched),
                    },
                )


def _regions(doc: _Doc, shared: set[int]) -> list[dict[str, Any]]:
    """One side's matched passages as line ranges with their text (bounded)."""
    text = _read(doc.source) or ""
    norm = normalise(text, SYNTAX.get(doc.language, C_LIKE))
    matched = spans(p for h, p in zip(doc.prints.hashes, doc.prints.positions) if h in shared)
    lines = text.splitlines()
    out: list[dict[str, Any]] = []
    shown = 0
    for start, end in matched[:MAX_REGIONS]:
        begin, finish = norm.starts[start], norm.ends[min(end, len(norm.ends)) - 1]
        first, last = text.count("\n", 0, begin) + 1, text.count("\n", 0, max(begin, finish - 1)) + 1
        part = lines[first - 1 : last][: max(0, MAX_LINES - shown)]
        shown += len(part)
        out.append({"lines": [first, last], "text": safe_text("\n".join(part))})
    return out


def similar_pairs(
    students: Sequence[Student], threshold: float = THRESHOLD, handout: Handout = Handout()
) -> dict[str, Any]:
    """Pairs of one language scoring at least ``threshold``, best first (at most MAX_PAIRS; ``more`` counts the
    rest)."""
    best = _Best()
    dropped, limits = 0, {}
    for language, docs in sorted(_load(students, handout).items()):
        index, common = _index(docs)
        dropped += common
        limits[language] = common_limit(len(docs))
        _identical(docs, best)
        _candidates(docs, index, threshold, best)
        del index
    best.trim()
    pairs = []
    for _, _, _, pair in best.kept:
        docs = pair.pop("docs", None)
        if docs is None:
            pair["regions"] = [[], []]
        else:
            a, b, shared = docs
            pair["regions"] = [_regions(a, shared), _regions(b, shared)]
        pairs.append(pair)
    return {
        "tool": TOOL,
        "threshold": threshold,
        "error": "",
        "pairs": pairs,
        "more": best.total - len(pairs),
        "common_limit": limits,
        "common_dropped": dropped,
        "handed_out": list(handout.files),
    }
