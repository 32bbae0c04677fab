"""Make a Kattis package's data/ from its ``generators/generators.yaml``, as ``bt generate`` does.

The plan (``bt_plan``) says what each case is made from; here the generator
programs (any language of the judge, built once each) run as the problem's
trusted programs do, writing the input on standard output or into
``testcase.in`` (and the answer into ``testcase.ans``) in their folder, and the
``solution:`` writes each answer the plan does not give (an interactive or
multi-pass problem's answers are left empty), as many cases at a time as
the pool has slots (``-j``). A case is made again only when
what it depends on changed: the digest of its recipe, the generator's and the
solution's files is kept in ``data/.generated.json``, and files a previous run
made for cases no longer planned are removed. Like bt, this writes into the
package's own data/ folder, which the judge then reads as it is.

The validators' folders (``invalid_input`` and the rest) are made the same
way but never by the solution: their answers and outputs are given. A
sample made only of what its statement shows (``in.statement`` and
``in.download``) is made and not judged, as in bt. A ``match:`` pattern the
made file does not contain is a warning, as bt gives.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.run_limits import Role, trusted_limits
from ..core.testdata import run_trusted
from ..errors import UsageError
from ..lang import Additions, Program, build_or_fail
from ..run import RunLimits, SlotPool
from .bt_plan import CHECK_ROOTS, GENERATORS_FILE, PlannedCase, read_plan

RECORD = ".generated.json"
# what a case may consist of, as bt knows them: what copy: copies, a generator may write and a removed case loses
EXTENSIONS = (".in", ".ans", ".out", ".in.statement", ".ans.statement", ".in.download", ".ans.download")
EXTENSIONS += (".interaction", ".yaml", ".png", ".jpg", ".svg", ".pdf")
SOLUTION_LIMITS = RunLimits(cpu=60, wall=120, memory_mib=2048, output_bytes=512 << 20, stack_mib=1024)


@dataclass
class Made:
    made: int = 0
    kept: int = 0
    removed: int = 0
    not_made: list[str] = field(default_factory=list)


def has_generators(root: Path) -> bool:
    return (root / GENERATORS_FILE).is_file()


def make_data(root: Path, pool: SlotPool, on_done: Callable[[PlannedCase], None] = lambda case: None) -> Made:
    """Make every planned case whose recipe changed, write each folder's settings, remove what is no longer planned."""
    plan = read_plan(root)
    data = root / "data"
    record_path = data / RECORD
    try:
        record: dict[str, str] = json.loads(record_path.read_text()) if record_path.is_file() else {}
    except (OSError, ValueError):
        record = {}
    answers_empty = _interactive(root)
    result = Made(not_made=list(plan.not_made))
    now: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="tilejudge-generators-") as scratch:
        programs = _Programs(root, plan.named, Path(scratch), plan.constants)

        def one(case: PlannedCase) -> tuple[str, bool]:
            """Make one case unless what it depends on is unchanged: its digest, and whether it was made."""
            digest = _digest(root, programs, case) if case.origin is None else f"{now[case.origin]} {case.origin}"
            made = record.get(case.path) != digest or _missing(data / case.path, case) is not None
            if made:
                _make(root, case, pool, programs, answers_empty)
            on_done(case)
            return digest, made

        from concurrent.futures import ThreadPoolExecutor  # one case per slot at a time, as judging runs them

        recipes = [c for c in plan.cases if c.origin is None]
        with ThreadPoolExecutor(max_workers=pool.size) as executor:
            done = list(zip(recipes, executor.map(one, recipes)))
        now.update((case.path, digest) for case, (digest, _) in done)
        done += [(case, one(case)) for case in plan.cases if case.origin is not None]  # copies of cases made above
        for case, (digest, made) in done:
            now[case.path] = digest
            result.made, result.kept = result.made + made, result.kept + (not made)
    result.not_made += [line for case in plan.cases for line in _unmatched(data / case.path, case)]
    for folder, (name, content) in plan.folders.items():
        import yaml

        target = data / folder / name if folder else data / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(yaml.safe_dump(content, sort_keys=False))
    for gone in sorted(set(record) - set(now)):
        for extension in EXTENSIONS:
            (data / f"{gone}{extension}").unlink(missing_ok=True)
        result.removed += 1
    data.mkdir(parents=True, exist_ok=True)
    record_path.write_text(json.dumps(now, indent=1, sort_keys=True))
    return result


