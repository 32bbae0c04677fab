"""Which compiled JVM class holds ``public static void main(String[])``: read from the class files, not guessed from the
source.

A regular expression over Java source cannot tell a nested class declared
before the real main class (``class Pt`` inside ``Solution``) from the class
that declares ``main``, nor see a main declared through a record, an enum or
Scala's static forwarder. The class files say it exactly: each names itself,
its methods with their flags and descriptors, and the source file it came
from. The files come from compiling untrusted code, so parsing is bounded and
anything malformed is simply not a candidate.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

MAGIC = 0xCAFEBABE
PUBLIC_STATIC = 0x0009
MAIN_DESCRIPTOR = "([Ljava/lang/String;)V"
MAX_CLASS_FILES = 2000
MAX_CLASS_BYTES = 8 << 20
# constant-pool tag -> bytes after the tag (Utf8, 1, is read by its length; Long and Double take two slots)
FIXED = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}


class Malformed(Exception):
    """Not a class file this parser can read to the end of its methods."""


@dataclass(frozen=True)
class ClassInfo:
    name: str  # dotted, as ``java`` wants it: ``pkg.Outer$Inner``
    has_main: bool
    source_file: str  # the SourceFile attribute ("" when the compiler left it out)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, fmt: str) -> int:
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise Malformed("truncated")
        (value,) = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return int(value)

    def skip(self, size: int) -> None:
        if self.at + size > len(self.data):
            raise Malformed("truncated")
        self.at += size


def parse(data: bytes) -> ClassInfo:
    """The class's name, whether it has ``public static void main(String[])``, and its source file."""
    r = _Reader(data)
    if r.take(">I") != MAGIC:
        raise Malformed("not a class file")
    r.skip(4)  # minor and major version
    utf8: dict[int, str] = {}
    class_names: dict[int, int] = {}
    count = r.take(">H")
    index = 1
    while index < count:
        tag = r.take(">B")
        if tag == 1:
            length = r.take(">H")
            r.skip(length)
            utf8[index] = data[r.at - length : r.at].decode("utf-8", "replace")
        elif tag in FIXED:
            if tag == 7:
                class_names[index] = r.take(">H")
            else:
                r.skip(FIXED[tag])
        else:
            raise Malformed(f"constant-pool tag {tag}")
        index += 2 if tag in (5, 6) else 1
    r.skip(2)  # access flags
    this_class = r.take(">H")
    r.skip(2)  # super class
    r.skip(2 * r.take(">H"))  # interfaces
    _members(r)  # fields
    has_main = any(
        flags & PUBLIC_STATIC == PUBLIC_STATIC and utf8.get(name) == "main" and utf8.get(descriptor) == MAIN_DESCRIPTOR
        for flags, name, descriptor in _members(r)
    )
    source = ""
    for _ in range(r.take(">H")):
        attribute, length = r.take(">H"), r.take(">I")
        if utf8.get(attribute) == "SourceFile" and length == 2:
            source = utf8.get(r.take(">H"), "")
        else:
            r.skip(length)
    name = utf8.get(class_names.get(this_class, -1))
    if name is None:
        raise Malformed("no class name")
    return ClassInfo(name.replace("/", "."), has_main, source)


def _members(r: _Reader) -> list[tuple[int, int, int]]:
    """Fields or methods: (access flags, name index, descriptor index) each, their attributes skipped."""
    out = []
    for _ in range(r.take(">H")):
        flags, name, descriptor = r.take(">H"), r.take(">H"), r.take(">H")
        for _ in range(r.take(">H")):
            r.skip(2)
            r.skip(r.take(">I"))
        out.append((flags, name, descriptor))
    return out


def classes(folder: Path) -> list[ClassInfo]:
    """Every readable class file under a build folder (links not followed), in a stable order."""
    found = []
    for path in sorted(folder.rglob("*.class"))[:MAX_CLASS_FILES]:
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_CLASS_BYTES:
                continue
            found.append(parse(path.read_bytes()))
        except (OSError, Malformed):
            continue
    return found


def main_class(folder: Path, main_file: str, guess: str) -> str:
    """The class to run: the one class with a main; among several, the guess from the source if it is one of them,
    else the top-level one compiled from the main file; the guess when the class files cannot settle it."""
    mains = [c for c in classes(folder) if c.has_main]
    names = [c.name for c in mains]
    if len(names) == 1 or guess in names:
        return names[0] if len(names) == 1 else guess
    own = [c.name for c in mains if c.source_file == Path(main_file).name and "$" not in c.name]
    return own[0] if len(own) == 1 else guess
