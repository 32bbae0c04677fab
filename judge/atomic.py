"""Writing a file so that readers see the old content or the new, never half of each.

Reports, manifests and ``--json`` files are read by people and CI while the
judge may be killed at any moment; every such write goes through here.
Imports nothing of the judge, so every layer may use it.
"""

from __future__ import annotations

import os


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to a sibling ``.partial`` file, then rename it over ``path`` in one step."""
    target = os.fspath(path)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    partial = target + ".partial"
    with open(partial, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
    os.replace(partial, target)
