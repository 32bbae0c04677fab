"""Who is in a class folder: every entry becomes a student (judgeable, or INVALID with the reason) or is listed as
ignored.

A class folder is untrusted: it comes from an LMS export or a zip, and may
hold unzip leftovers (``__MACOSX/``, ``._main.cpp``), documents, compiled
programs, symbolic links, named pipes, huge files, odd names, or this
grading's own results folder. A student's folder may be a clone of a whole
project: what tools made in it (installed packages, virtual environments,
caches, build output: ``judge.lang.toolfolders``) is not walked, and each
such folder is listed as ignored with what it is. Nothing here follows a link
or opens anything but a regular file, walks are bounded, and no entry is
dropped without a word: a teacher must be able to account for every student.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import UsageError
from ..lang import LANGUAGES, by_extension, is_binary, tool_folder
from ..text import safe_text

MAX_SOURCE_BYTES = 1 << 20  # far above any hand-written solution; a bigger "source" is a data dump or an accident
MAX_WALK = 2000  # entries looked at inside one student's folder, tool folders not counted (they are not walked)
MAX_DEPTH = 8
LEFTOVERS = frozenset({"__MACOSX", ".DS_Store", "Thumbs.db", "desktop.ini"})  # what zip tools and file managers leave
ARCHIVES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")
RESULTS_MARK = "results.sqlite"  # a folder holding one is a grading's results folder, never a student


@dataclass(frozen=True)
class Student:
    """One student: their source and its hash, or why they cannot be judged."""

    id: str
    source: Path | None
    error: str | None = None
    digest: str = ""
    entry: str = ""  # the name of the entry in the class folder, for messages
    attempt: bool = True  # a source file or a folder; False for a document, a binary or a link beside it
    skipped: tuple[tuple[str, str], ...] = ()  # folders inside theirs that tools made, left out: (path, what it is)


@dataclass
class Discovery:
    students: list[Student] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)  # (entry name, why it is not a student)


def _shown(name: str) -> str:
    return safe_text(name, one_line=True)


def _student_id(name: str) -> str:
    """The id as the file system spells it (reports escape it where they show it); only bytes that are not UTF-8 at all
    (which no JSON or SQLite text can hold) are written as visible escapes."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return _shown(name)
    return name


def leftover(name: str) -> bool:
    """Unzip and file-manager leftovers, editor backups and hidden files: never a submission or a student."""
    return name in LEFTOVERS or name.startswith(".") or name.endswith("~")


def source_extensions(shown: int = 10) -> str:
    """The source extensions the language registry knows, the first few of them: the rest are the registry's to list."""
    known = list(dict.fromkeys(ext for lang in LANGUAGES.values() for ext in lang.extensions))
    return ", ".join(known[:shown]) + (", …" if len(known) > shown else "")


def _hash(path: Path) -> str:
    """The submission's key: extension and bytes (the same formula stored results were keyed by)."""
    digest = hashlib.sha256(path.suffix.lower().encode() + b"\0")
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def _source_student(sid: str, path: Path, info: os.stat_result, entry: str) -> Student:
    if info.st_size > MAX_SOURCE_BYTES:
        return Student(
            sid,
            None,
            f"{_shown(path.name)} is {info.st_size / (1 << 20):.1f} MiB, "
            f"over the {MAX_SOURCE_BYTES >> 20} MiB a source may have",
            entry=entry,
        )
    try:
        with path.open("rb") as handle:
            binary = is_binary(handle.read(1024))
        if binary:
            return Student(sid, None, _binary(path), entry=entry)
        return Student(sid, path, digest=_hash(path), entry=entry)
    except OSError as exc:
        return Student(sid, None, f"cannot read {_shown(path.name)}: {exc.strerror}", entry=entry)


def _not_source(path: Path, info: os.stat_result) -> str:
    """Why a regular file is not a submission, in words a teacher can act on."""
    suffix = path.suffix.lower()
    if suffix in ARCHIVES:
        return f"{_shown(path.name)} is an archive: unpack it into a folder named after the student"
    if info.st_mode & 0o111 or (not suffix and _is_binary(path)):
        return _binary(path)
    what = f"'{_shown(suffix)}'" if suffix else "no extension"
    return f"{_shown(path.name)}: {what} is not a supported language ({source_extensions()})"


def _binary(path: Path) -> str:
    return f"{_shown(path.name)} is a compiled program or binary file, not a source file ({source_extensions()})"


