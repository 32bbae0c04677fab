"""The store's schema version and the ordered steps that bring an older store to it, all in one transaction.

The version is the ``schema`` row of the ``meta`` table, which every store has
carried since the first one (version 1); a new file has no tables, version 0.
Opening a store runs every step past its version, and the new version, in a
single ``IMMEDIATE`` transaction: SQLite's DDL is transactional, so a step that
fails (or a server killed halfway) leaves the file exactly as it was, never a
store half of one version and half of the next. Before an existing store is
changed, a copy of it is taken with SQLite's online backup beside it
(``site.sqlite.v1.bak``), the way back should a new judge be withdrawn. A store
a newer judge wrote is refused in one line naming both versions: an older judge
would misread what it does not know.

Every step so far only adds (``IF NOT EXISTS``), so running one again is harmless.
A new step is appended, never edited: a store at version N has run steps 1..N
as they were when it ran them. A step should tolerate what a development build
made early (``IF NOT EXISTS``), as step 2 does for the sessions table the
builds of the morning it came in created outside any step.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import SetupError, UsageError


@dataclass(frozen=True)
class Step:
    """One change of the schema: ``apply`` runs inside the migration's transaction and must not commit."""

    version: int  # the store's version once this step has run
    what: str
    apply: Callable[[sqlite3.Connection], None]


def statements(sql: str) -> Callable[[sqlite3.Connection], None]:
    """A step made of plain SQL statements, run one by one (``executescript`` would commit first)."""

    def run(db: sqlite3.Connection) -> None:
        for statement in sql.split(";"):
            if statement.strip():
                db.execute(statement)

    return run


FIRST = """
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
CREATE INDEX IF NOT EXISTS events_submission ON events(submission_id, id)
"""

SESSIONS = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE, user_id INTEGER NOT NULL REFERENCES users(id),
    csrf TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id)
"""

# the ICPC Contest API's team ids (team_ids.py), organizations and groups (team_roster.py); the teams a store has
# already keep the ids it showed them, their account numbers
TEAMS = """
CREATE TABLE IF NOT EXISTS icpc_teams (
    user_id INTEGER PRIMARY KEY REFERENCES users(id), team_id TEXT NOT NULL UNIQUE, organization_id TEXT,
    group_ids TEXT NOT NULL DEFAULT '[]');
CREATE TABLE IF NOT EXISTS organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, formal_name TEXT, country TEXT);
CREATE TABLE IF NOT EXISTS team_groups (id TEXT PRIMARY KEY, name TEXT NOT NULL);
INSERT OR IGNORE INTO icpc_teams(user_id, team_id)
    SELECT id, CAST(id AS TEXT) FROM users WHERE role IN ('team', 'student')
