"""Folders a tool made inside a student's project (installed packages, virtual environments, caches, build output),
told by what they are, so that grading judges the sources of a cloned project and says what it left out.

A teacher grades clones of student projects: a ``node_modules`` or a
virtualenv holds thousands of files, none of them the student's. A folder is
recognised, in this order, by a mark its tool leaves in it (``pyvenv.cfg``, a
``CACHEDIR.TAG`` with the standard signature, ``CMakeCache.txt``, ...), by a
name only its tool uses (``node_modules``, ``__pycache__``, ``.gradle``,
...), or, for the names students also give their own folders (``build``,
``target``, ``bin``, ``dist``, ...), by holding no source file of a known
language at its top: only what a compiler left. Only fixed names are looked
up (``lstat``) and a bounded number of entries listed, no link is followed,
and only a regular ``CACHEDIR.TAG`` is opened (43 bytes read), so a hostile
folder costs a bounded amount of work.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

CACHEDIR_SIGNATURE = b"Signature: 8a477f597d28d172789f06886806bc55"  # bford.info/cachedir
MARKS = (  # a file or folder a tool leaves at the top of what it made
    ("pyvenv.cfg", "a Python virtual environment"),
    ("conda-meta", "a conda environment"),
    ("CMakeCache.txt", "a CMake build folder"),
    (".rustc_info.json", "Cargo build output"),
    ("project.assets.json", ".NET build output"),
    (".ninja_log", "a Ninja build folder"),
    (".package-lock.json", "installed Node packages"),
    ("maven-status", "Maven build output"),
)
NAMES = {  # names only a tool gives a folder
    "node_modules": "installed Node packages",
    "bower_components": "installed Bower packages",
    "jspm_packages": "installed jspm packages",
    "__pycache__": "Python bytecode",
    "site-packages": "installed Python packages",
    ".git": "version control data",
    ".hg": "version control data",
    ".svn": "version control data",
    ".venv": "a Python virtual environment",
    ".tox": "tox environments",
    ".nox": "nox environments",
    ".mypy_cache": "a tool's cache",
    ".pytest_cache": "a tool's cache",
    ".ruff_cache": "a tool's cache",
    ".cache": "a tool's cache",
    ".idea": "IDE settings",
    ".vscode": "IDE settings",
    ".vs": "IDE settings",
    ".settings": "IDE settings",
    ".gradle": "Gradle caches",
    ".mvn": "Maven wrapper files",
    ".next": "Next.js build output",
    ".nuxt": "Nuxt build output",
    ".dart_tool": "Dart tool output",
    ".stack-work": "Stack build output",
    "dist-newstyle": "Cabal build output",
    "_build": "build output",
    "zig-cache": "Zig build output",
    ".zig-cache": "Zig build output",
    "zig-out": "Zig build output",
    ".ccls-cache": "a tool's cache",
    ".clangd": "a tool's cache",
    "__MACOSX": "unzip leftovers",
}
OUTPUT_NAMES = {"build", "builds", "target", "dist", "out", "bin", "obj", "Debug", "Release", "x64"}
OUTPUT_PREFIXES = ("cmake-build-",)
LOOKED_AT = 256  # entries of a build-output candidate looked at for a source; past that, it is output


def _mark(folder: Path) -> str | None:
    for name, what in MARKS:
        try:
            os.lstat(folder / name)
        except OSError:
            continue
        return what
    return "a cache folder (CACHEDIR.TAG)" if _cache_tagged(folder / "CACHEDIR.TAG") else None


def _cache_tagged(tag: Path) -> bool:
    try:
        if not stat.S_ISREG(os.lstat(tag).st_mode):
            return False
        fd = os.open(tag, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        return os.read(fd, len(CACHEDIR_SIGNATURE)) == CACHEDIR_SIGNATURE
    except OSError:
        return False
    finally:
        os.close(fd)


def _holds_source(folder: Path, is_source: Callable[[Path], bool]) -> bool:
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count >= LOOKED_AT:
                    return False
                if entry.is_file(follow_symlinks=False) and is_source(Path(entry.path)):
                    return True
    except OSError:
        return False
    return False


def tool_folder(folder: Path, is_source: Callable[[Path], bool]) -> str | None:
    """What tool made ``folder`` (a real folder, not a link), in words for a report; None when it may hold sources."""
    name = folder.name
    if name in NAMES:
        return NAMES[name]
    mark = _mark(folder)
    if mark is not None:
        return mark
    if (name in OUTPUT_NAMES or name.startswith(OUTPUT_PREFIXES)) and not _holds_source(folder, is_source):
        return "build output (no source file at its top)"
    return None
