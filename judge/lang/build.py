"""Turning a source into a runnable ``Program``: sandboxed compilation with a content-addressed build cache.

Builds are cached by the hash of recipe + source (+ the headers beside a
problem program), so re-judging a submission never recompiles it, and a
failed build (CE) is cached too. ``build_or_fail`` is the one rule for the
problem setter's programs: they must compile, or the judge cannot go on.
"""
from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import JudgeError, UsageError
from ..run import Bind, RunLimits, RunSpec, Slot, SlotPool, cache_root, read_head
from ..text import safe_text, status_text
from .registry import EXE, LANGUAGES, Language, detect, tool

BUILD_CACHE_VERSION = b"2"  # bump when the way builds are made or logged changes: old cache entries are then ignored
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

    def command(self, memory_mib: int) -> list[str]:
        return self._run(memory_mib)

    @property
    def display(self) -> str:
        return str(self.source) if self.source else " ".join(self._run(0))


def from_command(line: str) -> Program:
    """``--cmd``: a command line; arguments naming existing files become absolute so the run's own folder does not matter."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"--cmd: {exc}") from None
    if not words:
        raise UsageError("--cmd: empty command")
    exe = shutil.which(words[0]) or (str(Path(words[0]).resolve()) if Path(words[0]).is_file() else None)
    if exe is None:
        raise UsageError(f"--cmd: '{words[0]}' not found")
    rest = [str(Path(w).resolve()) if Path(w).is_file() else w for w in words[1:]]
    argv = [exe, *rest]
    visible = tuple(Bind(Path(a)) for a in argv if Path(a).is_file() and not a.startswith("/usr/"))
    return Program(LANGUAGES[EXE], None, True, "", lambda mem: list(argv), visible)


def prepare(source: Path, lang: Language, slot: Slot, compile_time: float, include: Path | None = None) -> Program:
    """Build ``source`` (cached by content) and return the program; a failed build gives ``compiled=False`` (CE).

    ``include`` is a folder whose headers the source may include (a problem's
    own folder, so a checker can ship testlib.h beside it); its headers are
    part of the cache key, so editing one rebuilds.
    """
    if not source.is_file():
        raise UsageError(f"{source}: no such file")
    for name in lang.tools:
        tool(name)
    data = source.read_bytes()
    copy_name = lang.source_name(data, source.name) if lang.source_name else source.name
    includes = [include] if include is not None else []
    recipe = " ".join(lang.build(Path("SRC"), Path("OUT"), includes)) if lang.build else "copy"
    headers = [h.read_bytes() for h in sorted(include.glob("*.h*"))] if include is not None else []
    key = hashlib.sha256(b"\0".join([BUILD_CACHE_VERSION, lang.name.encode(), recipe.encode(), copy_name.encode(), data, *headers])).hexdigest()[:32]
    folder = cache_root() / "build" / key
    if not (folder / "build.json").is_file():
        _build(lang, data, copy_name, folder, slot, compile_time, includes)
    meta = json.loads((folder / "build.json").read_text())
    copy = folder / copy_name
    return Program(lang, source, meta["ok"], meta["log"], lambda mem: lang.run(copy, folder, mem), (Bind(folder),))


def _build(lang: Language, data: bytes, name: str, folder: Path, slot: Slot, compile_time: float, includes: list[Path]) -> None:
    """Compile in a private folder, then move it into the cache in one rename so no half-built entry is ever seen."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=folder.parent))
    try:
        copy = work / name
        copy.write_bytes(data)
        ok, log = True, ""
        if lang.build is None:
            copy.chmod(0o755)
        else:
            ok, log = _compile(lang.build(copy, work, includes), work, includes, slot, compile_time, lang)
        (work / "build.json").write_text(json.dumps({"ok": ok, "log": log}))
        work.chmod(0o755)
        try:
            os.rename(work, folder)
        except OSError:
            if not (folder / "build.json").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _compile(argv: list[str], work: Path, includes: list[Path], slot: Slot, compile_time: float, lang: Language) -> tuple[bool, str]:
    """Compile as untrusted code: a hostile source may try to include secrets or blow up the compiler."""
    log_path, out_path = slot.private / "compile.log", slot.private / "compile.out"
    if slot.uid is not None:
        os.chown(work, slot.uid, slot.uid)
        for entry in work.iterdir():
            os.chown(entry, slot.uid, slot.uid)
    limits = RunLimits(
        cpu=compile_time, wall=compile_time * 2 + 5, memory_mib=COMPILE_MEMORY_MIB, address_space_mib=lang.address_space(COMPILE_MEMORY_MIB),
        output_bytes=COMPILE_OUTPUT_BYTES, open_files=512, stack_mib=64,
    )
    binds = [Bind(work, writable=True), *(Bind(folder) for folder in includes)]
    result = slot.run_untrusted(RunSpec(argv=argv, limits=limits, stdout=out_path, stderr=log_path, cwd=work), binds)
    log = safe_text((read_head(out_path) + read_head(log_path)).strip().replace(f"{work}/", ""))
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


def prepare_program(source: Path, lang: Language | None, pool: SlotPool, compile_time: float, include: Path | None = None) -> Program:
    """Build a source in a free slot, detecting its language unless one is given."""
    with pool.slot() as slot:
        return prepare(source, lang or detect(source), slot, compile_time, include)


def prepare_problem_program(source: Path, pool: SlotPool, compile_time: float) -> Program:
    """A problem setter's program (checker, validator, generator, reference): its own folder is on the include path."""
    return prepare_program(source, None, pool, compile_time, include=source.parent)


def build_or_fail(source: Path, pool: SlotPool, compile_time: float, role: str) -> Program:
    """A problem setter's program that must compile: a CE here is the package's fault, so the judge stops (exit 3) naming ``role``."""
    program = prepare_problem_program(source, pool, compile_time)
    if not program.compiled:
        first = (program.compile_log.splitlines() or ["no message"])[0]
        raise JudgeError(f"{source}: the {role} does not compile: {first}")
    return program
