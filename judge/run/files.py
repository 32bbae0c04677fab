"""Files the run layer and everything above it read and write: the cache folder and bounded reads of untrusted output."""
from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """Where compiled artefacts live; overridable so tests and CI can isolate it."""
    configured = os.environ.get("TILEJUDGE_CACHE")
    root = Path(configured) if configured else Path.home() / ".cache" / "tilejudge"
    root.mkdir(parents=True, exist_ok=True)
    return root



def read_head(path: Path, limit: int = 16 * 1024) -> str:
    """The start of a possibly huge file (a log, a program's stderr), decoded leniently."""
    try:
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except OSError:
        return ""
    text = data[:limit].decode("utf-8", "replace")
    return text + ("\n… (trimmed)" if len(data) > limit else "")
