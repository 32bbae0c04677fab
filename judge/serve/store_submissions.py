"""The store's submissions and results as the handlers read them: one submission, a list narrowed by filters, the
rows a board or a grade sheet is made of, and the counts the staff overview and the health check show.

Why here and not beside each handler: the same joins (a submission with its
author, with its current result) were written in a dozen modules, each a
little differently; here each has one name that says what it fetches, and a
schema change touches this file. The queue's own writes (claim, finish,
requeue) stay in ``queue.py``, the state machine that owns them. Rows are
``store.Row``: read by column name, as the views that turn them into JSON do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .queue import CURRENT_VERDICT, PENDING, State, sql_in
from .store import Row, Store, Transaction

WITH_AUTHOR = (
    "SELECT submissions.*, users.name AS user_name FROM submissions JOIN users ON users.id = submissions.user_id "
)
CONTESTANT = "u.role IN ('student', 'team')"


@dataclass(frozen=True)
class Filters:
    """What a list of submissions is narrowed to (an empty one: not narrowed). ``user`` and ``late`` are the
    staff's: anyone else's list holds their own submissions only, whatever it asks."""

    problem: str = ""
    language: str = ""
    state: str = ""
    verdict: str = ""  # the current result's
    user: str = ""  # the account's name
    late: bool = False
    before: int | None = None  # ids below this one: the next page


@dataclass(frozen=True)
class ProblemCounts:
    """One problem's submissions as the staff overview counts them."""

    submissions: int
    people: int
    waiting: int
    errors: int


@dataclass(frozen=True)
class Attempt:
    """A contestant's submission of one problem, in the order made, with its current verdict (None: none yet)."""

    user_id: int
    submitted: float
    verdict: str | None


def submission(store: Store, sid: int) -> Row | None:
    return store.one("SELECT * FROM submissions WHERE id = ?", (sid,))


def submission_with_author(store: Store, sid: int) -> Row | None:
    """The submission with its author's name as ``user_name``."""
    return store.one(WITH_AUTHOR + "WHERE submissions.id = ?", (sid,))


def problem_of(store: Store, sid: int) -> str:
    """The problem a submission is of; "" when there is no such submission."""
    row = store.one("SELECT problem FROM submissions WHERE id = ?", (sid,))
    return str(row["problem"]) if row else ""


def state_of(store: Store, sid: int) -> str | None:
    row = store.one("SELECT state FROM submissions WHERE id = ?", (sid,))
    return str(row["state"]) if row else None


def submissions_by(store: Store, user_id: int | None) -> list[Row]:
    """Every submission, oldest first; only ``user_id``'s where one is given."""
    if user_id is None:
        return store.read("SELECT * FROM submissions ORDER BY id")
    return store.read("SELECT * FROM submissions WHERE user_id = ? ORDER BY id", (user_id,))


def listed(store: Store, own: int | None, filters: Filters, limit: int) -> list[Row]:
    """The submissions that pass ``filters``, newest first, at most ``limit``, with ``user_name``; ``own`` keeps one
    account's (a student's list), and then the staff's filters (``user``, ``late``) are not applied."""
    where: list[str] = ["1 = 1"]
    args: list[Any] = []
    if own is not None:
        where.append("submissions.user_id = ?")
        args.append(own)
    else:
        if filters.user:
            where.append("users.name = ?")
            args.append(filters.user)
        if filters.late:
            where.append("submissions.late_minutes IS NOT NULL")
    for column in ("problem", "language", "state"):
        if getattr(filters, column):
            where.append(f"submissions.{column} = ?")
            args.append(getattr(filters, column))
    if filters.verdict:
        where.append(CURRENT_VERDICT)
        args.append(filters.verdict)
    if filters.before is not None:
        where.append("submissions.id < ?")
        args.append(filters.before)
    return store.read(WITH_AUTHOR + f"WHERE {' AND '.join(where)} ORDER BY submissions.id DESC LIMIT ?", (*args, limit))


def current_result(store: Store, sid: int) -> Row | None:
    return store.one("SELECT * FROM results WHERE submission_id = ? AND current = 1", (sid,))


def results_of(store: Store, sid: int) -> list[Row]:
    """Every result the submission had, oldest first (``current`` marks the one that stands)."""
    return store.read("SELECT * FROM results WHERE submission_id = ? ORDER BY id", (sid,))


def result_count(store: Store, sid: int) -> int:
    row = store.one("SELECT COUNT(*) AS n FROM results WHERE submission_id = ?", (sid,))
    return int(row["n"]) if row else 0


def result_of_attempt(store: Store, sid: int, attempt: int) -> Row | None:
    return store.one("SELECT * FROM results WHERE submission_id = ? AND attempt = ?", (sid, attempt))