def _interactive(root: Path) -> bool:
    """Whether the problem's answers are no output (interactive or multi-pass, as ``type`` or legacy ``validation``
    says, a string or a list): they are then written empty."""
    import yaml

    from ..errors import SpecError
    from ..problem.formats.kattis_kind import type_words

    try:
        meta = yaml.safe_load((root / "problem.yaml").read_text()) or {}
        words = type_words(meta, root, str(root)) if isinstance(meta, dict) else set()
    except (OSError, yaml.YAMLError, SpecError):  # the loader names what is wrong with problem.yaml
        return False
    return "interactive" in words or "multi-pass" in words


class _Programs:
    """The programs a plan names, found and built once: a file or folder under generators/ (or from the package root
    with a leading /), or a name under ``generators:`` for several files, gathered into a folder of their own."""

    def __init__(self, root: Path, named: dict[str, list[str]], scratch: Path, constants: dict[str, str]) -> None:
        self.root = root
        self.constants = constants
        self.places: dict[str, Path] = {}
        scratch.chmod(0o755)  # the build reads it (its headers' folder) as the slot's user: package files, no secret
        for name, files in named.items():
            folder = scratch / name
            folder.mkdir(parents=True)
            for file in files:
                source = self.path(file)
                shutil.copyfile(source, folder / source.name)
            self.places[name] = folder
        self.built: dict[Path, Program] = {}
        self._building = threading.Lock()  # cases made side by side share one build of each program

    def path(self, word: str) -> Path:
        if word in self.places:
            return self.places[word]
        root = self.root
        path = root / word.lstrip("/") if word.startswith("/") else root / "generators" / word
        if not path.resolve().is_relative_to(root.resolve()):
            raise UsageError(f"{GENERATORS_FILE}: {word} is outside the package")
        if not path.exists():
            raise UsageError(f"{GENERATORS_FILE}: no program {word} (looked at {path})")
        return path

    def program(self, word: str, pool: SlotPool, role: str) -> Program:
        path = self.path(word)
        with self._building:
            return self._built(path, pool, role)

    def _built(self, path: Path, pool: SlotPool, role: str) -> Program:
        if path not in self.built:  # the package's own program: its {{constants}} written in, as bt builds it
            self.built[path] = build_or_fail(path, pool, 60.0, role, Additions(constants=self.constants, own=True))
        return self.built[path]


def _files_of(path: Path) -> list[bytes]:
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return [p.read_bytes() for p in files]


def _digest(root: Path, programs: _Programs, case: PlannedCase) -> str:
    """What the case depends on: its recipe, its generator's files and, where the answer is made, the solution's."""
    recipe = (case.command, case.input, case.answer, case.copy, case.yaml, case.texts, case.links)
    parts = [repr((recipe, sorted(programs.constants.items()))).encode()]  # constants: written into the programs
    if case.command:
        parts += _files_of(programs.path(shlex.split(case.command)[0]))
    if case.copy:
        parts += [p.read_bytes() for p in _copied(root, case.copy)]
    if case.answer is None and case.solution and case.root not in CHECK_ROOTS:
        parts += _files_of(programs.path(case.solution))
    return hashlib.sha256(b"\0".join(parts)).hexdigest()


def _copied(root: Path, copy: str) -> list[Path]:
    base = root / "generators" / copy
    return [_at(base, extension) for extension in EXTENSIONS if _at(base, extension).is_file()]


def _at(base: Path, extension: str) -> Path:
    """A file of the case ``base`` (its path under data/ without extension; a case name may hold dots)."""
    return base.with_name(base.name + extension)


def _has_input(base: Path) -> bool:
    """What bt takes for a case's input: its ``.in``, or for a sample what its statement shows and what is offered for
    download (an interactive sample's ``.interaction`` for the first)."""
    shown = _at(base, ".in.statement").is_file() or _at(base, ".interaction").is_file()
    return _at(base, ".in").is_file() or shown and _at(base, ".in.download").is_file()


def _missing(base: Path, case: PlannedCase) -> str | None:
    """The file a made case lacks, if any: its input, its answer (not in invalid_input, nor beside a sample that is
    only shown) and in invalid_output and valid_output its output."""
    if not _has_input(base):
        return ".in"
    if not _at(base, ".in").is_file() or case.root == "invalid_input":
        return None
    needed = (".ans", ".out") if case.root in ("invalid_output", "valid_output") else (".ans",)
    return next((e for e in needed if not _at(base, e).is_file()), None)