"""

# questions to the jury or teacher, their answers (to the asker or to everyone) and the jury's own announcements
# (store_clarifications.py): from_user NULL is the jury's; to_user NULL is everyone's (a jury message) or the jury's (a
# question); author is the account that wrote it; answered and public are a question's (answered; shown to everyone)
CLARIFICATIONS = """
CREATE TABLE IF NOT EXISTS clarifications (
    id INTEGER PRIMARY KEY, from_user INTEGER REFERENCES users(id), to_user INTEGER REFERENCES users(id),
    author INTEGER NOT NULL REFERENCES users(id), problem TEXT, text TEXT NOT NULL,
    reply_to INTEGER REFERENCES clarifications(id), time REAL NOT NULL, answered INTEGER NOT NULL DEFAULT 0,
    public INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS clarifications_from ON clarifications(from_user, id);
CREATE INDEX IF NOT EXISTS clarifications_to ON clarifications(to_user, id)
"""

# shadowing another CCS (shadow.py, store_shadow.py): the primary's submissions with their local copies and the
# primary's judgements, and the feed followed with its last token
SHADOW = """
CREATE TABLE IF NOT EXISTS shadow_feed (
    id INTEGER PRIMARY KEY CHECK (id = 1), url TEXT NOT NULL, token TEXT, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS shadow_submissions (
    primary_id TEXT PRIMARY KEY, team_id TEXT NOT NULL DEFAULT '', problem_id TEXT NOT NULL DEFAULT '',
    language_id TEXT NOT NULL DEFAULT '', time TEXT NOT NULL DEFAULT '',
    submission_id INTEGER REFERENCES submissions(id), unmapped TEXT NOT NULL DEFAULT '',
    judgement_id TEXT, verdict TEXT, runs TEXT NOT NULL DEFAULT '{}', seen REAL NOT NULL);
CREATE INDEX IF NOT EXISTS shadow_judgement ON shadow_submissions(judgement_id)
"""

STEPS: tuple[Step, ...] = (
    Step(1, "accounts, tokens, submissions, results and the event log", statements(FIRST)),
    Step(2, "log-in sessions for the pages", statements(SESSIONS)),
    Step(3, "ICPC team ids, organizations and groups", statements(TEAMS)),
    Step(4, "clarifications: questions, answers and announcements", statements(CLARIFICATIONS)),
    Step(5, "shadowing another CCS: its submissions, judgements and feed token", statements(SHADOW)),
)
LATEST = STEPS[-1].version


@dataclass(frozen=True)
class Migrated:
    """What opening a store did to it: from one version to another, and where the copy taken before it is."""

    was: int
    now: int
    backup: Path

    def __str__(self) -> str:
        return (
            f"the store was at schema version {self.was}: migrated to {self.now} (a copy of it before: {self.backup})"
        )


def version_of(db: sqlite3.Connection) -> int:
    """The store's schema version: 0 for a file with no tables yet."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone() is None:
        if db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is None:
            return 0
        raise UsageError("the file has tables but no meta table: it is not a site's store")
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None:  # the first store wrote its tables, then this row: a crash between left version 0's steps to run
        return 0
    if not str(row[0]).isdigit():
        raise UsageError(f"the store's schema version {row[0]!r} is not a number: it is not a site's store")
    return int(row[0])


def migrate(db: sqlite3.Connection, path: Path, steps: tuple[Step, ...] = STEPS) -> Migrated | None:
    """Bring the store at ``path`` (open as ``db``, autocommit mode) to the last of ``steps``: what was done to a
    store that had tables, None for one at the last version or a new file. Refuses a newer store, and leaves the
    file as it was if any step fails."""
    latest = steps[-1].version
    try:
        found = version_of(db)
    except UsageError as exc:
        raise UsageError(f"{path}: {exc}") from None
    if found > latest:
        raise UsageError(
            f"{path}: the store is at schema version {found}, newer than this judge's {latest}: "
            "serve it with the judge that wrote it (or restore a backup this judge made)"
        )
    if found == latest:
        return None
    backup = None
    if db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None:
        backup = backup_before(db, path, found)
    db.execute("BEGIN IMMEDIATE")
    try:
        found = version_of(db)  # another process may have migrated it since the look above
        for step in steps:
            if step.version > found:
                step.apply(db)
        db.execute(
            "INSERT INTO meta(key, value) VALUES ('schema', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (str(latest),),
        )
    except BaseException as exc:
        db.execute("ROLLBACK")
        if isinstance(exc, Exception) and not isinstance(exc, UsageError):
            raise SetupError(
                f"{path}: migrating the store from schema version {found} to {latest} failed ({exc}); it is unchanged"
            ) from None
        raise
    db.execute("COMMIT")
    return None if backup is None else Migrated(found, latest, backup)


def backup_before(db: sqlite3.Connection, path: Path, version: int) -> Path:
    """A consistent copy of the store as it is (owner-only, as the store is), taken before it is migrated."""
    copy = path.with_name(f"{path.name}.v{version}.bak")
    os.close(os.open(copy, os.O_WRONLY | os.O_CREAT, 0o600))
    target = sqlite3.connect(copy)
    try:
        db.backup(target)
    finally:
        target.close()
    return copy
