"""The clarifications' SQL: questions, answers and announcements stored with the event each one logs.

The table (migration step 4) keeps who a message is from and to as account numbers: ``from_user`` NULL is the
jury's (or the teacher's) message, ``to_user`` NULL is everyone's when the jury sends it and the jury's when a
user asks. Each message logs one ``clarifications`` event in the same transaction, its ``user_id`` the one account
it concerns (the asker, or the one answered) and NULL for a message to everyone: the streams (``/live``, the ICPC
event feed) narrow a non-staff viewer's events by that column alone, so a question never reaches another team's
stream. Who may see which row is the workflow's (``workflow/clarifications.py``); this module only says how.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from .store import Store, User, user_of

KIND = "clarifications"  # the event log's type of every clarification event, as the ICPC feed names it too


@dataclass(frozen=True)
class NewMessage:
    """One message to store; ``author`` is the account that wrote it (the jury member for a jury message)."""

    from_user: int | None
    to_user: int | None
    author: int
    problem: str | None
    text: str
    reply_to: int | None
    time: float


def add(store: Store, message: NewMessage, public: bool = False) -> int:
    """Store ``message`` and log its event; an answer (``reply_to``) marks its question answered (and ``public``:
    shown to everyone with it). Its id."""
    with store.tx() as db:
        cursor = db.execute(
            "INSERT INTO clarifications(from_user, to_user, author, problem, text, reply_to, time) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                message.from_user,
                message.to_user,
                message.author,
                message.problem,
                message.text,
                message.reply_to,
                message.time,
            ),
        )
        ident = int(cursor.lastrowid or 0)
        if message.reply_to is not None:
            db.execute(
                "UPDATE clarifications SET answered = 1, public = MAX(public, ?) WHERE id = ?",
                (int(public), message.reply_to),
            )
        concerns = message.from_user if message.from_user is not None else message.to_user
        what = "question" if message.from_user is not None else "answer" if message.reply_to else "announcement"
        data = {"id": ident, "problem": message.problem or "", "what": what}
        store.event(db, KIND, "create", data, None, concerns)
    return ident


def one(store: Store, ident: int) -> sqlite3.Row | None:
    """A message with its sender's and recipient's names, whoever may see it."""
    return store.one(_SELECT + " WHERE c.id = ?", (ident,))


def every(store: Store) -> list[sqlite3.Row]:
    """Every message, oldest first: the staff's."""
    return store.read(_SELECT + " ORDER BY c.id")


def of_user(store: Store, user: int) -> list[sqlite3.Row]:
    """The messages a student or team is party to, oldest first: their questions, the answers and announcements to
    them, and those to everyone."""
    return store.read(
        _SELECT + " WHERE c.from_user = ? OR (c.from_user IS NULL AND (c.to_user IS NULL OR c.to_user = ?)) "
        "ORDER BY c.id",
        (user, user),
    )


def asked_since(store: Store, user: int, moment: float) -> int:
    """How many questions ``user`` asked since ``moment``: their rate."""
    row = store.one("SELECT COUNT(*) FROM clarifications WHERE from_user = ? AND time >= ?", (user, moment))
    return int(row[0]) if row else 0


def unanswered(store: Store) -> int:
    """How many questions wait for an answer (the staff's page says so)."""
    row = store.one("SELECT COUNT(*) FROM clarifications WHERE from_user IS NOT NULL AND answered = 0")
    return int(row[0]) if row else 0


def account(store: Store, name: str) -> sqlite3.Row | None:
    """An account by its name (a jury message to one team names it)."""
    return store.one("SELECT id, name, role FROM users WHERE name = ?", (name,))


def account_of(store: Store, ident: int) -> User | None:
    """An account by its number (the ICPC API names a team by its team id, ``icpc_objects.user_of_team``)."""
    row = store.one("SELECT * FROM users WHERE id = ?", (ident,))
    return user_of(row) if row is not None else None


def live_events(store: Store, user: int, after: int, limit: int) -> list[sqlite3.Row]:
    """The events after ``after`` a non-staff viewer's page follows: their own submissions' and the clarifications
    that concern them or everyone (``/live``)."""
    return store.read(
        "SELECT * FROM events WHERE id > ? AND ((user_id = ? AND submission_id IS NOT NULL) "
        "OR (type = ? AND (user_id = ? OR user_id IS NULL))) ORDER BY id LIMIT ?",
        (after, user, KIND, user, limit),
    )


_SELECT = (
    "SELECT c.*, f.name AS from_name, f.display AS from_display, t.name AS to_name FROM clarifications c "
    "LEFT JOIN users f ON f.id = c.from_user LEFT JOIN users t ON t.id = c.to_user"
)
