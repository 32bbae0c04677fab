"""Writing any problem as a Kattis package (legacy, 2023-07-draft or 2025-09): the way back from the neutral model.

Checkers map through the checker-type registry (builtin comparisons become
default-validator flags, a Kattis-protocol checker becomes output_validator/,
a type with no equivalent is refused); per-language time factors, which
Kattis has no key for, go into a side-car file this judge reads back. The
problem's kind becomes ``type``: an interactive problem's Kattis-protocol
interactor is its output validator (a testlib one has no equivalent and is
refused), a multi-pass problem keeps its number of passes. What differs
between the versions, and the names every tool accepts, is in
``kattis_export_layout``.
"""

from __future__ import annotations

import math
import re
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from ...check import checker_type
from ...check.registry import KATTIS_CUSTOM
from ...errors import UsageError
from ...lang import by_extension, saved_name
from ...model import SPEC_NAME, CaseSpec, CheckerSpec, FromFile, Problem, answer_path, input_path
from .kattis import SIDE_CAR
from .kattis_export_layout import (
    DEFAULT,
    FIRST_ERROR,
    LAYOUTS,
    Layout,
    args_settings,
    case_stem,
    group_folder,
    group_grading,
    plain_number,
    root_grading,
    tex_statement,
)

PACKAGE_NAME = re.compile(r"[a-z0-9]+")


def export(
    problem: Problem, out: Path, log: Callable[[str], None], version: str = DEFAULT, pass_fail: bool = False
) -> None:
    """Write ``problem`` as a Kattis package of ``version`` into the empty or new folder ``out``.

    ``pass_fail`` drops the points for a tool that judges only pass-fail
    problems (BAPCtools): a submission is then accepted when every case is.
    """
    layout = LAYOUTS[version]
    _refuse_without_equivalent(problem, layout)
    if out.exists() and any(out.iterdir()):
        raise UsageError(f"{out}: not empty; export writes into a new or empty folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{out}: cannot make the folder ({exc.strerror})") from None
    if not PACKAGE_NAME.fullmatch(out.name):
        log(
            f"note: the folder name {out.name!r} is not [a-z0-9]+; "
            "problemtools and the spec want the package folder named so"
        )
    scoring = problem.max_score > 0 and not pass_fail
    if pass_fail and problem.max_score > 0:
        log(
            f"note: exported as pass-fail: the {plain_number(problem.max_score)} points are dropped, "
            "accepted means every case accepted"
        )
    (out / SPEC_NAME).write_text(yaml.safe_dump(_meta(problem, layout, scoring), sort_keys=False, allow_unicode=True))
    limits = problem.limits
    single = single_time_limit(problem)
    if not layout.format_key:
        log(
            "note: the legacy format has no time limit key; "
            f"judges infer one from the accepted submissions instead of {limits.time:g} s"
        )
    elif single > limits.time:
        log(
            f"note: time_limit is {single:g} s for every language, the most an accepted submission's language gets "
            f"here; the base {limits.time:g} s stays in {SIDE_CAR} for this judge"
        )
    side_car: dict[str, Any] = {"time_factor": dict(limits.time_factor)} if limits.time_factor else {}
    if layout.format_key and single > limits.time:
        side_car["base_time_limit"] = limits.time
    if side_car:
        (out / SIDE_CAR).write_text(
            "# Per-language time factors and the limit they apply to: Kattis has no key for them, "
            "other judges ignore this file.\n" + yaml.safe_dump(side_car, sort_keys=False)
        )
    if limits.time_factor:
        log(
            f"note: per-language time factors {dict(limits.time_factor)} kept only in {SIDE_CAR}; "
            "Kattis and DOMjudge use one time limit for all languages"
        )
    _export_data(problem, out, scoring, layout)
    _export_programs(problem, out, log, layout)


def _meta(problem: Problem, layout: Layout, scoring: bool) -> dict[str, Any]:
    """problem.yaml: legacy says the kind in ``validation`` and has no time limit key (problemtools refuses one:
    the limit is inferred from the accepted submissions), the newer versions say the kind in ``type``."""
    limits = problem.limits
    meta: dict[str, Any] = {"problem_format_version": layout.format_key} if layout.format_key else {}
    meta.update(
        {
            "type": _type(problem, scoring) if layout.format_key else ("scoring" if scoring else "pass-fail"),
            "name": problem.title,
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"tilejudge:{problem.name}")),
        }
    )
    if not layout.format_key:
        meta["validation"] = (
            "custom interactive" if problem.kind.interactive else "custom" if _output_validator(problem) else "default"
        )
    meta["limits"] = {"time_limit": single_time_limit(problem)} if layout.format_key else {}
    meta["limits"].update({"memory": limits.memory_mib, "output": max(1, math.ceil(limits.output_mib))})
    if limits.checker_time is not None:
        meta["limits"]["validation_time"] = limits.checker_time
    if problem.kind.multi_pass:
        meta["limits"]["validation_passes"] = problem.kind.passes
    if problem.source:
        meta["source"] = problem.source
    return meta


