"""Similarity hints: pairs of submissions that are identical or nearly so once normalised, for a teacher to look at.

The fingerprinting is copydetect's (winnowing, as MOSS does): each source is
tokenised by Pygments, identifiers, strings, comments and whitespace are
normalised away (renaming variables or re-indenting changes nothing), and
the winnowed k-gram hashes of two sources are compared; a pair's score is
the share of each source covered by the other. copydetect is an optional
extra (``pip install 'tilejudge[similarity]'``) and is imported only here,
only when a grading computes hints. A hint is not a verdict: solutions to
one problem share code by nature, so only pairs over ``THRESHOLD`` are
shown, with the matching regions as line ranges and text.
"""
from __future__ import annotations

import io
import itertools
import logging
from dataclasses import dataclass
from typing import Any, Sequence

from ..lang import by_extension
from ..text import safe_text
from .discovery import Student

THRESHOLD = 0.8  # the larger of the two shares; distinct solutions of the bundled problems share about half
NOISE = 25  # copydetect's noise threshold: matches shorter than this many normalised characters are ignored
MAX_PAIRS = 200
MAX_REGIONS, MAX_LINES = 8, 40
# Our language names to Pygments lexers; a language not named here is lexed by its file name.
LEXERS = {"c": "c", "cpp": "cpp", "python3": "python", "java": "java"}


@dataclass(frozen=True)
class _Source:
    student: str
    name: str  # the file's name: Pygments guesses a language not in LEXERS from it
    language: str
    text: str
    digest: str


def _load(students: Sequence[Student]) -> list[_Source]:
    sources = []
    for student in students:
        lang = by_extension(student.source) if student.source is not None else None
        if student.source is None or lang is None:
            continue
        try:
            text = student.source.read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        sources.append(_Source(student.id, student.source.name, lang.name, text, student.digest))
    return sources


def _regions(text: str, slices: Any) -> list[dict[str, Any]]:
    """Matched character ranges of one source as line ranges with their text (bounded)."""
    out: list[dict[str, Any]] = []
    shown = 0
    for start, end in sorted(zip(slices[0].tolist(), slices[1].tolist()))[:MAX_REGIONS]:
        first = text.count("\n", 0, int(start)) + 1
        last = text.count("\n", 0, max(int(start), int(end) - 1)) + 1
        lines = text.splitlines()[first - 1:last][: max(0, MAX_LINES - shown)]
        shown += len(lines)
        out.append({"lines": [first, last], "text": safe_text("\n".join(lines))})
    return out


def similar_pairs(students: Sequence[Student], threshold: float = THRESHOLD) -> dict[str, Any]:
    """Pairs of one language scoring at least ``threshold``, best first; ``error`` says why there are none computed."""
    try:
        from importlib.metadata import version

        from copydetect import CodeFingerprint, compare_files
    except ImportError:
        return {"tool": "", "error": "similarity hints need copydetect: pip install 'tilejudge[similarity]'", "pairs": []}
    sources = _load(students)
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)  # copydetect logs a warning for every file it cannot tokenise
    try:
        prints = {}
        for s in sources:
            try:
                prints[s.student] = CodeFingerprint(s.name, NOISE, 1, language=LEXERS.get(s.language), fp=io.StringIO(s.text))
            except Exception:  # a third-party tokeniser on untrusted text: that source gets no hints, the grading goes on
                continue
        pairs = []
        for a, b in itertools.combinations([s for s in sources if s.student in prints], 2):
            if a.language != b.language:
                continue
            if a.digest == b.digest:
                pairs.append({"a": a.student, "b": b.student, "score": 1.0, "shares": [1.0, 1.0], "identical": True, "regions": [[], []]})
                continue
            _, shares, slices = compare_files(prints[a.student], prints[b.student])
            shares = [float(x) for x in shares]
            if max(shares) >= threshold:
                regions = [_regions(a.text, slices[0]), _regions(b.text, slices[1])]
                pairs.append({"a": a.student, "b": b.student, "score": round(max(shares), 3), "shares": [round(x, 3) for x in shares],
                              "identical": False, "regions": regions})
    finally:
        logging.disable(previous)
    pairs.sort(key=lambda p: (-p["score"], p["a"], p["b"]))
    return {"tool": f"copydetect {version('copydetect')}", "threshold": threshold, "error": "", "pairs": pairs[:MAX_PAIRS],
            "more": max(0, len(pairs) - MAX_PAIRS)}