def _unmatched(base: Path, case: PlannedCase) -> list[str]:
    """``match:`` patterns the made input or answer does not contain."""
    import re

    out = []
    for ext, pattern in case.match:
        file = _at(base, f".{ext}")
        text = file.read_text(errors="replace") if file.is_file() else ""
        if re.search(pattern, text, re.MULTILINE | re.DOTALL) is None:  # as bt reads its patterns
            out.append(f"{GENERATORS_FILE}: {case.path}: no match for '{pattern}' in its .{ext}")
    return out


def _make(root: Path, case: PlannedCase, pool: SlotPool, programs: _Programs, answers_empty: bool) -> None:
    data = root / "data"
    base = data / case.path
    inp, ans = _at(base, ".in"), _at(base, ".ans")
    inp.parent.mkdir(parents=True, exist_ok=True)
    for extension in EXTENSIONS:  # what a changed recipe made before must not stand in for what it makes now
        _at(base, extension).unlink(missing_ok=True)
    if case.origin is not None:  # included: every file the case it names has, as bt links them
        for extension in EXTENSIONS:
            if _at(data / case.origin, extension).is_file():
                shutil.copyfile(_at(data / case.origin, extension), _at(base, extension))
        return
    if case.yaml is not None:
        import yaml

        (data / f"{case.path}.yaml").write_text(yaml.safe_dump(case.yaml, sort_keys=False))
    if case.command:
        words = shlex.split(case.command)  # quotes group words: BAPCtools' generatorcount passes 't' as t
        generator = programs.program(words[0], pool, "generator")
        with pool.slot() as slot:
            written = [slot.private / f"testcase{extension}" for extension in EXTENSIONS]
            for file in written:
                file.unlink(missing_ok=True)
            run_trusted(
                slot,
                generator,
                words[1:],
                None,
                inp,
                trusted_limits(Role.GENERATOR, generator),
                f"generator for {case.path}",
            )
            for file, extension in zip(written, EXTENSIONS):  # a generator may write testcase.in/.ans/... instead
                if file.is_file():
                    shutil.move(file, _at(base, extension))
            if inp.is_file() and inp.stat().st_size == 0 and _at(base, ".in.statement").is_file():
                inp.unlink()  # a sample shown only through its statement: its empty standard output is no input
    if case.copy:
        for source in _copied(root, case.copy):
            shutil.copyfile(source, base.with_name(base.name + source.name[len(Path(case.copy).name) :]))
    for extension, text in ((("in", case.input),) if case.input is not None else ()) + case.texts:
        _at(base, f".{extension}").write_text(text)
    if case.answer is not None:
        ans.write_text(case.answer)
    _link(base, case, "in")  # the input's links now, the answer's once the solution has written it
    if not _has_input(base):
        raise UsageError(f"{GENERATORS_FILE}: {case.path}: nothing made its input")
    if inp.is_file() and not ans.is_file() and case.root != "invalid_input":
        if answers_empty:
            ans.write_text("")
        elif case.root in CHECK_ROOTS:
            raise UsageError(
                f"{GENERATORS_FILE}: {case.path}: no answer given (the solution makes none here, as in bt)"
            )
        elif not case.solution:
            raise UsageError(f"{GENERATORS_FILE}: {case.path}: no answer given and no 'solution:' to make it")
        else:
            solution = programs.program(case.solution, pool, "solution")
            with pool.slot() as slot:
                run_trusted(
                    slot,
                    solution,
                    [],
                    inp,
                    ans,
                    trusted_limits(Role.REFERENCE, solution, SOLUTION_LIMITS),
                    f"solution on {case.path}",
                )
    _link(base, case, "ans")
    lacking = _missing(base, case)
    if lacking is not None:
        raise UsageError(f"{GENERATORS_FILE}: {case.path}: no {lacking} made (give it as '{lacking[1:]}:')")


def _link(base: Path, case: PlannedCase, kind: str) -> None:
    """The files a case names as links to another of its files of the same kind (in or ans), made as copies."""
    for extension, target in case.links:
        if target.split(".")[0] != kind:
            continue
        source = _at(base, f".{target}")
        if not source.is_file():
            raise UsageError(f"{GENERATORS_FILE}: {case.path}: {extension} links to {target}, which was not made")
        shutil.copyfile(source, _at(base, f".{extension}"))
