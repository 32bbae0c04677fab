"""Make a Kattis package's data/ from its ``generators/generators.yaml``, as ``bt generate`` does.

The plan (``bt_plan``) says what each case is made from; here the generator
programs (any language of the judge, built once each) run as the problem's
trusted programs do, writing the input on standard output or into
``testcase.in`` (and the answer into ``testcase.ans``) in their folder, and the
``solution:`` writes each answer the plan does not give (an interactive or
multi-pass problem's answers are left empty). A case is made again only when
what it depends on changed: the digest of its recipe, the generator's and the
solution's files is kept in ``data/.generated.json``, and files a previous run
made for cases no longer planned are removed. Like bt, this writes into the
package's own data/ folder, which the judge then reads as it is.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.testdata import GENERATOR_LIMITS, run_trusted
from ..errors import UsageError
from ..lang import Program, build_or_fail
from ..run import RunLimits, SlotPool
from .bt_plan import GENERATORS_FILE, PlannedCase, read_plan

RECORD = ".generated.json"
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
        programs = _Programs(root, plan.named, Path(scratch))
        for case in plan.cases:
            digest = _digest(root, programs, case)
            now[case.path] = digest
            inp, ans = data / f"{case.path}.in", data / f"{case.path}.ans"
            if record.get(case.path) == digest and inp.is_file() and ans.is_file():
                result.kept += 1
            else:
                _make(root, case, pool, programs, answers_empty)
                result.made += 1
            on_done(case)
    for folder, (name, content) in plan.folders.items():
        import yaml

        target = data / folder / name if folder else data / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(yaml.safe_dump(content, sort_keys=False))
    for gone in sorted(set(record) - set(now)):
        for extension in (".in", ".ans", ".yaml"):
            (data / f"{gone}{extension}").unlink(missing_ok=True)
        result.removed += 1
    data.mkdir(parents=True, exist_ok=True)
    record_path.write_text(json.dumps(now, indent=1, sort_keys=True))
    return result


def _interactive(root: Path) -> bool:
    import yaml

    try:
        meta = yaml.safe_load((root / "problem.yaml").read_text()) or {}
    except (OSError, yaml.YAMLError):
        return False
    words = str(meta.get("type", "")).split() if isinstance(meta, dict) else []
    return "interactive" in words or "multi-pass" in words


class _Programs:
    """The programs a plan names, found and built once: a file or folder under generators/ (or from the package root
    with a leading /), or a name under ``generators:`` for several files, gathered into a folder of their own."""

    def __init__(self, root: Path, named: dict[str, list[str]], scratch: Path) -> None:
        self.root = root
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
        if path not in self.built:
            self.built[path] = build_or_fail(path, pool, 60.0, role)
        return self.built[path]


def _files_of(path: Path) -> list[bytes]:
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return [p.read_bytes() for p in files]


def _digest(root: Path, programs: _Programs, case: PlannedCase) -> str:
    """What the case depends on: its recipe, its generator's files and, where the answer is made, the solution's."""
    parts = [repr((case.command, case.input, case.answer, case.copy, case.yaml)).encode()]
    if case.command:
        parts += _files_of(programs.path(shlex.split(case.command)[0]))
    if case.copy:
        parts += [p.read_bytes() for p in sorted((root / "generators").glob(f"{case.copy}.*")) if p.is_file()]
    if case.answer is None and case.solution:
        parts += _files_of(programs.path(case.solution))
    return hashlib.sha256(b"\0".join(parts)).hexdigest()


def _make(root: Path, case: PlannedCase, pool: SlotPool, programs: _Programs, answers_empty: bool) -> None:
    data = root / "data"
    inp, ans = data / f"{case.path}.in", data / f"{case.path}.ans"
    inp.parent.mkdir(parents=True, exist_ok=True)
    for stale in (inp, ans):  # what a changed recipe made before must not stand in for what it makes now
        stale.unlink(missing_ok=True)
    if case.yaml is not None:
        import yaml

        (data / f"{case.path}.yaml").write_text(yaml.safe_dump(case.yaml, sort_keys=False))
    if case.copy:
        for source in sorted((root / "generators").glob(f"{case.copy}.*")):
            if source.is_file():
                shutil.copyfile(source, data / f"{case.path}{source.suffix}")
    if case.input is not None:
        inp.write_text(case.input)
    elif case.command:
        words = shlex.split(case.command)  # quotes group words: BAPCtools' generatorcount passes 't' as t
        generator = programs.program(words[0], pool, "generator")
        with pool.slot() as slot:
            written = [slot.private / f"testcase{extension}" for extension in (".in", ".ans")]
            for file in written:
                file.unlink(missing_ok=True)
            run_trusted(slot, generator, words[1:], None, inp, GENERATOR_LIMITS, f"generator for {case.path}")
            for file, target in zip(written, (inp, ans)):  # a generator may write testcase.in/.ans instead
                if file.is_file():
                    shutil.move(file, target)
    if not inp.is_file():
        raise UsageError(f"{GENERATORS_FILE}: {case.path}: nothing made its input")
    if case.answer is not None:
        ans.write_text(case.answer)
    elif answers_empty:
        ans.write_text("")
    elif not ans.is_file():  # neither copied nor written by the generator
        if not case.solution:
            raise UsageError(f"{GENERATORS_FILE}: {case.path}: no answer given and no 'solution:' to make it")
        solution = programs.program(case.solution, pool, "solution")
        with pool.slot() as slot:
            run_trusted(slot, solution, [], inp, ans, SOLUTION_LIMITS, f"solution on {case.path}")
