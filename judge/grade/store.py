"""The grading results store: SQLite in WAL mode, one transaction per judged submission.

Why this shape: a grader killed at any moment (Ctrl-C, ``kill -9``, power)
must lose at most the submissions in flight. Each result is committed alone
as soon as it exists, keyed by everything that could change it (problem
content, submission content, judge settings), so a re-run judges exactly
what is missing or changed and can never store a row twice.
"""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DB_NAME = "results.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    student TEXT NOT NULL,
    problem_hash TEXT NOT NULL,
    submission_hash TEXT NOT NULL,
    settings_hash TEXT NOT NULL,
    report TEXT NOT NULL,
    worker TEXT NOT NULL,
    judged_at REAL NOT NULL,
    PRIMARY KEY (student, problem_hash, submission_hash, settings_hash)
);
CREATE TABLE IF NOT EXISTS current (
    student TEXT PRIMARY KEY,
    problem_hash TEXT NOT NULL,
    submission_hash TEXT NOT NULL,
    settings_hash TEXT NOT NULL,
    source TEXT NOT NULL,
    error TEXT
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True)
class Key:
    """Everything a stored result depends on."""

    student: str
    problem_hash: str
    submission_hash: str
    settings_hash: str


@dataclass(frozen=True)
class Entry:
    """One student of the current grading: where the submission is, or why it could not be judged."""

    key: Key
    source: str
    error: str | None = None


class Store:
    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / DB_NAME
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_current(self, entries: list[Entry], meta: dict[str, str]) -> None:
        """Record who is being graded now and against what, replacing the previous roster in one transaction."""
        with self._transaction():
            self._db.execute("DELETE FROM current")
            self._db.executemany(
                "INSERT INTO current VALUES (?, ?, ?, ?, ?, ?)",
                [(e.key.student, e.key.problem_hash, e.key.submission_hash, e.key.settings_hash, e.source, e.error) for e in entries],
            )
            self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(meta.items()))

    def has(self, key: Key) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM results WHERE student=? AND problem_hash=? AND submission_hash=? AND settings_hash=?",
            (key.student, key.problem_hash, key.submission_hash, key.settings_hash),
        ).fetchone()
        return row is not None

    def forget(self, keys: list[Key]) -> None:
        """Drop stored results so they are judged again (``--rejudge``)."""
        with self._transaction():
            self._db.executemany(
                "DELETE FROM results WHERE student=? AND problem_hash=? AND submission_hash=? AND settings_hash=?",
                [(k.student, k.problem_hash, k.submission_hash, k.settings_hash) for k in keys],
            )

    def put(self, key: Key, report: dict[str, Any], worker: str) -> None:
        """Store one result in its own transaction; a second put of the same key keeps one row."""
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key.student, key.problem_hash, key.submission_hash, key.settings_hash, json.dumps(report), worker, time.time()),
            )

    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta").fetchall())

    def current(self) -> list[tuple[Entry, dict[str, Any] | None, str | None]]:
        """Every student of the current roster with their result for the current key (None if not judged yet)."""
        rows = self._db.execute(
            """SELECT c.student, c.problem_hash, c.submission_hash, c.settings_hash, c.source, c.error, r.report, r.worker
               FROM current c LEFT JOIN results r
               ON r.student=c.student AND r.problem_hash=c.problem_hash AND r.submission_hash=c.submission_hash AND r.settings_hash=c.settings_hash
               ORDER BY c.student"""
        ).fetchall()
        return [
            (Entry(Key(*row[:4]), row[4], row[5]), json.loads(row[6]) if row[6] is not None else None, row[7])
            for row in rows
        ]

    def _transaction(self) -> "_Tx":
        return _Tx(self._db)


class _Tx:
    """BEGIN IMMEDIATE … COMMIT, rolled back on error: a write either lands whole or not at all."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if kind else "COMMIT")

