"""The Kattis / ICPC problem package format: read one as it is into the neutral model.

Import maps a package (legacy, 2023-07-draft or 2025-09 layout) onto the
judge's own Problem model, so judging, grading and verify need no second code
path: data/ groups become groups, test_group.yaml / testdata.yaml settings
become points, aggregation and validator arguments, output_validator(s)/
becomes a Kattis-protocol checker (or the default output validator with its
flags), input_validators/ the validators, submissions/<verdict>/ the test
submissions, ``type`` the problem's Kind (``kattis_kind.py``; an
interactive problem's output validator is its interactor), include/ and
constants what the build adds to programs (``kattis_files.py``). What the
YAML files say is read in ``kattis_settings.py`` (the legacy grading keys in
``kattis_legacy.py``), scoring groups in ``kattis_scoring.py``, submissions and their
``submissions.yaml`` rules and the time rule in ``kattis_submissions.py``.
What is not supported is refused or reported, never silently misjudged.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from ...check import KATTIS_CUSTOM, KATTIS_DEFAULT
from ...errors import SpecError, UsageError
from ...model import SPEC_NAME, CheckerSpec, Limits, Problem
from . import fastyaml
from .kattis_files import looks_kattis, package_warnings, program_files, program_path, validator_entries  # noqa: F401  (package_warnings: for verify)
from .kattis_grading import legacy_grading
from .kattis_kind import kind_of, type_words
from .kattis_legacy import speaks_legacy
from .kattis_scoring import data_errors, data_groups
from .kattis_settings import problem_meta
from .kattis_submissions import (  # noqa: F401  (FOLDER_RULES, SIDE_CAR, ignored, submissions, time_rule: imported from here by others)
    FOLDER_RULES,
    SIDE_CAR,
    ignored,
    side_car,
    side_car_factors,
    submissions,
    time_rule,
)


def is_kattis(root: Path) -> bool:
    """A Kattis package: a problem.yaml without our ``groups``, with data/ beside it or a Kattis-only key in it.

    Packages without data/ exist (the spec's interactive and multi-pass
    examples): read as ours, they would fail on a key we do not know rather
    than on the missing test data.
    """
    has_data = (root / "data").is_dir()
    try:
        meta = fastyaml.safe_load((root / SPEC_NAME).read_text()) if (root / SPEC_NAME).is_file() else {}
    except (yaml.YAMLError, OSError, UnicodeDecodeError):
        return has_data
    if isinstance(meta, dict) and "groups" in meta:
        return False
    return has_data or looks_kattis(meta)


def _validation_time(limits_meta: dict[str, Any]) -> float | None:
    """``limits.validation_time``: the output validator's (or interactor's) CPU seconds, when the package states it."""
    if "validation_time" not in limits_meta:
        return None
    seconds = float(limits_meta["validation_time"])
    if not seconds > 0:
        raise ValueError(f"validation_time must be a number > 0, got {limits_meta['validation_time']!r}")
    return seconds


def load_kattis(root: Path, shown: str | None = None) -> Problem:
    """Read a Kattis package into the judge's model; the time limit is 0 when it must be inferred (see
    infer_time_limit)."""
    shown = shown or str(root)
    meta = problem_meta(root, shown)
    kinds = type_words(meta, root, shown)
    kind = kind_of(kinds, meta, root, shown)
    version = str(meta.get("problem_format_version", "legacy"))
    legacy = version.startswith("legacy")
    name = meta.get("name", root.name)
    title = name.get("en", next(iter(name.values()), root.name)) if isinstance(name, dict) else str(name)
    limits_meta = meta.get("limits") or {}
    scoring = "scoring" in kinds
    checker = _checker(root, meta, legacy)
    if (kind.interactive or kind.multi_pass) and checker.program is None:
        what = "an interactive" if kind.interactive else "a multi-pass"
        raise UsageError(f"{shown}: {what} problem needs an output validator (output_validator/ with one program)")
    if legacy and checker.program is None and str(meta.get("validation", "default")).split()[:1] == ["custom"]:
        raise UsageError(
            f"{shown}: 'validation: custom' needs an output validator, "
            "and there is no output_validators/ (or output_validator/) folder"
        )
    groups = data_groups(root, legacy, scoring, meta)
    if not any(g.cases for g in groups):
        raise UsageError(f"{shown}: no test cases under data/")
    grading = None  # a legacy scoring package's verdict and score are its grading tree's (kattis_grading.py)
    if scoring and (legacy or speaks_legacy(root / "data")):
        grading, groups = legacy_grading(root, meta, groups, shown)
    try:
        # an export states the slowest language's limit for all; the base it was made from is kept for this judge
        time = float(side_car(root).get("base_time_limit", limits_meta.get("time_limit", 0.0)))
        limits = Limits(
            time=time,
            memory_mib=int(limits_meta.get("memory", 1024 if legacy else 2048)),
            output_mib=float(limits_meta.get("output", 8)),
            time_factor=side_car_factors(root),
            compile_time=float(limits_meta.get("compilation_time", 60)),
            checker_time=_validation_time(limits_meta),
            time_rule=time_rule(root) if time <= 0 else None,  # read only when the limit is to be inferred
        )
    except (TypeError, ValueError, AttributeError) as exc:
        raise SpecError(f"{shown}/{SPEC_NAME}", None, f"limits: {exc}") from None
    # a validator no language here runs (a .viva script) is left out, and named among verify's warnings
    named = {p: v.name for v in validator_entries(root)[0] if (p := program_path(v)) is not None}  # by the entry's name
    validators = tuple(named)
    statement = next(
        (
            p
            for p in (
                root / "statement" / "problem.en.md",
                root / "statement" / "problem.en.tex",
                root / "problem_statement" / "problem.en.tex",
                root / "problem_statement" / "problem.tex",
            )
            if p.is_file()
        ),
        root / "statement" / "problem.en.md",
    )
    source = meta.get("source", "")
    return Problem(
        name=root.name,
        root=root,
        title=title,
        source=source.get("name", "") if isinstance(source, dict) else str(source),
        statement=statement,
        limits=limits,
        checker=checker,
        generator=None,
        validators=validators,
        solutions=_reference(root),
        groups=tuple(groups),
        cases_dir=root / "data",
        package_format="kattis",
        runs_among_own_files=True,
        kind=kind,
        interactor=checker if kind.interactive else None,
        files=replace(program_files(root, meta, shown), validator_names=named),
        runs_as={"python3": "pypy3"},  # Kattis, problemtools and BAPCtools run .py under PyPy3
        legacy_grading=grading,
    )


def data_findings(root: Path) -> tuple[list[str], list[str]]:
    """What verify says of a package's data/, as errors and warnings. A package without secret cases fails where
    problemtools reads it (legacy, 2023-07); BAPCtools, the tool of 2025-09, runs one and refuses it only on export."""
    version = str(problem_meta(root, str(root)).get("problem_format_version", "legacy"))
    return data_errors(root, secret_required=not version.startswith("2025"))


def _reference(root: Path) -> tuple[Path, ...]:
    """The first accepted submission that is one buildable source: what stress compares against."""
    accepted = root / "submissions" / "accepted"
    entries = sorted(accepted.iterdir()) if accepted.is_dir() else []
    sources = [p for p in (program_path(e) if e.is_dir() else e for e in entries) if p is not None and p.is_file()]
    return tuple(sources[:1])


def _checker(root: Path, meta: dict[str, Any], legacy: bool) -> CheckerSpec:
    folders = ("output_validators", "output_validator") if legacy else ("output_validator", "output_validators")
    custom = str(meta.get("validation", "default")).split()[:1] == ["custom"] or not legacy
    for folder in folders:
        path = root / folder
        entries = [e for e in sorted(path.iterdir()) if not e.name.startswith(".")] if path.is_dir() else []
        if custom and entries:  # a folder holding only .gitkeep is no validator: the default one judges
            # a program folder may sit one level down (output_validator/<name>/), as in 2023-07 and legacy packages
            program = (
                program_path(entries[0])
                if len(entries) == 1 and (legacy or entries[0].is_dir())
                else program_path(path)
            )
            if program is None:
                raise UsageError(
                    f"{path}: cannot tell which file is the output validator (one source, or a folder with one)"
                )
            return CheckerSpec(type=KATTIS_CUSTOM, program=program)
    return CheckerSpec(type=KATTIS_DEFAULT)
