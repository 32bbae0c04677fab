"""Kattis test data groups and their scoring settings, read into ``Group``s for each format version.

Three generations of the format say how a scoring problem adds up, and each
is mapped onto the same ``Group`` fields so that judging has one rule set
(``judge.core.verdicts``):

- 2025-09 ``test_group.yaml``: ``max_score`` (or ``unbounded``),
  ``score_aggregation`` (``pass-fail``/``sum``/``min``), ``require_pass``;
  validators report ``score.txt`` (points) or ``score_multiplier.txt``.
- 2023-07-draft ``testdata.yaml``: ``scoring: {score, max_score, aggregation}``,
  where a validator's value multiplies the group's per-case ``score``.
- legacy ``testdata.yaml``: ``accept_score``/``reject_score``, the default
  grader's ``grader_flags``, ``range`` and ``on_reject``, every key inherited
  by the folders below, as problemtools reads them; also in a 2023-07-draft
  package whose ``testdata.yaml`` files use only these keys (problemtools'
  own examples do), and with ``problem.yaml``'s older ``grading:`` values
  overriding every folder's. The default grader's verdict modes
  (``first_error``, ``worst_error``, ``always_accept``,
  ``accept_if_any_accepted``) change no score (the verdict they give is the
  grading tree's, ``kattis_grading.py``); samples score like any group
  unless the top ``grader_flags`` say ``ignore_sample``. A score mode other
  than ``sum`` can combine only the cases of one folder: over several folders
  it is refused in one line.

A scoring group spans one folder of cases: a 2025-09 group whose cases sit in
several folders with ``min`` or ``pass-fail`` aggregation cannot be one
``Group`` and is refused, as is a ``min`` or ``pass-fail`` ``secret`` over
several folders.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...errors import SpecError, UsageError
from ...model import CaseSpec, Given, Group
from . import fastyaml
from .kattis_breaks import required_before

LEGACY_MODES = ("sum", "avg", "min", "max")
LEGACY_VERDICT_FLAGS = (
    "worst_error",
    "no_errors",
    "first_error",
    "always_accept",
    "accept_if_any_accepted",
    "ignore_sample",
)
LEGACY_KEYS = {"accept_score", "reject_score", "range", "grader_flags", "on_reject", "grading"}
MODERN_KEYS = {"scoring", "score_aggregation", "max_score", "require_pass"}
ON_REJECT = {
    "first_error": "break",
    "worst_error": "break",
    "grade": "continue",
}  # problem.yaml grading.on_reject, as problemtools maps it


def _settings(folder: Path, data_root: Path, legacy: bool) -> dict[str, Any]:
    """testdata.yaml (legacy: nearest ancestors merged key by key) or test_group.yaml (2025-09: inherited)."""
    return _settings_with_own(folder, data_root, legacy)[0]


def _settings_with_own(folder: Path, data_root: Path, legacy: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The merged settings of a folder and the ones its own file states (scoring keys are not inherited by groups)."""
    names = ("testdata.yaml",) if legacy else ("test_group.yaml", "testdata.yaml")
    chain = [folder, *folder.parents]
    merged: dict[str, Any] = {}
    own: dict[str, Any] = {}
    for directory in reversed(chain[: chain.index(data_root) + 1] if data_root in chain else [folder]):
        for name in names:
            file = directory / name
            if file.is_file():
                loaded = _yaml_mapping(file)
                merged.update(loaded)
                if directory == folder:
                    own = loaded
                break
    return merged, own


def _yaml_mapping(file: Path) -> dict[str, Any]:
    return fastyaml.load_mapping(file)


