"""A submission's life in the store: accepted, claimed by a worker, judged case by case, done or error, re-queued.

Every step is one transaction that also appends its event, so what a watcher
is told and what the store holds never disagree. The queue is the
``submissions`` table itself: fair across users, a submission's turn is its
rank among its author's submissions waiting or judged since it came
(``_ORDER``), so a user's tenth waits behind everyone else's first, whatever
the order they came in; rejudges come after new work. A worker holds its claim by ``attempt``: a rejudge while it judges
re-queues the submission, and the result of the old attempt is then dropped,
never stored beside the new one. Each stored result replaces the current one
in the same transaction (``results_current`` is unique), so a submission has
exactly one current result and keeps the earlier ones as its history.
"""

from __future__ import annotations

import json
import sqlite3
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any

from .store import Store


class State(str, Enum):
    """A submission's state, the ``submissions.state`` column's value (the stored strings are these values, so an
    older store reads the same). ``str`` underneath: a state compares equal to the string a row holds and is bound
    to SQL and JSON as that string. (``enum.StrEnum`` would say the same but needs Python 3.11.)"""

    QUEUED = "queued"
    COMPILING = "compiling"
    RUNNING = "running"
    DONE = "done"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return self.value.__format__(spec)


PENDING = (State.QUEUED, State.COMPILING, State.RUNNING)  # not yet decided: waiting, or claimed by a worker
UNDER_WAY = (State.COMPILING, State.RUNNING)  # claimed by a worker now
FINAL = (State.DONE, State.ERROR)  # decided: a result is stored (or, for an error, the reason)


def sql_in(states: tuple[State, ...]) -> str:
    """The states as an SQL list, ``('done', 'error')``, for a query's ``state IN ...`` (constants, never input)."""
    return "(" + ", ".join(f"'{state.value}'" for state in states) + ")"


# the submissions whose current result has the verdict given as the query's next argument
CURRENT_VERDICT = "EXISTS (SELECT 1 FROM results WHERE submission_id = submissions.id AND current = 1 AND verdict = ?)"
PRIORITY_REJUDGE = 1  # new work is 0, the column's default: a rejudge waits behind it
# The queued submissions in the order workers take them. A submission's turn is 1 + how many of its author's earlier
# ones were still waiting or being judged when it came, or were taken since: a user's tenth waits behind everyone's
# first even as their first nine are judged one by one (counting only what is unfinished now would let their second
# overtake the others' first as soon as their first was done).
_ORDER = f"""
SELECT s.id FROM submissions s WHERE s.state = '{State.QUEUED.value}'
ORDER BY s.priority, (
    SELECT COUNT(*) FROM submissions t
    WHERE t.user_id = s.user_id AND t.priority = s.priority AND t.id < s.id
      AND (t.state IN {sql_in(PENDING)} OR t.started >= s.submitted)
), s.id
"""


@dataclass(frozen=True)
class Claim:
    """A worker's hold on one judging of one submission."""

    id: int
    attempt: int
    user: int
    problem: str
    language: str
    files: list[dict[str, Any]]


def accept(
    db: sqlite3.Connection,
    store: Store,
    user: int,
    problem: str,
    language: str,
    files: list[dict[str, Any]],
    late_minutes: float | None,
    cases: int,
) -> int:
    """Store a new submission, queued, inside the caller's transaction (which has checked the limits)."""
    now = time.time()
    cursor = db.execute(
        "INSERT INTO submissions(user_id, problem, language, files, submitted, late_minutes, state, cases_total) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (user, problem, language, json.dumps(files), now, late_minutes, State.QUEUED.value, cases),
    )
    sid = int(cursor.lastrowid or 0)
    data = {"id": sid, "problem": problem, "language": language, "time": now, "late_minutes": late_minutes}
    store.event(db, "submissions", "create", data, sid, user)
    return sid


