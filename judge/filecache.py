"""Results computed from files, used again only while none of those files changed: the judge's one cache rule.

A result (a loaded package, a language file, a tool's version, the sha256
of a case file) is kept with the stat signature (mtime, size, inode) of
each file it was computed from, and used again while every one still
matches; nothing else is compared, so checking costs a ``stat`` per file,
never a read. Loading a package is most of what a quick command costs at
start-up (``bench --startup``) and hashing 80 MB of test data more than
judging a small submission, and both change only when a file does.

Two stores follow the rule, both in the user's cache folder and neither
needed for correctness (lose them and the work is done again):
``recall``/``remember`` keep any value as a pickle, tied also to the code
that computed it; ``FileDigests`` keeps the sha256 of files. Unpickling
runs code and a forged digest would hide an edited case, so a cache folder
another user could write to is never read from.

Imports only the standard library's smallest modules (not even ``typing``
or ``pathlib``): ``list`` uses this without paying for more than it shows.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import zlib
from collections.abc import Iterable

from . import __version__
from .locations import JUDGE_FOLDER, cache_folder, language_files

Signature = list[int] | None
LOADER_CODE = (
    "model",
    "problem",
    "problem.formats",
    "lang",
    "check",
)  # the subpackages whose code turns a package into a Problem


def signature(path: str) -> Signature:
    """What tells a changed file from an unchanged one without reading it; None for a path that does not exist."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size, st.st_ino]


def signatures(paths: Iterable[str]) -> dict[str, Signature]:
    return {path: signature(path) for path in paths}


def still_true(deps: dict[str, Signature]) -> bool:
    return all(signature(path) == sig for path, sig in deps.items())


def tree_paths(root: str, skip: str) -> list[str]:
    """Every file and folder under ``root`` but ``skip`` (a package's generated cases): a file added, removed or edited
    changes the signature of one of them."""
    paths = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__" and os.path.join(folder, d) != skip]
        paths.append(folder)
        paths += [os.path.join(folder, name) for name in files]
    return paths


def paths_in(value: object) -> list[str]:
    """Every path a loaded value holds, whatever field it is in: the loader looked at each of them, so a new field of
    the model is covered without being named anywhere."""
    if isinstance(value, os.PathLike):
        return [os.fspath(value)]
    if isinstance(value, (tuple, list)):
        return [path for item in value for path in paths_in(item)]
    if isinstance(value, dict):
        return paths_in(list(value.values()))
    if hasattr(value, "__dataclass_fields__"):
        return paths_in([getattr(value, name) for name in value.__dataclass_fields__])
    return []


def package_deps(root: str, loaded: object, generated: str | None) -> dict[str, Signature]:
    """What a package loaded from ``root`` was read from: its files and folders (but the cases this judge
    generated, in ``generated``), every path the loaded value names, and the language files layered under it."""
    named = [*paths_in(loaded), *language_files(root)]
    return signatures(tree_paths(root, generated or "") + [path for path in named if path != generated])


def loader_context() -> list[object]:
    """What a loaded package depends on that is no file: the loader's code, and where language files are looked for
    (another ``TILEJUDGE_LANGUAGES`` names a file the remembered package was never read with)."""
    return [
        *code_signature(*LOADER_CODE),
        os.environ.get("TILEJUDGE_LANGUAGES"),
        os.environ.get("XDG_CONFIG_HOME"),
        os.path.expanduser("~"),
    ]


def code_signature(*packages: str) -> list[object]:
    """The judge's version and the signature of every module of these subpackages (``"problem"``, ``"lang"``): what
    was remembered by other code is not trusted, even in a checkout whose version number did not change."""
    found: list[object] = [__version__, sys.version]
    for package in packages:
        found += _package_signature(package)
    return found


