"""Files a checker hands the judge beside its verdict: a picture of the wrong placement, a log, a table.

A Kattis-protocol checker or interactor writes them into
``FEEDBACK_DIR/attachments/``, which the judge makes before the run (``fresh_feedback``): a
checker that writes only where that folder exists also runs under judges that
know no attachments (problemtools reads every entry of the feedback folder as
a file, and a folder there stops it with a traceback); the judge keeps each with the case's result,
so they reach ``judge --json``, the grade reports and the saved feedback
without the judge knowing what they show. A checker is trusted, yet what it
draws may quote the submission, so the judge keeps the result sane: at most
``MAX_FILES`` regular files (links, folders and fifos are passed over),
each at most ``MAX_BYTES``, a cleaned name, and a media type from the
extension only (never sniffed), so a report never trusts the content.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FOLDER = "attachments"
MAX_FILES = 4
MAX_BYTES = 256 << 10
MEDIA_TYPES = {
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".txt": "text/plain",
    ".json": "application/json",
    ".csv": "text/csv",
}
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class Attachment:
    """One file a checker attached to a case's result; ``data`` is bounded by ``MAX_BYTES``."""

    name: str
    media_type: str
    data: bytes

    @property
    def is_image(self) -> bool:
        return self.media_type.startswith("image/")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "media_type": self.media_type,
            "size": len(self.data),
            "base64": base64.b64encode(self.data).decode("ascii"),
        }


def clean_name(name: str) -> str:
    """A file name that is safe in a path, a URL and HTML: letters, digits, ``._-``, no leading dot, at most 64
    characters."""
    return _UNSAFE.sub("_", name).lstrip(".")[:64] or "attachment"


def media_type(name: str) -> str:
    return MEDIA_TYPES.get(Path(name).suffix.lower(), "application/octet-stream")


def fresh_feedback(feedback: Path) -> Path:
    """An empty feedback folder for one checker or interactor run, holding the attachments folder: the sign that this
    judge takes attachments (see the module's docstring)."""
    shutil.rmtree(feedback, ignore_errors=True)
    feedback.mkdir()
    (feedback / FOLDER).mkdir(mode=feedback.stat().st_mode & 0o777)
    return feedback


def collect(feedback: Path) -> tuple[tuple[Attachment, ...], str]:
    """The attachments in ``feedback/attachments/`` in name order, and a note on what was left out ('' if nothing)."""
    folder = feedback / FOLDER
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return (), ""
    kept: list[Attachment] = []
    dropped: list[str] = []
    for name in names:
        data = _read_regular(folder / name)
        if data is None:
            continue
        if len(data) > MAX_BYTES or len(kept) == MAX_FILES:
            dropped.append(clean_name(name))
            continue
        clean = clean_name(name)
        kept.append(Attachment(clean, media_type(clean), data))
    note = (
        f"(attachments left out, over {MAX_FILES} files or {MAX_BYTES >> 10} KiB each: {', '.join(dropped[:5])})"
        if dropped
        else ""
    )
    return tuple(kept), note


def _read_regular(path: Path) -> bytes | None:
    """A regular file's first ``MAX_BYTES + 1`` bytes, or None for anything else (opened without following links)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as f:
        return f.read(MAX_BYTES + 1)
