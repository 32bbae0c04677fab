"""The cases a package keeps to test its validators (BAPCtools' ``data/invalid_*`` and ``data/valid_output``), read
with the arguments each validator gets on them.

They are never judged: ``invalid_input`` holds inputs the input validators
must reject, ``invalid_answer`` valid inputs with answers the answer
validators (or the output validator reading the answer strictly) must
reject, ``invalid_output`` valid cases with an output (``.out``) the output
validator must reject, ``valid_output`` one it must accept. A validator's
arguments come from the nearest ``test_group.yaml`` (or ``testdata.yaml``)
as for judged cases, but a mapping of validator names to arguments is kept
per validator here, as bt passes it, since a test of one validator's flag is
what these folders are for. Running them is ``judge.tools.validator_tests``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ...errors import SpecError
from ...lang import is_source
from . import fastyaml
from .kattis_files import program_path, validator_entries
from .kattis_kind import type_words
from .kattis_settings import folder_settings, program_args, yaml_mapping

FOLDERS = ("invalid_input", "invalid_answer", "invalid_output", "valid_output")
ANSWER_VALIDATORS = "answer_validators"


@dataclass(frozen=True)
class ValidatorCase:
    """One case of a validators' folder: its files, and each kind of validator's arguments as the settings give them
    (``args_for`` picks one validator's)."""

    folder: str
    key: str  # its path under data/, without extension
    input: Path
    answer: Path | None
    output: Path | None
    input_args: Any
    answer_args: Any
    output_args: tuple[str, ...]


@dataclass(frozen=True)
class NamedProgram:
    """A validator as bt names it (its file or folder name under its folder, the key of a per-validator argument
    mapping) and the source the judge builds."""

    name: str
    program: Path


def args_for(value: Any, name: str) -> tuple[str, ...]:
    """The arguments one validator gets: a list for every validator, or from a mapping of names to lists its own."""
    if isinstance(value, dict):
        return program_args(value.get(name))
    return program_args(value)


def validator_cases(root: Path, folders: tuple[str, ...] = FOLDERS) -> list[ValidatorCase]:
    """Every case under the validators' folders (or the ``folders`` named: ``sample`` and ``secret`` for the judged
    cases' answers), in bt's order; an ``.in`` is what makes a case."""
    data = root / "data"
    meta = _meta(root)
    legacy = str(meta.get("problem_format_version", "legacy")).startswith("legacy")
    problem_flags = program_args(meta.get("validator_flags")) if legacy else ()
    out = []
    for folder in folders:
        for inp in sorted((data / folder).rglob("*.in")) if (data / folder).is_dir() else ():
            settings = folder_settings(inp.parent, data, legacy)
            own = inp.with_suffix(".yaml")
            if own.is_file():
                settings = {**settings, **yaml_mapping(own)}
            answer, output = inp.with_suffix(".ans"), inp.with_suffix(".out")
            out.append(
                ValidatorCase(
                    folder,
                    inp.relative_to(data).with_suffix("").as_posix(),
                    inp,
                    answer if answer.is_file() else None,
                    output if output.is_file() else None,
                    settings.get("input_validator_flags" if legacy else "input_validator_args"),
                    settings.get("answer_validator_args"),
                    problem_flags
                    + program_args(settings.get("output_validator_flags" if legacy else "output_validator_args")),
                )
            )
    return out


def input_validators(root: Path) -> list[NamedProgram]:
    """The input validators this judge runs, by bt's names (the same entries the package's ``validators`` are)."""
    return _named(validator_entries(root)[0])


def answer_validators(root: Path) -> list[NamedProgram]:
    folder = root / ANSWER_VALIDATORS
    entries = sorted(e for e in folder.iterdir() if not e.name.startswith(".")) if folder.is_dir() else []
    return _named([e for e in entries if e.is_dir() or is_source(e)])


def ans_is_output(root: Path) -> bool:
    """bt's ``ans_is_output`` (problem.yaml, default true): an answer must also pass the output validator, read
    strictly; never for an interactive or multi-pass problem, whose answers are no output."""
    meta = _meta(root)
    try:
        words = type_words(meta, root, str(root))
    except SpecError:  # the loader names what is wrong with problem.yaml
        words = set()
    if "interactive" in words or "multi-pass" in words:
        return False
    return bool(meta.get("ans_is_output", True))


def _named(entries: list[Path]) -> list[NamedProgram]:
    out = []
    for entry in entries:
        program = program_path(entry)
        if program is not None:
            out.append(NamedProgram(entry.name, program))
    return out


def _meta(root: Path) -> dict[str, Any]:
    try:
        meta = fastyaml.safe_load((root / "problem.yaml").read_text())
    except (OSError, ValueError, yaml.YAMLError):  # the package's loader has said what is wrong with it
        return {}
    return meta if isinstance(meta, dict) else {}
