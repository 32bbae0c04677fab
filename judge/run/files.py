"""Files the run layer and everything above it read and write: the cache folder and bounded reads of untrusted
output."""

from __future__ import annotations

from pathlib import Path

from ..locations import cache_folder


def cache_root() -> Path:
    """Where compiled artefacts live (``judge.locations.cache_folder``: ``TILEJUDGE_CACHE`` lets tests and CI isolate
    it), made if missing."""
    root = Path(cache_folder())
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
