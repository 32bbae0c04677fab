"""Backups of a site while its server runs, and their restore into a new folder (``serve SITE --backup/--restore``).

A backup is one ``.tar.gz``: ``site.sqlite`` as SQLite's online backup API
copied it (``Connection.backup`` in one step, which reads one snapshot of the
store, as any reader of a WAL database does, while the server goes on writing),
every source a submission of that snapshot names (they are written before the
row that names them and never removed, so all are there), ``site.yaml``, the
session key, and ``backup.json`` saying what it holds. It needs no lock: the
site's lock is the running server's, and a reader takes nothing from it. The
archive is written beside its name and renamed into place, owner-only (it holds
the password hashes and the session key), so a backup that fails leaves no
half archive under that name.

A restore unpacks into a folder that does not exist yet or is empty, taking
only the names a backup writes (no links, nothing outside the folder), checks
every source against its sha256 and the store with SQLite's ``quick_check``, and
renames the whole folder into place at the end: a failed restore leaves nothing
that looks like a site. The problems are not in a backup: ``site.yaml`` names
them, and its relative paths are read from the restored folder.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import UsageError
from .sources import FILE_MODE, FOLDER, FOLDER_MODE, Sources
from .store import STORE_FILE

MANIFEST = "backup.json"
KEPT = ("site.yaml", "secret.key")  # beside the store and the sources, when the site has them
SOURCE_NAME = re.compile(r"sources/([0-9a-f]{2})/([0-9a-f]{64})")
DIGEST = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Summary:
    """What a backup holds, or a restore made: the store's schema version, its submissions and sources."""

    schema: int
    submissions: int
    sources: int

    def __str__(self) -> str:
        return f"{self.submissions} submission(s), {self.sources} source file(s), store schema version {self.schema}"


def backup(site: Path, target: Path) -> Summary:
    """Write a consistent backup of ``site`` to ``target`` (a ``.tar.gz``) while its server may be running."""
    store = site / STORE_FILE
    if not store.is_file():
        raise UsageError(
            f"{site}: no {STORE_FILE} here: nothing to back up (a site's store is made at its first start)"
        )
    if target.is_dir():
        raise UsageError(f"{target}: a folder: --backup names the archive to write (SITE-DATE.tar.gz)")
    with tempfile.TemporaryDirectory(prefix="tilejudge-backup-") as scratch:
        copy = Path(scratch) / STORE_FILE
        snapshot(store, copy)
        summary, digests = contents(copy)
        sources = Sources(site)
        partial = target.with_name(f".{target.name}.partial")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, FILE_MODE)
        try:
            with os.fdopen(fd, "wb") as out, tarfile.open(fileobj=out, mode="w:gz") as tar:
                add(tar, MANIFEST, json.dumps({"made": time.time(), **summary.__dict__}).encode())
                with copy.open("rb") as whole:  # a semester's store may be large: streamed, not read whole
                    add(tar, STORE_FILE, whole, copy.stat().st_size)
                for name in KEPT:
                    if (site / name).is_file():
                        add(tar, name, (site / name).read_bytes())
                for digest in sorted(digests):
                    try:
                        data = sources.get(digest)
                    except FileNotFoundError:
                        raise UsageError(
                            f"{site}: the store names {FOLDER}/{digest[:2]}/{digest}, which is missing"
                        ) from None
                    add(tar, f"{FOLDER}/{digest[:2]}/{digest}", data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
    return summary


def snapshot(store: Path, copy: Path) -> None:
    """The store as one transaction saw it, through SQLite's online backup (all pages in one step: one snapshot)."""
    source = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=30)
    target = sqlite3.connect(copy)
    try:
        source.backup(target)
    except sqlite3.Error as exc:
        raise UsageError(f"{store}: cannot be read for a backup ({exc})") from None
    finally:
        target.close()
        source.close()


