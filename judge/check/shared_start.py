"""Where an output and its answer start alike, so that a comparison splits only what follows.

Most accepted outputs are their answer byte for byte, and many wrong ones
share a long start with it. Bytes are compared in C at memory speed, while
splitting them into tokens or lines and comparing those as lists costs about
a second of CPU per 64 MiB of one-character tokens. So a comparison first
finds how many bytes both files share from their start (all of them: the
verdict is AC), and its tokens or lines are read from the last place in
that shared start where a token, or a line with content, has just ended:
what comes before it splits the same on both sides. The tokens or lines and
the newlines before that place are counted (``translate`` and ``count``, in
C), so every message numbers tokens and lines as when both files are split
from their first byte.

Each function reads a chunk at a time and calls ``checkpoint()`` per chunk,
like the comparisons themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from .budget import checkpoint
from .streams import BLANKS, CHUNK, Source

# every byte made b" " (white space: what bytes.split() splits at) or b"x" (a token's)
_TOKEN_MARKS = bytes(b" "[0] if bytes([byte]).isspace() else b"x"[0] for byte in range(256))
# every byte made b" " (what a line may end with, or its end) or b"x" (a line's content)
_LINE_MARKS = bytes(b" "[0] if byte in BLANKS + b"\n" else b"x"[0] for byte in range(256))


@dataclass(frozen=True)
class Start:
    """Where both sides are read from: ``offset`` bytes in, ``items`` tokens or lines before it, and ``line`` the
    1-based line it lies on."""

    offset: int = 0
    items: int = 0
    line: int = 1


def first_byte_difference(output: bytes, answer: bytes) -> int:
    """The first index where two different byte strings differ (or the shorter length): halving the window that holds
    it, each half compared in C, so 2n bytes are compared in all."""
    low, high = 0, min(len(output), len(answer))
    if output[:high] == answer[:high]:
        return high
    while high - low > 1:  # the first difference lies in [low, high)
        middle = (low + high) // 2
        if output[low:middle] == answer[low:middle]:
            low = middle
        else:
            high = middle
    return low


def shared_length(output: Source, answer: Source) -> int | None:
    """How many bytes both start with; None when they are the same bytes throughout."""
    offset = 0
    while True:
        checkpoint()
        got, want = output.read_at(offset, CHUNK), answer.read_at(offset, CHUNK)
        if got != want:
            return offset + first_byte_difference(got, want)
        if not got:
            return None
        offset += len(got)


def _last_mark(source: Source, end: int, marks: bytes | None, mark: bytes) -> int:
    """The offset of the last byte before ``end`` that ``marks`` makes ``mark`` (the byte itself without ``marks``),
    or -1."""
    while end > 0:
        checkpoint()
        begin = max(0, end - CHUNK)
        chunk = source.read_at(begin, end - begin)
        at = (chunk.translate(marks) if marks is not None else chunk).rfind(mark)
        if at >= 0:
            return begin + at
        end = begin
    return -1


def _newlines(source: Source, end: int) -> int:
    count = 0
    for offset in range(0, end, CHUNK):
        checkpoint()
        count += source.read_at(offset, min(CHUNK, end - offset)).count(b"\n")
    return count


def token_start(source: Source, shared: int) -> Start:
    """Just past the last white space byte of the ``shared`` start of ``source``: the tokens before it are whole and
    the same on both sides."""
    offset = _last_mark(source, shared, _TOKEN_MARKS, b" ") + 1
    tokens = newlines = 0
    blank_before = True  # a token starts where a token byte follows white space (or the file's start)
    for at in range(0, offset, CHUNK):
        checkpoint()
        chunk = source.read_at(at, min(CHUNK, offset - at))
        marks = chunk.translate(_TOKEN_MARKS)
        tokens += marks.count(b" x") + (blank_before and marks[:1] == b"x")
        blank_before = marks[-1:] == b" "
        newlines += chunk.count(b"\n")
    return Start(offset, tokens, newlines + 1)


def line_start(source: Source, shared: int) -> Start:
    """Just past the newline that ends the last line with content (not only blanks) wholly inside the ``shared``
    start of ``source``: the lines before it are the same on both sides, and no empty line before it waits for
    content to follow (as ``line_batches`` keeps such lines only when content follows them)."""
    newline = _last_mark(source, shared, None, b"\n")
    content = _last_mark(source, newline, _LINE_MARKS, b"x") if newline > 0 else -1
    if content < 0:
        return Start()
    offset = content + 1
    while (at := source.read_at(offset, CHUNK).find(b"\n")) < 0:  # found by newline's position at the latest
        checkpoint()
        offset += CHUNK
    lines = _newlines(source, offset + at + 1)
    return Start(offset + at + 1, lines, lines + 1)