def _args(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    if isinstance(
        value, dict
    ):  # {validator name: args}: applied to every validator, as one program per package is usual
        return tuple(str(v) for args in value.values() for v in (args if isinstance(args, list) else str(args).split()))
    return (str(value),)


def _groups(root: Path, legacy: bool, scoring: bool, meta: dict[str, Any]) -> list[Group]:
    """One group per folder holding .in files, in lexicographic order: sample first, then secret."""
    data = root / "data"
    problem_flags = _args(meta.get("validator_flags")) if legacy else ()
    folders_cases: list[tuple[str, Path, tuple[CaseSpec, ...]]] = []
    for top in ("sample", "secret"):
        base = data / top
        if not base.is_dir():
            continue
        for folder in sorted({p.parent for p in base.rglob("*.in")}, key=lambda p: p.relative_to(data).as_posix()):
            cases = _cases(root, folder, legacy, problem_flags)
            if cases:
                folders_cases.append((top, folder, cases))
    if not scoring:
        return [
            Group(name=f.relative_to(data).as_posix(), points=0.0, cases=c, aggregation="min")
            for _, f, c in folders_cases
        ]
    if legacy or _legacy_grading(data):
        overrides = _problem_grading(meta, root)
        _combinable(data, [f for _, f, _ in folders_cases], overrides)
        folders = [f for _, f, _ in folders_cases]
        after = required_before(data, folders, lambda f: {**_settings(f, data, legacy=True), **overrides})
        return [
            replace(_legacy_group(data, top, folder, cases, overrides), require_pass=after[folder])
            for top, folder, cases in folders_cases
        ]
    return [_modern_group(data, top, folder, cases, folders_cases) for top, folder, cases in folders_cases]


def _legacy_grading(data: Path) -> bool:
    """A newer package whose ``testdata.yaml`` files speak only the legacy grading keys is scored the legacy way."""
    if any(data.rglob("test_group.yaml")):
        return False
    keys = {k for f in data.rglob("testdata.yaml") for k in _yaml_mapping(f)}
    return bool(keys & LEGACY_KEYS) and not keys & MODERN_KEYS


def _problem_grading(meta: dict[str, Any], root: Path) -> dict[str, Any]:
    """problem.yaml's ``grading:`` values that predate the legacy format and override every folder's (problemtools keeps
    them)."""
    grading = meta.get("grading")
    if not isinstance(grading, dict):
        return {}
    out = {k: grading[k] for k in ("accept_score", "reject_score", "range") if k in grading}
    if "on_reject" in grading:
        if grading["on_reject"] not in ON_REJECT:
            raise SpecError(
                root / "problem.yaml",
                None,
                f"grading.on_reject: '{grading['on_reject']}' is not first_error, worst_error or grade",
            )
        out["on_reject"] = ON_REJECT[grading["on_reject"]]
    return out


def _combinable(data: Path, leaves: list[Path], overrides: dict[str, Any]) -> None:
    """Each folder's score mode combines its sub-results; our groups are the leaf folders, added up, so only ``sum`` may
    join several."""
    ignore_sample = "ignore_sample" in str(_settings(data, data, legacy=True).get("grader_flags", "")).split()
    for folder in sorted({data, *(p for leaf in leaves for p in (leaf, *leaf.parents) if data in p.parents)}):
        mode = _legacy_mode({**_settings(folder, data, legacy=True), **overrides}, folder)
        parts = {
            leaf if leaf == folder else folder / leaf.relative_to(folder).parts[0]
            for leaf in leaves
            if leaf == folder or folder in leaf.parents
        }
        if folder == data and ignore_sample:
            parts.discard(data / "sample")
        if mode != "sum" and len(parts) > 1:
            raise UsageError(
                f"{folder}: grader_flags {mode} over {len(parts)} sub-results is not supported "
                "(only sum combines test data groups)"
            )


def _cases(root: Path, folder: Path, legacy: bool, problem_flags: tuple[str, ...]) -> tuple[CaseSpec, ...]:
    data = root / "data"
    settings = _settings(folder, data, legacy)
    cases = []
    for inp in sorted(folder.glob("*.in")):
        ans = inp.with_suffix(".ans")
        if not ans.is_file():
            raise UsageError(f"{inp}: no matching .ans file")
        case_yaml = inp.with_suffix(".yaml")
        case_settings = {**settings, **_yaml_mapping(case_yaml)} if case_yaml.is_file() else settings
        output_args = problem_flags + _args(
            case_settings.get("output_validator_flags" if legacy else "output_validator_args")
        )
        raw = case_settings.get("input_validator_flags" if legacy else "input_validator_args")
        named = tuple((str(k), _args(v)) for k, v in raw.items()) if isinstance(raw, dict) else None
        cases.append(
            CaseSpec(
                name=inp.stem,
                group=folder.relative_to(data).as_posix(),
                origin=Given(inp.resolve(), ans.resolve()),
                source=f"file: {inp.relative_to(root).as_posix()}",
                checker_args=output_args,
                validator_args=(() if named is not None else _args(raw)) + _args(case_settings.get("args")),
                validator_args_named=named,
            )
        )
    return tuple(cases)


def data_errors(root: Path, secret_required: bool) -> tuple[list[str], list[str]]:
    """What in data/ leaves a case out without a word, as errors and warnings: no secret cases (an error where
    ``secret_required``), an ``.ans`` with no ``.in`` beside it (a forgotten or lost input), test files directly in
    data/ (cases are read from sample/ and secret/ only)."""
    data = root / "data"
    if not data.is_dir():
        return [], []
    errors: list[str] = []
    warnings: list[str] = []
    if not any((data / "secret").rglob("*.in")):
        (errors if secret_required else warnings).append("data/secret: no secret test cases (only samples judged)")
    errors += [
        f"{ans.relative_to(root).as_posix()}: no matching .in file, so it is no test case"
        for top in ("sample", "secret")
        for ans in sorted((data / top).rglob("*.ans"))
        if ans.is_file() and not ans.with_suffix(".in").is_file()
    ]
    errors += [
        f"{file.relative_to(root).as_posix()}: test data directly in data/ is no test case (use data/sample or "
        "data/secret)"
        for file in sorted(data.iterdir())
        if file.suffix in (".in", ".ans") and file.is_file()
    ]
    return errors, warnings


def _number(value: Any, where: Path, key: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise SpecError(where, None, f"{key}: '{value}' is not a number") from None
    if not math.isfinite(number) or number < 0:
        raise SpecError(where, None, f"{key}: must be a non-negative number, not {value}")
    return number


def _modern_group(
    data: Path,
    top: str,
    folder: Path,
    cases: tuple[CaseSpec, ...],
    everything: list[tuple[str, Path, tuple[CaseSpec, ...]]],
) -> Group:
    """2025-09 (and the 2023-07-draft ``scoring:`` map): the test data group is the first folder under ``secret``."""
    name = folder.relative_to(data).as_posix()
    if top == "sample":
        return Group(name=name, points=0.0, cases=cases, aggregation="min")
    secret = data / "secret"
    group_dir = secret / folder.relative_to(secret).parts[0] if folder != secret else secret
    is_group = group_dir != secret and (
        (group_dir / "test_group.yaml").is_file() or (group_dir / "testdata.yaml").is_file()
    )
    scope = group_dir if is_group else secret
    settings, own = _settings_with_own(scope, data, legacy=False)
    _, secret_own = _settings_with_own(secret, data, legacy=False)
    shown = scope / ("test_group.yaml" if (scope / "test_group.yaml").is_file() else "testdata.yaml")
    sharing = [c for _, f, c in everything if f == scope or scope in f.parents]
    total = sum(len(c) for c in sharing)
    if isinstance(own.get("scoring"), dict) or isinstance(secret_own.get("scoring"), dict):
        return _draft_group(name, cases, own.get("scoring") or {}, scope == secret, len(sharing), shown)
    aggregation = str(own.get("score_aggregation", "sum" if scope == secret else "pass-fail"))
    if aggregation not in ("pass-fail", "sum", "min"):
        raise SpecError(shown, None, f"score_aggregation: '{aggregation}' is not pass-fail, sum or min")
    secret_max = secret_own.get("max_score", 100)
    if is_group and str(secret_own.get("score_aggregation", "sum")) != "sum":
        raise UsageError(
            f"{secret}: score_aggregation {secret_own['score_aggregation']} over test data groups "
            "is not supported (only sum)"
        )
    max_score = own.get("max_score", secret_max if scope == secret else "unbounded")
    unbounded = max_score == "unbounded"
    maximum = 0.0 if unbounded else _number(max_score, shown, "max_score")
    if unbounded and aggregation == "pass-fail":
        raise SpecError(shown, None, "a pass-fail group must have a bounded max_score")
    if aggregation != "sum" and len(sharing) > 1:
        raise UsageError(
            f"{scope}: {aggregation} aggregation over cases in {len(sharing)} folders is not supported "
            "(one folder per group)"
        )
    case_points = maximum / total if aggregation == "sum" else maximum
    requires = own.get("require_pass") or ()
    requires = (requires,) if isinstance(requires, str) else tuple(str(r) for r in requires)
    return Group(
        name=name,
        points=0.0 if unbounded else case_points * len(cases) if aggregation == "sum" else maximum,
        cases=cases,
        aggregation=aggregation,
        case_points=case_points,
        unbounded=unbounded,
        require_pass=requires,
        score_rule="2025-09",
    )


def _draft_group(
    name: str, cases: tuple[CaseSpec, ...], scoring: dict[str, Any], is_secret: bool, folders: int, shown: Path
) -> Group:
    """``scoring: {score, max_score, aggregation}``: each accepted case earns ``score`` times its validator's value."""
    aggregation = str(scoring.get("aggregation", "sum" if is_secret else "min"))
    if aggregation not in ("sum", "min"):
        raise SpecError(shown, None, f"scoring.aggregation: '{aggregation}' is not sum or min")
    if aggregation == "min" and folders > 1:
        raise UsageError(
            f"{shown.parent}: min aggregation over cases in {folders} folders is not supported (one folder per group)"
        )
    score = _number(scoring.get("score", 1), shown, "scoring.score")
    points = score * len(cases) if aggregation == "sum" else score
    if "max_score" in scoring:
        points = min(points, _number(scoring["max_score"], shown, "scoring.max_score"))
    return Group(
        name=name, points=points, cases=cases, aggregation=aggregation, case_points=score, score_rule="2023-07-draft"
    )


def _legacy_mode(settings: dict[str, Any], folder: Path) -> str:
    """The default grader's score mode (the last one named wins, as in problemtools); an unknown flag is refused. A
    folder graded by the package's own grader (``grading: custom``) takes its flags as that grader's arguments and
    adds its groups up as the grader says (``kattis_grading``), so its groups are summed here."""
    if str(settings.get("grading", "default")) == "custom":
        return "sum"
    flags = str(settings.get("grader_flags", "") or "").split()
    unknown = [f for f in flags if f not in LEGACY_MODES and f not in LEGACY_VERDICT_FLAGS]
    if unknown:
        raise SpecError(
            folder / "testdata.yaml",
            None,
            f"grader_flags: unknown flag '{unknown[0]}' (known: {', '.join(LEGACY_MODES + LEGACY_VERDICT_FLAGS)})",
        )
    modes = [f for f in flags if f in LEGACY_MODES]
    return modes[-1] if modes else "sum"


def _legacy_group(data: Path, top: str, folder: Path, cases: tuple[CaseSpec, ...], overrides: dict[str, Any]) -> Group:
    """Legacy: a case earns ``accept_score`` (or its ``score.txt``) when accepted, ``reject_score`` when not.

    With ``on_reject: break`` (the default) the cases after the first rejected
    one count for nothing, as problemtools never judges them.
    """
    name = folder.relative_to(data).as_posix()
    root_flags = str(_settings(data, data, legacy=True).get("grader_flags", "") or "").split()
    if top == "sample" and "ignore_sample" in root_flags:
        return Group(name=name, points=0.0, cases=cases, aggregation="min")
    settings = {**_settings(folder, data, legacy=True), **overrides}
    shown = folder / "testdata.yaml"
    accept = _score(settings.get("accept_score", 1), shown, "accept_score")
    reject = _score(settings.get("reject_score", 0), shown, "reject_score")
    mode = _legacy_mode(settings, folder)
    on_reject = str(settings.get("on_reject", "break"))
    if on_reject not in ("break", "continue"):
        raise SpecError(shown, None, f"on_reject: '{on_reject}' is not break or continue")
    bounds = None
    if "range" in settings:
        try:
            low, high = (float(v) for v in str(settings["range"]).split())
        except ValueError:
            raise SpecError(shown, None, f"range: '{settings['range']}' is not two numbers") from None
        bounds = (low, high)
    return Group(
        name=name,
        points=accept * len(cases) if mode == "sum" else accept,
        cases=cases,
        aggregation=mode,
        case_points=accept,
        reject_points=reject,
        score_range=bounds,
        score_rule="legacy",
        stop_at_reject=on_reject == "break",
    )


def _score(value: Any, where: Path, key: str) -> float:
    """A legacy case score: any finite number (a minimisation problem's may be negative)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise SpecError(where, None, f"{key}: '{value}' is not a number") from None
    if not math.isfinite(number):
        raise SpecError(where, None, f"{key}: must be a finite number, not {value}")
    return number