def all_results(store: Store) -> list[Row]:
    return store.read("SELECT * FROM results ORDER BY id")


def current_verdicts_of(store: Store, user_id: int) -> list[tuple[str, str]]:
    """(problem, current verdict) of each judged submission of ``user_id``, oldest first."""
    rows = store.read(
        "SELECT s.problem, r.verdict FROM submissions s JOIN results r ON r.submission_id = s.id AND r.current = 1 "
        "WHERE s.user_id = ? ORDER BY s.id",
        (user_id,),
    )
    return [(row["problem"], row["verdict"]) for row in rows]


def board_rows(store: Store) -> list[Row]:
    """Every contestant's submission, oldest first, with the author's name and display and the current verdict and
    score (None while it has none): what a board is counted from."""
    return store.read(
        "SELECT s.id, s.user_id, u.name, u.display, s.problem, s.submitted, s.state, r.verdict, r.score "
        "FROM submissions s JOIN users u ON u.id = s.user_id LEFT JOIN results r ON r.submission_id = s.id "
        f"AND r.current = 1 WHERE {CONTESTANT} ORDER BY s.id"
    )


def graded_rows(store: Store, problem: str, undecided: str) -> list[Row]:
    """Each contestant's submission of ``problem`` whose current verdict is not ``undecided``, with the author's
    ``user_name`` and ``display`` and the result's verdict, score and report."""
    return store.read(
        "SELECT s.*, u.name AS user_name, u.display, r.verdict, r.score, r.report FROM submissions s "
        "JOIN users u ON u.id = s.user_id JOIN results r ON r.submission_id = s.id AND r.current = 1 "
        f"WHERE s.problem = ? AND r.verdict <> ? AND {CONTESTANT} ORDER BY s.id",
        (problem, undecided),
    )


def attempts_at(store: Store, problem: str) -> list[Attempt]:
    """The contestants' submissions of ``problem`` in the order made (a first-to-solve award reads them)."""
    rows = store.read(
        "SELECT s.user_id, s.submitted, r.verdict FROM submissions s JOIN users u ON u.id = s.user_id "
        "LEFT JOIN results r ON r.submission_id = s.id AND r.current = 1 "
        f"WHERE s.problem = ? AND {CONTESTANT} ORDER BY s.submitted, s.id",
        (problem,),
    )
    return [Attempt(row["user_id"], row["submitted"], row["verdict"]) for row in rows]


def rejudging_by_name(store: Store, problem: str | None = None) -> dict[str, int]:
    """How many submissions of each contestant (by name) are being judged again: pending, with a result stored."""
    where = "" if problem is None else " AND s.problem = ?"
    rows = store.read(
        "SELECT u.name, COUNT(*) AS n FROM submissions s JOIN users u ON u.id = s.user_id "
        f"WHERE s.state IN {sql_in(PENDING)} AND {CONTESTANT} "
        "AND EXISTS (SELECT 1 FROM results r WHERE r.submission_id = s.id AND r.current = 1)"
        + where
        + " GROUP BY u.name",
        () if problem is None else (problem,),
    )
    return {row["name"]: int(row["n"]) for row in rows}


def counts_by_problem(store: Store) -> dict[str, ProblemCounts]:
    rows = store.read(
        "SELECT problem, COUNT(*) AS submissions, COUNT(DISTINCT user_id) AS people, "
        f"SUM(state IN {sql_in(PENDING)}) AS waiting, SUM(state = '{State.ERROR.value}') AS errors "
        "FROM submissions GROUP BY problem"
    )
    return {
        row["problem"]: ProblemCounts(row["submissions"], row["people"], row["waiting"] or 0, row["errors"] or 0)
        for row in rows
    }


def queue_length_and_oldest(store: Store) -> tuple[int, float | None]:
    """How many submissions wait, and when the oldest of them was made (None when none waits)."""
    row = store.one(
        f"SELECT COUNT(*) AS n, MIN(submitted) AS oldest FROM submissions WHERE state = '{State.QUEUED.value}'"
    )
    if row is None or not row["n"]:
        return 0, None
    return int(row["n"]), float(row["oldest"])


def submitted_since(db: Transaction, user_id: int, since: float, limit: int) -> list[float]:
    """When ``user_id`` made its submissions after ``since``, newest first, at most ``limit`` (the rate limit's)."""
    rows = db.execute(
        "SELECT submitted FROM submissions WHERE user_id = ? AND submitted > ? ORDER BY submitted DESC LIMIT ?",
        (user_id, since, limit),
    ).fetchall()
    return [float(row["submitted"]) for row in rows]
