"""Ending an account's sessions for good, for the API and the pages alike: "log out everywhere", and a password
change, which ends them all (``api_sessions.py`` says why each is so)."""

from __future__ import annotations

from typing import Any

from .access import forget_basic
from .auth import MAX_PASSWORD, MIN_PASSWORD, end_sessions, hash_password
from .http_errors import ApiError, unprocessable
from .service import Service
from .store import User
from .store_accounts import password_hash, set_password_hash
from .throttle import CHECKED, checked_login
from .workflow import password_fits


def end_all(service: Service, user: int) -> int:
    """Every session of ``user`` over, on every route (its open streams end too); how many there were."""
    with service.store.tx() as db:
        ended = end_sessions(db, user)
    forget_basic(user)
    service.bell.ring()
    return ended


def change_password(service: Service, user: User, current: Any, new: Any, address: str) -> int:
    """Set ``user``'s password after checking the current one (behind the log-in throttle: a stolen session cannot
    guess it faster than a log-in could), and end every session of the account; how many ended. Runs off the
    event loop: two argon2 hashes."""
    if not password_fits(new):
        raise unprocessable(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters", "new_password")
    if password_hash(service.store, user.id):
        checked = checked_login(service.store, service.throttle, user.name, str(current or ""), address)
        if checked is None or checked.id != user.id:
            raise ApiError(403, "wrong_password", "the current password is wrong", "password")
    digest = CHECKED.run(hash_password, new)
    with service.store.tx() as db:
        set_password_hash(db, user.id, digest)
        ended = end_sessions(db, user.id)
    forget_basic(user.id)
    service.bell.ring()
    return ended
