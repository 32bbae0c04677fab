"""Turning a source into a runnable ``Program``: sandboxed compilation with a content-addressed build cache.

Builds are cached by the hash of recipe + source (+ the headers beside a
problem program, + the files a problem adds to it), so re-judging a submission never recompiles it, and a
failed build (CE) is cached too. ``build_or_fail`` is the one rule for the
problem setter's programs: they must compile, or the judge cannot go on.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Sequence

from ..errors import JudgeError, UsageError
from ..run import Bind, RunLimits, RunSpec, Slot, SlotPool, cache_root, read_head
from ..text import safe_text, status_text
from . import command
from .classfile import main_class
from .language import Language, tool
from .registry import EXE, LANGUAGES, Registry
from .sources import Additions, SourceSet, collect, with_additions

BUILD_CACHE_VERSION = b"3"  # bump when the way builds are made or logged changes: old cache entries are then ignored
COMPILE_MEMORY_MIB = 2048
COMPILE_OUTPUT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Program:
    """A runnable program: the result of preparing a submission, checker, generator or solution."""

    language: Language
    source: Path | None
    compiled: bool
    compile_log: str
    _run: Callable[[int], list[str]]
    binds: tuple[Bind, ...] = ()  # what a sandboxed run must see besides the system: its build folder, or --cmd's files
    workdir: Path | None = None  # its sources and what the problem added (a Kattis include/ data file): a Kattis run's folder

    def command(self, memory_mib: int) -> list[str]:
        return self._run(memory_mib)

    @property
    def display(self) -> str:
        return str(self.source) if self.source else " ".join(self._run(0))


def from_command(line: str) -> Program:
    """``--cmd``: a command line, run as it is, seeing read-only what it needs (``command.binds``)."""
    argv = command.resolve(line)
    return Program(LANGUAGES[EXE], None, True, "", lambda mem: list(argv), command.binds(argv))


def prepare(source: Path, lang: Language, slot: Slot, compile_time: float, include: Path | None = None, main: str | None = None,
            extra: Additions = Additions()) -> Program:
    """Build a file or a folder of sources (cached by content) and return the program; a failed build gives ``compiled=False`` (CE).

    ``include`` is a folder whose headers the source may include (a problem's
    own folder, so a checker can ship testlib.h beside it); its headers are
    part of the cache key, so editing one rebuilds. ``extra``: files and
    constants the problem adds (``Additions``), also part of the key.
    """
    lang.require()
    sources = with_additions(collect(source, lang, main), lang, extra)
    includes = [include] if include is not None else []
    recipe = repr((lang.compile, lang.run, sorted(lang.env.items()), lang.paths))
    headers = [h.read_bytes() for h in sorted(include.glob("*.h*")) if h.is_file()] if include is not None else []
    named = [part for f in sources.files for part in (f.name.encode(), f.data)]
    import hashlib  # here, not at the top: only a command that builds pays for it

    key = hashlib.sha256(b"\0".join([BUILD_CACHE_VERSION, lang.name.encode(), recipe.encode(), sources.main.encode(), *named, *headers]))
    folder = cache_root() / "build" / key.hexdigest()[:32]
    if not (folder / "build.json").is_file():
        _build(lang, sources, folder, slot, compile_time, includes)
    meta = json.loads((folder / "build.json").read_text())
    if meta["ok"] and lang.entry == "class":  # the class holding main, read from the compiled classes (classfile.py)
        sources = replace(sources, main_class=meta.get("main_class") or main_class(folder, sources.main, sources.main_class))
    binds = (Bind(folder), *(Bind(path) for path in lang.system_paths()))
    return Program(lang, source, meta["ok"], meta["log"], lambda mem: expand(lang.run, _values(lang, sources, folder, includes, mem)), binds,
                   folder / "src")


def _values(lang: Language, sources: SourceSet, folder: Path, includes: list[Path], mem: int) -> dict[str, str | list[str]]:
    """What the registry's placeholders stand for in one build folder."""
    src = folder / "src"
    return {
        "main": str(src / sources.main), "sources": [str(src / name) for name in sources.sources], "files": sources.sources,
        "mainclass": sources.main_class,
        "out": str(folder), "exe": str(folder / "prog"), "src": str(src), "tmp": str(folder / "tmp"),
        "includes": [f"-I{d}" for d in includes], "mem": str(mem), "python": sys.executable,
    }


