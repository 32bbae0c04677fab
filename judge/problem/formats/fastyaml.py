"""YAML parsing through libyaml when PyYAML was built with it (``CSafeLoader``), else PyYAML's pure-Python
``SafeLoader``.

Parsing every ``problem.yaml`` with the pure-Python loader was most of the
start-up of ``list``; libyaml is several times faster, gives the same values
and the same node tree with the same line numbers, so error messages still
point at the same lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from ...errors import SpecError

if TYPE_CHECKING:
    from pathlib import Path

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """``yaml.safe_load``, through libyaml when available."""
    return yaml.load(text, Loader=SafeLoader)


def load_mapping(path: Path, shown: str | Path | None = None) -> dict[str, Any]:
    """A package's YAML file that must hold a mapping (an empty file is an empty one); any fault is one SpecError naming
    the file (as ``shown``) and, for bad YAML, the line."""
    where = shown or path
    try:
        loaded = safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SpecError(
            where, mark.line + 1 if mark else None, f"invalid YAML: {getattr(exc, 'problem', exc)}"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(where, None, f"cannot read: {exc}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise SpecError(where, 1, f"{path.name} must be a mapping")
    return loaded


def compose(text: str) -> yaml.Node | None:
    """``yaml.compose`` with the safe loader: the node tree whose marks carry line numbers."""
    return yaml.compose(text, Loader=SafeLoader)
