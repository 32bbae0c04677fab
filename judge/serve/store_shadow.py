"""The store's side of shadowing (``shadow.py``): the primary's submissions, their judgements and the feed's token.

A shadowed submission is one row keyed by the primary's submission id, written
piece by piece as the primary's event feed tells of it (the submission, then its
judgement, then that judgement's runs; the spec promises no order, so each piece
may come first and each is an upsert). ``submission_id`` is the local copy the
site's own judge takes from the queue, or NULL with ``unmapped`` saying why there
is none. The tables are migration step 6's (``migrations.SHADOW``). The feed's
last token is kept with the primary's URL, so a shadow that restarts resumes
where it stopped instead of submitting everything again (and a site follows one
primary: another URL is refused rather than mixed in).

Each change appends a ``shadow`` event to the site's log, with no submission and
no user (so no team's stream shows it), for the staff pages' event stream.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

from .store import Store


def followed(store: Store) -> tuple[str, str | None] | None:
    """The primary's URL and the last token read from its feed; None before the first event."""
    row = store.one("SELECT url, token FROM shadow_feed WHERE id = 1")
    return (row["url"], row["token"]) if row else None


def follow(store: Store, url: str) -> None:
    """Name the primary this site shadows (kept, so a second primary is noticed)."""
    with store.tx() as db:
        db.execute(
            "INSERT INTO shadow_feed(id, url, token, updated) VALUES (1, ?, NULL, ?) ON CONFLICT(id) DO NOTHING",
            (url, time.time()),
        )


def keep_token(store: Store, token: str | None) -> None:
    """The feed's last token read (None: read it from the start next time)."""
    with store.tx() as db:
        db.execute("UPDATE shadow_feed SET token = ?, updated = ? WHERE id = 1", (token, time.time()))


def known(store: Store, primary_id: str) -> sqlite3.Row | None:
    return store.one("SELECT * FROM shadow_submissions WHERE primary_id = ?", (primary_id,))


def _event(db: sqlite3.Connection, store: Store, primary_id: str, what: str) -> None:
    store.event(db, "shadow", what, {"id": primary_id}, None, None)


def _ensure(db: sqlite3.Connection, primary_id: str) -> None:
    db.execute(
        "INSERT INTO shadow_submissions(primary_id, seen) VALUES (?, ?) ON CONFLICT(primary_id) DO NOTHING",
        (primary_id, time.time()),
    )


def record_submission(
    store: Store,
    primary_id: str,
    described: dict[str, str],
    submission_id: int | None,
    unmapped: str,
    db: sqlite3.Connection | None = None,
) -> None:
    """The primary's submission (team, problem, language, time) and its local copy, or why it has none; inside
    ``db``'s transaction when given (the one that queued the copy), else in one of its own."""
    if db is None:
        with store.tx() as db:
            return record_submission(store, primary_id, described, submission_id, unmapped, db)
    _ensure(db, primary_id)
    db.execute(
        "UPDATE shadow_submissions SET team_id = ?, problem_id = ?, language_id = ?, time = ?, "
        "submission_id = ?, unmapped = ? WHERE primary_id = ?",
        (
            described.get("team_id", ""),
            described.get("problem_id", ""),
            described.get("language_id", ""),
            described.get("time", ""),
            submission_id,
            unmapped,
            primary_id,
        ),
    )
    _event(db, store, primary_id, "submission")
    return None


def record_judgement(store: Store, primary_id: str, judgement_id: str, verdict: str | None) -> None:
    """The primary's judgement of a submission: a new judgement (a rejudge there) starts with no runs."""
    with store.tx() as db:
        _ensure(db, primary_id)
        row = db.execute("SELECT judgement_id FROM shadow_submissions WHERE primary_id = ?", (primary_id,)).fetchone()
        fresh = row["judgement_id"] != judgement_id
        db.execute(
            "UPDATE shadow_submissions SET judgement_id = ?, verdict = ?, runs = CASE WHEN ? THEN '{}' ELSE runs END "
            "WHERE primary_id = ?",
            (judgement_id, verdict, fresh, primary_id),
        )
        _event(db, store, primary_id, "judgement")


def judged_submission(store: Store, judgement_id: str) -> str | None:
    """The primary submission whose current judgement is ``judgement_id``; None for an older or unknown one."""
    row = store.one("SELECT primary_id FROM shadow_submissions WHERE judgement_id = ?", (judgement_id,))
    return row["primary_id"] if row else None


def record_run(store: Store, judgement_id: str, ordinal: int, verdict: str) -> bool:
    """One of the primary's runs (a case's verdict by its ordinal); False when its judgement is not known (yet)."""
    with store.tx() as db:
        row = db.execute(
            "SELECT primary_id, runs FROM shadow_submissions WHERE judgement_id = ?", (judgement_id,)
        ).fetchone()
        if row is None:
            return False
        runs = json.loads(row["runs"])
        runs[str(ordinal)] = verdict
        db.execute("UPDATE shadow_submissions SET runs = ? WHERE primary_id = ?", (json.dumps(runs), row["primary_id"]))
        _event(db, store, row["primary_id"], "run")
    return True


def user_of_team(store: Store, team_id: str) -> int | None:
    """The local account whose ICPC team id (``team_ids.py``) is the primary's ``team_id``."""
    row = store.one(
        "SELECT u.id FROM users u JOIN icpc_teams t ON t.user_id = u.id "
        "WHERE t.team_id = ? AND u.role IN ('team', 'student')",
        (team_id,),
    )
    return int(row["id"]) if row else None


def shadowed(store: Store) -> list[sqlite3.Row]:
    """Every shadowed submission with its local copy's state and current result (NULL where none is stored yet)."""
    return store.read(
        "SELECT s.*, l.state AS local_state, l.attempt AS local_attempt, r.verdict AS local_verdict, "
        "u.name AS local_team FROM shadow_submissions s "
        "LEFT JOIN submissions l ON l.id = s.submission_id "
        "LEFT JOIN results r ON r.submission_id = s.submission_id AND r.current = 1 "
        "LEFT JOIN users u ON u.id = l.user_id ORDER BY s.seen, s.primary_id"
    )


def local_runs(store: Store, submission_id: int, attempt: int) -> dict[int, str]:
    """The local judge's verdict of each case it ran in ``attempt``, by the case's ordinal (the ICPC run's)."""
    found: dict[int, str] = {}
    rows = store.read("SELECT data FROM events WHERE submission_id = ? AND type = 'runs' ORDER BY id", (submission_id,))
    for row in rows:
        data: dict[str, Any] = json.loads(row["data"])
        if data.get("attempt") == attempt and data.get("verdict") and int(data.get("index") or 0) > 0:
            found[int(data["index"])] = str(data["verdict"])
    return found


def pending_local(store: Store) -> int:
    """How many local copies are not judged yet."""
    row = store.one(
        "SELECT COUNT(*) AS n FROM shadow_submissions s JOIN submissions l ON l.id = s.submission_id "
        "WHERE l.state NOT IN ('done', 'error')"
    )
    return int(row["n"]) if row else 0
