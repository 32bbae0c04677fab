"""Problem package formats: each turns a folder on disk into the neutral ``Problem`` model (and export turns it back).

``load`` is the one place that decides which format a folder is in, so no
command needs to know that Kattis packages exist. May import the problem
model, ``judge.check`` (the checker-type registry) and ``judge.lang`` (the
language registry); imported by ``judge.core`` and above.
"""
from __future__ import annotations

from pathlib import Path

from ...errors import UsageError
from ..model import SPEC_NAME, Problem
from .kattis import is_kattis, load_kattis
from .native import load_problem


def resolve_problem(arg: str, problems_root: Path) -> Path:
    """Accept either a bundled problem's name or a path to a problem folder."""
    candidate = Path(arg)
    if (candidate / SPEC_NAME).is_file() or (candidate / "data").is_dir():
        return candidate.resolve()
    bundled = problems_root / arg
    if (bundled / SPEC_NAME).is_file():
        return bundled.resolve()
    if candidate.is_dir():
        raise UsageError(f"{arg}: no {SPEC_NAME} in this folder")
    raise UsageError(f"{arg}: no such problem (not a folder, not a name under {problems_root})")


def load(root: Path, shown: str | None = None) -> Problem:
    """Our own package or a Kattis one, as it is: both become the same Problem model."""
    if is_kattis(root):
        return load_kattis(root, shown)
    return load_problem(root, shown)


__all__ = ["is_kattis", "load", "load_kattis", "load_problem", "resolve_problem"]
