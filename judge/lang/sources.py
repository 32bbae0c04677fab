"""What a submission consists of: one file, or a folder of sources in one language, and which of them is the entry
point.

A folder is untrusted input (a student's unzipped upload): only regular
files are taken, never links, devices or pipes; hidden files, unzip
leftovers (``__MACOSX``, ``._x``) and what tools made (``toolfolders.py``:
installed packages, virtual environments, build output) are skipped; a source above
``MAX_SOURCE_BYTES`` is refused before it is read. The entry-point rules are
the registry's (``entry`` of an entry: all, file, class), so a language picks
its rule as data.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from ..errors import UsageError, no_such_file
from .language import Language, which
from .toolfolders import tool_folder

MAX_SOURCE_BYTES = 4 << 20
MAX_FILES = 200


@dataclass(frozen=True)
class SourceFile:
    """A file of a submission: where it came from (for messages), the name it gets in the build folder, and its
    bytes."""

    original: str
    name: str
    data: bytes
    compiled: bool = (
        True  # False: a data file shipped beside the sources (include/default/data.txt), never given to the compiler
    )


@dataclass(frozen=True)
class SourceSet:
    """The files to build, with the main file (and, for JVM languages, the class to run)."""

    files: tuple[SourceFile, ...]
    main: str
    main_class: str = ""

    @property
    def sources(self) -> list[str]:
        """Every source's build-folder name, main last (toolchains that link in order, like OCaml, need that)."""
        return [f.name for f in self.files if f.name != self.main and f.compiled] + [self.main]


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
            if entry.name.startswith("."):
                continue
            if entry.is_dir() and not entry.is_symlink():
                if tool_folder(entry, lambda p: language_of(p) is not None) is None:
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


def is_binary(head: bytes) -> bool:
    """A file whose first KiB holds a NUL byte: a compiled program, an archive, an image; never text a toolchain reads.
    ``grade`` tells such files from sources by it too."""
    return b"\0" in head[:1024]


def not_a_program(lang: Language, data: bytes) -> str | None:
    """Why ``data`` cannot be built or run as ``lang`` at all, in the words of the user who gave the wrong file; None
    when it may be. A ready executable must be a compiled program (ELF) or a script whose ``#!`` interpreter is
    installed: anything else fails at exec ("Exec format error"), which read as the judge's fault, with its build
    folder's path. A source must be text: a binary renamed ``.cpp`` gave a compile log of one 16 KB line of escapes."""
    if not lang.compile and lang.run == ("{main}",):
        if data.startswith(b"\x7fELF"):
            return None
        if not data.startswith(b"#!"):
            return (
                "not a program this machine can run: neither a compiled executable (ELF) nor a script starting with #!"
            )
        words = data[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
        if not words:
            return "its #! line names no interpreter"
        interpreter = words[1] if PurePosixPath(words[0]).name == "env" and len(words) > 1 else words[0]
        if which(interpreter) is None:
            return f"its #! line names {interpreter}, which is not installed here"
        return None
    if is_binary(data):
        return f"a compiled program or binary file, not a {lang.title or lang.name} source file"
    return None


# Comments, string and character literals of the C family (Java, Kotlin, Scala): "the public class names" in a
# comment is no class declaration.
_NOT_CODE = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])'", re.S)


def _code(lang: Language, data: bytes) -> str:
    """A source as the patterns read it: for a JVM language, its comments and literals blanked (lines and offsets
    kept)."""
    text = data.decode("utf-8", "replace")
    if lang.entry != "class":
        return text
    return _NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def saved_name(lang: Language, relative: str, data: bytes) -> str:
    """The name a toolchain insists on (Java: the public class's name), else the file's own; export writes files under
    it too."""
    if lang.rename:
        found = re.search(lang.rename, _code(lang, data), re.M)
        if found:
            parent = str(PurePosixPath(relative).parent)
            name = found.group(1) + PurePosixPath(relative).suffix
            return name if parent == "." else f"{parent}/{name}"
    return relative


def collect(path: Path, lang: Language, main: str | None = None) -> SourceSet:
    """The submission at ``path`` (a file or a folder) as the files to build and its entry point."""
    if path.is_dir():
        wanted = lang.extensions + lang.headers
        scripted = lang.entry == "scripts"  # the program is the whole folder: every file goes to the build
        files = folder_sources(path, lambda p: lang if scripted or p.suffix.lower() in wanted else None)
        if len(files) > MAX_FILES:
            raise UsageError(f"{path}: more than {MAX_FILES} source files")
        rels = [str(PurePosixPath(*p.relative_to(path).parts)) for p in files]
        datas = [_read(p, f"{path.name}/{r}") for p, r in zip(files, rels)]
    elif path.is_file():
        rels, datas = [path.name], [_read(path, str(path))]
    else:
        raise no_such_file(path)
    for shown, data in zip(rels if path.is_dir() else [str(path)], datas):
        why = not_a_program(lang, data)
        if why is not None:
            raise UsageError(f"{path / shown if path.is_dir() else shown}: {why}")
    entries = [SourceFile(rel, saved_name(lang, rel, data), data) for rel, data in zip(rels, datas)]
    sources = [
        f for f in entries if PurePosixPath(f.original).suffix.lower() not in lang.headers or not lang.extensions
    ]
    if lang.entry == "scripts":
        if not path.is_dir():
            raise UsageError(f"{path}: {lang.title or lang.name} is a folder holding its build or run script")
        return SourceSet(tuple(entries), "run")  # made by build where the folder has none
    if not sources:
        raise UsageError(f"{path}: no {lang.title or lang.name} source in the folder")
    chosen = _main_file(lang, sources, main, path)
    return SourceSet(tuple(entries), chosen.name, _main_class(lang, chosen) if lang.entry == "class" else "")


