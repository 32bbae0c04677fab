"""The site's store: one SQLite file in WAL mode inside the site folder, and the event log every watcher reads.

One connection behind one lock, each change one ``IMMEDIATE`` transaction:
the writes are a few rows each, so serialising them costs less than the
contention of many connections, and a reader never sees half of a change.
WAL with ``synchronous=NORMAL`` keeps every committed transaction through a
SIGKILL of the server (the log is in the kernel's hands at commit); only a
power cut may lose the last ones. The event log's ids only grow
(``AUTOINCREMENT`` never reuses one), so a watcher's last id is a resume
point: ``Last-Event-ID`` for server-sent events, and the ``since_token`` of an
ICPC event feed later.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .migrations import Migrated, migrate

STORE_FILE = "site.sqlite"

# The names the rest of the service types the store's values with, so that only the store's modules use sqlite3:
Transaction = sqlite3.Connection  # what ``Store.tx`` yields; a store function taking one writes inside it
Row = sqlite3.Row  # a stored row read by column name (a submission's, a result's, an event's)
StoreError = sqlite3.OperationalError  # the store could not write (a full disk, a read-only file)


@dataclass(frozen=True)
class User:
    id: int
    name: str
    role: str
    display: str = ""
    deadline: float | None = None

    @property
    def staff(self) -> bool:
        """Teachers, jury and admins see everyone's work; students and teams see their own."""
        return self.role in ("teacher", "jury", "admin")


class Store:
    """The site's database; ``changed`` callbacks run after each commit that wrote an event (the watchers' bell)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / STORE_FILE
        os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600))  # password hashes: the owner's eyes only
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self.changed: list[Callable[[], None]] = []
        self._evented = False
        self._data_version = -1  # PRAGMA data_version's last value: the first look reports a change (harmless)
        self.migrated: Migrated | None = None
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            self._db.execute(f"PRAGMA {pragma}")
        try:
            self.migrated = migrate(self._db, self.path)  # all of it or none, before anything reads the tables
        except BaseException:
            self._db.close()
            raise

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is stored, or none of it (an exception rolls it back)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                self._evented = False
                raise
            self._db.execute("COMMIT")
            rang, self._evented = self._evented, False
        if rang:
            for bell in self.changed:
                bell()

    def read(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def one(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        rows = self.read(sql, args)
        return rows[0] if rows else None

    def event(
        self, db: sqlite3.Connection, kind: str, op: str, data: dict[str, Any], submission: int | None, user: int | None
    ) -> int:
        """Append to the event log inside the caller's transaction; the bell rings once it commits."""
        self._evented = True
        return log_event(db, kind, op, data, submission, user)

    def events_after(self, after: int, submission: int | None = None, limit: int = 500) -> list[sqlite3.Row]:
        if submission is None:
            return self.read("SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?", (after, limit))
        return self.read(
            "SELECT * FROM events WHERE submission_id = ? AND id > ? ORDER BY id LIMIT ?", (submission, after, limit)
        )

    def last_event_id(self) -> int:
        """The newest event's id (0 for an empty log): where a watcher that starts now resumes from."""
        row = self.one("SELECT COALESCE(MAX(id), 0) AS last FROM events")
        return int(row["last"]) if row else 0

    def events_of_type(self, kind: str) -> list[sqlite3.Row]:
        """Every event of one type, oldest first (the contest clock's ``state`` moments, the cases' ``runs``)."""
        return self.read("SELECT * FROM events WHERE type = ? ORDER BY id", (kind,))

    def written_elsewhere(self) -> bool:
        """Whether another process (``shadow``, ``serve --add-user``) committed to the store since the last call:
        SQLite's ``data_version`` moves on for every connection's commit but this one's. Its commits ring no bell
        here, so the server asks this now and then (``bell.ring_on``)."""
        with self._lock:
            now = int(self._db.execute("PRAGMA data_version").fetchone()[0])
        seen, self._data_version = self._data_version, now
        return now != seen

    def close(self) -> None:
        with self._lock:
            self._db.close()


def log_event(
    db: sqlite3.Connection, kind: str, op: str, data: dict[str, Any], submission: int | None, user: int | None
) -> int:
    """Append to the event log inside a transaction that rings no bell (an account made: nobody waits for it)."""
    cursor = db.execute(
        "INSERT INTO events(time, type, op, submission_id, user_id, data) VALUES (?, ?, ?, ?, ?, ?)",
        (time.time(), kind, op, submission, user, json.dumps(data)),
    )
    return int(cursor.lastrowid or 0)


def note_health(db: sqlite3.Connection, when: float) -> None:
    """The health check's write: a real one, as a submission's, so a full disk or a read-only file fails it."""
    db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('health', ?)", (repr(when),))


def user_of(row: sqlite3.Row) -> User:
    return User(row["id"], row["name"], row["role"], row["display"], row["deadline"])
