"""The store's side of a contest package: the SQL that puts an imported contest's organizations, groups, teams'
places and submissions into a new site's store, and reads what an export writes that the API does not serve.

Kept apart from the import's logic (``package_import.py``) as every statement of the store is kept in a store
module: the rows an import writes are the ones the roster import and the submission queue write, with the events
the ICPC event feed announces them by, so a client following the feed sees an imported contest as it sees one
made by hand.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .queue import State
from .store import Store


def add_organization(
    store: Store, db: sqlite3.Connection, ident: str, name: str, formal: str | None, country: str | None
) -> None:
    db.execute(
        "INSERT INTO organizations(id, name, formal_name, country) VALUES (?, ?, ?, ?)", (ident, name, formal, country)
    )
    store.event(db, "organizations", "create", {"id": ident}, None, None)


def add_group(store: Store, db: sqlite3.Connection, ident: str, name: str) -> None:
    db.execute("INSERT INTO team_groups(id, name) VALUES (?, ?)", (ident, name))
    store.event(db, "groups", "create", {"id": ident}, None, None)


def place_team(db: sqlite3.Connection, user_id: int, organization: str | None, groups: list[str]) -> None:
    """A team's organization and groups (its id was set when its account was made, ``team_ids.assign``)."""
    db.execute(
        "UPDATE icpc_teams SET organization_id = ?, group_ids = ? WHERE user_id = ?",
        (organization, json.dumps(groups), user_id),
    )


def add_submission(
    store: Store,
    db: sqlite3.Connection,
    wanted: int | None,
    user: int,
    problem: str,
    language: str,
    files: list[dict[str, Any]],
    submitted: float,
    cases: int,
) -> int:
    """An imported submission, queued to be judged here, at the time the package gives; its id ``wanted`` where the
    package's id is a number (a contest exported from here comes back with its ids), else the next one."""
    cursor = db.execute(
        "INSERT INTO submissions(id, user_id, problem, language, files, submitted, state, cases_total) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (wanted, user, problem, language, json.dumps(files), submitted, State.QUEUED.value, cases),
    )
    sid = int(cursor.lastrowid or 0)
    data = {"id": sid, "problem": problem, "language": language, "time": submitted, "late_minutes": None}
    store.event(db, "submissions", "create", data, sid, user)
    return sid


def accounts(store: Store) -> list[sqlite3.Row]:
    """Every account with its team id (staff have none), for an export's ``accounts.json``; never a password hash."""
    return store.read(
        "SELECT u.id, u.name, u.role, t.team_id FROM users u LEFT JOIN icpc_teams t ON t.user_id = u.id ORDER BY u.id"
    )
