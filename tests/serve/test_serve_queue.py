"""The service's queue and results in the store, without a server: fair order, one current result, stale attempts.

These are the store's rules that the HTTP tests can only see from outside:
a user's tenth queued submission waits behind everyone else's first; a
judging replaced by a rejudge stores nothing; a restart re-queues what was
being judged; each stored result replaces the current one and keeps it as
history.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("argon2", reason="the service's extra is not installed (pip install -r requirements-web.txt)")

from judge.serve.auth import add_user  # noqa: E402
from judge.serve.queue import (  # noqa: E402
    _ORDER,
    accept,
    claim,
    finish,
    position,
    positions,
    recover,
    requeue,
    running,
)
from judge.serve.store import Store  # noqa: E402

REPORT = {"verdict": "AC", "score": 1.0, "max_score": 1.0, "cases": []}


def _store(tmp_path: Path) -> tuple[Store, dict[str, int]]:
    store = Store(tmp_path)
    with store.tx() as db:
        users = {name: add_user(db, name, "student").id for name in ("ann", "ben", "cat")}
    return store, users


def _submit(store: Store, user: int, count: int = 1) -> list[int]:
    with store.tx() as db:
        return [accept(db, store, user, "p", "python3", [], None, 1) for _ in range(count)]


def test_a_users_tenth_submission_waits_behind_everyone_elses_first(tmp_path: Path) -> None:
    store, users = _store(tmp_path)
    ann = _submit(store, users["ann"], 10)
    ben = _submit(store, users["ben"], 2)
    cat = _submit(store, users["cat"])
    assert position(store, ann[0]) == 1 and position(store, ben[0]) == 2 and position(store, cat[0]) == 3
    order = []
    while (taken := claim(store)) is not None:
        order.append(taken.id)
        finish(store, taken, REPORT, "done")
    assert order == [ann[0], ben[0], cat[0], ann[1], ben[1], *ann[2:]]


def test_a_submission_being_judged_counts_as_its_authors_first(tmp_path: Path) -> None:
    store, users = _store(tmp_path)
    first, second = _submit(store, users["ann"], 2)
    assert claim(store).id == first  # now running: ann's next is her second
    ben = _submit(store, users["ben"])[0]
    assert claim(store).id == ben and claim(store).id == second


def test_a_rejudge_while_judging_drops_the_old_attempt_and_keeps_history(tmp_path: Path) -> None:
    store, users = _store(tmp_path)
    sid = _submit(store, users["ann"])[0]
    old = claim(store)
    running(store, old)
    requeue(store, [sid], "rejudge")
    assert finish(store, old, REPORT, "done") is False  # replaced meanwhile: nothing stored
    assert store.read("SELECT * FROM results") == []
    new = claim(store)
    assert new.attempt == old.attempt + 1 and finish(store, new, REPORT, "done")
    requeue(store, [sid], "rejudge")
    again = claim(store)
    assert finish(store, again, {**REPORT, "verdict": "WA", "score": 0.0}, "done")
    rows = store.read("SELECT verdict, current FROM results WHERE submission_id = ? ORDER BY id", (sid,))
    assert [(r["verdict"], r["current"]) for r in rows] == [("AC", 0), ("WA", 1)]


def test_a_restart_requeues_what_was_being_judged_and_events_only_grow(tmp_path: Path) -> None:
    store, users = _store(tmp_path)
    a, b, c = _submit(store, users["ann"], 3)
    taken = claim(store)
    running(store, taken)
    claim(store)  # compiling
    store.close()
    reopened = Store(tmp_path)  # as a server that was killed starts again
    assert recover(reopened) == 2
    states = {r["id"]: r["state"] for r in reopened.read("SELECT id, state FROM submissions")}
    assert states == {a: "queued", b: "queued", c: "queued"}
    ids = [r["id"] for r in reopened.events_after(0)]
    assert ids == sorted(set(ids))
    kinds = [(r["type"], json.loads(r["data"]).get("state")) for r in reopened.events_after(0)]
    assert kinds.count(("accounts", None)) == 3 and kinds.count(("submissions", None)) == 3
    assert kinds.count(("judgements", "compiling")) == 2 and kinds.count(("judgements", "queued")) == 2
    again = claim(reopened)
    assert again.id == a and again.attempt == 2


def test_the_order_is_read_once_per_change_however_often_places_are_looked_at(tmp_path: Path) -> None:
    """At a deadline hundreds of students look at their queued submission every few seconds; each reading of the
    order costs the whole queue under the store's one lock. Looks between two changes share one reading, and every
    kind of change (a new submission, a claim, a result, a rejudge) is seen by the next look."""
    store, users = _store(tmp_path)
    readings = []
    read = store.read

    def counted(sql: str, args: tuple = ()) -> list:
        readings.append(sql == _ORDER)
        return read(sql, args)

    store.read = counted  # type: ignore[method-assign]
    ann = _submit(store, users["ann"], 3)
    ben = _submit(store, users["ben"])[0]

    def fresh() -> dict[int, int]:
        return {row["id"]: n for n, row in enumerate(read(_ORDER), start=1)}

    for _ in range(50):
        assert [position(store, sid) for sid in (ann[0], ben, ann[1], ann[2])] == [1, 2, 3, 4]
    assert sum(readings) == 1
    taken = claim(store)
    assert taken.id == ann[0] and dict(positions(store)) == fresh() == {ben: 1, ann[1]: 2, ann[2]: 3}
    cat = _submit(store, users["cat"])[0]
    assert position(store, cat) == 2 and dict(positions(store)) == fresh()
    finish(store, taken, REPORT, "done")
    assert dict(positions(store)) == fresh()
    requeue(store, [taken.id], "rejudge")
    assert position(store, taken.id) == 5 and dict(positions(store)) == fresh()
    assert sum(readings) == 5  # one reading per change, however many looks