def queued_count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM submissions WHERE state = ?", (State.QUEUED.value,)).fetchone()[0])


def claim(store: Store) -> Claim | None:
    """The next submission by the fair order, now compiling under a new attempt; None when nothing waits."""
    with store.tx() as db:
        row = db.execute(_ORDER + " LIMIT 1").fetchone()
        if row is None:
            return None
        db.execute(
            "UPDATE submissions SET state = ?, attempt = attempt + 1, cases_done = 0, error = '', "
            "started = ? WHERE id = ?",
            (State.COMPILING.value, time.time(), row["id"]),
        )
        sub = db.execute("SELECT * FROM submissions WHERE id = ?", (row["id"],)).fetchone()
        found = Claim(
            sub["id"], sub["attempt"], sub["user_id"], sub["problem"], sub["language"], json.loads(sub["files"])
        )
        _state_event(db, store, found, State.COMPILING)
    return found


def _state_event(db: sqlite3.Connection, store: Store, c: Claim, state: State, **more: Any) -> None:
    data = {"id": c.id, "attempt": c.attempt, "state": state.value, **more}
    store.event(db, "judgements", "update", data, c.id, c.user)


def _held(db: sqlite3.Connection, c: Claim) -> bool:
    """Whether this claim is still the submission's judging (a rejudge or a restart has not replaced it)."""
    row = db.execute("SELECT state, attempt FROM submissions WHERE id = ?", (c.id,)).fetchone()
    return row is not None and row["attempt"] == c.attempt and row["state"] in UNDER_WAY


def running(store: Store, c: Claim) -> None:
    """Built: its cases start."""
    with store.tx() as db:
        if _held(db, c):
            db.execute("UPDATE submissions SET state = ? WHERE id = ?", (State.RUNNING.value, c.id))
            _state_event(db, store, c, State.RUNNING)


def case_done(store: Store, c: Claim, case: dict[str, Any]) -> None:
    with store.tx() as db:
        if _held(db, c):
            db.execute("UPDATE submissions SET cases_done = cases_done + 1 WHERE id = ?", (c.id,))
            store.event(db, "runs", "create", {"id": c.id, "attempt": c.attempt, **case}, c.id, c.user)


def finish(store: Store, c: Claim, report: dict[str, Any], state: State | str, error: str = "") -> bool:
    """Store the attempt's report as the current result, and the submission as ``state`` (done or error); False when
    the claim was replaced meanwhile (its report is dropped)."""
    state = State(state)  # a stored string is one of the states, or a ValueError before anything is written
    if state not in FINAL:
        raise ValueError(f"a judging finishes as one of {', '.join(FINAL)}, not {state}")
    with store.tx() as db:
        if not _held(db, c):
            return False
        db.execute("UPDATE results SET current = 0 WHERE submission_id = ? AND current = 1", (c.id,))
        db.execute(
            "INSERT INTO results(submission_id, attempt, judged, verdict, score, max_score, report, current, started) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 1, (SELECT started FROM submissions WHERE id = ?))",
            (
                c.id,
                c.attempt,
                time.time(),
                report["verdict"],
                report.get("score", 0.0),
                report.get("max_score", 0.0),
                json.dumps(report),
                c.id,
            ),
        )
        done = len(report.get("cases", [])) if state is State.DONE else None
        db.execute(
            "UPDATE submissions SET state = ?, error = ?, cases_done = COALESCE(?, cases_done) WHERE id = ?",
            (state.value, error, done, c.id),
        )
        _state_event(db, store, c, state, verdict=report["verdict"], score=report.get("score", 0.0), error=error)
    return True


def mark_error(store: Store, c: Claim, error: str) -> None:
    """The last resort when even a result cannot be stored (a full disk): the state alone, so it is not stuck."""
    with store.tx() as db:
        if _held(db, c):
            db.execute("UPDATE submissions SET state = ?, error = ? WHERE id = ?", (State.ERROR.value, error, c.id))
            _state_event(db, store, c, State.ERROR, error=error)


