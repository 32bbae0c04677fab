"""Test data: generating cases from the spec, recording their hashes, checking and validating them.

Inputs come from hand-written files or the problem's seeded generator;
answers from the first reference solution. ``manifest.json`` records the
sha256 of every file, so a large case need not be committed: it is produced
again on demand and must come out byte for byte the same. It also records
the sha256 of the files the data is made from (generator, reference,
hand-written inputs), so data that no longer matches its sources is noticed
before anything is judged on it, and produced again. Hashing 80 MB of data
on every command would cost more than judging a small submission, so a file
is hashed only when its size or modification time changed since it was last
found good (``digests.py``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..atomic import atomic_write, partial_beside
from ..errors import JudgeError, UsageError
from ..filecache import sha256_file
from ..lang import Program, build_or_fail
from ..model import CaseSpec, FromFile, Generated, Problem, answer_path, input_path
from ..run import RunSpec, Slot, SlotPool
from ..text import status_text
from .added_to_build import added_to_build
from .data_sources import case_digests, library_files, produced, source_digests, source_files
from .kinds import kind_of
from .phases import measured
from .run_limits import Role, RunBudget, reference_limits, trusted_limits
from .stderr import said_in

MANIFEST = "manifest.json"
COMMIT_LIMIT = 1_000_000


def trusted_spec(
    slot: Slot, program: Program, args: Sequence[str], stdin: Path | None, stdout: Path, stderr: Path, limits: RunBudget
) -> RunSpec:
    """How a problem's own program (generator, reference, validator) runs in a slot: in its private folder, under
    its role's ``limits`` (``run_limits.py``), its command line given their memory figure."""
    return RunSpec(
        argv=[*program.command(limits.command_memory), *args],
        limits=limits.stopped(),
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        cwd=slot.private,
        env=slot.env,
    )


@dataclass
class _Tools:
    """The prepared programs generation needs, built once per command."""

    generator: Program | None
    solution: Program


def _tools(problem: Problem, pool: SlotPool) -> _Tools:
    compile_time = problem.limits.compile_time
    generator = (
        build_or_fail(problem.generator, pool, compile_time, "generator", added_to_build(problem, problem.generator))
        if problem.generator
        else None
    )
    reference = problem.solutions[0]
    return _Tools(
        generator,
        build_or_fail(reference, pool, compile_time, "reference solution", added_to_build(problem, reference)),
    )


def run_trusted(
    slot: Slot, program: Program, args: list[str], stdin: Path | None, target: Path, limits: RunBudget, what: str
) -> None:
    """Run a trusted program into ``target`` atomically; any failure is a judge error naming ``what``."""
    partial = Path(partial_beside(str(target)))
    err = slot.private / "gen.err"
    result = slot.run(trusted_spec(slot, program, args, stdin, partial, err, limits))
    if not result.succeeded:
        partial.unlink(missing_ok=True)
        status = status_text(result.exit_code, result.signal_name, result.killed)
        raise JudgeError(f"{what} failed ({status}): {said_in(err)}")
    partial.chmod(0o644)
    os.replace(partial, target)


def _make_case(problem: Problem, tools: _Tools, case: CaseSpec, root: Path, slot: Slot) -> None:
    inp, ans = input_path(problem, case, root), answer_path(problem, case, root)
    inp.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(case.origin, FromFile):
        shutil.copyfile(case.origin.path, inp)
        inp.chmod(0o644)
    elif isinstance(case.origin, Generated) and tools.generator is not None:
        run_trusted(
            slot,
            tools.generator,
            list(case.origin.args),
            None,
            inp,
            trusted_limits(Role.GENERATOR, tools.generator),
            f"generator for case {case.key}",
        )
    else:
        raise JudgeError(f"case {case.key}: no way to produce its input ({case.source})")
    _make_answer(problem, tools, case, inp, ans, slot)


def _make_answer(problem: Problem, tools: _Tools, case: CaseSpec, inp: Path, ans: Path, slot: Slot) -> None:
    """The reference's output on the input; empty for an interactive problem.

    An interactive reference cannot answer from the input alone (it needs the
    interactor's replies), and the interactor finds all it needs in the input,
    so the answer file only has to exist, as the Kattis format requires.
    """
    if not kind_of(problem).answers_from_reference:
        atomic_write(ans, "")
        ans.chmod(0o644)
        return
    run_trusted(
        slot,
        tools.solution,
        [],
        inp,
        ans,
        reference_limits(problem, tools.solution),
        f"reference solution on case {case.key}",
    )


