"""Accounts, roles and credentials: argon2 passwords, API tokens kept only as hashes, signed session cookies with CSRF.

Two ways in. The API takes ``Authorization: Bearer TOKEN``: a token is 32
random bytes, so its sha256 is all the store keeps (a stolen database gives
no working token, and a fast hash is enough for a secret nobody can guess).
Pages (issue 36) log in with a password, hashed with argon2id (memory-hard:
a stolen hash is slow to guess even on a GPU), and get a session cookie
signed with the site's own key (``SITE/secret.key``) that names a session the
store keeps (the user, an expiry and a CSRF token), so that log-out ends it on
the server; a request that changes something with that cookie
must send the same CSRF token back (header ``X-CSRF-Token`` or form field
``csrf``), which another site's page cannot read. The cookie is signed with
the standard library's HMAC, so sessions need no dependency of their own.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .store import Store, Transaction, User, log_event
from .store_accounts import (
    NameTaken,
    StoredSession,
    delete_session,
    delete_sessions_of,
    insert_session,
    insert_token,
    insert_user,
    live_session,
    role_in_tx,
    set_display_and_deadline,
    token_user,
    touch_token,
    user_and_hash,
    user_named,
)
from .team_ids import TEAM_ROLES, assign

ROLES = ("student", "team", "teacher", "jury", "admin")
SESSION_COOKIE = "tilejudge_session"
SESSION_SECONDS = 12 * 3600
TOKEN_PREFIX = "tj_"
MAX_NAME = 100  # characters of an account's name (checked where one is made); a log-in with a longer one is wrong
MIN_PASSWORD = 8
MAX_PASSWORD = 1024  # characters: a longer password is refused where one is set, and wrong at a log-in unhashed
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
    db: Transaction,
    name: str,
    role: str,
    display: str = "",
    password: str | None = None,
    deadline: float | None = None,
    team_id: str | None = None,
) -> User:
    """A new account inside the caller's transaction; a taken name is ``Duplicate``. A team or student gets its ICPC
    team id (``team_ids.assign``: ``team_id`` where given, else its name where that is an identifier)."""
    if role not in ROLES:
        raise ValueError(f"unknown role '{role}' (one of {', '.join(ROLES)})")
    if not name or len(name) > MAX_NAME:
        raise ValueError(f"an account's name is 1 to {MAX_NAME} characters")
    if password is not None and not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    try:
        made_id = insert_user(db, name, role, display, hash_password(password) if password else None, deadline)
    except NameTaken:
        raise Duplicate(f"the account '{name}' exists already") from None
    made = User(made_id, name, role, display, deadline)
    if role in TEAM_ROLES:
        assign(db, made.id, name, team_id)
    log_event(db, "accounts", "create", {"id": made.id, "name": name, "role": role}, None, made.id)  # the ICPC feed's
    return made


def role_of(db: Transaction, name: str) -> tuple[int, str] | None:
    """The account called ``name`` as (id, role), inside the caller's transaction; None when there is none."""
    return role_in_tx(db, name)


def set_shown(db: Transaction, user: int, display: str, deadline: float | None) -> None:
    """An account's name as shown and its own deadline (a roster's line for a known id)."""
    set_display_and_deadline(db, user, display, deadline)


def new_token(db: Transaction, user: int, label: str = "") -> tuple[int, str]:
    """A fresh API token for ``user``: its id and the token itself, which is shown this once and never stored."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return insert_token(db, user, _digest(token), label), token


def user_for_token(store: Store, token: str) -> User | None:
    found = token_user(store, _digest(token))
    if found is None:
        return None
    if found.last_used is None or found.last_used < time.time() - 60:  # at most one write a minute per token
        touch_token(store, found.token_id)
    return found.user


def user_by_name(store: Store, name: str) -> User | None:
    return user_named(store, name)


def login(store: Store, name: str, password: str) -> User | None:
    """The account whose password this is; the hash is checked even for an unknown name, so timing tells nothing."""
    dummy = _dummy_hash()  # before the look-up, so the first login of any kind pays for making it
    found = user_and_hash(store, name)
    ok = password_ok(found[1] if found else dummy, password)
    return found[0] if found is not None and ok else None


# The hash an unknown name is checked against, made on first use: made at import, it cost every process that imports
# this module (each CLI command that loads the service's code, each test module) a quarter of a second of argon2.
_DUMMY: str | None = None


def _dummy_hash() -> str:
    global _DUMMY
    if _DUMMY is None:
        _DUMMY = hash_password(secrets.token_hex(8))
    return _DUMMY


@dataclass(frozen=True)
class Session:
    user: int
    csrf: str
    expires: float
    digest: str  # the sha256 of the cookie's secret: the store's key for this session


class Sessions:
    """Sessions the store knows: the cookie is ``SECRET.HMAC`` (32 random bytes and the site key's signature of them),
    the store keeps the secret's sha256 with the user, an expiry and the CSRF token. A session ends when its row is
    deleted (log-out, a password change, an admin's "log out everywhere"), so an old cookie is refused wherever it
    is sent, not only where the browser forgot it. The signature lets a forged cookie be refused without a query;
    every comparison is of bytes, so a cookie of any bytes is refused, never an error."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def make(self, store: Store, user: int) -> tuple[str, Session]:
        secret = secrets.token_urlsafe(32)
        session = Session(user, secrets.token_urlsafe(24), time.time() + SESSION_SECONDS, _digest(secret))
        insert_session(store, StoredSession(user, session.csrf, session.expires, session.digest))
        return f"{secret}.{self._sign(secret.encode())}", session

    def read(self, store: Store, cookie: str) -> Session | None:
        secret, _, signature = as_bytes(cookie).rpartition(b".")
        if not secret or not hmac.compare_digest(signature, self._sign(secret).encode()):
            return None
        row = live_session(store, hashlib.sha256(secret).hexdigest())
        return Session(row.user, row.csrf, row.expires, row.digest) if row else None

    def _sign(self, secret: bytes) -> str:
        return hmac.new(self._key, secret, hashlib.sha256).hexdigest()


def end_session(store: Store, session: Session) -> None:
    """Log-out: this one session is over, on every route."""
    delete_session(store, session.digest)


def end_sessions(db: Transaction, user: int) -> int:
    """Every session of ``user`` over, inside the caller's transaction (a password change, "log out everywhere")."""
    return delete_sessions_of(db, user)


def as_bytes(text: str) -> bytes:
    """What a client sent, as bytes whatever it holds (headers arrive as latin-1, forms as UTF-8 with replacements):
    ``hmac.compare_digest`` refuses a str with a character past ASCII, with an exception."""
    return text.encode("utf-8", "surrogatepass")


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
