"""Zips in a contest package, read as untrusted input: the package itself, a problem's package, a submission's files.

A zip can claim any size and any path, so each is bounded and checked before a byte of it is written: at most
``MAX_ENTRIES`` members and ``MAX_UNPACKED`` bytes in all (counted as they are read, since a zip bomb's declared
sizes lie), every path relative and inside the zip (no ``..``, no absolute path, no drive letter), and nothing but
folders and regular files (a symbolic link could point a later write, or a problem's data, at a judge file). The
same rules as a submitted zip's (``intake.py``), with larger bounds: a contest's test data runs to hundreds of MiB.
"""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path, PurePosixPath

from ..errors import SpecError

MAX_ENTRIES = 50_000  # members of a package zip (a contest of 15 problems with 200 cases each is ~6,000)
MAX_UNPACKED = 4 << 30  # bytes a package zip may unpack to
MAX_SUBMISSION = 1 << 20  # bytes a submission's files.zip may unpack to (the API takes far less per file)
MAX_SUBMISSION_FILES = 100
CHUNK = 1 << 20


def _members(archive: zipfile.ZipFile, shown: str, most: int) -> list[tuple[zipfile.ZipInfo, PurePosixPath]]:
    """Every member with its checked path; the first one that would climb out, or is a link, refuses the zip."""
    members = archive.infolist()
    if len(members) > most:
        raise SpecError(shown, None, f"the zip holds {len(members)} entries, more than the {most} allowed")
    checked = []
    for member in members:
        name = member.filename.replace("\\", "/")
        path = PurePosixPath(name)
        if name.startswith("/") or ".." in path.parts or (path.parts and ":" in path.parts[0]) or "\0" in name:
            raise SpecError(shown, None, f"the zip's entry {name!r} points outside it (.., / or a drive)")
        kind = stat.S_IFMT(member.external_attr >> 16)
        if kind == stat.S_IFLNK:
            raise SpecError(shown, None, f"the zip's entry {name!r} is a symbolic link")
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise SpecError(shown, None, f"the zip's entry {name!r} is not a file or folder")
        checked.append((member, path))
    return checked


def _open(source: Path | bytes, shown: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(source if isinstance(source, Path) else io.BytesIO(source))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise SpecError(shown, None, f"not a zip file ({exc})") from None


def unpack(source: Path, into: Path, shown: str) -> None:
    """The zip at ``source`` unpacked into the new folder ``into``, all of it or (on a fault) an error; the caller
    removes ``into`` then, as it removes the whole half-made site."""
    room = MAX_UNPACKED
    with _open(source, shown) as archive:
        for member, path in _members(archive, shown, MAX_ENTRIES):
            if not path.parts or path.parts[0] == "__MACOSX":
                continue
            target = into.joinpath(*path.parts)
            if member.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            room = _copy(archive, member, target, room, shown)


def _copy(archive: zipfile.ZipFile, member: zipfile.ZipInfo, target: Path, room: int, shown: str) -> int:
    try:
        with archive.open(member) as source, target.open("xb") as out:
            while chunk := source.read(CHUNK):
                room -= len(chunk)
                if room < 0:
                    raise SpecError(shown, None, f"the zip unpacks to more than {MAX_UNPACKED >> 30} GiB")
                out.write(chunk)
    except FileExistsError:
        raise SpecError(shown, None, f"the zip holds {member.filename!r} twice") from None
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError, EOFError) as exc:
        raise SpecError(shown, None, f"cannot unpack {member.filename!r}: {exc}") from None
    if member.external_attr >> 16 & 0o111:
        target.chmod(0o755)  # a Kattis package's scripts (build, run, validators) stay runnable
    return room


def files_of(data: bytes, shown: str) -> list[tuple[str, bytes]]:
    """A submission's ``files.zip`` as (name, bytes), its folders flattened to the file names as the judge takes a
    submission (``intake.py``); bounded as a submitted zip is."""
    found: list[tuple[str, bytes]] = []
    room = MAX_SUBMISSION
    with _open(data, shown) as archive:
        for member, path in _members(archive, shown, MAX_SUBMISSION_FILES):
            if member.is_dir() or not path.parts or path.name.startswith(".") or "__MACOSX" in path.parts:
                continue
            try:
                with archive.open(member) as source:
                    content = source.read(room + 1)
            except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError, EOFError) as exc:
                raise SpecError(shown, None, f"cannot unpack {member.filename!r}: {exc}") from None
            room -= len(content)
            if room < 0:
                raise SpecError(shown, None, f"the submission's files unpack to more than {MAX_SUBMISSION >> 10} KiB")
            found.append((path.name, content))
    if not found:
        raise SpecError(shown, None, "the submission's zip holds no file")
    return found


def check_folder(root: Path, shown: str) -> None:
    """A package given as a folder: no symbolic link in it may lead outside it (a problem's ``data`` linked to a
    judge file would be served to the judge as test data, and copied into the site)."""
    base = root.resolve()
    for path in root.rglob("*"):
        if path.is_symlink():
            target = path.resolve()
            if base != target and base not in target.parents:
                raise SpecError(
                    f"{shown}/{path.relative_to(root)}", None, "a symbolic link that leads outside the package"
                )
