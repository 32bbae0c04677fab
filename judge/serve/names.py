"""Names a person gives (files, accounts): what is taken before anything is stored, and how a stored one is shown.

A name is kept as sent and escaped wherever it is shown, but it must be text
a file system and every encoder take: valid Unicode (no lone surrogate,
which JSON's ``\\ud800`` escape can carry and which no UTF-8 encoder will
write again, so a stored one made every page listing it a 500), no control
character (NUL, a newline, an escape: they break lines, logs and the
launcher's protocol), and short enough for a file system (a component is at
most 255 bytes of UTF-8; a 400-byte name was taken, then every judging of it
failed). ``FILE_NAME_BYTES`` keeps a margin below 255 for what the judge
adds to a name. Rows an earlier version stored with such a name are shown
through ``shown`` (a lone surrogate becomes U+FFFD) and judged under
``disk_name`` (a plain name with the same extension).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from starlette.responses import JSONResponse

FILE_NAME_BYTES = 128  # a file name's most bytes in UTF-8 (a file system takes 255; the judge adds suffixes)
SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN = re.compile(r"[A-Za-z0-9_.+-]{1,128}\Z")
_SUFFIX = re.compile(r"\.[A-Za-z0-9_+-]{1,16}\Z")


def text_fault(value: str) -> str | None:
    """Why ``value`` is not text a name may be (a lone surrogate, a control or separator character), or None."""
    if SURROGATE.search(value):
        return "it holds a lone surrogate, which is no Unicode text"
    for char in value:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return f"it holds the control character U+{ord(char):04X}"
    return None


def file_name_fault(name: str) -> str | None:
    """Why ``name`` cannot be a submitted file's name, or None: a name of a file, as text, that a file system takes."""
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        return "a file name must name a file: no folder part, not . or .."
    fault = text_fault(name)
    if fault is not None:
        return f"a file name must be text: {fault}"
    if len(name.encode("utf-8")) > FILE_NAME_BYTES:
        return f"a file name is at most {FILE_NAME_BYTES} bytes in UTF-8"
    return None


def shown(text: str) -> str:
    """A stored string as it can be sent: a lone surrogate (stored by an earlier version) becomes U+FFFD."""
    return SURROGATE.sub("\ufffd", text)


def disk_name(name: str, number: int = 0) -> str:
    """The name a stored file is written under to be judged: itself when it is plain, else ``main`` (``file2``, … for
    the ``number``-th of several) with its extension, so a row an earlier version took with a name no file system
    takes is still judged, and by its language."""
    if _PLAIN.match(name) and name not in (".", ".."):
        return name
    suffix = _SUFFIX.search(name)
    return ("main" if number == 0 else f"file{number}") + (suffix.group(0) if suffix else "")


class ShownJSON(JSONResponse):
    """Every JSON answer of the service: Starlette's, but a string stored with a lone surrogate is sent with U+FFFD
    in its place instead of failing the answer (a 500 on every list that held it, for good)."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            return shown(text).encode("utf-8")
