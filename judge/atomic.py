"""Writing a file so that readers see the old content or the new, never half of each.

Reports, manifests and ``--json`` files are read by people and CI while the
judge may be killed at any moment; every such write goes through here.
Imports nothing of the judge, so every layer may use it.
"""
from __future__ import annotations

import os
from pathlib import Path


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to a sibling ``.partial`` file, then rename it over ``path`` in one step."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