def expand(template: Sequence[str], values: dict[str, str | list[str]]) -> list[str]:
    """A command from the registry: a word that is exactly a list placeholder becomes several words; the program becomes its path."""
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
    """Placeholders inside a word (``-o{exe}``, ``-Xmx{mem}m``); a list there is joined, an unknown name is left as written."""

    def __init__(self, values: dict[str, str | list[str]]) -> None:
        super().__init__({k: v if isinstance(v, str) else " ".join(v) for k, v in values.items()})

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _build(lang: Language, sources: SourceSet, folder: Path, slot: Slot, compile_time: float, includes: list[Path]) -> None:
    """Compile in a private folder, then move it into the cache in one rename so no half-built entry is ever seen."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=folder.parent))
    try:
        for item in sources.files:
            copy = work / "src" / item.name
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(item.data)
        ok, log = True, ""
        if not lang.compile:
            (work / "src" / sources.main).chmod(0o755)
        else:
            (work / "tmp").mkdir()
            values = _values(lang, sources, work, includes, COMPILE_MEMORY_MIB)
            env = {k: v.format_map(_Strings(values)) for k, v in lang.env.items()}
            for step in lang.compile:
                ok, log = _compile(expand(step, values), env, work, includes, slot, compile_time, lang)
                if not ok:
                    break
            log = _readable(log, work, sources)
            shutil.rmtree(work / "tmp", ignore_errors=True)
        meta = {"ok": ok, "log": log}
        if ok and lang.entry == "class":
            meta["main_class"] = main_class(work, sources.main, sources.main_class)
        (work / "build.json").write_text(json.dumps(meta))
        for path in (work, *work.rglob("*")):
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        try:
            os.rename(work, folder)
        except OSError:
            if not (folder / "build.json").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _readable(log: str, work: Path, sources: SourceSet) -> str:
    """A compile log as the student wrote the files: no path of the judge's cache, and renamed files under their own names."""
    log = log.replace(f"{work}/src/", "").replace(f"{work}/", "")
    for item in sources.files:
        if item.name != item.original:
            log = log.replace(item.name, item.original)
    return log


def _compile(argv: list[str], env: dict[str, str], work: Path, includes: list[Path], slot: Slot, compile_time: float,
             lang: Language) -> tuple[bool, str]:
    """Compile as untrusted code: a hostile source may try to include secrets or blow up the compiler."""
    log_path, out_path = slot.private / "compile.log", slot.private / "compile.out"
    if slot.uid is not None:
        for path in (work, *work.rglob("*")):
            os.chown(path, slot.uid, slot.uid, follow_symlinks=False)
    limits = RunLimits(
        cpu=compile_time, wall=compile_time * 2 + 5, memory_mib=COMPILE_MEMORY_MIB, address_space_mib=lang.address_space(COMPILE_MEMORY_MIB),
        output_bytes=COMPILE_OUTPUT_BYTES, open_files=512, stack_mib=64,
    )
    binds = [Bind(work, writable=True), *(Bind(folder) for folder in includes), *(Bind(path) for path in lang.system_paths())]
    spec = RunSpec(argv=argv, limits=limits, stdout=out_path, stderr=log_path, cwd=work / "src", env=env or None)
    result = slot.run_untrusted(spec, binds)
    log = safe_text((read_head(out_path) + read_head(log_path)).strip())
    for p in (log_path, out_path):
        p.unlink(missing_ok=True)
    if result.out_of_memory:
        return False, f"compilation ran out of memory under the {COMPILE_MEMORY_MIB} MiB limit\n{log}".strip()
    if result.killed != "none":
        return False, f"compilation exceeded the {compile_time:g} s limit\n{log}".strip()
    if result.signal_name == "SIGXFSZ":
        return False, f"compilation output exceeded {COMPILE_OUTPUT_BYTES >> 20} MiB\n{log}".strip()
    if not result.succeeded:
        return False, (log or f"compiler failed ({status_text(result.exit_code, result.signal_name)})")
    return True, log


def prepare_program(source: Path, lang: Language | None, pool: SlotPool, compile_time: float, include: Path | None = None,
                    main: str | None = None, registry: Registry | None = None, extra: Additions = Additions()) -> Program:
    """Build a file or folder in a free slot, detecting its language unless one is given."""
    registry = registry or LANGUAGES
    with pool.slot() as slot:
        return prepare(source, lang or registry.detect(source), slot, compile_time, include, main, extra)


def prepare_problem_program(source: Path, pool: SlotPool, compile_time: float, extra: Additions = Additions()) -> Program:
    """A problem setter's program (checker, validator, generator, reference): its own folder is on the include path."""
    return prepare_program(source, None, pool, compile_time, include=source.parent, extra=extra)


def build_or_fail(source: Path, pool: SlotPool, compile_time: float, role: str, extra: Additions = Additions()) -> Program:
    """A problem setter's program that must compile: a CE here is the package's fault, so the judge stops (exit 3) naming ``role``."""
    program = prepare_problem_program(source, pool, compile_time, extra)
    if not program.compiled:
        first = (program.compile_log.splitlines() or ["no message"])[0]
        raise JudgeError(f"{source}: the {role} does not compile: {first}")
    return program