def _is_binary(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return is_binary(f.read(1024))
    except OSError:
        return False


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link (only regular files and folders are graded)"
    if stat.S_ISFIFO(mode):
        return "a named pipe, not a file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a file"
    return "a device or special file, not a file"


@dataclass
class _Walk:
    files: list[Path] = field(default_factory=list)  # regular files, leftovers and tool folders left out
    others: list[str] = field(default_factory=list)  # other names seen (links, pipes)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # tool folders: (path inside the folder, what made it)
    error: str | None = None  # why the walk could not finish


def _is_source(path: Path) -> bool:
    return by_extension(path) is not None


def _walk(folder: Path) -> _Walk:
    """What ``folder`` holds, no link followed, tool folders named and not walked, at most ``MAX_WALK`` entries."""
    found = _Walk()
    files, others = found.files, found.others
    stack = [(folder, 0)]
    seen = 0
    while stack:
        current, depth = stack.pop()
        try:
            with os.scandir(current) as entries:
                listed = sorted(entries, key=lambda e: e.name)
        except OSError as exc:
            found.error = f"cannot read the folder {_shown(current.name)}: {exc.strerror}"
            return found
        for entry in listed:
            seen += 1
            if seen > MAX_WALK:
                found.error = f"more than {MAX_WALK} files in the folder, besides what tools made"
                return found
            relative = str(Path(entry.path).relative_to(folder))
            directory = entry.is_dir(follow_symlinks=False)
            made_by = tool_folder(Path(entry.path), _is_source) if directory else None
            if made_by is not None:
                if entry.name != "__MACOSX":
                    found.skipped.append((relative, made_by))
                continue
            if leftover(entry.name):
                continue
            if directory:
                if depth + 1 < MAX_DEPTH:
                    stack.append((Path(entry.path), depth + 1))
            elif entry.is_file(follow_symlinks=False):
                files.append(Path(entry.path))
            else:
                others.append(relative)
    return found


def _folder_student(path: Path, entry: str) -> Student:
    sid = _student_id(path.name)
    walk = _walk(path)
    skipped = tuple(walk.skipped)
    if walk.error is not None:
        return Student(sid, None, walk.error, entry=entry, skipped=skipped)
    sources = sorted(p for p in walk.files if by_extension(p) is not None)
    if len(sources) == 1:
        return replace(_source_student(sid, sources[0], sources[0].stat(follow_symlinks=False), entry), skipped=skipped)
    if sources:
        names = ", ".join(_shown(str(p.relative_to(path))) for p in sources[:5])
        return Student(sid, None, f"several candidate source files: {names}", entry=entry, skipped=skipped)
    found = sorted([_shown(str(p.relative_to(path))) for p in walk.files] + [_shown(o) for o in walk.others])
    holds = f"; it holds: {', '.join(found[:5])}{', …' if len(found) > 5 else ''}" if found else "; it is empty"
    return Student(
        sid,
        None,
        f"no source file of a supported language ({source_extensions()}) in the folder{holds}",
        entry=entry,
        skipped=skipped,
    )


def _answers_student(path: Path, entry: str) -> Student:
    """A submit-answer problem's student: a folder of answer files, keyed by every file's name and bytes."""
    sid = _student_id(path.name)
    walk = _walk(path)
    files, skipped = walk.files, tuple(walk.skipped)
    if walk.error is not None:
        return Student(sid, None, walk.error, entry=entry, skipped=skipped)
    if not files:
        return Student(sid, None, "no answer file in the folder", entry=entry, skipped=skipped)
    digest = hashlib.sha256()
    for file in sorted(files):
        try:
            digest.update(str(file.relative_to(path)).encode("utf-8", "surrogateescape") + b"\0" + _hash(file).encode())
        except OSError as exc:
            return Student(sid, None, f"cannot read {_shown(file.name)}: {exc.strerror}", entry=entry, skipped=skipped)
    return Student(sid, path, digest=digest.hexdigest(), entry=entry, skipped=skipped)


def _top_entry(path: Path, excluded: set[Path], answers: bool = False) -> Student | str:
    """A student for one entry of the class folder, or the reason it is not one (``answers``: a folder of answer
    files is the submission, for a submit-answer problem)."""
    name = path.name
    if name in LEFTOVERS or name.startswith("._"):
        return "unzip or file-manager leftover"
    if name.startswith("."):
        return "hidden"
    try:
        info = path.lstat()
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if stat.S_ISDIR(info.st_mode):
        if path.resolve() in excluded or (path / RESULTS_MARK).exists():
            return "a results folder of this judge"
        return _answers_student(path, name) if answers else _folder_student(path, name)
    sid = _student_id(path.stem)
    if not stat.S_ISREG(info.st_mode):
        return Student(sid, None, f"{_shown(name)} is {_kind(info.st_mode)}", entry=name, attempt=False)
    if answers:
        return Student(
            sid, None, f"{_shown(name)}: a submit-answer problem takes a folder of answer files per student", entry=name
        )
    if by_extension(path) is None:
        return Student(sid, None, _not_source(path, info), entry=name, attempt=False)
    return _source_student(sid, path, info, name)


def _merge(sid: str, found: list[Student], ignored: list[tuple[str, str]]) -> Student:
    """One student from every entry with their id: the one submission beside other files (a report), or INVALID naming
    every entry when several could be the submission."""
    if len(found) == 1:
        return found[0]
    candidates = [s for s in found if s.attempt] or found
    if len(candidates) == 1:
        for other in found:
            if other is not candidates[0]:
                ignored.append(
                    (other.entry, f"not a source file, beside {candidates[0].entry}, the submission of {sid}")
                )
        return candidates[0]
    names = ", ".join(_shown(s.entry) for s in candidates)
    return Student(sid, None, f"several entries share the id '{sid}': {names}; keep one", entry=candidates[0].entry)


def discover(folder: Path, exclude: Iterable[Path] = (), answers: bool = False) -> Discovery:
    """Every entry of the class folder, as a student or as an ignored entry with the reason.

    ``exclude``: folders that are never students (the results folder when it
    sits inside the class folder). ``answers``: each student hands in a
    folder of answer files (a submit-answer problem), not a program.
    """
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder of submissions")
    excluded = {Path(p).resolve() for p in exclude}
    result = Discovery()
    by_id: dict[str, list[Student]] = {}
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise UsageError(f"{folder}: cannot read the folder: {exc.strerror}") from None
    for path in entries:
        found = _top_entry(path, excluded, answers)
        if isinstance(found, str):
            result.ignored.append((_shown(path.name), found))
        else:
            by_id.setdefault(found.id, []).append(found)
    for sid in sorted(by_id):
        result.students.append(_merge(sid, by_id[sid], result.ignored))
    for student in result.students:
        result.ignored += [
            (_shown(f"{student.entry}/{inside}"), f"{what}, made by a tool: not judged")
            for inside, what in student.skipped
        ]
    return result
