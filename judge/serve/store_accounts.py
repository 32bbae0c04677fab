"""The store's accounts: users, API tokens (kept as digests) and sessions, read and written in SQL here alone.

Why a module of its own: who may do what is decided in ``auth.py``,
``access.py`` and the workflow, and each of them needs only "the account with
this id" or "end these sessions"; keeping the queries here lets those modules
be read without the schema, and lets a schema change touch one file. A
function taking ``db`` writes inside the caller's transaction (``Store.tx``);
one taking ``store`` reads or makes its own.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from .store import Store, Transaction, User, user_of


class NameTaken(ValueError):
    """An account's name another account holds already."""


@dataclass(frozen=True)
class Token:
    """An API token as its owner sees it listed; the token itself is never stored."""

    id: int
    label: str
    created: float
    last_used: float | None


@dataclass(frozen=True)
class TokenUser:
    """The account a token names, and what ``auth.user_for_token`` needs to keep its last use fresh."""

    user: User
    token_id: int
    last_used: float | None


@dataclass(frozen=True)
class StoredSession:
    user: int
    csrf: str
    expires: float
    digest: str


def insert_user(
    db: Transaction, name: str, role: str, display: str, password_hash: str | None, deadline: float | None
) -> int:
    """A new account's id; ``NameTaken`` when the name is taken."""
    try:
        cursor = db.execute(
            "INSERT INTO users(name, role, display, password, deadline, created) VALUES (?, ?, ?, ?, ?, ?)",
            (name, role, display, password_hash, deadline, time.time()),
        )
    except sqlite3.IntegrityError:
        raise NameTaken(name) from None
    return int(cursor.lastrowid or 0)


def user_by_id(store: Store, user_id: int) -> User | None:
    row = store.one("SELECT * FROM users WHERE id = ?", (user_id,))
    return user_of(row) if row is not None else None


def user_named(store: Store, name: str) -> User | None:
    row = store.one("SELECT * FROM users WHERE name = ?", (name,))
    return user_of(row) if row is not None else None


def user_and_hash(store: Store, name: str) -> tuple[User, str | None] | None:
    """The account called ``name`` with its password hash (None: it has none), for a log-in to check."""
    row = store.one("SELECT * FROM users WHERE name = ?", (name,))
    return (user_of(row), row["password"]) if row is not None else None


def password_hash(store: Store, user_id: int) -> str | None:
    row = store.one("SELECT password FROM users WHERE id = ?", (user_id,))
    return row["password"] if row is not None else None


def set_password_hash(db: Transaction, user_id: int, digest: str) -> None:
    db.execute("UPDATE users SET password = ? WHERE id = ?", (digest, user_id))


def role_in_tx(db: Transaction, name: str) -> tuple[int, str] | None:
    """The account called ``name`` as (id, role) inside the caller's transaction; None when there is none."""
    row = db.execute("SELECT id, role FROM users WHERE name = ?", (name,)).fetchone()
    return None if row is None else (int(row["id"]), str(row["role"]))


def set_display_and_deadline(db: Transaction, user_id: int, display: str, deadline: float | None) -> None:
    db.execute("UPDATE users SET display = ?, deadline = ? WHERE id = ?", (display, deadline, user_id))


def all_users(store: Store) -> list[User]:
    return [user_of(row) for row in store.read("SELECT * FROM users ORDER BY id")]


def contestants(store: Store) -> list[User]:
    """Every student and team, by id: a board lists them all, with a submission or not."""
    rows = store.read("SELECT * FROM users WHERE role IN ('student', 'team') ORDER BY id")
    return [user_of(row) for row in rows]


def has_admin(store: Store) -> bool:
    return store.one("SELECT 1 FROM users WHERE role = 'admin' LIMIT 1") is not None


def insert_token(db: Transaction, user_id: int, digest: str, label: str) -> int:
    cursor = db.execute(
        "INSERT INTO tokens(user_id, digest, label, created) VALUES (?, ?, ?, ?)", (user_id, digest, label, time.time())
    )
    return int(cursor.lastrowid or 0)


def tokens_of(store: Store, user_id: int) -> list[Token]:
    rows = store.read("SELECT * FROM tokens WHERE user_id = ? ORDER BY id", (user_id,))
    return [Token(r["id"], r["label"], r["created"], r["last_used"]) for r in rows]


def delete_token(db: Transaction, token_id: int, user_id: int) -> bool:
    """Whether ``user_id`` had the token (another's token is left alone, as one that does not exist)."""
    return db.execute("DELETE FROM tokens WHERE id = ? AND user_id = ?", (token_id, user_id)).rowcount > 0


def token_user(store: Store, digest: str) -> TokenUser | None:
    row = store.one(
        "SELECT users.*, tokens.id AS token_id, tokens.last_used FROM tokens JOIN users ON users.id = tokens.user_id "
        "WHERE tokens.digest = ?",
        (digest,),
    )
    return TokenUser(user_of(row), row["token_id"], row["last_used"]) if row is not None else None


def touch_token(store: Store, token_id: int) -> None:
    with store.tx() as db:
        db.execute("UPDATE tokens SET last_used = ? WHERE id = ?", (time.time(), token_id))


def insert_session(store: Store, session: StoredSession) -> None:
    """A new session, with the expired ones swept in the same transaction (the table stays small)."""
    with store.tx() as db:
        db.execute("DELETE FROM sessions WHERE expires < ?", (time.time(),))
        db.execute(
            "INSERT INTO sessions(digest, user_id, csrf, created, expires) VALUES (?, ?, ?, ?, ?)",
            (session.digest, session.user, session.csrf, time.time(), session.expires),
        )


def live_session(store: Store, digest: str) -> StoredSession | None:
    row = store.one("SELECT * FROM sessions WHERE digest = ? AND expires > ?", (digest, time.time()))
    return StoredSession(row["user_id"], row["csrf"], row["expires"], row["digest"]) if row else None


def delete_session(store: Store, digest: str) -> None:
    with store.tx() as db:
        db.execute("DELETE FROM sessions WHERE digest = ?", (digest,))


def delete_sessions_of(db: Transaction, user_id: int) -> int:
    """How many sessions of ``user_id`` ended."""
    return db.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,)).rowcount