def contents(store: Path) -> tuple[Summary, set[str]]:
    """The schema version, submissions and the sources a store names (a copy of this command's own: no server's)."""
    db = sqlite3.connect(store)
    try:
        version = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        digests = {
            entry["sha256"] for (files,) in db.execute("SELECT files FROM submissions") for entry in json.loads(files)
        }
        count = db.execute("SELECT count(*) FROM submissions").fetchone()[0]
        schema = int(version[0]) if version else 0
    except (sqlite3.Error, ValueError, LookupError, TypeError) as exc:
        raise UsageError(f"{store}: not a site's store ({exc})") from None
    finally:
        db.close()
    if not all(isinstance(d, str) and DIGEST.fullmatch(d) for d in digests):
        raise UsageError(f"{store}: a submission names a file by something that is not a sha256: not a site's store")
    return Summary(schema, count, len(digests)), digests


def add(tar: tarfile.TarFile, name: str, data: bytes | BinaryIO, size: int | None = None) -> None:
    """One owner-only regular file in the archive, from bytes or a file of ``size`` bytes."""
    info = tarfile.TarInfo(name)
    info.mode, info.mtime = FILE_MODE, int(time.time())
    if isinstance(data, bytes):
        info.size, data = len(data), io.BytesIO(data)
    else:
        info.size = size or 0
    tar.addfile(info, data)


def restore(archive: Path, site: Path) -> Summary:
    """Unpack the backup ``archive`` into ``site`` (new or empty), checked whole before it is renamed into place."""
    if site.exists() and (not site.is_dir() or any(site.iterdir())):
        raise UsageError(
            f"{site}: restore into a new or empty folder (this one has files: a site is never overwritten)"
        )
    if not archive.is_file():
        raise UsageError(f"{archive}: no such backup file")
    site.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{site.name}.restoring-", dir=site.parent))
    try:
        unpack(archive, staging)
        summary = check(staging, archive)
        os.replace(staging, site)  # over an empty folder, or to a new name: one step either way
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return summary


def unpack(archive: Path, into: Path) -> None:
    """The members a backup writes, as regular files; anything else in the archive is refused."""
    try:
        with tarfile.open(archive, mode="r:gz") as tar:
            for member in tar:
                name = member.name
                if not member.isfile() or not (name in (MANIFEST, STORE_FILE, *KEPT) or SOURCE_NAME.fullmatch(name)):
                    raise UsageError(f"{archive}: {name!r} is not something a backup holds: not a site backup")
                target = into / name
                if name.startswith(f"{FOLDER}/"):
                    for folder in (into / FOLDER, target.parent):
                        folder.mkdir(mode=FOLDER_MODE, exist_ok=True)
                extracted = tar.extractfile(member)
                assert extracted is not None  # a regular file's
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE)
                with os.fdopen(fd, "wb") as out:
                    shutil.copyfileobj(extracted, out)
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise UsageError(f"{archive}: not a readable site backup ({exc})") from None


def check(folder: Path, archive: Path) -> Summary:
    """The unpacked store is whole, and every source it names is there with the bytes its name promises."""
    if not (folder / STORE_FILE).is_file() or not (folder / MANIFEST).is_file():
        raise UsageError(f"{archive}: no {STORE_FILE} or {MANIFEST} in it: not a site backup")
    db = sqlite3.connect(folder / STORE_FILE)
    try:
        verdict = db.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.Error as exc:
        verdict = str(exc)
    finally:
        db.close()
    if verdict != "ok":
        raise UsageError(f"{archive}: its store is damaged ({verdict})")
    summary, digests = contents(folder / STORE_FILE)
    try:
        promised = json.loads((folder / MANIFEST).read_text())
    except ValueError:
        promised = None
    if not isinstance(promised, dict) or promised.get("submissions") != summary.submissions:
        raise UsageError(f"{archive}: its {MANIFEST} does not match its store: not a backup this judge made")
    sources = Sources(folder)
    for digest in digests:
        path = sources.path(digest)
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            raise UsageError(f"{archive}: the source {digest} its store names is missing or damaged")
    (folder / MANIFEST).unlink()
    return summary
