"""The language registry: one ``Language`` entry per language, and the one place that maps a file to its language.

A language is a recipe (tools, build command, run command, how its runtime
reports running out of memory). Adding a language is adding one entry to
``LANGUAGES`` (or calling ``register``): the spec validator, discovery of
student submissions, Kattis packages, verify and the CLI all ask ``detect``
and ``is_source`` here instead of checking extensions themselves.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from ..errors import SetupError, UsageError


@dataclass(frozen=True)
class Language:
    """A build-and-run recipe.

    ``build`` returns the compile command for (source copy, build folder,
    include folders), or None when nothing is compiled; ``run`` returns the
    command for (source copy, build folder, memory limit in MiB).
    """

    name: str
    extensions: tuple[str, ...]
    tools: tuple[str, ...]
    build: Callable[[Path, Path, Sequence[Path]], list[str]] | None
    run: Callable[[Path, Path, int], list[str]]
    limit_address_space: bool = True
    oom_markers: tuple[bytes, ...] = ()
    source_name: Callable[[bytes, str], str] | None = None

    def address_space(self, memory_mib: int) -> int | None:
        """The address-space limit this language's programs get: none where the runtime reserves far more than it uses."""
        return memory_mib if self.limit_address_space else None


def tool(name: str) -> str:
    """The path of a tool a language needs; a missing one is the machine's fault (exit 3), not the submission's."""
    found = shutil.which(name)
    if found is None:
        raise SetupError(f"'{name}' is not installed on this machine; it is needed for this language")
    return found


def _includes(folders: Sequence[Path]) -> list[str]:
    return [f"-I{folder}" for folder in folders]


def _java_main_class(source: bytes, fallback: str) -> str:
    """The class javac must be told about: the public class, else the one declaring main."""
    text = source.decode("utf-8", "replace")
    public = re.search(r"\bpublic\s+(?:final\s+|abstract\s+)*class\s+([A-Za-z_$][\w$]*)", text)
    if public:
        return public.group(1)
    main = re.search(r"\bclass\s+([A-Za-z_$][\w$]*)[^{]*\{(?:(?!\bclass\b).)*?static\s+void\s+main\s*\(", text, re.S)
    return main.group(1) if main else fallback


EXE = "exe"  # a ready executable: the fallback for a file with the execute bit and no known extension

LANGUAGES: dict[str, Language] = {
    lang.name: lang
    for lang in (
        Language(
            name="c", extensions=(".c",), tools=("gcc",),
            build=lambda src, out, inc: [tool("gcc"), "-O2", "-std=gnu17", "-pipe", *_includes(inc), "-o", str(out / "prog"), str(src), "-lm"],
            run=lambda src, out, mem: [str(out / "prog")],
        ),
        Language(
            name="cpp", extensions=(".cpp", ".cc", ".cxx", ".c++"), tools=("g++",),
            build=lambda src, out, inc: [tool("g++"), "-O2", "-std=c++17", "-pipe", *_includes(inc), "-o", str(out / "prog"), str(src)],
            run=lambda src, out, mem: [str(out / "prog")],
            oom_markers=(b"std::bad_alloc",),
        ),
        Language(
            name="python3", extensions=(".py",), tools=(),
            build=lambda src, out, inc: [sys.executable, "-c", "import sys, ast; ast.parse(open(sys.argv[1], 'rb').read(), sys.argv[1])", str(src)],
            run=lambda src, out, mem: [sys.executable, "-B", str(src)],
            oom_markers=(b"MemoryError",),
        ),
        Language(
            name="java", extensions=(".java",), tools=("javac", "java"),
            build=lambda src, out, inc: [tool("javac"), "-J-XX:-UsePerfData", "-encoding", "UTF-8", "-d", str(out), str(src)],
            run=lambda src, out, mem: [
                tool("java"), f"-Xmx{mem}m", f"-Xss{min(mem, 256)}m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
                "-Xshare:auto", "-cp", str(out), src.stem,
            ],
            limit_address_space=False,
            oom_markers=(b"java.lang.OutOfMemoryError",),
            source_name=lambda source, name: _java_main_class(source, Path(name).stem) + ".java",
        ),
        Language(
            name=EXE, extensions=(), tools=(), build=None,
            run=lambda src, out, mem: [str(src)],
        ),
    )
}


def register(lang: Language) -> Language:
    """Add (or replace) a language; everything that detects languages sees it at once."""
    LANGUAGES[lang.name] = lang
    return lang


def by_extension(path: Path) -> Language | None:
    """The language whose extension ``path`` has, or None."""
    suffix = path.suffix.lower()
    return next((lang for lang in LANGUAGES.values() if suffix and suffix in lang.extensions), None)


def is_source(path: Path) -> bool:
    """A file in one of the registered source languages (what grading and verify look for in a folder)."""
    return path.is_file() and by_extension(path) is not None


def detect(path: Path) -> Language:
    """Pick the language from the extension; an executable file without a known extension is 'exe'."""
    found = by_extension(path)
    if found is not None:
        return found
    if os.access(path, os.X_OK):
        return LANGUAGES[EXE]
    raise UsageError(f"{path}: cannot tell the language from '{path.suffix.lower() or 'no extension'}'; use --lang ({', '.join(LANGUAGES)})")


def language(name: str) -> Language:
    """The language called ``name`` (``--lang``, spec time factors); unknown is a usage error."""
    try:
        return LANGUAGES[name]
    except KeyError:
        raise UsageError(f"unknown language '{name}' (known: {', '.join(LANGUAGES)})") from None