def single_time_limit(problem: Problem) -> float:
    """The one limit the newer versions state for every language: the most any accepted submission's language gets.

    The spec wants every accepted submission within ``time_limit`` (BAPCtools checks it), and has no per-language
    factors: stating the C/C++ limit would make an accepted Python program that needs its factor a TLE there."""
    limits = problem.limits
    accepted = problem.submissions_root / "accepted"
    languages = {lang.name for p in accepted.rglob("*") if p.is_file() and (lang := by_extension(p)) is not None}
    return max([limits.time, *(limits.time_for(name) for name in languages)])


def _refuse_without_equivalent(problem: Problem, layout: Layout) -> None:
    """One line naming what the format cannot express: a kind the version lacks, a testlib interactor, or a checker
    type with no mapping."""
    kind = problem.kind
    for word, on in (
        ("interactive", kind.interactive),
        ("multi-pass", kind.multi_pass),
        ("submit-answer", kind.submit_answer),
    ):
        if on and word not in layout.kinds:
            raise UsageError(
                f"{problem.name}: the {layout.version} format has no {word} problems; export it as 2023-07 or 2025-09"
            )
    if problem.kind.interactive:
        spec = problem.interactor
        if spec is None or spec.program is None or spec.type != KATTIS_CUSTOM:
            protocol = spec.type if spec is not None else "missing"
            raise UsageError(
                f"{problem.name}: a {protocol} interactor has no Kattis equivalent; "
                "export needs a Kattis-protocol interactor"
            )
        return
    entry = checker_type(problem.checker.type)
    if entry.kattis_flags is None and not entry.kattis_program:
        raise UsageError(
            f"{problem.name}: a {entry.name} checker has no Kattis equivalent; export needs a builtin or kattis checker"
        )


def _type(problem: Problem, scoring: bool) -> str | list[str]:
    """The 2025-09 ``type``: one word for a plain problem, a list when the kind adds words to pass-fail or scoring."""
    kind = problem.kind
    extra = [
        word
        for word, on in (
            ("interactive", kind.interactive),
            ("multi-pass", kind.multi_pass),
            ("submit-answer", kind.submit_answer),
        )
        if on
    ]
    if not extra:
        return "scoring" if scoring else "pass-fail"
    return ["scoring", *extra] if scoring else extra[0] if len(extra) == 1 else extra


def _output_validator(problem: Problem) -> Path | None:
    """The program Kattis runs as output_validator/: the interactor of an interactive problem, else a Kattis checker."""
    if problem.kind.interactive:
        return problem.interactor.program if problem.interactor is not None else None
    return problem.checker.program if checker_type(problem.checker.type).kattis_program else None


def _validator_args(spec: CheckerSpec) -> list[str]:
    """Our comparison as the Kattis default validator's flags, from the checker registry (lines and tokens lose the
    PE distinction)."""
    flags = checker_type(spec.type).kattis_flags
    return flags(spec) if flags is not None else []


def _export_data(problem: Problem, out: Path, scoring: bool, layout: Layout) -> None:
    """Samples in data/sample, each group of ours a folder of data/secret; the validator's flags go into every
    settings file, since the versions disagree on what a folder inherits."""
    data = out / "data"
    args = args_settings(layout, [] if problem.kind.interactive else _validator_args(problem.checker))
    secret_groups = [g for g in problem.groups if not (g.points == 0 and g.name.startswith("sample"))]
    sample_groups = [g for g in problem.groups if g not in secret_groups]
    total = sum(g.points for g in secret_groups)
    if scoring and layout.legacy_grading:
        data.mkdir()
        _settings(data / layout.group_file, root_grading(total))
    if sample_groups:
        sample = data / "sample"
        sample.mkdir(parents=True)
        # data/'s ignore_sample would be inherited, and problemtools allows it only there
        _settings(
            sample / layout.group_file,
            {**({"grader_flags": f"sum {FIRST_ERROR}"} if scoring and layout.legacy_grading else {}), **args},
        )
        cases = [case for group in sample_groups for case in group.cases]
        for index, case in enumerate(cases, start=1):
            _place(input_path(problem, case), answer_path(problem, case), sample / case_stem(index, case.name))
            _place_interaction(case, sample / case_stem(index, case.name))
    secret = data / "secret"
    secret.mkdir(parents=True)
    top = dict(args)
    if scoring:
        top.update(
            {"grader_flags": f"sum {FIRST_ERROR}", "range": f"0 {plain_number(total)}"}
            if layout.legacy_grading
            else {"max_score": plain_number(total), "score_aggregation": "sum"}
        )
    _settings(secret / layout.group_file, top)
    for number, group in enumerate(secret_groups, start=1):
        folder = secret / group_folder(number, group.name)
        folder.mkdir()
        _settings(folder / layout.group_file, {**(group_grading(group, layout) if scoring else {}), **args})
        for index, case in enumerate(group.cases, start=1):
            _place(input_path(problem, case), answer_path(problem, case), folder / case_stem(index, case.name))


