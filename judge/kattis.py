"""The Kattis / ICPC problem package format: read one as it is, infer its time limit, write ours as one.

Import maps a package (legacy, 2023-07-draft or 2025-09 layout) onto the
judge's own Problem model, so judging, grading and verify need no second code
path: data/ groups become groups, test_group.yaml / testdata.yaml settings
become points, aggregation and validator arguments, output_validator(s)/
becomes a Kattis-protocol checker (or the default output validator with its
flags), input_validators/ the validators, submissions/<verdict>/ the test
submissions. What is not supported (interactive, multi-pass, submit-answer,
submissions.yaml expectations, score.txt) is refused or reported, never
silently misjudged.
"""
from __future__ import annotations

import math
import os
import shutil
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

import yaml

from .errors import SpecError, UsageError
from .run import SlotPool
from .languages import LANGUAGES, detect, prepare_program
from .spec import SPEC_NAME, CaseSpec, CheckerSpec, Group, Limits, Problem
from .verdicts import Verdict

SIDE_CAR = "tilejudge.yaml"  # what Kattis has no key for (per-language time factors); ignored by other judges
KATTIS_VERDICT = {
    Verdict.AC: "AC", Verdict.WA: "WA", Verdict.PE: "WA", Verdict.TLE: "TLE",
    Verdict.RE: "RTE", Verdict.MLE: "RTE", Verdict.OLE: "RTE",
}
# folder -> (verdicts a submission there may get, verdicts of which it must get one), 2025-09 defaults
FOLDER_RULES: dict[str, tuple[set[str], set[str]]] = {
    "accepted": ({"AC"}, set()),
    "wrong_answer": ({"AC", "WA"}, {"WA"}),
    "time_limit_exceeded": ({"AC", "TLE"}, {"TLE"}),
    "run_time_error": ({"AC", "RTE"}, {"RTE"}),
    "rejected": ({"AC", "WA", "TLE", "RTE"}, {"WA", "TLE", "RTE"}),
    "brute_force": ({"AC", "TLE", "RTE"}, {"TLE", "RTE"}),
}
UNSUPPORTED_TYPES = ("interactive", "multi-pass", "submit-answer")


@dataclass(frozen=True)
class TimeRule:
    """How the time limit is found when the package does not state one."""

    ac_to_time_limit: float
    time_limit_to_tle: float
    resolution: float

    def limit_for(self, slowest_accepted: float) -> float:
        steps = max(1, math.ceil(slowest_accepted * self.ac_to_time_limit / self.resolution - 1e-9))
        return steps * self.resolution


def is_kattis(root: Path) -> bool:
    """A Kattis package: a data/ folder and a problem.yaml without our ``groups``."""
    if not (root / "data").is_dir():
        return False
    try:
        meta = yaml.safe_load((root / SPEC_NAME).read_text()) if (root / SPEC_NAME).is_file() else {}
    except yaml.YAMLError:
        return True
    return not (isinstance(meta, dict) and "groups" in meta)


def _meta(root: Path, shown: str) -> dict[str, Any]:
    path = root / SPEC_NAME
    if not path.is_file():
        return {}
    try:
        meta = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SpecError(f"{shown}/{SPEC_NAME}", mark.line + 1 if mark else None, f"invalid YAML: {getattr(exc, 'problem', exc)}") from None
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise SpecError(f"{shown}/{SPEC_NAME}", 1, "problem.yaml must be a mapping")
    return meta


def _types(meta: dict[str, Any]) -> set[str]:
    kinds = meta.get("type", "pass-fail")
    kinds = {kinds} if isinstance(kinds, str) else set(kinds or [])
    validation = str(meta.get("validation", "default")).split()
    if "interactive" in validation:
        kinds.add("interactive")
    if "score" in validation:
        kinds.add("scoring")
    return kinds


def _program(path: Path) -> Path | None:
    """A Kattis program is a file or a folder; a folder must hold exactly one source we can build (or a __main__.py)."""
    if path.is_file():
        return path
    if (path / "__main__.py").is_file():
        return path / "__main__.py"
    sources = sorted(p for p in path.iterdir() if p.is_file() and any(p.suffix.lower() in l.extensions for l in LANGUAGES.values()))
    return sources[0] if len(sources) == 1 else None


