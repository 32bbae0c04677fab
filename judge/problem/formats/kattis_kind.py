"""A Kattis package's problem type (``type``, or legacy ``validation``) as the model's ``Kind``.

``type`` is a string of one or more words, or a list of them; legacy
packages say ``validation: custom interactive`` or ``custom score``. An
unknown word or an incompatible pair is refused in one line naming the file
and line, never judged as a plain batch problem.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...errors import SpecError
from ...model import SPEC_NAME, Kind

TYPES = ("pass-fail", "scoring", "multi-pass", "interactive", "submit-answer")
INCOMPATIBLE = (("pass-fail", "scoring"), ("multi-pass", "submit-answer"), ("interactive", "submit-answer"))
VALIDATION_WORDS = {"default", "custom", "interactive", "score"}


def key_line(root: Path, key: str) -> int | None:
    """The line of a top-level key of problem.yaml, for messages (the fast YAML loader keeps no positions)."""
    try:
        lines = (root / SPEC_NAME).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    pattern = re.compile(rf"{re.escape(key)}\s*:")
    return next((n for n, line in enumerate(lines, 1) if pattern.match(line)), None)


def type_words(meta: dict[str, Any], root: Path, shown: str) -> set[str]:
    """Every word ``type`` and legacy ``validation`` give, checked against the spec's table."""
    where = f"{shown}/{SPEC_NAME}"
    raw = meta.get("type", "")  # pass-fail is implied, so a legacy "validation: custom score" alone is no conflict
    if raw == "":
        words: list[str] = []
    elif isinstance(raw, str):
        words = raw.split()
    elif isinstance(raw, list) and raw and all(isinstance(w, str) for w in raw):
        words = raw
    else:
        raise SpecError(
            where, key_line(root, "type"), f"type must be a string or a non-empty list of strings, got {raw!r}"
        )
    for word in words:
        if word not in TYPES:
            raise SpecError(where, key_line(root, "type"), f"unknown problem type '{word}' (known: {', '.join(TYPES)})")
    if len(set(words)) != len(words):
        raise SpecError(where, key_line(root, "type"), f"type lists a value twice: {' '.join(words)}")
    found = set(words)
    validation = str(meta.get("validation", "default")).split()
    unknown = [w for w in validation if w not in VALIDATION_WORDS]
    if unknown or ("custom" not in validation and len(validation) > 1):
        raise SpecError(
            where,
            key_line(root, "validation"),
            f"validation must be 'default' or 'custom' with 'interactive' and/or 'score', got {' '.join(validation)!r}",
        )
    if "interactive" in validation:
        found.add("interactive")
    if "score" in validation:
        found.add("scoring")
    for a, b in INCOMPATIBLE:
        if a in found and b in found:
            raise SpecError(where, key_line(root, "type"), f"problem types '{a}' and '{b}' cannot be combined")
    return found


def kind_of(words: set[str], meta: dict[str, Any], root: Path, shown: str) -> Kind:
    """The model's Kind; a multi-pass problem runs up to ``limits.validation_passes`` (default 2) passes."""
    passes = 1
    if "multi-pass" in words:
        passes = (
            (meta.get("limits") or {}).get("validation_passes", 2) if isinstance(meta.get("limits") or {}, dict) else 2
        )
        if not isinstance(passes, int) or isinstance(passes, bool) or passes < 2:
            raise SpecError(
                f"{shown}/{SPEC_NAME}",
                key_line(root, "limits"),
                f"limits.validation_passes must be an integer >= 2, got {passes!r}",
            )
    return Kind(
        interactive="interactive" in words,
        passes=passes,
        submit_answer="submit-answer" in words,
        scoring="scoring" in words,
    )
