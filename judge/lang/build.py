"""Turning a source into a runnable ``Program``: sandboxed compilation with a content-addressed build cache.

Builds are cached by the hash of recipe + source (+ the headers beside a
problem program, + the files a problem adds to it), so re-judging a submission never recompiles it. A failed
build (CE) is cached only when the compiler itself ended with an error: a compile stopped by a limit (time,
memory, output, processes) or by a signal depends on the limits and the machine's load, and is compiled again
next time. A cached build belongs to the judge, is read-only to every run, and is used again only while it
matches its seal (``seal.py``). ``build_or_fail`` is the one rule for the problem setter's programs: they must
compile, or the judge cannot go on.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import JudgeError
from ..run import Bind, RunSpec, Slot, SlotPool, cache_root, held
from . import command
from .classfile import main_class
from .compiling import COMPILE_MEMORY_MIB, compile_limits, compile_step
from .language import Language, tool
from .registry import EXE, LANGUAGES, Registry
from .seal import intact, seal
from .sources import Additions, SourceSet, collect, with_additions

BUILD_CACHE_VERSION = b"4"  # bump when the way builds are made or logged changes: old cache entries are then ignored


@dataclass(frozen=True)
class Program:
    """A runnable program: the result of preparing a submission, checker, generator or solution."""

    language: Language
    source: Path | None
    compiled: bool
    compile_log: str
    _run: Callable[[int], list[str]]
    binds: tuple[Bind, ...] = ()  # what a sandboxed run must see besides the system: its build folder, or --cmd's files
    workdir: Path | None = (
        None  # its sources and what the problem added (a Kattis include/ data file): a Kattis run's folder
    )

    def command(self, memory_mib: int) -> list[str]:
        return self._run(memory_mib)

    @property
    def compile_error(self) -> str:
        """The line of the build's output that names the error (``Language.compile_error``)."""
        return self.language.compile_error(self.compile_log)

    @property
    def display(self) -> str:
        return str(self.source) if self.source else " ".join(self._run(0))


def from_command(line: str) -> Program:
    """``--cmd``: a command line, run as it is, seeing read-only what it needs (``command.binds``)."""
    argv = command.resolve(line)
    return Program(LANGUAGES[EXE], None, True, "", lambda mem: list(argv), command.binds(argv))


def prepare(
    source: Path,
    lang: Language,
    slot: Slot,
    compile_time: float,
    include: Path | None = None,
    main: str | None = None,
    extra: Additions = Additions(),
) -> Program:
    """Build a file or a folder of sources (cached by content) and return the program; a failed build gives
    ``compiled=False`` (CE).

    ``include`` is a folder whose headers the source may include (a problem's
    own folder, so a checker can ship testlib.h beside it); its headers, in
    sub-folders too, are part of the cache key, so editing one rebuilds. ``extra``: files and
    constants the problem adds (``Additions``), also part of the key.
    """
    lang.require()
    sources = with_additions(collect(source, lang, main), lang, extra)
    includes = [include] if include is not None else []
    recipe = repr((lang.compile, lang.run, sorted(lang.env.items()), lang.paths))
    headers = _headers(include) if include is not None else []
    named = [part for f in sources.files for part in (f.name.encode(), f.data)]
    import hashlib  # here, not at the top: only a command that builds pays for it

    key = hashlib.sha256(
        b"\0".join([BUILD_CACHE_VERSION, lang.name.encode(), recipe.encode(), sources.main.encode(), *named, *headers])
    )
    root = cache_root() / "build"
    name = key.hexdigest()[:32]
    folder, record = root / name, root / f"{name}.seal"
    meta = _cached(folder, record)
    if meta is None:
        with held(root / f"{name}.lock"):  # one compile per source at a time, across judges
            meta = _cached(folder, record) or _build(lang, sources, folder, record, slot, compile_time, includes)
    if meta["ok"] and lang.entry == "class":  # the class holding main, read from the compiled classes (classfile.py)
        sources = replace(
            sources, main_class=meta.get("main_class") or main_class(folder, sources.main, sources.main_class)
        )
    binds = (Bind(folder), *(Bind(path) for path in lang.system_paths()))
    return Program(
        lang,
        source,
        meta["ok"],
        meta["log"],
        lambda mem: expand(lang.run, _values(lang, sources, folder, includes, mem)),
        binds,
        folder / "src",
    )


