"""An output and its answer read in chunks, as batches of tokens or lines, so a built-in comparison holds little.

The built-in comparisons run inside the judge's process (and beside other
judgings in the service's). Splitting a whole 64 MiB output of one-character
tokens makes a list of 32 million entries, and of two-character ones 21
million bytes objects besides (2.4 GiB of peak memory, measured); here each
side is read ``CHUNK`` bytes at a time and split one chunk at a time, so what
a comparison holds is a few chunks' worth of tokens or lines, whatever the
submission prints. Splitting stays in C (``bytes.split``, one call a chunk);
only the seams between chunks are Python.

A token or line longer than ``LONG`` is never held whole: it becomes a
``Long``, its length, the start a message may quote and a SHA-256 digest of
its content, so two long items are equal exactly when their content is (up
to a collision of SHA-256); a long token that is a number also carries its
value, read as it went by (``long_numbers.py``).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import methodcaller
from pathlib import Path

from .budget import checkpoint
from .long_numbers import NumberReader

CHUNK = 1 << 17  # bytes read at a time from each side
LONG = 4 << 20  # a token or line longer than this is kept as a Long (more than CHUNK: what one chunk holds is short)
HEAD = 244  # what a message quotes of an item: 60 characters of at most 4 bytes each, and a little more
BLANKS = b" \t\r"  # what a line may end with and still equal one without

Data = bytes | Path
_DIGIT_RUNS = re.compile(rb"[0-9]+")
_SKELETON = 16  # a number's digits runs each made one digit, its skeleton, is at most "+1.1e+1"
_LINE_END = methodcaller("rstrip", BLANKS)
_ENDS_IN_BLANK = re.compile(rb"[ \t\r]\n")  # a line to strip; a search in C, so the usual text skips the stripping


class Source:
    """An output or answer read by position: a file through ``pread`` (so several readers of one file never move
    each other's place) or bytes already in memory, which unit tests hand over."""

    def __init__(self, data: bytes | int) -> None:
        self._data = data

    def read_at(self, offset: int, size: int) -> bytes:
        if isinstance(self._data, bytes):
            return self._data[offset : offset + size]
        return os.pread(self._data, size, offset)

    def chunks(self, offset: int = 0) -> Iterator[tuple[int, bytes]]:
        """Each chunk with its offset, from ``offset`` to the end; the budget is looked at once per chunk."""
        while chunk := self.read_at(offset, CHUNK):
            checkpoint()
            yield offset, chunk
            offset += len(chunk)


@contextmanager
def opened(data: Data) -> Iterator[Source]:
    """A ``Source`` over a file (open for the body only) or over bytes."""
    if isinstance(data, bytes):
        yield Source(data)
        return
    fd = os.open(data, os.O_RDONLY | os.O_CLOEXEC)
    try:
        yield Source(fd)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Long:
    """A token or line of ``size`` bytes, over ``LONG``: equal to another exactly when its size and digest are.
    ``head`` is its start as written (a message quotes it); ``value`` the token's value when it is a decimal number
    (read by ``long_numbers.py``; a long token is a number only through its digits, so when its digit runs, each
    made one digit, read as one)."""

    size: int
    digest: bytes
    head: bytes = field(compare=False)
    value: float | None = field(compare=False, default=None)


Item = bytes | Long


class _LongToken:
    """A token being read past ``LONG``: its digest over its folded pieces, its start, the skeleton of its digits and,
    while that may be a number's, the number."""

    def __init__(self, pieces: Sequence[bytes], fold: bool) -> None:
        self.fold, self.size, self.hash, self.head, self.skeleton = fold, 0, hashlib.sha256(), b"", b""
        self.number = NumberReader()
        for piece in pieces:
            self.add(piece)

    def add(self, piece: bytes) -> None:
        self.size += len(piece)
        self.hash.update(piece.lower() if self.fold else piece)
        if len(self.head) < HEAD:
            self.head += piece[: HEAD - len(self.head)]
        if len(self.skeleton) <= _SKELETON:
            digits = b"1" if piece.isdigit() else _DIGIT_RUNS.sub(b"1", piece)  # isdigit: no pattern run, mostly
            self.skeleton = _DIGIT_RUNS.sub(b"1", self.skeleton + digits)
            if len(self.skeleton) <= _SKELETON:  # still a number's: this piece has a few marks at most
                self.number.add(piece)

    def done(self, is_number: Callable[[bytes], bool] | None) -> Long:
        number = len(self.skeleton) <= _SKELETON and is_number is not None and is_number(self.skeleton)
        return Long(self.size, self.hash.digest(), self.head, self.number.value() if number else None)


@dataclass(frozen=True)
class TokenBatch:
    """Consecutive tokens, folded to lower case when asked: split from ``text`` (as written, from line ``line``), or
    one ``Long`` token (``text`` empty)."""

    items: list[Item]
    text: bytes
    line: int

    def written(self, index: int) -> Item:
        """The ``index``-th token as the file has it (a message quotes it unfolded)."""
        item = self.items[index]
        return item if isinstance(item, Long) else self.text.split()[index]

    def line_of(self, index: int) -> int:
        """The 1-based line holding the ``index``-th token."""
        if not self.text:
            return self.line
        seen = 0
        for number, line in enumerate(self.text.split(b"\n"), self.line):
            seen += len(line.split())
            if seen > index:
                return number
        raise IndexError(index)


def token_batches(
    source: Source, fold: bool, is_number: Callable[[bytes], bool] | None = None, offset: int = 0, line: int = 1
) -> Iterator[TokenBatch]:
    """The whitespace-separated tokens of ``source`` from ``offset`` (just past white space, on line ``line``), a
    chunk's worth at a time.

    A token cut by a chunk's end is carried into the next chunk's text; one
    carried past ``LONG`` is read on as a ``_LongToken``. ``is_number`` (a
    token → bool) tells a ``Long`` whether its skeleton reads as a number.
    """
    carry, carried = [], 0
    long: _LongToken | None = None
    for _, chunk in source.chunks(offset):
        end = _token_end(chunk) if carried or long is not None else 0  # where the token carried on ends
        if carried and carried + end > LONG:
            long, carry, carried = _LongToken(carry, fold), [], 0
        if long is not None:
            long.add(chunk[:end])
            if end == len(chunk):
                continue
            yield TokenBatch([long.done(is_number)], b"", line)
            long, chunk = None, chunk[end:]
        tail = b"" if chunk[-1:].isspace() else chunk.rsplit(None, 1)[-1]
        if len(tail) < len(chunk):
            text = b"".join([*carry, chunk[: len(chunk) - len(tail)]])
            yield TokenBatch((text.lower() if fold else text).split(), text, line)
            line += text.count(b"\n")
            carry, carried = [], 0
        carry.append(tail)
        carried += len(tail)
    if long is not None:
        yield TokenBatch([long.done(is_number)], b"", line)
    elif carried:
        text = b"".join(carry)
        yield TokenBatch((text.lower() if fold else text).split(), text, line)


def _token_end(chunk: bytes) -> int:
    """The length of the token a chunk starts with (0 when it starts with white space)."""
    return 0 if chunk[:1].isspace() else len(chunk.split(None, 1)[0])


class _LongLine:
    """A line being read past ``LONG``: its content (without trailing blanks) hashed as it is confirmed.

    Blanks are only content once something follows them on the line, so the
    digest runs up to the last byte that is not blank; blanks left behind are
    read again from the source when something follows (each byte at most
    twice), never held.
    """

    def __init__(self, source: Source, start: int) -> None:
        self.source, self.start, self.end, self.hash = source, start, start, hashlib.sha256()

    def add(self, piece: bytes, offset: int) -> None:
        kept = len(piece.rstrip(BLANKS))
        if not kept:
            return
        for at in range(self.end, offset, CHUNK):  # the blanks before this piece are content after all
            self.hash.update(self.source.read_at(at, min(CHUNK, offset - at)))
        self.hash.update(piece[:kept])
        self.end = offset + kept

    def done(self) -> Item:
        size = self.end - self.start
        if size <= LONG:  # long only in its trailing blanks
            return self.source.read_at(self.start, size)
        return Long(size, self.hash.digest(), self.source.read_at(self.start, min(HEAD, size)))


def line_batches(source: Source, start: int = 0) -> Iterator[list[Item]]:
    """The lines of ``source`` from ``start`` (a line's) without their trailing blanks, and without the empty lines
    at its end.

    Empty lines are counted, not held, until a line with content follows
    them (then they are given in batches of at most ``CHUNK``); those at the
    end never are.
    """
    carry: list[bytes] = []
    carried, empty = 0, 0  # start: from here on, the offset of the line being read
    long: _LongLine | None = None
    for offset, chunk in source.chunks(start):
        begin = 0
        first = chunk.find(b"\n")
        if carried and carried + (len(chunk) if first < 0 else first) > LONG:
            long = _LongLine(source, start)
            long.add(b"".join(carry), start)
            carry, carried = [], 0
        if long is not None:
            long.add(chunk if first < 0 else chunk[:first], offset)
            if first < 0:
                continue
            item = long.done()
            if item:
                yield from _empty_lines(empty)
                empty = 0
                yield [item]
            else:
                empty += 1
            long, begin, start = None, first + 1, offset + first + 1
        last = chunk.rfind(b"\n")
        if last >= begin:
            text = b"".join([*carry, chunk[begin:last]])
            total = text.count(b"\n") + 1
            content = text.rstrip(BLANKS + b"\n")
            if content:
                lines = content.split(b"\n")
                yield from _empty_lines(empty)
                yield list(map(_LINE_END, lines)) if _ENDS_IN_BLANK.search(content) else lines
                empty = total - len(lines)
            else:
                empty += total
            carry, carried, begin, start = [], 0, last + 1, offset + last + 1
        carry.append(chunk[begin:])
        carried += len(chunk) - begin
    last_line = long.done() if long is not None else b"".join(carry).rstrip(BLANKS)
    if last_line:
        yield from _empty_lines(empty)
        yield [last_line]


def _empty_lines(count: int) -> Iterator[list[Item]]:
    for done in range(0, count, CHUNK):
        yield [b""] * min(CHUNK, count - done)


_MARK = bytes(byte if bytes([byte]).isspace() else ord("x") for byte in range(256))


def layout_chunks(source: Source, offset: int = 0) -> Iterator[bytes]:
    """The data with each token made one ``x``: equal for two files exactly when their runs of white space are the
    same, in the same order, with the same ends (what ``space_change_sensitive`` compares); from ``offset``, just
    past white space, where both files are the same before.

    Every byte of a token is made ``x`` by ``translate``, and runs of ``x``
    are halved until one is left: passes in C, at most 18 for a chunk,
    where a pattern's substitution costs a match object per token."""
    in_token = False
    for _, chunk in source.chunks(offset):
        layout = chunk.translate(_MARK)
        while b"xx" in layout:
            layout = layout.replace(b"xx", b"x")
        yield layout[1:] if in_token and layout[:1] == b"x" else layout
        in_token = layout[-1:] == b"x"


def same_bytes(left: Iterable[bytes], right: Iterable[bytes]) -> bool:
    """Whether two streams of chunks, cut anywhere, carry the same bytes."""
    lefts, rights = filter(None, left), filter(None, right)
    a = b = b""
    while True:
        a, b = a or next(lefts, b""), b or next(rights, b"")
        if not a or not b:
            return not a and not b
        n = min(len(a), len(b))
        if a[:n] != b[:n]:
            return False
        a, b = a[n:], b[n:]


class Cursor:
    """A place in a stream of batches (token batches, or lists of lines): ``index`` items before it, ``before`` of
    them before the stream's first batch (where the stream starts past the start both files share)."""

    def __init__(self, batches: Iterator[TokenBatch] | Iterator[list[Item]], before: int = 0) -> None:
        self._batches = batches
        self.batch: TokenBatch | None = None
        self.items: list[Item] = []
        self.at = 0
        self._before = before

    @property
    def index(self) -> int:
        return self._before + self.at

    def more(self) -> bool:
        """Whether an item is left at the cursor (reading the next batches if need be)."""
        while self.at == len(self.items):
            batch = next(self._batches, None)
            if batch is None:
                return False
            self._before += len(self.items)
            self.batch, self.items = (batch, batch.items) if isinstance(batch, TokenBatch) else (None, batch)
            self.at = 0
        return True

    def item(self) -> Item | None:
        return self.items[self.at] if self.more() else None

    def count(self) -> int:
        """How many items the whole stream has (reading it to its end)."""
        while self.more():
            self.at = len(self.items)
        return self.index


def first_difference(got: Cursor, want: Cursor, same: Callable[[Item, Item], bool] | None = None) -> bool:
    """Move both cursors to the first pair of items that is not the same (or to where one stream ends while the
    other goes on) and say whether there is one.

    Runs of items are compared as lists in C first; only a run that differs
    is walked item by item with ``same``, which must hold for equal items.
    """
    while True:
        got_more, want_more = got.more(), want.more()
        if not (got_more and want_more):
            return got_more or want_more
        n = min(len(got.items) - got.at, len(want.items) - want.at)
        run = got.items[got.at : got.at + n]
        expected = want.items[want.at : want.at + n]
        if run != expected:
            checkpoint()
            start_got, start_want = got.at, want.at
            for offset, (g, w) in enumerate(zip(run, expected)):
                if g != w:
                    got.at, want.at = start_got + offset, start_want + offset  # where ``same`` may raise
                    if same is None or not same(g, w):
                        return True
            got.at, want.at = start_got, start_want
        got.at += n
        want.at += n
