"""The seal of a cached build: what its folder held when the judge made it, checked before the build is trusted again.

A build folder is shared by every later judging of the same source, in every
sandbox mode, so a run that could change it (a replaced binary, a module
added beside a script) would change what later judgings run. Runs are given
the folder read-only and owned by the judge, and on top of that the judge
keeps, in a file beside the folder that no run is shown, every entry's type,
mode, owner, size, times, inode and content digest. Before a cached build is
used, each entry is looked at with ``lstat`` only (a few microseconds each):
any write, chmod, added or removed entry changes a time the program cannot
set back (``ctime``), and only then are the contents hashed again. A build
whose contents differ from its seal is not used; the caller builds again.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from ..atomic import atomic_write

MAX_ENTRIES = 10000  # a build holding more is not sealed (so never reused): no compiler of ours makes one
Entry = list[Any]


def _signature(info: os.stat_result) -> Entry:
    return [
        stat.S_IFMT(info.st_mode),
        stat.S_IMODE(info.st_mode),
        info.st_uid,
        info.st_size,
        info.st_mtime_ns,
        info.st_ctime_ns,
        info.st_ino,
    ]


def _digest(path: Path, info: os.stat_result) -> str:
    if stat.S_ISLNK(info.st_mode):
        return "link:" + os.readlink(path)
    if not stat.S_ISREG(info.st_mode):
        return ""
    import hashlib  # here, not at the top: a command that finds every build intact never hashes

    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _entries(folder: Path) -> dict[str, os.stat_result] | None:
    """Every entry under ``folder`` (itself as "."), no link followed; None when there are too many to seal."""
    found = {".": folder.lstat()}
    stack = [folder]
    while stack:
        current = stack.pop()
        with os.scandir(current) as listing:
            for entry in listing:
                info = entry.stat(follow_symlinks=False)
                found[os.path.relpath(entry.path, folder)] = info
                if len(found) > MAX_ENTRIES:
                    return None
                if stat.S_ISDIR(info.st_mode):
                    stack.append(Path(entry.path))
    return found


def _contents(folder: Path, entries: dict[str, os.stat_result]) -> dict[str, list[Any]]:
    """What a seal holds of each entry: its digest (content), and its signature (what ``lstat`` shows)."""
    return {name: [_digest(folder / name, info), _signature(info)] for name, info in sorted(entries.items())}


def seal(folder: Path, record: Path) -> bool:
    """Write the seal of ``folder`` into ``record``; False when the folder cannot be sealed (it is then never
    reused)."""
    entries = _entries(folder)
    if entries is None:
        return False
    atomic_write(record, json.dumps(_contents(folder, entries)))
    return True


def intact(folder: Path, record: Path) -> bool:
    """Whether ``folder`` holds exactly what its seal says: by ``lstat`` when nothing moved, else by content (a folder
    copied or restored from a backup keeps its contents but not its inodes; its seal is then written anew)."""
    try:
        sealed: dict[str, list[Any]] = json.loads(record.read_text())
    except (OSError, ValueError):
        return False
    try:
        if all(_signature((folder / name).lstat()) == signature for name, (_, signature) in sealed.items()):
            return True
        entries = _entries(folder)
    except OSError:
        return False
    if entries is None or set(entries) != set(sealed):
        return False
    try:
        now = _contents(folder, entries)
    except OSError:
        return False
    if any(now[name][0] != sealed[name][0] or now[name][1][:3] != sealed[name][1][:3] for name in sealed):
        return False
    atomic_write(record, json.dumps(now))
    return True