def _settings(path: Path, settings: dict[str, Any]) -> None:
    if settings:
        path.write_text(yaml.safe_dump(settings, sort_keys=False))


def _place(inp: Path, ans: Path, stem: Path) -> None:
    """Copy the data, never hard-link it: an exported package is handed to other tools, and one that rewrites a file
    in place (a reference tool's run did, to a hard-linked answer of hdoj3600) would rewrite our test data with it."""
    for src, suffix in ((inp, ".in"), (ans, ".ans")):
        shutil.copyfile(src, stem.with_name(stem.name + suffix))  # not with_suffix: a case name may hold a dot


def _place_interaction(case: CaseSpec, stem: Path) -> None:
    """A sample's transcript (``samples/1.interaction`` beside ``samples/1.in``) shown instead of its files.

    The 2025-09 format then wants the files offered for download named as
    such, so the input and answer are placed again as ``.in.download`` and
    ``.ans.download``.
    """
    if not isinstance(case.origin, FromFile):
        return
    transcript = case.origin.path.with_suffix(".interaction")
    if not transcript.is_file():
        return
    shutil.copyfile(transcript, stem.with_name(stem.name + ".interaction"))
    for suffix in (".in", ".ans"):
        shutil.copyfile(stem.with_name(stem.name + suffix), stem.with_name(stem.name + suffix + ".download"))


def _export_programs(problem: Problem, out: Path, log: Callable[[str], None], layout: Layout) -> None:
    statement = out / layout.statement
    statement.parent.mkdir()
    text = problem.statement.read_text(encoding="utf-8") if problem.statement.is_file() else ""
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):  # the judge system prints the name itself
        lines = lines[1:]
    body = "\n".join(lines).strip() + "\n"
    statement.write_text(tex_statement(problem.title, body) if statement.suffix == ".tex" else body)
    validator = _output_validator(problem)
    if validator is not None:
        _copy_program(validator, out / layout.validator_folder.format(name=validator.stem), problem.files.libraries)
    for validator in problem.validators:
        _copy_program(validator, out / "input_validators" / validator.stem, problem.files.libraries)
    for folder in sorted(p for p in problem.submissions_root.glob("*") if p.is_dir()):
        if folder.name not in layout.folders:
            log(f"note: submissions/{folder.name}/ has no Kattis {layout.version} equivalent and is not exported")
            continue
        target = out / "submissions" / folder.name
        target.mkdir(parents=True)
        for entry in sorted(folder.iterdir()):
            if (
                entry.is_file()
            ):  # under the name its compiler wants: javac takes `public class Main` only from Main.java
                lang = by_extension(entry)
                shutil.copy2(
                    entry,
                    target / (saved_name(lang, entry.name, entry.read_bytes()) if lang is not None else entry.name),
                )
            elif entry.is_dir():  # a multi-file submission, or a submit-answer problem's folder of answers
                shutil.copytree(entry, target / entry.name)


def _copy_program(source: Path, folder: Path, libraries: tuple[Path, ...] = ()) -> None:
    """A program folder: the source and the headers beside it (a checker may include them), and the files of the
    problem's libraries, which Kattis has no key for. When a library file is a source of the same language, the
    program is written as ``main.<ext>``: problemtools (and our loader) take ``main.*`` as a folder's entry point,
    else the first source by name, which would run the library instead."""
    folder.mkdir(parents=True, exist_ok=True)
    library_files = [p for library in libraries for p in sorted(library.iterdir()) if p.is_file()]
    entry = f"main{source.suffix}" if any(p.suffix == source.suffix for p in library_files) else source.name
    shutil.copy2(source, folder / entry)
    for header in source.parent.glob("*.h*"):
        shutil.copy2(header, folder / header.name)
    for file in library_files:
        shutil.copy2(file, folder / file.name)