def _headers(include: Path) -> list[bytes]:
    """The headers a build may read from its include folder, at any depth (``#include "lib/check.h"``), each with its
    name there, for the cache key: editing, adding, moving or removing one rebuilds. The folder's own path is not in the
    key, so the same program with the same headers is built once wherever its package is."""
    found = sorted(h for h in include.rglob("*.h*") if h.is_file() and not _hidden(h.relative_to(include)))
    return [part for h in found for part in (h.relative_to(include).as_posix().encode(), h.read_bytes())]


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") for part in relative.parts)


def _values(
    lang: Language, sources: SourceSet, folder: Path, includes: list[Path], mem: int
) -> dict[str, str | list[str]]:
    """What the registry's placeholders stand for in one build folder."""
    src = folder / "src"
    return {
        "main": str(src / sources.main),
        "sources": [str(src / name) for name in sources.sources],
        "files": sources.sources,
        "mainclass": sources.main_class,
        "out": str(folder),
        "exe": str(folder / "prog"),
        "src": str(src),
        "tmp": str(folder / "tmp"),
        "includes": [f"-I{d}" for d in includes],
        "mem": str(mem),
        "python": sys.executable,
    }


def expand(template: Sequence[str], values: dict[str, str | list[str]]) -> list[str]:
    """A command from the registry: a word that is exactly a list placeholder becomes several words; the program becomes
    its path."""
    argv: list[str] = []
    for word in template:
        value = values.get(word[1:-1]) if word.startswith("{") and word.endswith("}") else None
        if isinstance(value, list):
            argv.extend(value)
        else:
            argv.append(word.format_map(_Strings(values)))
    if argv and not argv[0].startswith("/"):
        argv[0] = tool(argv[0])
    return argv


class _Strings(dict):
    """Placeholders inside a word (``-o{exe}``, ``-Xmx{mem}m``); a list there is joined, an unknown name is left as
    written."""

    def __init__(self, values: dict[str, str | list[str]]) -> None:
        super().__init__({k: v if isinstance(v, str) else " ".join(v) for k, v in values.items()})

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _cached(folder: Path, record: Path) -> dict[str, Any] | None:
    """The cached build's outcome, when the folder still holds what the judge sealed; None: build (again)."""
    if not intact(folder, record):
        return None
    meta: dict[str, Any] = json.loads((folder / "build.json").read_text())
    return meta


