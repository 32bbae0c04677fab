"""What a Kattis package's YAML files state, read the same way by every part of the format that needs it.

``problem.yaml`` (``problem_meta``); the data folders' ``test_group.yaml`` (2025-09)
or ``testdata.yaml`` (earlier), each folder's keys merged over its
ancestors' (``folder_settings``); and a validator's arguments as any version writes
them (``program_args``). The scoring groups (``kattis_scoring.py``), the legacy
grading tree (``kattis_grading.py``), the validators' own cases
(``kattis_validator_cases.py``) and the loader (``kattis.py``) all read
through these, so a key means one thing wherever it is read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...model import SPEC_NAME
from . import fastyaml


def problem_meta(root: Path, shown: str) -> dict[str, Any]:
    """``problem.yaml`` as a mapping ({} when the package has none); a malformed one is refused naming ``shown``."""
    path = root / SPEC_NAME
    if not path.is_file():
        return {}
    return fastyaml.load_mapping(path, f"{shown}/{SPEC_NAME}")


def folder_settings(folder: Path, data_root: Path, legacy: bool) -> dict[str, Any]:
    """testdata.yaml (legacy: nearest ancestors merged key by key) or test_group.yaml (2025-09: inherited)."""
    return folder_settings_with_own(folder, data_root, legacy)[0]


def folder_settings_with_own(folder: Path, data_root: Path, legacy: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The merged settings of a folder and the ones its own file states (scoring keys are not inherited by groups)."""
    names = ("testdata.yaml",) if legacy else ("test_group.yaml", "testdata.yaml")
    chain = [folder, *folder.parents]
    merged: dict[str, Any] = {}
    own: dict[str, Any] = {}
    for directory in reversed(chain[: chain.index(data_root) + 1] if data_root in chain else [folder]):
        for name in names:
            file = directory / name
            if file.is_file():
                loaded = yaml_mapping(file)
                merged.update(loaded)
                if directory == folder:
                    own = loaded
                break
    return merged, own


def yaml_mapping(file: Path) -> dict[str, Any]:
    """One YAML file that must hold a mapping (an empty file is {})."""
    return fastyaml.load_mapping(file)


def program_args(value: Any) -> tuple[str, ...]:
    """A program's arguments as a package writes them: a string split at spaces, a list, or a mapping of
    validator names to arguments."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    if isinstance(value, dict):  # applied to every validator, as one program per package is usual
        return tuple(str(v) for args in value.values() for v in (args if isinstance(args, list) else str(args).split()))
    return (str(value),)
