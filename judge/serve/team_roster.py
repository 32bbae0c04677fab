"""A contest roster's own columns: a team's id, its organization and its groups (the ICPC Contest API's).

The roster is the CSV ``grade --roster`` reads (``id`` is the account's
name); a contest's may add ``team_id`` (the team's id in the Contest API,
``team_ids.py``; set when the account is made and never changed after),
``organization`` (its name; the organization's id is made of it), ``country``
(the organization's ISO 3166-1 alpha-3 code) and ``groups`` (names separated
by ``;``, a group's id made of its name). A class's roster has none of them
and loses nothing.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .refusals import Conflict, Invalid
from .store import Store, Transaction
from .store_teams import insert_group, insert_organization, place_name, placing, set_country, set_placing
from .team_ids import is_identifier, slug


@dataclass(frozen=True)
class TeamColumns:
    team_id: str | None = None
    organization: str = ""
    country: str | None = None
    groups: tuple[str, ...] = ()


def read_columns(body: bytes) -> dict[str, TeamColumns]:
    """Each line's contest columns by its ``id``; a bad team id or country is a 422 naming the line."""
    rows = list(csv.reader(body.decode("utf-8-sig", errors="replace").splitlines()))
    if not rows:
        return {}
    header = [h.strip().lower() for h in rows[0]]
    if "id" not in header:
        return {}
    at = {name: header.index(name) for name in ("id", "team_id", "organization", "country", "groups") if name in header}
    found = {}
    for number, row in enumerate(rows[1:], start=2):
        cell = {name: row[index].strip() if index < len(row) else "" for name, index in at.items()}
        if not cell["id"]:
            continue
        team_id, country = cell.get("team_id") or None, (cell.get("country") or "").upper() or None
        if team_id is not None and not is_identifier(team_id):
            raise Invalid(f"roster.csv:{number}: team_id '{team_id}' is not an identifier (letters, digits, _.-)")
        if country is not None and not re.fullmatch(r"[A-Z]{3}", country):
            raise Invalid(f"roster.csv:{number}: country '{country}' is not an ISO 3166-1 alpha-3 code (SWE)")
        groups = tuple(g.strip() for g in cell.get("groups", "").split(";") if g.strip())
        found[cell["id"]] = TeamColumns(team_id, cell.get("organization", ""), country, groups)
    return found


def apply(store: Store, db: Transaction, user_id: int, columns: TeamColumns) -> None:
    """The line's organization and groups for the team, inside the roster's transaction; a ``team_id`` other than
    the team's own is refused (409): a client following the contest keys everything by it."""
    now = placing(db, user_id)
    if now is None:
        return  # not a team: staff have no place on the board
    if columns.team_id is not None and columns.team_id != now.team_id:
        raise Conflict(f"the team's id is '{now.team_id}' and never changes", "team_id")
    organization = _made(store, db, "organizations", columns.organization, columns.country) or now.organization_id
    groups = [_made(store, db, "team_groups", name, None) for name in columns.groups] or list(now.group_ids)
    if (organization, groups) != (now.organization_id, list(now.group_ids)):
        set_placing(db, user_id, organization, groups)
        store.event(db, "accounts", "update", {"id": user_id}, None, user_id)  # the feed's teams line, anew


def make_all(store: Store, db: Transaction, lines: Iterable[TeamColumns]) -> None:
    """Every organization and group the roster names, made before any team is (the feed's order)."""
    for columns in lines:
        _made(store, db, "organizations", columns.organization, columns.country)
        for name in columns.groups:
            _made(store, db, "team_groups", name, None)


def _made(store: Store, db: Transaction, table: str, name: str, country: str | None) -> str | None:
    """The id of the organization or group named ``name``, made (and logged for the feed) the first time."""
    if not name:
        return None
    ident = slug(name)
    known = place_name(db, table, ident)
    if known is not None and known != name:
        raise Invalid(f"'{name}' and '{known}' would share the id '{ident}': rename one")
    if known is None:
        if table == "organizations":
            insert_organization(db, ident, name, country)
        else:
            insert_group(db, ident, name)
        store.event(db, "groups" if table == "team_groups" else table, "create", {"id": ident}, None, None)
    elif country is not None and table == "organizations":
        set_country(db, ident, country)
    return ident
