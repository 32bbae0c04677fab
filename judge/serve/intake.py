"""A submission request read into its parts: JSON (``content`` or ``content_b64``), multipart, or a zip among them.

Nothing here stores anything: the parts are checked whole (sizes, names, a
zip's entries) before the caller writes a byte. File names are kept as sent
(a student's name may hold any letter; it is escaped wherever shown) but
must name a file, as text a file system takes (``names.file_name_fault``: no
folder part, not ``.`` or ``..``, no lone surrogate or control character, at
most 128 bytes), a zip's entries as much as a file sent alone. Several files
are judged as a folder, so there each name must also be one a compiler takes.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import stat
import zipfile
from dataclasses import dataclass
from typing import Any

from .http_errors import bad_request, too_large, unprocessable
from .inputs import json_object
from .limits import MAX_FILE, MAX_FILES, MAX_UNZIPPED, check_files
from .names import file_name_fault

PLAIN_NAME = re.compile(r"[A-Za-z0-9_.+-]{1,128}\Z")


@dataclass(frozen=True)
class Parts:
    problem: str
    language: str | None  # None: detected from the files' extensions
    files: list[tuple[str, bytes]]


def from_json(body: bytes) -> Parts:
    data = json_object(body)
    files = data.get("files")
    if not isinstance(files, list) or not files:
        raise bad_request("files must be a non-empty list of {name, content} objects", "files")
    if len(files) > MAX_FILES:
        raise too_large(f"{len(files)} files: at most {MAX_FILES} may be submitted", "files")
    read = [_json_file(entry, f"files[{n}]") for n, entry in enumerate(files)]
    return Parts(_text(data, "problem"), _text(data, "language", optional=True), _unpacked(read))


def _text(data: dict[str, Any], key: str, optional: bool = False) -> str:
    value = data.get(key)
    if value is None and optional:
        return None  # type: ignore[return-value]
    if not isinstance(value, str) or not value:
        raise bad_request(f"{key} must be a non-empty string", key)
    return value


def _json_file(entry: Any, where: str) -> tuple[str, bytes]:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise bad_request("each file must be an object with a name and content or content_b64", where)
    if isinstance(entry.get("content"), str):
        data = entry["content"].encode("utf-8")  # text: json_object refused a lone surrogate
    elif isinstance(entry.get("content_b64"), str):
        try:
            data = base64.b64decode(entry["content_b64"], validate=True)
        except (binascii.Error, ValueError):
            raise bad_request("content_b64 is not base64", f"{where}.content_b64") from None
    else:
        raise bad_request("a file needs content (text) or content_b64 (bytes)", where)
    return entry["name"], data


def from_form(fields: dict[str, str], uploads: list[tuple[str, bytes]]) -> Parts:
    """A multipart form: ``problem``, optional ``language``, and one or more ``files`` parts."""
    if not uploads:
        raise bad_request("no file part named files in the form", "files")
    if "problem" not in fields or not fields["problem"]:
        raise bad_request("problem is missing from the form", "problem")
    return Parts(fields["problem"], fields.get("language") or None, _unpacked(uploads))


def _unpacked(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The files with a zip among them replaced by its entries; every name checked."""
    out: list[tuple[str, bytes]] = []
    for number, (name, data) in enumerate(files):
        _check_name(name, f"files[{number}].name")
        if name.lower().endswith(".zip"):
            out.extend(zip_entries(data, f"files[{number}]"))
        else:
            out.append((name, data))
    check_files(out)
    if len(out) > 1:
        for number, (name, _) in enumerate(out):
            if not PLAIN_NAME.match(name):
                raise unprocessable(
                    "several files are judged as a folder: each name must be letters, digits and _ . + -",
                    f"files[{number}].name",
                )
        if len({name for name, _ in out}) < len(out):
            raise unprocessable("two files have the same name", "files")
    return out


def _check_name(name: str, field: str) -> None:
    fault = file_name_fault(name)
    if fault is not None:
        raise unprocessable(fault, field)


def zip_entries(data: bytes, field: str) -> list[tuple[str, bytes]]:
    """A zip's regular files, refused whole if it holds a link or a path that climbs out, or unpacks too big."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise unprocessable(f"not a zip file: {exc}", field) from None
    entries: list[tuple[str, bytes]] = []
    total = 0
    for member in members:
        parts = member.filename.replace("\\", "/").split("/")
        if member.filename.startswith("/") or ".." in parts:
            raise unprocessable("the zip holds a path outside itself (.. or /)", field)
        if stat.S_ISLNK(member.external_attr >> 16):
            raise unprocessable("the zip holds a symbolic link", field)
        if member.is_dir() or parts[-1].startswith(".") or "__MACOSX" in parts:
            continue
        _check_name(parts[-1], field)
        if len(entries) >= MAX_FILES:
            raise too_large(f"the zip holds more than {MAX_FILES} files", field)
        content = _read_bounded(archive, member, field, MAX_UNZIPPED - total)
        total += len(content)
        entries.append((parts[-1], content))
    if not entries:
        raise unprocessable("the zip holds no file", field)
    return entries


def _read_bounded(archive: zipfile.ZipFile, member: zipfile.ZipInfo, field: str, room: int) -> bytes:
    """A member's bytes, read no further than the room left (a zip bomb's declared size may lie)."""
    try:
        with archive.open(member) as f:
            content = f.read(min(room, MAX_FILE) + 1)
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError) as exc:
        raise unprocessable(f"cannot unpack {member.filename!r}: {exc}", field) from None
    if len(content) > room:
        raise too_large(f"the zip unpacks to more than {MAX_UNZIPPED >> 20} MiB", field)
    if len(content) > MAX_FILE:
        raise too_large(f"a file in the zip is over {MAX_FILE >> 10} KiB", field)
    return content
