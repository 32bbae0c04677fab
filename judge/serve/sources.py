"""Submitted files, kept by the sha256 of their bytes under ``SITE/sources/``: written whole before any row names them.

A file is written under its hash with ``atomic_write`` before the transaction
that accepts the submission, so a row never names a missing or half-written
file; a crash between the two leaves at most a file no row names, which the
next identical submission reuses. The bytes are kept as sent: names and
contents are escaped where they are shown, never changed where they are kept.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..atomic import atomic_write

FOLDER = "sources"


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
            atomic_write(target, data)
        return digest

    def get(self, digest: str) -> bytes:
        return self.path(digest).read_bytes()