@functools.cache
def _package_signature(package: str) -> list[object]:
    """One subpackage's modules and their signatures, read once per process: a command asks for ``lang``'s for
    every language file and again for the package it loads, and its own code does not change while it runs."""
    folder = os.path.join(JUDGE_FOLDER, *package.split("."))
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith((".py", ".yaml")))
    except OSError:
        names = []
    return [[name, signature(os.path.join(folder, name))] for name in names]


def _entry_file(kind: str, key: str) -> str:
    return os.path.join(cache_folder(), "remembered", f"{kind}-{zlib.crc32(key.encode()):08x}.pickle")


def _safe(folder: str) -> bool:
    """Only a folder of the judge's own user that nobody else can write to may hold pickles it reads."""
    try:
        st = os.stat(folder)
    except OSError:
        return False
    return st.st_uid == os.geteuid() and not st.st_mode & 0o022


def recall(kind: str, key: str, context: list[object]) -> object | None:
    """The value remembered for ``key`` under the same ``context``, if every file it was computed from is unchanged."""
    path = _entry_file(kind, key)
    if not _safe(os.path.dirname(path)):
        return None
    import pickle

    try:
        with open(path, "rb") as f:
            stored_key, stored_context, deps, value = pickle.load(f)
    except Exception:  # absent, torn or from an incompatible judge: computed again, like a miss
        return None
    if stored_key != key or stored_context != context or not still_true(deps):
        return None
    return value


def remember(kind: str, key: str, context: list[object], value: object, deps: dict[str, Signature]) -> None:
    """Keep ``value`` for ``recall``; a cache folder that cannot be written only means computing it again next time."""
    import pickle

    from .atomic import atomic_write

    path = _entry_file(kind, key)
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if _safe(folder):
            atomic_write(path, pickle.dumps((key, context, deps, value), protocol=pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError):
        pass


def sha256_file(path: str | os.PathLike[str]) -> str:
    import hashlib  # only when a file is really hashed: a warm command finds every digest in its FileDigests

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class FileDigests:
    """The sha256 of files, each hashed again only when its signature changed: one record per ``key`` (a cases
    folder's path), saved as JSON in the cache.

    ``baseline`` is a set of digests the caller compares with later, kept in
    the same record: for test data, the digests of what the cases were last
    made from.
    """

    def __init__(self, key: str) -> None:
        self.key = key
        self.path = os.path.join(cache_folder(), "testdata", f"{zlib.crc32(key.encode()):08x}.json")
        self.files: dict[str, list] = {}
        self.baseline: dict[str, str] = {}
        self._on_disk: str | None = None  # the record as read or last written, so an unchanged one is not rewritten
        if not _safe(os.path.dirname(self.path)):
            return
        try:
            with open(self.path, encoding="utf-8") as f:
                text = f.read()
            data = json.loads(text)
            if data["key"] == key:  # else another folder whose name has the same checksum: start afresh
                self.files, self.baseline = dict(data["files"]), dict(data["baseline"])
                self._on_disk = text
        except (OSError, ValueError, KeyError, TypeError):
            self.files, self.baseline = {}, {}

    def sha256(self, path: str | os.PathLike[str]) -> str | None:
        """The file's sha256 (None when it is absent), hashed again only when its signature changed."""
        name = os.fspath(path)
        now = signature(name)
        if now is None:
            return None
        known = self.files.get(name)
        if isinstance(known, list) and len(known) == 2 and known[0] == now:
            return known[1]
        digest = sha256_file(name)
        self.files[name] = [now, digest]
        return digest

    def save(self, baseline: dict[str, str] | None = None) -> None:
        """Keep the record; a cache folder that cannot be written only means hashing again next time. A record equal
        to the one read is not written again: each command that looks at test data saves, and mostly nothing
        changed."""
        from .atomic import atomic_write

        if baseline is not None:
            self.baseline = baseline
        text = json.dumps({"key": self.key, "files": self.files, "baseline": self.baseline})
        if text == self._on_disk:
            return
        folder = os.path.dirname(self.path)
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            if _safe(folder):
                atomic_write(self.path, text)
                self._on_disk = text
        except OSError:
            pass
