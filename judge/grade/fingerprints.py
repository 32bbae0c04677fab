"""Fingerprints of source code for the similarity hints: normalised text, k-gram hashes and winnowing (as MOSS does).

Our own rather than copydetect's, because at 5,000 students the hints must
be cheap and always there: copydetect brings numpy, Pygments and matplotlib
(an optional extra, so most installs had no hints at all), hashes with
Python's per-process randomised ``hash`` and keeps every file's text and
position tables in memory. Here a source becomes two small arrays (its
fingerprints and where they are); the text is read again only for the few
pairs a report shows.

Normalising: comments and whitespace go, every identifier that is not a
keyword becomes ``V``, every string ``S``, a C preprocessor line ``P``
(renaming, re-indenting, re-commenting or changing messages changes
nothing); keywords, numbers and operators stay. Each normalised character
remembers the source range it came from, so a matched region is shown as
the student's own lines.
"""

from __future__ import annotations

import keyword
import re
import zlib
from array import array
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass
from functools import cache

K = 25  # k-gram length in normalised characters: copydetect's noise threshold, which the hints used before
WINDOW = 4  # winnowing window: any shared passage of K + WINDOW - 1 = 28 normalised characters shares a fingerprint

C_FAMILY_KEYWORDS = frozenset(
    """
auto break case catch char class const constexpr continue default delete do double else enum extern final float for
friend goto if inline int long namespace new operator private protected public register return short signed sizeof
static struct switch template this throw try typedef typename union unsigned using virtual void volatile while bool
true false nullptr abstract boolean byte extends implements import instanceof interface package super synchronized
throws var val fun let mut fn impl match mod pub self trait where loop func go chan defer map range select type
function undefined null def end elif begin then procedure program record repeat until with of in is not and or xor div
integer string print println
""".split()
)


@dataclass(frozen=True)
class Syntax:
    """What a language family's lexer needs: its comments, strings, keywords and whether ``#`` starts a preprocessor
    line."""

    line_comments: tuple[str, ...] = ("//",)
    block_comments: tuple[tuple[str, str], ...] = (("/*", "*/"),)
    triple_strings: bool = False
    preprocessor: bool = False
    keywords: frozenset[str] = C_FAMILY_KEYWORDS


C_LIKE = Syntax(preprocessor=True)
SYNTAX = {  # our language names; any other language is lexed as C-like (its identifiers and operators still normalise)
    "c": C_LIKE,
    "cpp": C_LIKE,
    "cpp20": C_LIKE,
    "python3": Syntax(("#",), (), True, False, frozenset(keyword.kwlist)),
    "python2": Syntax(("#",), (), True, False, frozenset(keyword.kwlist) | {"print", "exec"}),
    "pypy3": Syntax(("#",), (), True, False, frozenset(keyword.kwlist)),
    "ruby": Syntax(("#",), (("=begin", "=end"),)),
    "haskell": Syntax(("--",), (("{-", "-}"),)),
    "lua": Syntax(("--",), (("--[[", "]]"),)),
    "pascal": Syntax(("//",), (("{", "}"), ("(*", "*)"))),
    "ocaml": Syntax((), (("(*", "*)"),)),
    "lisp": Syntax((";",), (("#|", "|#"),)),
    "prolog": Syntax(("%",), (("/*", "*/"),)),
    "php": Syntax(("//", "#"), (("/*", "*/"),)),
}


@cache
def _lexer(syntax: Syntax) -> re.Pattern[str]:
    blocks = "|".join(re.escape(a) + r"[\s\S]*?" + re.escape(b) for a, b in syntax.block_comments)
    lines = "|".join(re.escape(m) for m in syntax.line_comments)
    parts = [f"(?P<skip>{blocks})"] if blocks else []
    if lines:
        parts.append(f"(?P<line>{lines})" + r"[^\n]*")
    if syntax.preprocessor:
        parts.append(r"(?P<pre>(?m:^[ \t]*#[^\n]*))")
    if syntax.triple_strings:
        parts.append(r'(?P<doc>"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\')')
    parts += [
        r'(?P<str>"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')',
        r"(?P<num>\d[\w.]*)",
        r"(?P<id>[^\W\d]\w*)",
        r"(?P<ws>\n|[^\S\n]+)",
        r"(?P<op>.)",
    ]
    return re.compile("|".join(parts))


