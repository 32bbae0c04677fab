"""What a Kattis package adds to its programs: ``include/``, ``constants``, and which input validators can run here.

The package on disk is never changed: constants are written into the copies
the build layer makes (``judge.lang.Additions``), and a validator this judge
cannot run (a ``.viva`` script: no language here runs it) is named among
verify's warnings instead of being left out silently.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ...errors import SpecError
from ...lang import is_source, marked, undefined_constants
from ...model import SPEC_NAME, Problem
from ...model.programfiles import ProgramFiles

VALIDATOR_FOLDERS = ("input_validators", "input_format_validators")
NOTES = frozenset({".txt", ".md", ".pdf", ".html", ".tex"})  # what setters keep beside their programs to explain them
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# keys only a Kattis problem.yaml has: with one of them (or without our ``groups``) a folder is a Kattis package, data/
# or not
KATTIS_KEYS = {
    "problem_format_version",
    "name",
    "type",
    "uuid",
    "version",
    "credits",
    "author",
    "license",
    "rights_owner",
    "embargo_until",
    "keywords",
    "languages",
    "constants",
    "validation",
    "validator_flags",
    "allow_file_writing",
}


def looks_kattis(meta: Any) -> bool:
    """A problem.yaml without data/ beside it: Kattis when it has a Kattis-only key, or lacks our ``groups``."""
    if not isinstance(meta, dict):
        return False
    return "groups" not in meta or bool(KATTIS_KEYS & meta.keys())


def constants(meta: dict[str, Any], shown: str) -> dict[str, str]:
    """``name`` and ``name.variant`` (``name.value`` too) to their text; a scalar is a map holding only ``value``."""
    raw = meta.get("constants") or {}
    where = f"{shown}/{SPEC_NAME}"
    if not isinstance(raw, dict):
        raise SpecError(where, None, "constants must be a map of names to values")
    out: dict[str, str] = {}
    for name, value in raw.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise SpecError(where, None, f"constants: '{name}' is not a name ([a-zA-Z_][a-zA-Z0-9_]*)")
        variants = value if isinstance(value, dict) else {"value": value}
        if "value" not in variants:
            raise SpecError(where, None, f"constants.{name}: a map needs a 'value' key")
        for variant, text in variants.items():
            if isinstance(text, bool) or not isinstance(text, (int, float, str)):
                raise SpecError(
                    where, None, f"constants.{name}.{variant} must be an integer, a float or a string, got {text!r}"
                )
            out[f"{name}.{variant}"] = str(text)
        out[name] = out[f"{name}.value"]
    return out


def program_files(root: Path, meta: dict[str, Any], shown: str) -> ProgramFiles:
    include = root / "include"
    return ProgramFiles(include=include if include.is_dir() else None, constants=constants(meta, shown))


def _runnable(entry: Path) -> bool:
    return entry.is_dir() or is_source(entry) or (entry.is_file() and os.access(entry, os.X_OK))


def program_path(path: Path) -> Path | None:
    """A Kattis program is a file or a folder; a folder of several sources is built whole (the language layer finds its
    entry point)."""
    if path.is_file() or marked(path) is not None:  # a folder with build/run scripts is built and run by them
        return path
    sources = sorted(p for p in path.iterdir() if is_source(p))
    if len(sources) == 1:
        return sources[0]
    return path if sources else None


def validator_entries(root: Path) -> tuple[list[Path], list[Path]]:
    """The input validators' entries (a file, or a folder built whole), and those no language of the judge can run."""
    entries = [
        v
        for folder in VALIDATOR_FOLDERS
        if (root / folder).is_dir()
        for v in sorted((root / folder).iterdir())
        if not v.name.startswith(".")
    ]
    return [v for v in entries if _runnable(v)], [v for v in entries if not _runnable(v)]


def package_warnings(problem: Problem) -> list[str]:
    """What verify must say about a Kattis package: validators left out, and ``{{name}}`` sequences no constant
    defines."""
    root = problem.root
    _, skipped = validator_entries(root)
    warnings = [_not_run(v.relative_to(root).as_posix(), v.suffix.lower()) for v in skipped]
    sample = root / "data" / "sample"
    if not any(f.suffix in (".in", ".interaction") for f in (sample.rglob("*") if sample.is_dir() else ())):
        warnings.append("data/sample: no sample cases, so the statement shows no example")
    recipe = root / "generators" / "generators.yaml"  # BAPCtools' recipe for data/: `generate` makes it
    if recipe.is_file() and not (root / "data" / ".generated.json").is_file():
        warnings.append(
            "generators/generators.yaml: data/ was not made from it here (`generate` makes it, as bt generate does); "
            "only the cases already in data/ are judged"
        )
    folders = [
        root / f for f in ("output_validator", "output_validators", "include", "submissions", *VALIDATOR_FOLDERS)
    ]
    for file in sorted(f for folder in folders if folder.is_dir() for f in folder.rglob("*") if f.is_file()):
        try:
            names = undefined_constants(file.read_bytes(), problem.files.constants)
        except OSError:
            continue
        if names:
            warnings.append(
                f"{file.relative_to(root).as_posix()}: {{{{{names[0]}}}}} is not a constant of problem.yaml; "
                "left as written"
            )
    return warnings


def _not_run(name: str, suffix: str) -> str:
    """Why a file among the input validators is not run: a notes file beside them is no validator that was left
    out."""
    if suffix in NOTES:
        return f"{name}: notes, not a program: not run"
    return f"{name}: not run (no language of this judge runs it); inputs are not checked by it"