def requeue(store: Store, ids: list[int], reason: str, priority: int = PRIORITY_REJUDGE) -> int:
    """Put submissions back in the queue (a rejudge, or what a killed server was judging); how many."""
    with store.tx() as db:
        for sid in ids:
            row = db.execute("SELECT user_id, attempt FROM submissions WHERE id = ?", (sid,)).fetchone()
            if row is None:
                continue
            db.execute(
                "UPDATE submissions SET state = ?, priority = ?, cases_done = 0, error = '' WHERE id = ?",
                (State.QUEUED.value, priority, sid),
            )
            data = {"id": sid, "attempt": row["attempt"], "state": State.QUEUED.value, "reason": reason}
            store.event(db, "judgements", "update", data, sid, row["user_id"])
    return len(ids)


def release(store: Store, c: Claim, reason: str) -> bool:
    """A judging cut short by a stopping server: the submission is queued again at its own priority, unless a
    rejudge or a result has replaced the claim meanwhile; whether it was."""
    with store.tx() as db:
        if not _held(db, c):
            return False
        db.execute(
            "UPDATE submissions SET state = ?, cases_done = 0, error = '' WHERE id = ?", (State.QUEUED.value, c.id)
        )
        _state_event(db, store, c, State.QUEUED, reason=reason)
    return True


def recover(store: Store) -> int:
    """At start: what a killed server was compiling or running goes back to the queue, ahead of rejudges."""
    rows = store.read(f"SELECT id, priority FROM submissions WHERE state IN {sql_in(UNDER_WAY)} ORDER BY id")
    for priority in {row["priority"] for row in rows}:
        ids = [row["id"] for row in rows if row["priority"] == priority]
        requeue(store, ids, "the server stopped while judging it", priority)
    return len(rows)


def position(store: Store, sid: int) -> int | None:
    """Where a queued submission stands (1: next to be judged); None when it is not queued."""
    return positions(store).get(sid)


# The last order read, per store, with the event log's last id when it was read.
_PLACES: weakref.WeakKeyDictionary[Store, tuple[int, Mapping[int, int]]] = weakref.WeakKeyDictionary()


def positions(store: Store) -> Mapping[int, int]:
    """Every queued submission's place (read-only), read again only once the queue may have changed.

    Reading the order costs the whole queue (each row's turn is a count among its author's submissions) under the
    store's one lock, which every POST waits for: at a deadline, with a thousand queued and hundreds of students
    looking at theirs every few seconds, those readings held the lock for most of each second (``bench --serve
    --rush``). Every change to a submission is written with its event in one transaction, so the event log's last
    id names the queue's state: while it stands, the order read for it stands too. The id is read before the order,
    so a change that lands between them makes the kept order newer than its id, and the next look reads it again.
    """
    version = store.one("SELECT COALESCE(MAX(id), 0) AS last FROM events")
    last = int(version["last"]) if version is not None else 0
    kept = _PLACES.get(store)
    if kept is not None and kept[0] == last:
        return kept[1]
    places = MappingProxyType({row["id"]: number for number, row in enumerate(store.read(_ORDER), start=1)})
    _PLACES[store] = (last, places)
    return places


def exists(store: Store, sid: int) -> bool:
    return store.one("SELECT 1 FROM submissions WHERE id = ?", (sid,)) is not None


def judged_ids(store: Store, problem: str, verdict: str | None = None) -> list[int]:
    """A problem's judged submissions (done or error), oldest first; with ``verdict``, those whose current result
    has it."""
    rows = store.read(
        f"SELECT id FROM submissions WHERE problem = ? AND state IN {sql_in(FINAL)} "
        + (f"AND {CURRENT_VERDICT} " if verdict else "")
        + "ORDER BY id",
        (problem, verdict) if verdict else (problem,),
    )
    return [row["id"] for row in rows]
