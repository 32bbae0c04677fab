"""Text the judge shows people: untrusted program output made safe, and plain aligned tables.

Everything a submitted program prints (and a checker's message, a compiler's
log, a student id taken from a file name) is untrusted: raw control bytes in
it could rewrite a terminal (ESC sequences), hide text (\\r) or break an XML
report. ``safe_text`` is the one place that turns such bytes into visible
escapes; every renderer calls it instead of printing the bytes as they came.
Imports nothing of the judge, so every layer may use it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_KEEP_MULTILINE = frozenset("\n\t")
_KEEP_ONE_LINE = frozenset("\t")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


# C0 controls, DEL, C1 controls, the Unicode line/paragraph separators terminals and XML treat as breaks, lone
# surrogates and the two non-characters; one class, so that a search in C finds the first (most text holds none)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def safe_text(data: bytes | str, one_line: bool = False) -> str:
    """``data`` with invalid UTF-8 replaced and every control character but newline and tab shown as ``\\xNN``.

    With ``one_line`` a newline becomes ``\\x0a`` too, for places (a table
    cell, an XML attribute) where a line break would change the layout.
    """
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    keep = _KEEP_ONE_LINE if one_line else _KEEP_MULTILINE
    if _CONTROL.search(text) is None:  # the common case: a report holds thousands of clean strings
        return text
    return _CONTROL.sub(lambda m: m[0] if m[0] in keep else _escape(m[0]), text)


def status_text(exit_code: int | None, signal_name: str | None, killed: str = "none") -> str:
    """How a process ended, in the words every message uses: "exit code 3", "killed by SIGSEGV", or the limit that
    stopped it."""
    if killed != "none":
        return killed
    if exit_code is not None:
        return f"exit code {exit_code}"
    return f"killed by {signal_name}"


def table(rows: Sequence[Sequence[str]], header: Sequence[str]) -> str:
    """A plain aligned text table; plain so it survives copying into e-mails and CI logs. Cells are made safe here."""
    cells = [[safe_text(str(cell), one_line=True) for cell in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()

    return "\n".join([line(cells[0]), line(["-" * w for w in widths]), *(line(r) for r in cells[1:])])
