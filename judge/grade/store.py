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
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..run import held

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
CREATE TABLE IF NOT EXISTS students (student TEXT PRIMARY KEY, info TEXT NOT NULL);
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


@dataclass(frozen=True)
class Stored:
    """One student of the current roster as the reports see them: the result for the current key (None: not judged
    yet), the machine that judged it, and what the roster says (name, submission time, lateness)."""

    entry: Entry
    report: dict[str, Any] | None
    worker: str
    info: dict[str, Any]


def stored_meta(folder: Path) -> dict[str, str]:
    """What a results folder says of its grading (problem, roster, deadline), read without creating anything."""
    path = folder / DB_NAME
    if not path.is_file():
        return {}
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as db:
            return dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.Error:
        return {}


def problem_of(meta: dict[str, str]) -> str | None:
    """The problem whose grades a results folder holds (``stored_meta``), or None for a new folder."""
    return meta.get("problem_name") or (Path(meta["problem"]).name if meta.get("problem") else None)


def _results_folder(folder: Path) -> Path:
    """``folder``, made if missing; a file in its place is a usage error, not a traceback."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: not a folder (give --out a folder for the results)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{folder}: cannot make the results folder ({exc.strerror})") from None
    return folder


def grading_lock(folder: Path) -> AbstractContextManager[None]:
    """Held by the grade writing into ``folder``. A second grade there would judge every student again beside the
    first, replace the roster under it and race it for the reports, so it is refused at once; ``report`` only reads
    the store and may run beside a grade."""

    _results_folder(folder)

    def refuse() -> None:
        raise UsageError(
            f"{folder}: another grade is writing its results here; "
            "wait for it to end, or grade into another --out folder"
        )

    return held(folder / ".grading.lock", refuse)


class Store:
    def __init__(self, folder: Path) -> None:
        self.path = _results_folder(folder) / DB_NAME
        try:
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise UsageError(f"{self.path}: not a results database this judge can use ({exc})") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_current(
        self, entries: list[Entry], meta: dict[str, str], info: dict[str, dict[str, Any]] | None = None
    ) -> None:
        """Record who is being graded now, against what, and what the roster says of them, replacing the previous
        roster in one transaction. Stored results are never touched here: a re-grade replaces each one only by
        ``put``."""
        with self._transaction():
            self._db.execute("DELETE FROM current")
            self._db.execute("DELETE FROM students")
            self._db.executemany(
                "INSERT INTO current VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (e.key.student, e.key.problem_hash, e.key.submission_hash, e.key.settings_hash, e.source, e.error)
                    for e in entries
                ],
            )
            self._db.executemany(
                "INSERT INTO students VALUES (?, ?)", [(sid, json.dumps(data)) for sid, data in (info or {}).items()]
            )
            self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(meta.items()))

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def has(self, key: Key) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM results WHERE student=? AND problem_hash=? AND submission_hash=? AND settings_hash=?",
            (key.student, key.problem_hash, key.submission_hash, key.settings_hash),
        ).fetchone()
        return row is not None

    def put(self, key: Key, report: dict[str, Any], worker: str) -> None:
        """Store one result in its own transaction; a second put of the same key keeps one row."""
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    key.student,
                    key.problem_hash,
                    key.submission_hash,
                    key.settings_hash,
                    json.dumps(report),
                    worker,
                    time.time(),
                ),
            )

    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta").fetchall())

    def current(self) -> list[Stored]:
        """Every student of the current roster with their result for the current key (None if not judged yet)."""
        return list(self.each_current())

    def each_current(self) -> Iterator[Stored]:
        """``current()`` one student at a time, in id order: a report of 5,000 students never holds them all."""
        rows = self._db.execute(
            """SELECT c.student, c.problem_hash, c.submission_hash, c.settings_hash, c.source, c.error, r.report,
                      r.worker, s.info
               FROM current c LEFT JOIN results r
               ON r.student=c.student AND r.problem_hash=c.problem_hash AND r.submission_hash=c.submission_hash
                  AND r.settings_hash=c.settings_hash
               LEFT JOIN students s ON s.student=c.student
               ORDER BY c.student"""
        )
        for row in rows:
            yield Stored(
                Entry(Key(*row[:4]), row[4], row[5]),
                json.loads(row[6]) if row[6] is not None else None,
                row[7] or "",
                json.loads(row[8]) if row[8] else {},
            )

    def _transaction(self) -> _Tx:
        return _Tx(self._db)


class _Tx:
    """BEGIN IMMEDIATE … COMMIT, rolled back on error: a write either lands whole or not at all."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if kind else "COMMIT")
