"""The Kattis / ICPC problem package format: read one as it is into the neutral model.

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

import os

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ...check import KATTIS_CUSTOM, KATTIS_DEFAULT
from ...errors import SpecError, UsageError
from ...lang import is_source
from . import fastyaml
from ..model import SPEC_NAME, CaseSpec, CheckerSpec, Given, Group, Limits, Problem

SIDE_CAR = "tilejudge.yaml"  # what Kattis has no key for (per-language time factors); ignored by other judges
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
        meta = fastyaml.safe_load((root / SPEC_NAME).read_text()) if (root / SPEC_NAME).is_file() else {}
    except yaml.YAMLError:
        return True
    return not (isinstance(meta, dict) and "groups" in meta)


def _meta(root: Path, shown: str) -> dict[str, Any]:
    path = root / SPEC_NAME
    if not path.is_file():
        return {}
    try:
        meta = fastyaml.safe_load(path.read_text(encoding="utf-8"))
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
    """A Kattis program is a file or a folder; a folder of several sources is built whole (the language layer finds its entry point)."""
    if path.is_file():
        return path
    sources = sorted(p for p in path.iterdir() if is_source(p))
    if len(sources) == 1:
        return sources[0]
    return path if sources else None


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
                    loaded = fastyaml.safe_load(file.read_text()) or {}
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
    # a validator in a language the registry does not know (a checktestdata .ctd script) is left out; the others still validate
    validators = tuple(p for p in (_program(v) for folder in ("input_validators", "input_format_validators") if (root / folder).is_dir()
                                   for v in sorted((root / folder).iterdir()) if not v.name.startswith(".")
                                   if v.is_dir() or is_source(v) or os.access(v, os.X_OK)) if p is not None)
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
    data = fastyaml.safe_load(file.read_text()) or {}
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
            return CheckerSpec(type=KATTIS_CUSTOM, program=program)
    return CheckerSpec(type=KATTIS_DEFAULT)


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
                case_settings = {**settings, **(fastyaml.safe_load(case_yaml.read_text()) or {})} if case_yaml.is_file() else settings
                output_args = problem_flags + _args(case_settings.get("output_validator_flags" if legacy else "output_validator_args"))
                cases.append(CaseSpec(
                    name=inp.stem, group=folder.relative_to(data).as_posix(), origin=Given(inp.resolve(), ans.resolve()),
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


