"""Accounts, roles and credentials: argon2 passwords, API tokens kept only as hashes, signed session cookies with CSRF.

Two ways in. The API takes ``Authorization: Bearer TOKEN``: a token is 32
random bytes, so its sha256 is all the store keeps (a stolen database gives
no working token, and a fast hash is enough for a secret nobody can guess).
Pages (issue 36) log in with a password, hashed with argon2id (memory-hard:
a stolen hash is slow to guess even on a GPU), and get a session cookie
signed with the site's own key (``SITE/secret.key``) that carries the user, an
expiry and a CSRF token; a request that changes something with that cookie
must send the same CSRF token back (header ``X-CSRF-Token`` or form field
``csrf``), which another site's page cannot read. The cookie is signed with
the standard library's HMAC, so sessions need no dependency of their own.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .inputs import same_secret
from .store import Store, User, log_event, user_of

ROLES = ("student", "team", "teacher", "jury", "admin")
SESSION_COOKIE = "tilejudge_session"
SESSION_SECONDS = 12 * 3600
TOKEN_PREFIX = "tj_"
_hasher = PasswordHasher()


class Duplicate(ValueError):
    """An account name already taken."""


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_ok(stored: str | None, password: str) -> bool:
    if not stored:
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def add_user(
    db: sqlite3.Connection,
    name: str,
    role: str,
    display: str = "",
    password: str | None = None,
    deadline: float | None = None,
) -> User:
    """A new account inside the caller's transaction; a taken name is ``Duplicate``."""
    if role not in ROLES:
        raise ValueError(f"unknown role '{role}' (one of {', '.join(ROLES)})")
    try:
        cursor = db.execute(
            "INSERT INTO users(name, role, display, password, deadline, created) VALUES (?, ?, ?, ?, ?, ?)",
            (name, role, display, hash_password(password) if password else None, deadline, time.time()),
        )
    except sqlite3.IntegrityError:
        raise Duplicate(f"the account '{name}' exists already") from None
    made = User(int(cursor.lastrowid or 0), name, role, display, deadline)
    log_event(db, "accounts", "create", {"id": made.id, "name": name, "role": role}, None, made.id)  # the ICPC feed's
    return made


def new_token(db: sqlite3.Connection, user: int, label: str = "") -> tuple[int, str]:
    """A fresh API token for ``user``: its id and the token itself, which is shown this once and never stored."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    cursor = db.execute(
        "INSERT INTO tokens(user_id, digest, label, created) VALUES (?, ?, ?, ?)",
        (user, _digest(token), label, time.time()),
    )
    return int(cursor.lastrowid or 0), token


def user_for_token(store: Store, token: str) -> User | None:
    row = store.one(
        "SELECT users.*, tokens.id AS token_id, tokens.last_used FROM tokens JOIN users ON users.id = tokens.user_id "
        "WHERE tokens.digest = ?",
        (_digest(token),),
    )
    if row is None:
        return None
    if row["last_used"] is None or row["last_used"] < time.time() - 60:  # at most one write a minute per token
        with store.tx() as db:
            db.execute("UPDATE tokens SET last_used = ? WHERE id = ?", (time.time(), row["token_id"]))
    return user_of(row)


def user_by_name(store: Store, name: str) -> User | None:
    row = store.one("SELECT * FROM users WHERE name = ?", (name,))
    return user_of(row) if row else None


def login(store: Store, name: str, password: str) -> User | None:
    """The account whose password this is; the hash is checked even for an unknown name, so timing tells nothing."""
    row = store.one("SELECT * FROM users WHERE name = ?", (name,))
    ok = password_ok(row["password"] if row else _DUMMY, password)
    return user_of(row) if row is not None and ok else None


_DUMMY = hash_password(secrets.token_hex(8))


@dataclass(frozen=True)
class Session:
    user: int
    csrf: str
    expires: int


class Sessions:
    """Signed session cookies: ``base64(user:expires:csrf).hmac``, checked in constant time."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def make(self, user: int) -> tuple[str, Session]:
        session = Session(user, secrets.token_urlsafe(24), int(time.time()) + SESSION_SECONDS)
        payload = base64.urlsafe_b64encode(f"{session.user}:{session.expires}:{session.csrf}".encode()).decode()
        return f"{payload}.{self._sign(payload)}", session

    def read(self, cookie: str) -> Session | None:
        payload, _, signature = cookie.rpartition(".")
        if not payload or not same_secret(signature, self._sign(payload)):
            return None
        try:
            user, expires, csrf = base64.urlsafe_b64decode(payload.encode()).decode().split(":", 2)
            session = Session(int(user), csrf, int(expires))
        except (ValueError, UnicodeDecodeError):
            return None
        return session if session.expires > time.time() else None

    def _sign(self, payload: str) -> str:
        return hmac.new(self._key, payload.encode(), hashlib.sha256).hexdigest()


def site_key(folder: Path) -> bytes:
    """The site's signing key, made once (mode 0600) and kept: sessions survive a restart."""
    path = folder / "secret.key"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key