def _main_file(lang: Language, sources: list[SourceFile], main: str | None, where: Path) -> SourceFile:
    """The registry's rule: a named main, else main.*, else the one source matching main_pattern, else the only
    source."""
    if main is not None:
        named = [
            f for f in sources if main in (f.original, PurePosixPath(f.original).name, PurePosixPath(f.original).stem)
        ]
        if len(named) != 1:
            raise UsageError(f"{where}: --main {main}: {'no' if not named else 'several'} such source file")
        return named[0]
    if len(sources) == 1:
        return sources[0]
    called_main = [f for f in sources if PurePosixPath(f.original).stem.lower() in ("main", "__main__")]
    if len(called_main) == 1 and lang.entry != "class":
        return called_main[0]
    if lang.main_pattern:
        declaring = [f for f in sources if re.search(lang.main_pattern, _code(lang, f.data), re.M)]
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
    text = _code(lang, chosen.data)
    package = re.search(lang.package_pattern, text, re.M) if lang.package_pattern else None
    prefix = f"{package.group(1)}." if package else ""
    if lang.class_name:
        stem = PurePosixPath(chosen.name).stem
        stem = re.sub(r"\W", "_", stem[:1].upper() + stem[1:])
        return prefix + lang.class_name.format(Stem=stem)
    at = re.search(lang.main_pattern, text, re.M) if lang.main_pattern else None
    classes = (
        list(re.finditer(lang.class_pattern, text[: at.start()] if at else text, re.M)) if lang.class_pattern else []
    )
    if classes:
        return prefix + classes[-1].group(1)
    return prefix + PurePosixPath(chosen.name).stem


CONSTANT = re.compile(rb"\{\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)?)\}\}")


@dataclass(frozen=True)
class Additions:
    """What a build adds to a program's own files: a problem's shared code and drivers, and constants written into them.

    ``folders``: every file of each, later folders overriding earlier ones
    (a problem's libraries). ``by_language``: a folder holding ``default/``
    and one folder per language named by any of the language's names (Kattis
    ``include/``), the language's overriding ``default/``'s. Added files
    overwrite the program's own of the same name, so a problem's driver always
    wins. ``constants`` (``{{name}}`` or ``{{name.variant}}``) are written into
    the added files, and into the program's own when ``own`` (a package's
    programs, never a contestant's). The package on disk is never changed: all
    of this happens to the copies a build makes, and is part of its cache key.
    """

    folders: tuple[Path, ...] = ()
    by_language: Path | None = None
    constants: Mapping[str, str] = field(default_factory=dict)
    own: bool = False

    def __bool__(self) -> bool:
        return bool(self.folders or self.by_language or (self.own and self.constants))

    def folders_for(self, lang: Language) -> list[Path]:
        """The folders whose files join a program in ``lang``, lowest priority first."""
        found = [f for f in self.folders if f.is_dir()]
        if self.by_language is not None:
            found.append(self.by_language / "default")
            found += [self.by_language / code for code in (lang.name, *lang.aliases)]
        return [f for f in dict.fromkeys(found) if f.is_dir()]


def substitute(data: bytes, constants: Mapping[str, str]) -> bytes:
    """``{{name}}`` replaced by its value; an undefined name is left as written (``undefined_constants`` finds
    those)."""
    if b"{{" not in data or not constants:
        return data
    return CONSTANT.sub(
        lambda m: constants[key].encode() if (key := m.group(1).decode()) in constants else m.group(0), data
    )


def undefined_constants(data: bytes, constants: Mapping[str, str]) -> list[str]:
    """The ``{{name}}`` sequences of a file that no constant defines."""
    return sorted({m.group(1).decode() for m in CONSTANT.finditer(data) if m.group(1).decode() not in constants})


def with_additions(sources: SourceSet, lang: Language, additions: Additions) -> SourceSet:
    """The source set as it is built: the added files over the program's own, constants substituted where they apply.

    An added source called ``main.*`` becomes the entry point (a problem's
    driver calls the contestant's functions); otherwise the entry point stays.
    """
    if not additions:
        return sources
    own = [replace(f, data=substitute(f.data, additions.constants)) if additions.own else f for f in sources.files]
    added: dict[str, SourceFile] = {}
    for folder in additions.folders_for(lang):
        for path in folder_sources(folder, lambda p: p):
            rel = str(PurePosixPath(*path.relative_to(folder).parts))
            data = substitute(_read(path, f"{folder.name}/{rel}"), additions.constants)
            added[rel] = SourceFile(rel, rel, data, compiled=_is_source(lang, rel, sources.main))
    files = [f for f in own if f.name not in added] + list(added.values())
    driver = [f for f in added.values() if f.compiled and PurePosixPath(f.name).stem.lower() == "main"]
    main = driver[0].name if len(driver) == 1 else sources.main
    main_class = sources.main_class
    if lang.entry == "class" and main != sources.main:
        main_class = _main_class(lang, driver[0])
    return SourceSet(tuple(files), main, main_class)


def _is_source(lang: Language, name: str, main: str) -> bool:
    """An added file the compiler is given: the language's own extension (or the main file's, for a language chosen by
    name)."""
    suffix = PurePosixPath(name).suffix.lower()
    return suffix not in lang.headers and (suffix in lang.extensions or suffix == PurePosixPath(main).suffix.lower())
