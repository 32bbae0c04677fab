"""Files the run layer and everything above it read and write: the cache folder, locks in it, and bounded reads of
untrusted output."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..locations import cache_folder


def cache_root() -> Path:
    """Where compiled artefacts live (``judge.locations.cache_folder``: ``TILEJUDGE_CACHE`` lets tests and CI isolate
    it), made if missing."""
    root = Path(cache_folder())
    root.mkdir(parents=True, exist_ok=True)
    return root


@contextmanager
def held(lock: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold an exclusive lock on the file ``lock`` (made if missing): for work that two judges on one machine, sharing
    a cache, must do one at a time. ``on_wait`` is called once if another holds it, so a judge that waits can say
    why. The kernel drops the lock when its holder dies, so a killed judge never leaves it held."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def read_head(path: Path, limit: int = 16 * 1024) -> str:
    """The start of a possibly huge file (a log, a program's stderr), decoded leniently."""
    try:
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except OSError:
        return ""
    text = data[:limit].decode("utf-8", "replace")
    return text + ("\n… (trimmed)" if len(data) > limit else "")