def _settings(folder: Path, data_root: Path, legacy: bool) -> dict[str, Any]:
    """testdata.yaml (legacy: nearest ancestors merged key by key) or test_group.yaml (2025-09: inherited)."""
    names = ("testdata.yaml",) if legacy else ("test_group.yaml", "testdata.yaml")
    chain = [folder, *folder.parents]
    merged: dict[str, Any] = {}
    for directory in reversed(chain[: chain.index(data_root) + 1] if data_root in chain else [folder]):
        for name in names:
            file = directory / name
            if file.is_file():
                try:
                    loaded = yaml.safe_load(file.read_text()) or {}
                except yaml.YAMLError as exc:
                    mark = getattr(exc, "problem_mark", None)
                    raise SpecError(file, mark.line + 1 if mark else None, f"invalid YAML: {getattr(exc, 'problem', exc)}") from None
                if not isinstance(loaded, dict):
                    raise SpecError(file, 1, f"{name} must be a mapping")
                merged.update(loaded)
                break
    return merged


def _args(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    if isinstance(value, dict):  # {validator name: args}: applied to every validator, as one program per package is usual
        return tuple(str(v) for args in value.values() for v in (args if isinstance(args, list) else str(args).split()))
    return (str(value),)


def load_kattis(root: Path, shown: str | None = None) -> Problem:
    """Read a Kattis package into the judge's model; the time limit is 0 when it must be inferred (see infer_time_limit)."""
    shown = shown or str(root)
    meta = _meta(root, shown)
    kinds = _types(meta)
    for kind in UNSUPPORTED_TYPES:
        if kind in kinds:
            raise UsageError(f"{shown}: {kind} problems are not supported yet")
    version = str(meta.get("problem_format_version", "legacy"))
    legacy = version.startswith("legacy")
    name = meta.get("name", root.name)
    title = name.get("en", next(iter(name.values()), root.name)) if isinstance(name, dict) else str(name)
    limits_meta = meta.get("limits") or {}
    scoring = "scoring" in kinds
    checker = _checker(root, meta, legacy)
    groups = _groups(root, legacy, scoring, meta)
    if not any(g.cases for g in groups):
        raise UsageError(f"{shown}: no test cases under data/")
    try:
        limits = Limits(
            time=float(limits_meta.get("time_limit", 0.0)),
            memory_mib=int(limits_meta.get("memory", 1024 if legacy else 2048)),
            output_mib=float(limits_meta.get("output", 8)),
            time_factor=_side_car_factors(root),
            compile_time=float(limits_meta.get("compilation_time", 60)),
        )
    except (TypeError, ValueError, AttributeError) as exc:
        raise SpecError(f"{shown}/{SPEC_NAME}", None, f"limits: {exc}") from None
    validators = tuple(p for p in (_program(v) for folder in ("input_validators", "input_format_validators") if (root / folder).is_dir()
                                   for v in sorted((root / folder).iterdir()) if not v.name.startswith(".")) if p is not None)
    statement = next((p for p in (root / "statement" / "problem.en.md", root / "problem_statement" / "problem.en.tex",
                                  root / "problem_statement" / "problem.tex") if p.is_file()), root / "statement" / "problem.en.md")
    source = meta.get("source", "")
    return Problem(
        name=root.name, root=root, title=title, source=source.get("name", "") if isinstance(source, dict) else str(source),
        statement=statement, limits=limits, checker=checker, generator=None, validators=validators,
        solutions=_reference(root),
        groups=tuple(groups), cases_dir=root / "data", package_format="kattis",
    )


def _reference(root: Path) -> tuple[Path, ...]:
    """The first accepted submission that is one buildable source: what stress compares against."""
    accepted = root / "submissions" / "accepted"
    entries = sorted(accepted.iterdir()) if accepted.is_dir() else []
    sources = [p for p in (_program(e) if e.is_dir() else e for e in entries) if p is not None and p.is_file()]
    return tuple(sources[:1])


def _side_car_factors(root: Path) -> dict[str, float]:
    file = root / SIDE_CAR
    if not file.is_file():
        return {}
    data = yaml.safe_load(file.read_text()) or {}
    return {str(k): float(v) for k, v in (data.get("time_factor") or {}).items()}


def time_rule(root: Path) -> TimeRule:
    meta = _meta(root, str(root))
    limits = meta.get("limits") or {}
    if str(meta.get("problem_format_version", "legacy")).startswith("legacy"):
        return TimeRule(float(limits.get("time_multiplier", 5)), float(limits.get("time_safety_margin", 2)), 1.0)
    multipliers = limits.get("time_multipliers") or {}
    return TimeRule(float(multipliers.get("ac_to_time_limit", 2.0)), float(multipliers.get("time_limit_to_tle", 1.5)), float(limits.get("time_resolution", 1.0)))


def _checker(root: Path, meta: dict[str, Any], legacy: bool) -> CheckerSpec:
    folders = ("output_validators", "output_validator") if legacy else ("output_validator", "output_validators")
    custom = str(meta.get("validation", "default")).split()[:1] == ["custom"] or not legacy
    for folder in folders:
        path = root / folder
        if custom and path.is_dir():
            entries = [e for e in sorted(path.iterdir()) if not e.name.startswith(".")]
            program = _program(path) if not legacy or len(entries) != 1 else _program(entries[0])
            if program is None:
                raise UsageError(f"{path}: cannot tell which file is the output validator (one source, or a folder with one)")
            return CheckerSpec(type="kattis", program=program)
    return CheckerSpec(type="kattis-default")


def _groups(root: Path, legacy: bool, scoring: bool, meta: dict[str, Any]) -> list[Group]:
    """One group per folder holding .in files, in lexicographic order: sample first, then secret."""
    data = root / "data"
    problem_flags = _args(meta.get("validator_flags")) if legacy else ()
    groups: list[Group] = []
    for top in ("sample", "secret"):
        base = data / top
        if not base.is_dir():
            continue
        folders = sorted({p.parent for p in base.rglob("*.in")}, key=lambda p: p.relative_to(data).as_posix())
        secret_settings = _settings(base, data, legacy)
        for folder in folders:
            settings = _settings(folder, data, legacy)
            cases = []
            for inp in sorted(folder.glob("*.in")):
                ans = inp.with_suffix(".ans")
                if not ans.is_file():
                    raise UsageError(f"{inp}: no matching .ans file")
                case_yaml = inp.with_suffix(".yaml")
                case_settings = {**settings, **(yaml.safe_load(case_yaml.read_text()) or {})} if case_yaml.is_file() else settings
                output_args = problem_flags + _args(case_settings.get("output_validator_flags" if legacy else "output_validator_args"))
                cases.append(CaseSpec(
                    name=inp.stem, group=folder.relative_to(data).as_posix(), input_file=inp.resolve(), answer_file=ans.resolve(),
                    source=f"file: {inp.relative_to(root).as_posix()}", checker_args=output_args,
                    validator_args=_args(case_settings.get("input_validator_flags" if legacy else "input_validator_args")) + _args(case_settings.get("args")),
                ))
            if not cases:
                continue
            points, aggregation = _points(top, folder, base, settings, secret_settings, len(cases), scoring, legacy, len(folders))
            groups.append(Group(name=folder.relative_to(data).as_posix(), points=points, cases=tuple(cases), aggregation=aggregation))
    return groups


def _points(top: str, folder: Path, base: Path, settings: dict[str, Any], secret: dict[str, Any], count: int,
            scoring: bool, legacy: bool, siblings: int) -> tuple[float, str]:
    """A group's points and aggregation. Samples never score; pass-fail problems have no points."""
    if not scoring or top == "sample":
        return 0.0, "min"
    if legacy:
        accept = float(settings.get("accept_score", 1))
        mode = "min" if "min" in str(settings.get("grader_flags", "")).split() else "sum"
        return (accept if mode == "min" else accept * count), mode
    aggregation = str(settings.get("score_aggregation", "sum" if folder == base else "pass-fail"))
    if folder == base:
        max_score = float(secret.get("max_score", 100))
    else:
        max_score = settings.get("max_score")
        if max_score is None or max_score == "unbounded":
            max_score = float(secret.get("max_score", 100)) / max(1, siblings)
    return float(max_score), ("sum" if aggregation == "sum" else "min")


@dataclass
class KattisSubmission:
    path: Path
    source: Path | None
    folder: str


def submissions(problem: Problem) -> list[KattisSubmission]:
    """submissions/<folder>/<file or folder>; a folder submission must hold one source we can build."""
    out = []
    base = problem.root / "submissions"
    if not base.is_dir():
        return out
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith("."):
                continue
            out.append(KattisSubmission(entry, _program(entry) if entry.is_dir() else entry, folder.name))
    return out


def meets_rule(verdicts: list[Verdict], rule: tuple[set[str], set[str]]) -> bool:
    """Every case verdict permitted, and (unless nothing is required) at least one required verdict seen."""
    permitted, required = rule
    seen = {KATTIS_VERDICT.get(v, v.value) for v in verdicts}
    return seen <= permitted and (not required or bool(seen & required))


def infer_time_limit(problem: Problem, pool: SlotPool, log: Callable[[str], None]) -> Problem:
    """The Kattis way: slowest accepted run × ac_to_time_limit, rounded up to the time resolution."""
    if problem.limits.time > 0:
        return problem
    from .judging import JudgeOptions, judge

    rule = time_rule(problem.root)
    provisional = replace(problem, limits=replace(problem.limits, time=60.0))
    accepted = [s for s in submissions(problem) if s.folder == "accepted" and s.source is not None]
    if not accepted:
        raise UsageError(f"{problem.root}: no time limit given and no accepted submission to infer it from")
    slowest, who = 0.0, ""
    for sub in accepted:
        program = prepare_program(sub.source, detect(sub.source), pool, problem.limits.compile_time)
        report = judge(provisional, program, pool, JudgeOptions())
        if report.verdict is not Verdict.AC:
            raise UsageError(f"{sub.path}: accepted submission gets {report.verdict.value} while inferring the time limit")
        time = max((c.time for c in report.cases), default=0.0)
        if time >= slowest:
            slowest, who = time, sub.path.name
    limit = rule.limit_for(slowest)
    log(f"time limit inferred the Kattis way: slowest accepted {slowest:.3f} s ({who}) × {rule.ac_to_time_limit:g}, "
        f"rounded up to {rule.resolution:g} s → {limit:g} s")
    return replace(problem, limits=replace(problem.limits, time=limit))


def export(problem: Problem, out: Path, log: Callable[[str], None]) -> None:
    """Write ``problem`` as a Kattis 2025-09 package into the empty or new folder ``out``."""
    if problem.checker.type == "testlib":
        raise UsageError(f"{problem.name}: a testlib checker has no Kattis equivalent; export needs a builtin or kattis checker")
    if out.exists() and any(out.iterdir()):
        raise UsageError(f"{out}: not empty; export writes into a new or empty folder")
    out.mkdir(parents=True, exist_ok=True)
    scoring = problem.max_score > 0
    limits = problem.limits
    meta: dict[str, Any] = {
        "problem_format_version": "2025-09", "type": "scoring" if scoring else "pass-fail", "name": problem.title,
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"tilejudge:{problem.name}")),
        "limits": {"time_limit": limits.time, "memory": limits.memory_mib, "output": max(1, math.ceil(limits.output_mib))},
    }
    if problem.source:
        meta["source"] = problem.source
    (out / SPEC_NAME).write_text(yaml.safe_dump(meta, sort_keys=False, allow_unicode=True))
    if limits.time_factor:
        (out / SIDE_CAR).write_text("# Per-language time factors: Kattis has no key for them, other judges ignore this file.\n"
                                   + yaml.safe_dump({"time_factor": dict(limits.time_factor)}, sort_keys=False))
        log(f"note: per-language time factors {dict(limits.time_factor)} kept only in {SIDE_CAR}; Kattis and DOMjudge use one time limit for all languages")
    _export_data(problem, out, scoring)
    _export_programs(problem, out, log)


