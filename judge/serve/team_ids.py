"""A team's id in the ICPC Contest API, and the organizations and groups a roster puts teams in.

A team's id is chosen once, when its account is made, and never changes (a
client following the event feed keys everything by it): the roster's
``team_id`` column where it gives one, else the account's name where that is
an identifier the spec allows (letters, digits, ``_ . -``, at most 36, not
starting with ``.`` or ``-``), else the account's number. A site made before
ids were kept gives its existing teams their numbers (``"1"``, ``"2"``), as
it always showed them, so nothing a client already holds changes. Staff have
no team id: they are never on the board.
"""

from __future__ import annotations

import hashlib
import re

from .store import Transaction
from .store_teams import insert_team_id, team_id_free

IDENTIFIER = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,34}[A-Za-z0-9_-])?")
TEAM_ROLES = ("team", "student")


class TakenId(ValueError):
    """A team id another team holds already."""


def is_identifier(text: str) -> bool:
    return IDENTIFIER.fullmatch(text) is not None


def slug(name: str) -> str:
    """An identifier made of a name (an organization's or a group's): its ASCII letters and digits, ``-`` for the
    rest; a name with none of them (東京大学) gets ``x`` and a digest of it, so two such names stay apart."""
    text = re.sub(r"[^A-Za-z0-9_.-]+", "-", name.strip()).strip(".-")[:36].rstrip(".-")
    return text if is_identifier(text) else "x" + hashlib.sha256(name.encode()).hexdigest()[:12]


def assign(db: Transaction, user_id: int, name: str, wanted: str | None = None) -> str:
    """The new team's id, stored inside the caller's transaction: ``wanted`` (a roster's column: an identifier, not
    taken, else ``TakenId``/``ValueError``), else its name, else its number, else ``team-NUMBER``."""
    if wanted is not None:
        if not is_identifier(wanted):
            raise ValueError(f"the team id '{wanted}' is not an identifier (letters, digits, _ . -; at most 36)")
        if not team_id_free(db, wanted):
            raise TakenId(f"the team id '{wanted}' belongs to another team")
        chosen = wanted
    else:
        choices = [c for c in (name, str(user_id), f"team-{user_id}") if is_identifier(c)]
        chosen = next((c for c in choices if team_id_free(db, c)), f"team-{user_id}-{len(choices)}")
    insert_team_id(db, user_id, chosen)
    return chosen
