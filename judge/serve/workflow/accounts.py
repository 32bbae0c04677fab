"""Who may make and change which account, what a name must be, and the roster's import, with no HTTP in them.

An admin makes and changes any role; a teacher or jury member students and teams (a class's roster, a contest's
teams), never another teacher. The API's ``POST /api/v1/users`` and ``/users/import`` and the teacher's roster page
all come here, so a roster means the same wherever it is sent.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ...errors import UsageError
from ...grade.roster import Roster, load_roster
from .. import team_roster
from ..auth import MAX_NAME, MAX_PASSWORD, MIN_PASSWORD, ROLES, add_user, new_token, role_of, set_shown
from ..names import text_fault
from ..refusals import Conflict, Forbidden, Invalid
from ..store import Store, User
from ..team_ids import TakenId

STAFF_MAKES = ("student", "team")
NAME_MAX = MAX_NAME


def may_change(maker: User, role: str) -> bool:
    """Whether ``maker`` may change an account of ``role`` (its name shown, its deadline): an admin any, staff the
    roles they make (students and teams), never an account of their own rank or above."""
    return maker.role == "admin" or role in STAFF_MAKES


def may_make(maker: User, role: object) -> str:
    """``role`` if ``maker`` may make an account of it; ``Invalid`` for no such role, ``Forbidden`` for a rank
    only an admin makes."""
    if role not in ROLES:
        raise Invalid(f"role must be one of {', '.join(ROLES)}", "role")
    assert isinstance(role, str)
    if maker.role != "admin" and role not in STAFF_MAKES:
        raise Forbidden(f"only an admin makes a {role} account", "role")
    return role


def password_fits(password: object) -> bool:
    """Whether ``password`` is a string of an acceptable length (``MIN_PASSWORD`` to ``MAX_PASSWORD``)."""
    return isinstance(password, str) and MIN_PASSWORD <= len(password) <= MAX_PASSWORD


def check_name(name: object, field: str = "name") -> str:
    """An account's name, stripped: 1 to ``NAME_MAX`` characters of text on one line; else ``Invalid``."""
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX or text_fault(name) is not None:
        raise Invalid(f"a name is 1 to {NAME_MAX} characters of text on one line (no control character)", field)
    return name.strip()


def import_roster(store: Store, maker: User, role: str, body: bytes) -> tuple[list[dict[str, str]], list[str]]:
    """The CSV ``grade --roster`` reads (``id``, and optional ``name``, ``deadline``; a contest's ``team_id``,
    ``organization``, ``country`` and ``groups`` too, ``team_roster.py``): the new accounts with their
    tokens (shown once), and the names updated. Checked whole before anything is stored; a known id is updated only
    if ``maker`` may change its account (``may_change``), else nothing of the roster is stored (``Forbidden``)."""
    may_make(maker, role)
    lines = [
        (sid, line.name, line.deadline.timestamp() if line.deadline else None)
        for sid, line in _roster(body).lines.items()
    ]
    for number, (sid, _, _) in enumerate(lines):
        check_name(sid, f"roster[{number}]")
    contest = team_roster.read_columns(body)  # a contest's team_id, organization, country and groups columns
    made, updated = [], []
    with store.tx() as db:
        team_roster.make_all(store, db, contest.values())  # announced in the feed before the teams that name them
        for number, (sid, display, deadline) in enumerate(lines):
            found = role_of(db, sid)
            if found is not None and not may_change(maker, found[1]):
                raise Forbidden(  # the transaction rolls back: nothing of the roster is stored
                    f"'{sid}' is a staff account ({found[1]}): only an admin changes it", f"roster[{number}]"
                )
            columns = contest.get(sid, team_roster.TeamColumns())
            if found is not None:
                set_shown(db, found[0], display, deadline)
                team_roster.apply(store, db, found[0], columns)
                updated.append(sid)
                continue
            try:
                user = add_user(db, sid, role, display, None, deadline, columns.team_id)
            except TakenId as exc:
                raise Conflict(str(exc), f"roster[{number}]") from None
            team_roster.apply(store, db, user.id, columns)
            made.append({"name": sid, "token": new_token(db, user.id, "roster import")[1]})
    return made, updated


def _roster(body: bytes) -> Roster:
    """The body read by ``grade --roster``'s own reader, so a roster means the same to both; its messages name the
    line as ``roster.csv:N``."""
    with tempfile.TemporaryDirectory(prefix="tilejudge-roster-") as folder:
        path = Path(folder) / "roster.csv"
        path.write_bytes(body)
        try:
            return load_roster(path, None)
        except UsageError as exc:
            raise Invalid(str(exc).replace(str(path), "roster.csv")) from None