def _build(
    lang: Language,
    sources: SourceSet,
    folder: Path,
    record: Path,
    slot: Slot,
    compile_time: float,
    includes: list[Path],
) -> dict[str, Any]:
    """Compile in a private folder; an outcome worth remembering is made the judge's, read-only to runs, moved into the
    cache in one rename (so no half-built entry is ever seen, a stale one is replaced whole) and sealed."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=folder.parent))
    try:
        for item in sources.files:
            copy = work / "src" / item.name
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(item.data)
            if item.name in lang.markers:  # the scripts must be executable (the spec); a copy of bytes is not
                copy.chmod(0o755)
        ok, log, lasting = True, "", True
        if not lang.compile:
            (work / "src" / sources.main).chmod(0o755)
        else:
            (work / "tmp").mkdir()
            values = _values(lang, sources, work, includes, COMPILE_MEMORY_MIB)
            env = {k: v.format_map(_Strings(values)) for k, v in lang.env.items()}
            for step in lang.compile:
                ok, log, lasting = _compile(expand(step, values), env, work, includes, slot, compile_time, lang)
                if not ok:
                    break
            log = _readable(log, work, sources)
            shutil.rmtree(work / "tmp", ignore_errors=True)
        meta = {"ok": ok, "log": log}
        if ok and lang.entry == "class":  # the class holding main, read from the compiled classes (classfile.py)
            meta["main_class"] = main_class(work, sources.main, sources.main_class)
        if not lasting:
            return meta
        (work / "build.json").write_text(json.dumps(meta))
        _make_read_only(work)
        if folder.exists() or folder.is_symlink():  # a build that no longer matches its seal: out of the way, whole
            stale = Path(tempfile.mkdtemp(prefix="stale-", dir=folder.parent))
            os.rename(folder, stale / "build")
            _remove(stale)
        os.rename(work, folder)
        if not seal(folder, record):
            record.unlink(missing_ok=True)
        return meta
    finally:
        _remove(work)


def _make_read_only(work: Path) -> None:
    """The judge's own, writable by nobody else: the compile ran as the slot's uid, and a run of that uid (or any
    other) must not change what later judgings of the same source run."""
    uid, gid = os.geteuid(), os.getegid()
    for top, dirs, files in os.walk(work):
        for name in (*dirs, *files):
            path = os.path.join(top, name)
            info = os.lstat(path)
            if info.st_uid != uid or info.st_gid != gid:
                os.lchown(path, uid, gid)
            if not os.path.islink(path):
                executable = os.path.isdir(path) or info.st_mode & 0o111
                os.chmod(path, 0o755 if executable else 0o644)
    os.chown(work, uid, gid)
    work.chmod(0o755)


def _remove(path: Path) -> None:
    """Remove a folder whatever a run did to its modes."""
    if not path.exists():
        return
    for top, dirs, _ in os.walk(path):
        for name in dirs:
            try:
                os.chmod(os.path.join(top, name), 0o700, follow_symlinks=False)
            except OSError:
                pass
    shutil.rmtree(path, ignore_errors=True)


def _readable(log: str, work: Path, sources: SourceSet) -> str:
    """A compile log as the student wrote the files: no path of the judge's cache, and renamed files under their own
    names."""
    log = log.replace(f"{work}/src/", "").replace(f"{work}/", "")
    for item in sources.files:
        if item.name != item.original:
            log = log.replace(item.name, item.original)
    return log


def _compile(
    argv: list[str],
    env: dict[str, str],
    work: Path,
    includes: list[Path],
    slot: Slot,
    compile_time: float,
    lang: Language,
) -> tuple[bool, str, bool]:
    """Compile as untrusted code: a hostile source may try to include secrets or blow up the compiler.

    Returns whether it compiled, the log, and whether the outcome lasts (``compiling.Compiled``).
    """
    if slot.uid is not None:
        for path in (work, *work.rglob("*")):
            os.chown(path, slot.uid, slot.uid, follow_symlinks=False)
    binds = [
        Bind(work, writable=True),
        *(Bind(folder) for folder in includes),
        *(Bind(path) for path in lang.system_paths()),
    ]
    limits = compile_limits(compile_time, lang)
    out, log = slot.private / "compile.out", slot.private / "compile.log"
    spec = RunSpec(argv=argv, limits=limits, stdout=out, stderr=log, cwd=work / "src", env=env or None)
    done = compile_step(spec, binds, slot, lang)
    return done.ok, done.log, done.lasting


def prepare_program(
    source: Path,
    lang: Language | None,
    pool: SlotPool,
    compile_time: float,
    include: Path | None = None,
    main: str | None = None,
    registry: Registry | None = None,
    extra: Additions = Additions(),
) -> Program:
    """Build a file or folder in a free slot, detecting its language unless one is given."""
    registry = registry or LANGUAGES
    with pool.slot() as slot:
        return prepare(source, lang or registry.detect(source), slot, compile_time, include, main, extra)


def prepare_problem_program(
    source: Path, pool: SlotPool, compile_time: float, extra: Additions = Additions()
) -> Program:
    """A problem setter's program (checker, validator, generator, reference): its own folder is on the include path."""
    return prepare_program(source, None, pool, compile_time, include=source.parent, extra=extra)


def build_or_fail(
    source: Path, pool: SlotPool, compile_time: float, role: str, extra: Additions = Additions()
) -> Program:
    """A problem setter's program that must compile: a CE here is the package's fault, so the judge stops (exit 3)
    naming ``role``."""
    program = prepare_problem_program(source, pool, compile_time, extra)
    if not program.compiled:
        raise JudgeError(f"{source}: the {role} does not compile: {program.compile_error or 'no message'}")
    return program
