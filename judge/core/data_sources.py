"""What a problem's produced test data is made from (generator, reference, hand-written inputs, shared libraries), and
the digests of those files and of the cases, from the cache where their files are unchanged.

The manifest records these digests so that a changed source is noticed
and the cases made from it produced again (``testdata.stale_cases``).
Hashing 80 MB of data on every command would cost more than judging, so
the digests come from ``judge.filecache.FileDigests``, keyed by the cases
folder: a file is hashed again only when its signature changed.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..filecache import FileDigests
from ..model import CaseSpec, FromFile, Problem


def produced(problem: Problem) -> list[CaseSpec]:
    """The cases this judge makes from the spec (a Kattis package's data is given, not produced)."""
    return [case for case in problem.cases if case.given is None]


def library_files(problem: Problem) -> list[Path]:
    return sorted(
        f
        for folder in problem.files.libraries
        if folder.is_dir()
        for f in folder.rglob("*")
        if f.is_file() and "__pycache__" not in f.parts
    )


def source_files(problem: Problem) -> dict[str, Path]:
    """What produced data is made from, by path relative to the package: generator, reference (answers), hand-written
    inputs, and the library files both may use (``../_lib/...``: the manifest is committed, so never an absolute
    path)."""
    files = [problem.solutions[0], *([problem.generator] if problem.generator else [])]
    files += [case.origin.path for case in produced(problem) if isinstance(case.origin, FromFile)]
    out = {}
    for path in files:
        try:
            out[path.relative_to(problem.root).as_posix()] = path
        except ValueError:
            out[path.as_posix()] = path
    for path in library_files(problem):
        out[Path(os.path.relpath(path, problem.root)).as_posix()] = path
    return out


def case_digests(problem: Problem) -> FileDigests:
    """The digests this machine already has for the problem's cases folder and its sources."""
    return FileDigests(str(problem.cases_dir.resolve()))


def source_digests(problem: Problem, digests: FileDigests) -> dict[str, str]:
    """The sha256 of every source the data is made from that exists, by its name in ``source_files``."""
    return {
        name: digest for name, path in source_files(problem).items() if (digest := digests.sha256(path)) is not None
    }
