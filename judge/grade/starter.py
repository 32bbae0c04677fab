"""Code the teacher handed out (``grade --starter FILE...``, or a roster's ``starter`` column): it never counts as
similarity.

Every K-gram of a handed-out file is taken out of a student's fingerprints
before the index is built, so a template every student filled in, or a
helper a section was given, neither makes a pair nor inflates a share. A
file is lexed as the language its name says (C-like when none: a header).
The k-gram sets are read once per file, however many students share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from ..lang import by_extension
from .fingerprints import C_LIKE, SYNTAX, every_kgram
from .roster import Roster

MAX_STARTER_BYTES = 1 << 20


@dataclass(frozen=True)
class Handout:
    """The handed-out K-grams: everyone's (``--starter``), and each student's own (the roster)."""

    everyone: frozenset[int] = frozenset()
    own: dict[str, tuple[frozenset[int], ...]] = field(default_factory=dict)  # shared by reference: one set per file
    files: tuple[str, ...] = ()

    def of(self, student: str) -> tuple[frozenset[int], ...]:
        return (self.everyone, *self.own.get(student, ()))


def _kgrams(path: Path, where: str) -> set[int]:
    try:
        if not path.is_file():
            raise UsageError(f"{where}: {path}: no such starter file")
        if path.stat().st_size > MAX_STARTER_BYTES:
            raise UsageError(f"{where}: {path}: over 1 MiB, not a starter file")
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        raise UsageError(f"{where}: {path}: cannot read the starter file ({exc.strerror or exc})") from None
    lang = by_extension(path)
    return every_kgram(text, SYNTAX.get(lang.name, C_LIKE) if lang is not None else C_LIKE)


def load_handout(paths: Sequence[Path], roster: Roster) -> Handout:
    """Read ``--starter`` files and the roster's per-student ones; a missing or unreadable one is a usage error."""
    everyone: set[int] = set()
    for path in paths:
        everyone |= _kgrams(path, "--starter")
    common = frozenset(everyone)
    read: dict[Path, frozenset[int]] = {}
    own: dict[str, tuple[frozenset[int], ...]] = {}
    for sid, line in roster.lines.items():
        for path in line.starter:
            if path not in read:
                read[path] = frozenset(_kgrams(path, f"roster: {sid}"))
        if line.starter:
            own[sid] = tuple(read[path] for path in line.starter)
    files = tuple(str(p.resolve()) for p in paths) + tuple(str(p.resolve()) for p in sorted(read))
    return Handout(common, own, files)
