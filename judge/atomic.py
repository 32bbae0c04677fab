"""Writing a file so that readers see the old content or the new, never half of each.

Reports, manifests and ``--json`` files are read by people and CI while the
judge may be killed at any moment; every such write goes through here.
Imports nothing of the judge, so every layer may use it.
"""

from __future__ import annotations

import contextlib
import os
import threading


def partial_beside(target: str) -> str:
    """Where the new content of ``target`` is written before the rename: a sibling of its own for each process and
    thread, so two writers of one file (two judges, a ``report`` beside a ``grade``) never write into the same
    half-made file or rename away each other's. The last rename wins; every version is whole."""
    return f"{target}.{os.getpid()}-{threading.get_ident()}.partial"


def atomic_write(path: str | os.PathLike[str], data: str | bytes, mode: int = 0o666) -> None:
    """Write ``data`` (text as UTF-8) to a sibling ``.partial`` file, then rename it over ``path`` in one step.
    ``mode`` (less the umask) is the new file's from its creation on: 0o600 keeps it from other users throughout."""
    target = os.fspath(path)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    partial = partial_beside(target)
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
        raise
