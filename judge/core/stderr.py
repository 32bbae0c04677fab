"""What a failed run's stderr says, boiled down to the line that names the error: for every kind of run's message.

A stack trace is mostly frames that only say where; the student needs the
line that says what went wrong, and none of the judge's own paths.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..run import cache_root
from ..text import safe_text

STDERR_KEEP = 2048
GIST_CHARS, CONTEXT_CHARS = 200, 300
# Lines of a stack trace that only say where: the line that says what went wrong is elsewhere.
_FRAME = re.compile(r'^(at |File "|\.\.\.|#\d+ |\[Previous line repeated|[\^~]+$)')
# A line that names what went wrong: an exception or error name, a panic, an abort, an assertion, a signal, or what
# a reader expected (a validator's "expected an integer", testlib's "Expected EOLN").
_ERROR = re.compile(r"error|exception|panic|abort|terminate|what\(\)|assert|fault|killed|fatal|expected", re.IGNORECASE)


def ends(path: Path, keep: int) -> str:
    """The first and the last ``keep`` bytes of a possibly huge file, decoded leniently: a runtime prints what went
    wrong last (a Python exception after its traceback), a program's own messages often come first."""
    try:
        with path.open("rb") as f:
            head = f.read(keep)
            size = f.seek(0, os.SEEK_END)
            f.seek(max(len(head), size - keep))
            tail = f.read(keep)
    except OSError:
        return ""
    gap = "\n…\n".encode() if size > 2 * keep else b""
    return (head + gap + tail).decode("utf-8", "replace")


def _hide_judge_paths(text: str) -> str:
    """Drop the judge's own folders from paths a program printed (``/root/.cache/tilejudge/build/<hash>/main.py`` →
    ``main.py``): they mean nothing to the student and say where the judge keeps things."""
    return re.sub(re.escape(str(cache_root())) + r"(?:/[^/\s\"':]+)*/", "", text)


def _gist(stderr: str) -> tuple[str, str]:
    """The line that says what went wrong and the text before it, both empty when nothing was said.

    The gist is the last line that names an error and is not a stack frame (a
    Python or Ruby exception, Java's "Exception in thread" line above its
    frames, C++'s ``what()``), else the last line that is not a frame (a
    program's own last word).
    """
    text = _hide_judge_paths(stderr).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip() and line.strip() != "…"]
    if not lines:
        return "", ""
    plain = [line for line in lines if not _FRAME.match(line)] or lines
    gist = next((line for line in reversed(plain) if _ERROR.search(line)), plain[-1])
    return gist, text[: text.rfind(gist)].strip()


def stderr_note(stderr: str) -> str:
    """`` | stderr: <the line that says what went wrong>`` and the end of what came before it, for a failed run's
    message."""
    gist, before = _gist(stderr)
    if not gist:
        return ""
    note = f" | stderr: {safe_text(gist[:GIST_CHARS], one_line=True)}"
    if before:
        note += f" | before it: {safe_text(('…' if len(before) > CONTEXT_CHARS else '') + before[-CONTEXT_CHARS:])}"
    return note


def said_in(path: Path) -> str:
    """The line of a file a helper program wrote (a validator's or generator's stderr) that says what went wrong, as
    one safe line: a problem setter reading verify's one-line finding needs the exception, not the first frames of
    its traceback."""
    return safe_text(_gist(ends(path, STDERR_KEEP))[0][:GIST_CHARS], one_line=True)