def _validator_args(spec: CheckerSpec) -> list[str]:
    """Our builtin comparison as the Kattis default validator's flags (lines and tokens lose the PE distinction)."""
    if spec.type == "exact":
        return ["case_sensitive", "space_change_sensitive"]
    if spec.type in ("lines", "tokens"):
        return ["case_sensitive"] if spec.case_sensitive else []
    if spec.type == "float":
        return ["case_sensitive", "float_absolute_tolerance", repr(spec.abs_tol), "float_relative_tolerance", repr(spec.rel_tol)]
    return []


def _export_data(problem: Problem, out: Path, scoring: bool) -> None:
    from .testdata import answer_path, input_path

    data = out / "data"
    validator_args = _validator_args(problem.checker)
    secret_groups = [g for g in problem.groups if not (g.points == 0 and g.name.startswith("sample"))]
    sample_groups = [g for g in problem.groups if g not in secret_groups]
    if sample_groups:
        sample = data / "sample"
        sample.mkdir(parents=True)
        if validator_args:
            (sample / "test_group.yaml").write_text(yaml.safe_dump({"output_validator_args": validator_args}))
        index = 0
        for group in sample_groups:
            for case in group.cases:
                index += 1
                _place(input_path(problem, case), answer_path(problem, case), sample / f"{index:03d}-{case.name}")
    secret = data / "secret"
    secret.mkdir(parents=True)
    top: dict[str, Any] = {}
    if scoring:
        top.update({"max_score": _number(sum(g.points for g in secret_groups)), "score_aggregation": "sum"})
    if validator_args:
        top["output_validator_args"] = validator_args
    if top:
        (secret / "test_group.yaml").write_text(yaml.safe_dump(top, sort_keys=False))
    for number, group in enumerate(secret_groups, start=1):
        folder = secret / f"{number:02d}-{group.name}"
        folder.mkdir()
        if scoring:
            (folder / "test_group.yaml").write_text(yaml.safe_dump({"max_score": _number(group.points), "score_aggregation": group.aggregation}, sort_keys=False))
        for index, case in enumerate(group.cases, start=1):
            _place(input_path(problem, case), answer_path(problem, case), folder / f"{index:03d}-{case.name}")


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _place(inp: Path, ans: Path, stem: Path) -> None:
    """Hard-link the data when the file system allows it: exporting 100 MB of cases should not copy them."""
    for src, suffix in ((inp, ".in"), (ans, ".ans")):
        target = stem.with_suffix(suffix)
        try:
            os.link(src, target)
        except OSError:
            shutil.copyfile(src, target)


