"""YAML parsing through libyaml when PyYAML was built with it (``CSafeLoader``), else PyYAML's pure-Python ``SafeLoader``.

Parsing every ``problem.yaml`` with the pure-Python loader was most of the
start-up of ``list``; libyaml is several times faster, gives the same values
and the same node tree with the same line numbers, so error messages still
point at the same lines.
"""
from __future__ import annotations

from typing import Any

import yaml

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """``yaml.safe_load``, through libyaml when available."""
    return yaml.load(text, Loader=SafeLoader)


def compose(text: str) -> yaml.Node | None:
    """``yaml.compose`` with the safe loader: the node tree whose marks carry line numbers."""
    return yaml.compose(text, Loader=SafeLoader)
