"""What a submission consists of: one file, or a folder of sources in one language, and which of them is the entry point.

A folder is untrusted input (a student's unzipped upload): only regular
files are taken, never links, devices or pipes; hidden files and unzip
leftovers (``__MACOSX``, ``._x``) are skipped; a source above
``MAX_SOURCE_BYTES`` is refused before it is read. The entry-point rules are
the registry's (``entry`` of an entry: all, file, class), so a language picks
its rule as data.
"""
from __future__ import annotations

import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable

from ..errors import UsageError
from .language import Language

MAX_SOURCE_BYTES = 4 << 20
MAX_FILES = 200
SKIPPED_FOLDERS = {"__MACOSX", "__pycache__", "node_modules", "target", "bin", "obj", "out", "build"}


@dataclass(frozen=True)
class SourceFile:
    """A file of a submission: where it came from (for messages), the name it gets in the build folder, and its bytes."""

    original: str
    name: str
    data: bytes


@dataclass(frozen=True)
class SourceSet:
    """The files to build, with the main file (and, for JVM languages, the class to run)."""

    files: tuple[SourceFile, ...]
    main: str
    main_class: str = ""

    @property
    def sources(self) -> list[str]:
        """Every source's build-folder name, main last (toolchains that link in order, like OCaml, need that)."""
        return [f.name for f in self.files if f.name != self.main] + [self.main]


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def folder_sources(folder: Path, language_of: Callable[[Path], object | None]) -> list[Path]:
    """The files of a folder that ``language_of`` claims, walked without following links, in a stable order."""
    found: list[Path] = []
    pending = [folder]
    while pending and len(found) <= MAX_FILES:
        current = pending.pop()
        try:
            entries = sorted(current.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name in SKIPPED_FOLDERS:
                continue
            if entry.is_dir() and not entry.is_symlink():
                pending.append(entry)
            elif _regular(entry):
                if language_of(entry) is not None:
                    found.append(entry)
    return sorted(found)


def _read(path: Path, shown: str) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_SOURCE_BYTES:
            raise UsageError(f"{shown}: {size} bytes is larger than a source may be ({MAX_SOURCE_BYTES >> 20} MiB)")
        return path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{shown}: cannot read ({exc.strerror})") from None


def _saved_name(lang: Language, relative: str, data: bytes) -> str:
    """The name a toolchain insists on (Java: the public class's name), else the file's own."""
    if lang.rename:
        found = re.search(lang.rename, data.decode("utf-8", "replace"), re.M)
        if found:
            parent = str(PurePosixPath(relative).parent)
            name = found.group(1) + PurePosixPath(relative).suffix
            return name if parent == "." else f"{parent}/{name}"
    return relative


def collect(path: Path, lang: Language, main: str | None = None) -> SourceSet:
    """The submission at ``path`` (a file or a folder) as the files to build and its entry point."""
    if path.is_dir():
        wanted = lang.extensions + lang.headers
        files = folder_sources(path, lambda p: lang if p.suffix.lower() in wanted else None)
        if len(files) > MAX_FILES:
            raise UsageError(f"{path}: more than {MAX_FILES} source files")
        rels = [str(PurePosixPath(*p.relative_to(path).parts)) for p in files]
        datas = [_read(p, f"{path.name}/{r}") for p, r in zip(files, rels)]
    elif path.is_file():
        rels, datas = [path.name], [_read(path, str(path))]
    else:
        raise UsageError(f"{path}: no such file")
    entries = [SourceFile(rel, _saved_name(lang, rel, data), data) for rel, data in zip(rels, datas)]
    sources = [f for f in entries if PurePosixPath(f.original).suffix.lower() not in lang.headers or not lang.extensions]
    if not sources:
        raise UsageError(f"{path}: no {lang.title or lang.name} source in the folder")
    chosen = _main_file(lang, sources, main, path)
    return SourceSet(tuple(entries), chosen.name, _main_class(lang, chosen) if lang.entry == "class" else "")


def _main_file(lang: Language, sources: list[SourceFile], main: str | None, where: Path) -> SourceFile:
    """The registry's rule: a named main, else main.*, else the one source matching main_pattern, else the only source."""
    if main is not None:
        named = [f for f in sources if main in (f.original, PurePosixPath(f.original).name, PurePosixPath(f.original).stem)]
        if len(named) != 1:
            raise UsageError(f"{where}: --main {main}: {'no' if not named else 'several'} such source file")
        return named[0]
    if len(sources) == 1:
        return sources[0]
    called_main = [f for f in sources if PurePosixPath(f.original).stem.lower() in ("main", "__main__")]
    if len(called_main) == 1 and lang.entry != "class":
        return called_main[0]
    if lang.main_pattern:
        declaring = [f for f in sources if re.search(lang.main_pattern, f.data.decode("utf-8", "replace"), re.M)]
        if len(declaring) == 1:
            return declaring[0]
        if len(declaring) > 1:
            names = ", ".join(f.original for f in declaring[:4])
            raise UsageError(f"{where}: several files could be the entry point ({names}); name one with --main")
    if lang.entry == "all":
        return sources[0]
    if len(called_main) == 1:
        return called_main[0]
    names = ", ".join(f.original for f in sources[:4])
    raise UsageError(f"{where}: cannot tell which of {names} is the entry point; name it main.* or use --main")


def _main_class(lang: Language, chosen: SourceFile) -> str:
    """The JVM class to run: the class that declares main (or the file's facade class, Kotlin), with its package."""
    text = chosen.data.decode("utf-8", "replace")
    package = re.search(lang.package_pattern, text, re.M) if lang.package_pattern else None
    prefix = f"{package.group(1)}." if package else ""
    if lang.class_name:
        stem = PurePosixPath(chosen.name).stem
        stem = re.sub(r"\W", "_", stem[:1].upper() + stem[1:])
        return prefix + lang.class_name.format(Stem=stem)
    at = re.search(lang.main_pattern, text, re.M) if lang.main_pattern else None
    classes = list(re.finditer(lang.class_pattern, text[: at.start()] if at else text, re.M)) if lang.class_pattern else []
    if classes:
        return prefix + classes[-1].group(1)
    return prefix + PurePosixPath(chosen.name).stem
