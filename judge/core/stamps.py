"""What this machine has already hashed: case files by size and modification time, and the sources data was made from.

Hashing 80 MB of test data on every command would cost more than judging a
small submission, so a file is hashed again only when its size or
modification time changed since it was last found good. The record is kept
in the judge's cache, keyed by the cases folder, never in the repository:
lose it and files are only hashed again.
"""
from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

from ..atomic import atomic_write
from ..model import CaseSpec, FromFile, Problem
from ..run import cache_root


def produced(problem: Problem) -> list[CaseSpec]:
    """The cases this judge makes from the spec (a Kattis package's data is given, not produced)."""
    return [case for case in problem.cases if case.given is None]


def sha256_file(path: Path) -> str:
    import hashlib  # only when a file is really hashed: a warm command finds every digest in its Stamps

    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def library_files(problem: Problem) -> list[Path]:
    return sorted(f for folder in problem.files.libraries if folder.is_dir() for f in folder.rglob("*") if f.is_file() and "__pycache__" not in f.parts)


def source_files(problem: Problem) -> dict[str, Path]:
    """What produced data is made from, by path relative to the package: generator, reference (answers), hand-written
    inputs, and the library files both may use (``../_lib/...``: the manifest is committed, so never an absolute path)."""
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


class Stamps:
    """sha256 of files by (size, modification time), and the sources the data was last made from, for one cases folder.

    Kept in the judge's cache, keyed by the folder's path: a record of what
    this machine has already hashed, never needed for correctness (lose it and
    files are hashed again).
    """

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.folder = str(problem.cases_dir.resolve())
        self.path = cache_root() / "testdata" / f"{zlib.crc32(self.folder.encode()):08x}.json"
        try:
            data = json.loads(self.path.read_text())
            if data["folder"] != self.folder:  # another folder whose name has the same checksum: start afresh
                raise KeyError("folder")
            self.files: dict[str, list] = dict(data["files"])
            self.baseline: dict[str, str] = dict(data["baseline"])
        except (OSError, ValueError, KeyError, TypeError):
            self.files, self.baseline = {}, {}

    def sha256(self, path: Path) -> str | None:
        """The file's sha256 (None when it is absent), hashed again only when its size or mtime changed."""
        try:
            info = path.stat()
        except OSError:
            return None
        known = self.files.get(str(path))
        if known and known[:2] == [info.st_size, info.st_mtime_ns]:
            return known[2]
        digest = sha256_file(path)
        self.files[str(path)] = [info.st_size, info.st_mtime_ns, digest]
        return digest

    def sources(self) -> dict[str, str]:
        return {name: digest for name, path in source_files(self.problem).items() if (digest := self.sha256(path)) is not None}

    def save(self, baseline: dict[str, str] | None = None) -> None:
        if baseline is not None:
            self.baseline = baseline
        try:
            atomic_write(self.path, json.dumps({"folder": self.folder, "files": self.files, "baseline": self.baseline}))
        except OSError:
            pass  # a read-only cache costs hashing again next time, nothing else
