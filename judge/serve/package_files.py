"""A contest package's files read as lists of objects, each with the line it starts on, whatever the file's format.

A package may write an endpoint as JSON (what the API returns), as YAML (the spec allows it for the files people
write: contest, problems, accounts; we take it for every one) or, for teams, groups and accounts, as the TSV files
older DOMjudge versions import. Every fault is one ``SpecError`` naming the file and, where there is one, the line:
an organiser fixing a package by hand needs to know where to look, never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..errors import SpecError

MAX_DOCUMENT = 64 << 20  # bytes of one JSON/YAML/TSV file: a registration of 10,000 teams is a few MiB


@dataclass(frozen=True)
class Item:
    """One object of a file: its fields, and where it is (for the one-line error that names it)."""

    data: dict[str, Any]
    file: str
    line: int | None

    def fail(self, message: str) -> SpecError:
        return SpecError(self.file, self.line, message)

    def text(self, key: str, required: bool = True) -> str | None:
        """A field that must be a string (a number is taken as its text: ids such as 45 are written bare in YAML)."""
        value = self.data.get(key)
        if value is None:
            if required:
                raise self.fail(f"missing required field '{key}'")
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.fail(f"'{key}' must be a string, got {type(value).__name__}")
        return str(value)


def _text_of(path: Path, shown: str) -> str:
    try:
        if path.stat().st_size > MAX_DOCUMENT:
            raise SpecError(shown, None, f"over {MAX_DOCUMENT >> 20} MiB: not a contest package's file")
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise SpecError(shown, None, "not UTF-8 text") from None
    except OSError as exc:
        raise SpecError(shown, None, f"cannot read: {exc.strerror}") from None


def find(root: Path, stem: str, formats: tuple[str, ...] = ("json", "yaml", "yml")) -> Path | None:
    """The one file of ``stem`` in the package (``teams.json`` or ``teams.yaml`` ...); two of them is a fault, since
    which one the organiser meant is not ours to guess."""
    found = [root / f"{stem}.{ext}" for ext in formats if (root / f"{stem}.{ext}").is_file()]
    if len(found) > 1:
        raise SpecError(found[1].name, None, f"the package has both {found[0].name} and {found[1].name}: keep one")
    return found[0] if found else None


def one_object(path: Path, shown: str) -> Item:
    """A file holding one object (``contest.json``/``contest.yaml``)."""
    if path.suffix == ".json":
        try:
            data = json.loads(_text_of(path, shown))
        except json.JSONDecodeError as exc:
            raise SpecError(shown, exc.lineno, f"invalid JSON: {exc.msg}") from None
        line = 1
    else:
        node = _compose(path, shown)
        data, line = _construct(node), (node.start_mark.line + 1 if node is not None else None)
    if not isinstance(data, dict):
        raise SpecError(shown, line, "must hold one object (a mapping of fields)")
    return Item(data, shown, line)


def objects(path: Path, shown: str) -> list[Item]:
    """A file holding a list of objects, JSON or YAML, each item with its line."""
    if path.suffix == ".json":
        return _json_items(_text_of(path, shown), shown)
    node = _compose(path, shown)
    if node is None:
        return []
    if not isinstance(node, yaml.SequenceNode):
        raise SpecError(shown, node.start_mark.line + 1, "must be a list of objects (- id: ...)")
    items = []
    for child in node.value:
        data = _construct(child)
        if not isinstance(data, dict):
            raise SpecError(shown, child.start_mark.line + 1, "each item must be an object (a mapping of fields)")
        items.append(Item(data, shown, child.start_mark.line + 1))
    return items


def _json_items(text: str, shown: str) -> list[Item]:
    """A JSON array's objects with the line each starts on (``raw_decode`` item by item, so a fault has its line)."""
    decoder, at = json.JSONDecoder(), _skip(text, 0)
    if at >= len(text) or text[at] != "[":
        line = text.count("\n", 0, at) + 1
        raise SpecError(shown, line, "must be a JSON array of objects")
    at, items = _skip(text, at + 1), []
    while at < len(text) and text[at] != "]":
        line = text.count("\n", 0, at) + 1
        try:
            data, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise SpecError(shown, exc.lineno, f"invalid JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise SpecError(shown, line, "each item must be a JSON object")
        items.append(Item(data, shown, line))
        at = _skip(text, at)
        if at < len(text) and text[at] == ",":
            at = _skip(text, at + 1)
        elif at < len(text) and text[at] != "]":
            raise SpecError(shown, text.count("\n", 0, at) + 1, "invalid JSON: expected ',' or ']'")
    if at >= len(text) or _skip(text, at + 1) != len(text):
        raise SpecError(shown, text.count("\n", 0, min(at, len(text))) + 1, "invalid JSON: the array is not closed")
    return items


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _compose(path: Path, shown: str) -> yaml.Node | None:
    try:
        return yaml.compose(_text_of(path, shown), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SpecError(
            shown, mark.line + 1 if mark else None, f"invalid YAML: {getattr(exc, 'problem', exc)}"
        ) from None


def _construct(node: yaml.Node | None) -> Any:
    if node is None:
        return None
    return yaml.SafeLoader("").construct_object(node, deep=True)


def tsv_rows(path: Path, shown: str, kinds: tuple[str, ...]) -> list[tuple[int, list[str]]]:
    """A DOMjudge TSV file's rows with their line numbers, after its first line (``File_Version<TAB>1`` or the
    file's kind, ``teams<TAB>1``, as DOMjudge writes them); blank lines are skipped."""
    lines = _text_of(path, shown).splitlines()
    head = lines[0].strip().split("\t") if lines else []
    if len(head) != 2 or head[0].lower() not in ("file_version", *kinds) or head[1].strip() not in ("1", "2"):
        raise SpecError(shown, 1, f"the first line must be 'File_Version<TAB>1' or '{kinds[0]}<TAB>1'")
    return [(number, line.split("\t")) for number, line in enumerate(lines[1:], start=2) if line.strip()]