def _entry(problem: Problem, case: CaseSpec, root: Path) -> dict[str, object]:
    files = {}
    for role, path in (("input", input_path(problem, case, root)), ("answer", answer_path(problem, case, root))):
        files[role] = {"sha256": sha256_file(path), "bytes": path.stat().st_size}
    return {"source": case.source, **files}


def _read_manifest_file(problem: Problem) -> dict:
    path = problem.cases_dir / MANIFEST
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text())
        data["cases"]
    except (ValueError, KeyError, TypeError) as exc:
        raise JudgeError(f"{path}: unreadable manifest ({exc}); run 'generate' again") from None
    return data


def read_manifest(problem: Problem) -> dict[str, dict]:
    return _read_manifest_file(problem).get("cases", {})


def _write_manifest(problem: Problem, entries: dict[str, dict], sources: dict[str, str] | None) -> None:
    """Write manifest and .gitignore atomically; large files are listed in .gitignore so they stay out of git.

    ``sources`` (the sha256 of what the data was made from) is written when
    known; a manifest written before sources were recorded keeps none, so
    producing missing files rewrites it unchanged.
    """
    root = problem.cases_dir
    ordered = {case.key: entries[case.key] for case in problem.cases if case.key in entries}
    data = {
        "problem": problem.name,
        "answers_from": problem.solutions[0].relative_to(problem.root).as_posix(),
        "cases": ordered,
    }
    if sources:
        data["sources"] = sources
    atomic_write(root / MANIFEST, json.dumps(data, indent=1) + "\n")
    large = [
        f"{key}{ext}"
        for key, entry in ordered.items()
        for ext, role in ((".in", "input"), (".ans", "answer"))
        if entry[role]["bytes"] > COMMIT_LIMIT
    ]
    atomic_write(
        root / ".gitignore",
        "# produced on demand from manifest.json by 'run_judge.py generate'\n"
        + "".join(f"/{name}\n" for name in large),
    )


def _produce(
    problem: Problem, pool: SlotPool, cases: list[CaseSpec], root: Path, on_done: Callable[[CaseSpec], None] | None
) -> None:
    if not cases:
        return
    tools = _tools(problem, pool)

    def one(case: CaseSpec) -> None:
        with pool.slot() as slot:
            _make_case(problem, tools, case, root, slot)
        if on_done:
            on_done(case)

    from concurrent.futures import ThreadPoolExecutor  # only when data is made or checked, not on every command

    with ThreadPoolExecutor(max_workers=pool.size) as executor:
        list(executor.map(one, cases))


def generate(problem: Problem, pool: SlotPool, on_done: Callable[[CaseSpec], None] | None = None) -> None:
    """Regenerate every case from the spec and rewrite the manifest."""
    cases = produced(problem)
    if not cases:
        raise UsageError(f"{problem.root}: this package's test data is given, not generated from a spec")
    _produce(problem, pool, cases, problem.cases_dir, on_done)
    digests = case_digests(problem)
    sources = source_digests(problem, digests)
    _write_manifest(problem, {case.key: _entry(problem, case, problem.cases_dir) for case in cases}, sources)
    digests.save(sources)


def stale_cases(problem: Problem) -> dict[str, str]:
    """Cases whose data no longer matches what it is made from, by key, with the reason in words: to be produced again.

    A hand-written input must equal the file it was copied from; generated
    inputs are stale when the generator changed, answers when the reference
    did. Sources are compared with the manifest's record, or, for a manifest
    written before sources were recorded, with what this machine saw first.
    """
    data = _read_manifest_file(problem) if produced(problem) else {}
    manifest = data.get("cases", {})
    if not manifest:
        return {}
    digests = case_digests(problem)
    current = source_digests(problem, digests)
    baseline = data.get("sources") or digests.baseline or current
    changed = {name for name, digest in current.items() if name in baseline and baseline[name] != digest}
    names = {path: name for name, path in source_files(problem).items()}
    generator = names.get(problem.generator) if problem.generator else None
    reference = names[problem.solutions[0]]
    library = next((names[f] for f in library_files(problem) if names[f] in changed), None)
    out: dict[str, str] = {}
    for case in produced(problem):
        entry = manifest.get(case.key)
        if entry is None:
            continue
        if isinstance(case.origin, FromFile) and digests.sha256(case.origin.path) != entry["input"]["sha256"]:
            out[case.key] = f"{names[case.origin.path]} changed"
        elif isinstance(case.origin, Generated) and generator in changed:
            out[case.key] = f"{generator} changed"
        elif reference in changed:
            out[case.key] = f"{reference} changed (it writes the answers)"
        elif library is not None:
            out[case.key] = f"{library} changed (the generator and reference may use it)"
    digests.save(digests.baseline or current)
    return out