@dataclass(frozen=True)
class Normalised:
    """The normalised text, and for each of its characters the source range of the token it came from."""

    text: str
    starts: array
    ends: array


def normalise(source: str, syntax: Syntax) -> Normalised:
    out: list[str] = []
    starts, ends = array("l"), array("l")
    for match in _lexer(syntax).finditer(source):
        kind = match.lastgroup
        if kind in ("skip", "line", "ws"):
            continue
        piece = match.group()
        if kind == "pre":
            piece = "P"
        elif kind in ("str", "doc"):
            piece = "S"
        elif kind == "id":
            piece = piece if piece in syntax.keywords else "V"
        piece = (
            piece if piece.isascii() else piece.encode("ascii", "replace").decode()
        )  # one byte a character: hashed bytes = text
        out.append(piece)
        starts.extend([match.start()] * len(piece))
        ends.extend([match.end()] * len(piece))
    return Normalised("".join(out), starts, ends)


def kgram_hashes(text: str) -> list[int]:
    """A 64-bit hash of every K-gram (CRC-32 and Adler-32 side by side: fast, and the same in every process)."""
    data = text.encode("ascii")
    crc, adler = zlib.crc32, zlib.adler32
    return [crc(data[i : i + K]) << 32 | adler(data[i : i + K]) for i in range(len(data) - K + 1)]


def winnow(hashes: list[int]) -> list[int]:
    """Positions of the rightmost smallest hash of every window of WINDOW k-grams (a short text: of the whole text).

    The choice in a window depends on the window's hashes alone, so two texts
    sharing WINDOW consecutive k-grams select the same fingerprint there.
    """
    width = min(WINDOW, len(hashes))
    chosen: list[int] = []
    for i in range(len(hashes) - width + 1) if width else ():
        window = hashes[i : i + width]
        low = min(window)
        at = i + width - 1 - window[::-1].index(low)
        if not chosen or chosen[-1] != at:
            chosen.append(at)
    return chosen


@dataclass(frozen=True)
class Prints:
    """One source's fingerprints in text order (hash and position), handed-out code already taken out."""

    hashes: array
    positions: array


def fingerprint(source: str, syntax: Syntax, handed_out: Sequence[Set[int]] = ()) -> Prints:
    """The winnowed fingerprints whose passage is mostly the student's own: more than half of its K characters outside
    every passage of handed-out code (a student who changed one short line of a template has no fingerprint there)."""
    hashes = kgram_hashes(normalise(source, syntax).text)
    chosen = winnow(hashes)
    if any(handed_out):
        given = _given_before(hashes, handed_out)
        chosen = [p for p in chosen if 2 * (given[p + K] - given[p]) < K]
    return Prints(array("Q", (hashes[p] for p in chosen)), array("l", chosen))


def _given_before(hashes: list[int], handed_out: Sequence[Set[int]]) -> list[int]:
    """For each position i, how many of the normalised characters before i lie in a K-gram of handed-out code."""
    inside = [0] * (len(hashes) + K)
    end = 0
    for p, h in enumerate(hashes):
        if any(h in given for given in handed_out):
            for i in range(max(p, end), p + K):
                inside[i] = 1
            end = p + K
    before = [0]
    for flag in inside:
        before.append(before[-1] + flag)
    return before


def every_kgram(source: str, syntax: Syntax) -> set[int]:
    """All K-gram hashes of handed-out code: a student's fingerprint is the teacher's when any K-gram of theirs matches,
    whatever the winnowing chose in either text."""
    return set(kgram_hashes(normalise(source, syntax).text))


def covered(positions: Iterable[int]) -> int:
    """How many normalised characters the K-grams at these (ascending) positions cover together."""
    total, end = 0, -1
    for p in positions:
        total += K - max(0, end - p)
        end = p + K
    return total


def spans(positions: Iterable[int]) -> list[tuple[int, int]]:
    """The K-grams at these (ascending) positions merged into [start, end) ranges of normalised text."""
    out: list[tuple[int, int]] = []
    for p in positions:
        if out and p <= out[-1][1]:
            out[-1] = (out[-1][0], p + K)
        else:
            out.append((p, p + K))
    return out
