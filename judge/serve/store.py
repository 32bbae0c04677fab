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

STORE_FILE = "site.sqlite"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, role TEXT NOT NULL, display TEXT NOT NULL DEFAULT '',
    password TEXT, deadline REAL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), digest TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL DEFAULT '', created REAL NOT NULL, last_used REAL);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), problem TEXT NOT NULL,
    language TEXT NOT NULL, files TEXT NOT NULL, submitted REAL NOT NULL, late_minutes REAL,
    state TEXT NOT NULL, priority INTEGER NOT NULL DEFAULT 0, attempt INTEGER NOT NULL DEFAULT 0,
    cases_done INTEGER NOT NULL DEFAULT 0, cases_total INTEGER NOT NULL DEFAULT 0, error TEXT NOT NULL DEFAULT '',
    started REAL);
CREATE INDEX IF NOT EXISTS submissions_state ON submissions(state, priority, id);
CREATE INDEX IF NOT EXISTS submissions_user ON submissions(user_id, id);
CREATE INDEX IF NOT EXISTS submissions_problem ON submissions(problem, id);
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY, submission_id INTEGER NOT NULL REFERENCES submissions(id), attempt INTEGER NOT NULL,
    judged REAL NOT NULL, verdict TEXT NOT NULL, score REAL NOT NULL, max_score REAL NOT NULL, report TEXT NOT NULL,
    current INTEGER NOT NULL, started REAL);
CREATE UNIQUE INDEX IF NOT EXISTS results_current ON results(submission_id) WHERE current = 1;
CREATE INDEX IF NOT EXISTS results_submission ON results(submission_id, id);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, time REAL NOT NULL, type TEXT NOT NULL, op TEXT NOT NULL,
    submission_id INTEGER, user_id INTEGER, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_submission ON events(submission_id, id);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE, user_id INTEGER NOT NULL REFERENCES users(id),
    csrf TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);
CREATE TABLE IF NOT EXISTS icpc_teams (
    user_id INTEGER PRIMARY KEY REFERENCES users(id), team_id TEXT NOT NULL UNIQUE, organization_id TEXT,
    group_ids TEXT NOT NULL DEFAULT '[]');
CREATE TABLE IF NOT EXISTS organizations (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, formal_name TEXT, country TEXT);
CREATE TABLE IF NOT EXISTS team_groups (id TEXT PRIMARY KEY, name TEXT NOT NULL);
INSERT OR IGNORE INTO icpc_teams(user_id, team_id)
    SELECT id, CAST(id AS TEXT) FROM users
    WHERE role IN ('team', 'student') AND id NOT IN (SELECT user_id FROM icpc_teams);
"""


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
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            self._db.execute(f"PRAGMA {pragma}")
        self._db.executescript(SCHEMA)  # its own transaction: executescript commits first
        self._db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

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


def user_of(row: sqlite3.Row) -> User:
    return User(row["id"], row["name"], row["role"], row["display"], row["deadline"])