def edited_files(problem: Problem) -> list[Path]:
    """Case files that differ from their manifest hash: edited by hand (an experiment, or an accident). They are used as
    they are, never overwritten behind the user's back; the commands say so and ``generate`` restores them."""
    manifest = read_manifest(problem) if produced(problem) else {}
    digests = case_digests(problem)
    out = []
    for case in produced(problem):
        entry = manifest.get(case.key)
        for role, path in (("input", input_path(problem, case)), ("answer", answer_path(problem, case))):
            have = digests.sha256(path) if entry is not None else None
            if have is not None and have != entry[role]["sha256"]:
                out.append(path)
    digests.save()
    return out


def missing_cases(problem: Problem) -> list[CaseSpec]:
    """Cases to produce before judging: files absent, a spec line that no longer matches what the manifest says produced
    them, or data that no longer matches its sources (``stale_cases``)."""
    manifest = read_manifest(problem) if produced(problem) else {}
    stale = stale_cases(problem) if manifest else {}
    out = []
    for case in produced(problem):
        entry = manifest.get(case.key)
        present = input_path(problem, case).is_file() and answer_path(problem, case).is_file()
        if not present or entry is None or entry.get("source") != case.source or case.key in stale:
            out.append(case)
    return out


@measured(lambda problem, *_, **__: f"test data of {problem.name}")
def ensure(problem: Problem, pool: SlotPool, on_done: Callable[[CaseSpec], None] | None = None) -> list[CaseSpec]:
    """Produce missing and stale cases before judging; a case regenerated only because its files were missing must
    match its recorded hash (the generator must be deterministic), a stale one replaces its record."""
    stale = stale_cases(problem)
    todo = missing_cases(problem)
    if not todo:
        return []
    data = _read_manifest_file(problem)
    manifest = data.get("cases", {})
    _produce(problem, pool, todo, problem.cases_dir, on_done)
    for case in todo:
        fresh = _entry(problem, case, problem.cases_dir)
        old = manifest.get(case.key)
        if old is not None and old.get("source") == case.source and old != fresh and case.key not in stale:
            raise JudgeError(
                f"case {case.key}: regenerated data differs from manifest.json (is the generator deterministic?)"
            )
        manifest[case.key] = fresh
    digests = case_digests(problem)
    sources = source_digests(problem, digests) if stale or data.get("sources") else None
    _write_manifest(problem, manifest, sources)
    digests.save(sources or digests.baseline)
    return todo


def check(problem: Problem, pool: SlotPool, on_done: Callable[[CaseSpec], None] | None = None) -> list[str]:
    """Regenerate into a temporary folder and list every file that differs from what is there."""
    manifest = read_manifest(problem)
    cases = produced(problem)
    if not cases:
        raise UsageError(f"{problem.root}: this package's test data is given, not generated from a spec")
    with tempfile.TemporaryDirectory(prefix="regen-") as tmp:
        root = Path(tmp)
        _produce(problem, pool, cases, root, on_done)
        differences = []
        for case in cases:
            fresh = _entry(problem, case, root)
            recorded = manifest.get(case.key)
            for role, path in (("input", input_path(problem, case)), ("answer", answer_path(problem, case))):
                have = sha256_file(path) if path.is_file() else (recorded or {}).get(role, {}).get("sha256")
                if have is None:
                    differences.append(f"{case.key} {role}: not generated yet")
                elif have != fresh[role]["sha256"]:
                    differences.append(
                        f"{case.key} {role}: sha256 {have[:12]} there, {fresh[role]['sha256'][:12]} regenerated"
                    )
        return differences
