"""Submitted files, kept by the sha256 of their bytes under ``SITE/sources/``: written whole before any row names them.

A file is written under its hash with ``atomic_write`` before the transaction
that accepts the submission, so a row never names a missing or half-written
file; a crash between the two leaves at most a file no row names, which the
next identical submission reuses. The bytes are kept as sent: names and
contents are escaped where they are shown, never changed where they are kept.

They are the server's user's alone: files 0600 in folders 0700 (``tighten``
brings a site an older version wrote, 0644 in 0755, to these modes at start),
so no other uid, and so no submitted program running as a sandbox uid, reads
another's source even where the site's folder is visible to it.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from ..atomic import atomic_write

FOLDER = "sources"
FILE_MODE, FOLDER_MODE = 0o600, 0o700


class Sources:
    def __init__(self, site: Path) -> None:
        self.root = site / FOLDER

    def path(self, digest: str) -> Path:
        return self.root / digest[:2] / digest

    def put(self, data: bytes) -> str:
        """Store ``data`` (once per content) and return its sha256."""
        digest = hashlib.sha256(data).hexdigest()
        target = self.path(digest)
        if not target.is_file() or target.stat().st_size != len(data):
            for folder in (self.root, target.parent):
                folder.mkdir(mode=FOLDER_MODE, exist_ok=True)
            atomic_write(target, data, mode=FILE_MODE)
        return digest

    def get(self, digest: str) -> bytes:
        return self.path(digest).read_bytes()

    def tighten(self) -> int:
        """Bring every folder and file under ``sources/`` to 0700 and 0600 (links are neither followed nor changed:
        none is made here); returns how many were changed."""
        changed = 0
        if not self.root.is_dir() or self.root.is_symlink():
            return 0
        for folder, _, files in os.walk(self.root):
            for path, mode in ((folder, FOLDER_MODE), *((os.path.join(folder, f), FILE_MODE) for f in files)):
                changed += owner_only(path, mode)
        return changed


def owner_only(path: str | os.PathLike[str], mode: int = FILE_MODE) -> int:
    """Set ``path`` (a file or folder, never a link's target) to ``mode`` if it has any other bit; 1 if changed."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return 0
    if stat.S_ISLNK(info.st_mode) or stat.S_IMODE(info.st_mode) == mode:
        return 0
    os.chmod(path, mode)
    return 1
