"""The store's contest places: each team's ICPC id, organization and groups, and the organizations and groups.

Why apart from the accounts: these tables are the Contest API's alone (a
class never fills them), and the rules that choose a team's id or make an
organization of a roster's line live in ``team_ids.py`` and
``team_roster.py``, which call these functions inside the roster's
transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .store import Row, Store, Transaction

PLACES = "organizations", "team_groups"  # the two tables a roster's line makes rows in


@dataclass(frozen=True)
class TeamRow:
    """A team (an account of a team or a student) with its kept id (None on a site older than kept ids)."""

    user_id: int
    name: str
    display: str
    team_id: str | None
    organization_id: str | None
    group_ids: tuple[str, ...]


@dataclass(frozen=True)
class Organization:
    id: str
    name: str
    formal_name: str | None
    country: str | None


@dataclass(frozen=True)
class Group:
    id: str
    name: str


@dataclass(frozen=True)
class Placing:
    """A team's kept id, organization and groups, as a roster's line may change the last two."""

    team_id: str
    organization_id: str | None
    group_ids: tuple[str, ...]


_TEAMS = (
    "SELECT u.id, u.name, u.display, t.team_id, t.organization_id, t.group_ids FROM users u "
    "LEFT JOIN icpc_teams t ON t.user_id = u.id WHERE u.role IN ('team', 'student')"
)


def _team(r: Row) -> TeamRow:
    groups = tuple(json.loads(r["group_ids"] or "[]"))
    return TeamRow(r["id"], r["name"], r["display"], r["team_id"], r["organization_id"], groups)


def teams(store: Store) -> list[TeamRow]:
    return [_team(row) for row in store.read(_TEAMS + " ORDER BY u.id")]


def team(store: Store, user_id: int) -> TeamRow | None:
    row = store.one(_TEAMS + " AND u.id = ?", (user_id,))
    return _team(row) if row is not None else None


def teams_not_logged(store: Store) -> list[TeamRow]:
    """The teams whose account no ``accounts`` event of the log tells of: made before the log kept accounts (a site
    older than its ICPC API), so a feed built from the log alone would never send them."""
    rows = store.read(
        _TEAMS + " AND NOT EXISTS (SELECT 1 FROM events e WHERE e.type = 'accounts' AND e.user_id = u.id) ORDER BY u.id"
    )
    return [_team(row) for row in rows]


def groups_by_user(store: Store) -> dict[int, list[str]]:
    """Each team's groups by its account's number."""
    rows = store.read("SELECT user_id, group_ids FROM icpc_teams")
    return {row["user_id"]: json.loads(row["group_ids"] or "[]") for row in rows}


def organizations(store: Store) -> list[Organization]:
    rows = store.read("SELECT * FROM organizations ORDER BY id")
    return [Organization(r["id"], r["name"], r["formal_name"], r["country"]) for r in rows]


def groups(store: Store) -> list[Group]:
    return [Group(r["id"], r["name"]) for r in store.read("SELECT * FROM team_groups ORDER BY id")]


def team_id_free(db: Transaction, team_id: str) -> bool:
    return db.execute("SELECT 1 FROM icpc_teams WHERE team_id = ?", (team_id,)).fetchone() is None


def insert_team_id(db: Transaction, user_id: int, team_id: str) -> None:
    db.execute("INSERT INTO icpc_teams(user_id, team_id) VALUES (?, ?)", (user_id, team_id))


def placing(db: Transaction, user_id: int) -> Placing | None:
    """The team's id and places inside the caller's transaction; None for an account that is no team."""
    row = db.execute("SELECT * FROM icpc_teams WHERE user_id = ?", (user_id,)).fetchone()
    if row is None:
        return None
    return Placing(row["team_id"], row["organization_id"], tuple(json.loads(row["group_ids"])))


def set_placing(db: Transaction, user_id: int, organization_id: str | None, group_ids: list[str]) -> None:
    db.execute(
        "UPDATE icpc_teams SET organization_id = ?, group_ids = ? WHERE user_id = ?",
        (organization_id, json.dumps(group_ids), user_id),
    )


def place_name(db: Transaction, table: str, ident: str) -> str | None:
    """The name of the organization or group (``table``: one of ``PLACES``) with id ``ident``; None if none."""
    if table not in PLACES:
        raise ValueError(f"not a table of places: {table}")
    row = db.execute(f"SELECT name FROM {table} WHERE id = ?", (ident,)).fetchone()
    return row["name"] if row is not None else None


def insert_organization(db: Transaction, ident: str, name: str, country: str | None) -> None:
    db.execute("INSERT INTO organizations(id, name, country) VALUES (?, ?, ?)", (ident, name, country))


def insert_group(db: Transaction, ident: str, name: str) -> None:
    db.execute("INSERT INTO team_groups(id, name) VALUES (?, ?)", (ident, name))


def set_country(db: Transaction, ident: str, country: str) -> None:
    db.execute("UPDATE organizations SET country = ? WHERE id = ?", (country, ident))