def _export_programs(problem: Problem, out: Path, log: Callable[[str], None]) -> None:
    statement = out / "statement"
    statement.mkdir()
    text = problem.statement.read_text(encoding="utf-8") if problem.statement.is_file() else ""
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):  # the judge system prints the name itself
        lines = lines[1:]
    (statement / "problem.en.md").write_text("\n".join(lines).strip() + "\n")
    if problem.checker.type == "kattis" and problem.checker.program is not None:
        _copy_program(problem.checker.program, out / "output_validator")
    for validator in problem.validators:
        _copy_program(validator, out / "input_validators" / validator.stem)
    for folder in sorted(p for p in problem.submissions_root.glob("*") if p.is_dir()):
        if folder.name not in FOLDER_RULES:
            log(f"note: submissions/{folder.name}/ has no Kattis equivalent and is not exported")
            continue
        target = out / "submissions" / folder.name
        target.mkdir(parents=True)
        for entry in sorted(folder.iterdir()):
            if entry.is_file():
                shutil.copy2(entry, target / entry.name)


def _copy_program(source: Path, folder: Path) -> None:
    """A program folder: the source and the headers beside it (a checker may include them)."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, folder / source.name)
    for header in source.parent.glob("*.h*"):
        shutil.copy2(header, folder / header.name)
