"""The service's workflow without HTTP: accepting, rejudging and the roster's import on a store in a temporary folder.

No server, no request: each test builds the service from a site folder (a fixture problem, python3 only), calls the
workflow as the API, the pages and the ICPC API do, and reads the store. The refusals are the workflow's own domain
errors, and each channel's one mapping turns every one of them into its answer (none falls through).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("argon2", reason="the service's extra is not installed (pip install -r requirements-web.txt)")

from conftest import PROBLEMS, PROGRAMS  # noqa: E402

from judge.problem.formats import load  # noqa: E402
from judge.serve import refusals  # noqa: E402
from judge.serve.auth import add_user  # noqa: E402
from judge.serve.http_errors import api_error  # noqa: E402
from judge.serve.queue import State, claim, finish  # noqa: E402
from judge.serve.service import Service  # noqa: E402
from judge.serve.site import load_site  # noqa: E402
from judge.serve.store import Store, User  # noqa: E402
from judge.serve.workflow import (  # noqa: E402
    Conflict,
    Forbidden,
    Full,
    Invalid,
    NotFound,
    Refused,
    TooMany,
    Unavailable,
    accept_submission,
    import_roster,
    rejudge_problem,
    rejudge_submission,
)

AC = [("ac.py", (PROGRAMS / "aplusb" / "ac.py").read_bytes())]
REPORT = {"verdict": "AC", "score": 1.0, "max_score": 1.0, "cases": []}


class Bell:
    """The workers' side the workflow touches: a poke per submission to judge, counted."""

    def __init__(self) -> None:
        self.pokes = 0

    def poke(self) -> None:
        self.pokes += 1


@pytest.fixture(scope="module")
def aplusb():
    return load(PROBLEMS / "aplusb", "aplusb")


def _service(folder: Path, aplusb, more: str = "") -> tuple[Service, dict[str, User]]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "site.yaml").write_text(
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\nlanguages: [python3]\n{more}", encoding="utf-8"
    )
    store = Store(folder)
    with store.tx() as db:
        users = {name: add_user(db, name, role) for name, role in (("ann", "student"), ("tom", "teacher"))}
    service = Service(load_site(folder, PROBLEMS), store, {"aplusb": aplusb}, Bell(), None)  # type: ignore[arg-type]
    return service, users


@pytest.fixture
def served(tmp_path: Path, aplusb):
    service, users = _service(tmp_path / "site", aplusb, "limits: {per_minute: 3, queue: 5}\n")
    yield service, users
    service.store.close()


def _count(service: Service) -> int:
    return service.store.one("SELECT COUNT(*) AS n FROM submissions")["n"]


def test_an_accepted_submission_is_stored_whole_queued_and_its_worker_woken(served) -> None:
    service, users = served
    sid = accept_submission(service, users["ann"], "aplusb", None, AC)  # the language from the extension
    row = service.store.one("SELECT * FROM submissions WHERE id = ?", (sid,))
    assert row["state"] == State.QUEUED and row["language"] == "python3" and row["cases_total"] == 4
    (stored,) = json.loads(row["files"])
    assert service.sources.get(stored["sha256"]) == AC[0][1] and service.workers.pokes == 1


@pytest.mark.parametrize(
    ("problem", "language", "files", "refusal", "field"),
    [
        ("nosuch", "python3", AC, NotFound, "problem"),
        ("aplusb", "cobol", AC, Invalid, "language"),
        ("aplusb", "cpp", AC, Invalid, "language"),  # known, but not this site's
        ("aplusb", None, [("main.unknown", b"x")], Invalid, "language"),
    ],
)
def test_a_bad_submission_is_refused_by_field_and_nothing_is_stored(
    served, problem: str, language: str | None, files: list, refusal: type, field: str
) -> None:
    service, users = served
    with pytest.raises(refusal) as caught:
        accept_submission(service, users["ann"], problem, language, files)
    assert caught.value.field == field and _count(service) == 0 and service.workers.pokes == 0


def test_the_users_rate_then_the_queues_cap_refuse_with_when_to_retry(served) -> None:
    service, users = served
    for _ in range(3):
        accept_submission(service, users["ann"], "aplusb", "python3", AC)
    with pytest.raises(TooMany) as rate:
        accept_submission(service, users["ann"], "aplusb", "python3", AC)
    assert 1 <= rate.value.retry_after <= 60
    for _ in range(2):  # the teacher has no rate; the queue holds 5
        accept_submission(service, users["tom"], "aplusb", "python3", AC)
    with pytest.raises(Full) as full:
        accept_submission(service, users["tom"], "aplusb", "python3", AC)
    assert full.value.retry_after > 0 and _count(service) == 5


def test_a_store_that_cannot_write_refuses_as_unavailable(served, monkeypatch: pytest.MonkeyPatch) -> None:
    service, users = served

    def full_disk(data: bytes) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(service.sources, "put", full_disk)
    with pytest.raises(Unavailable, match="cannot store"):
        accept_submission(service, users["ann"], "aplusb", "python3", AC)
    assert _count(service) == 0


def test_a_closed_contest_refuses_students_before_it_tells_of_its_problems(tmp_path: Path, aplusb) -> None:
    times = "kind: contest\nstart: 2000-01-01 10:00\nend: 2000-01-01 15:00\n"
    service, users = _service(tmp_path / "site", aplusb, times)
    try:
        with pytest.raises(Conflict) as closed:
            accept_submission(service, users["ann"], "nosuch", "python3", AC)  # not NotFound: nothing is probed
        assert closed.value.reason == "closed" and "over" in closed.value.message
        assert accept_submission(service, users["tom"], "aplusb", "python3", AC)  # staff may still
    finally:
        service.store.close()


def _judged(service: Service, verdicts: list[str]) -> None:
    for verdict in verdicts:
        taken = claim(service.store)
        assert taken is not None and finish(service.store, taken, {**REPORT, "verdict": verdict}, State.DONE)


def test_rejudging_queues_one_a_problem_or_a_verdicts_submissions_again(served) -> None:
    service, users = served
    ids = [accept_submission(service, users["tom"], "aplusb", "python3", AC) for _ in range(3)]
    _judged(service, ["AC", "WA", "WA"])
    assert rejudge_problem(service, users["tom"], "aplusb", "WA") == ids[1:]
    assert rejudge_submission(service, users["tom"], ids[0]) == [ids[0]]
    states = {row["id"]: row["state"] for row in service.store.read("SELECT id, state FROM submissions")}
    assert states == {sid: State.QUEUED for sid in ids}
    assert rejudge_problem(service, users["tom"], "aplusb") == []  # none is judged now


def test_rejudging_refuses_students_and_what_does_not_exist(served) -> None:
    service, users = served
    sid = accept_submission(service, users["ann"], "aplusb", "python3", AC)
    with pytest.raises(Forbidden):
        rejudge_submission(service, users["ann"], sid)
    with pytest.raises(Forbidden):
        rejudge_problem(service, users["ann"], "aplusb")
    with pytest.raises(NotFound):
        rejudge_submission(service, users["tom"], sid + 100)
    with pytest.raises(NotFound):
        rejudge_problem(service, users["tom"], "nosuch")


def test_a_roster_makes_and_updates_accounts_and_a_staff_line_stores_none_of_it(served) -> None:
    service, users = served
    made, updated = import_roster(service.store, users["tom"], "student", b"id,name\nann,Ann A.\nbob,Bob B.\n")
    assert [m["name"] for m in made] == ["bob"] and made[0]["token"] and updated == ["ann"]
    with pytest.raises(Forbidden) as staff_line:
        import_roster(service.store, users["tom"], "student", b"id,name\ncarl,Carl\ntom,Tom T.\n")
    assert staff_line.value.field == "roster[1]"
    assert service.store.one("SELECT 1 FROM users WHERE name = 'carl'") is None  # rolled back whole
    with pytest.raises(Invalid, match=r"roster\.csv:1"):
        import_roster(service.store, users["tom"], "student", b"name\nx\n")
    with pytest.raises(Forbidden):
        import_roster(service.store, users["tom"], "teacher", b"id\nzed\n")  # only an admin makes a teacher


def test_every_refusal_has_its_answer_in_each_channels_mapping() -> None:
    """A refusal added without its line in ``http_errors.api_error`` would be answered 400 'refused'."""
    from judge.serve.pages import page_error

    kinds = [k for k in vars(refusals).values() if isinstance(k, type) and issubclass(k, Refused) and k is not Refused]
    assert len(kinds) >= 7
    answers = {kind.__name__: api_error(kind("why", "field")) for kind in kinds}
    assert {name: a.status for name, a in answers.items()} == {
        "NotFound": 404,
        "Forbidden": 403,
        "Invalid": 422,
        "Conflict": 409,
        "TooMany": 429,
        "Full": 503,
        "Unavailable": 503,
    }
    assert all(a.message == "why" and a.field == "field" and a.code != "refused" for a in answers.values())
    assert answers["TooMany"].headers() == {"Retry-After": "60"}
    assert page_error(TooMany("slow down", retry_after=7)).headers() == {"Retry-After": "7"}


def test_a_shadowed_submission_skips_the_rate_keeps_the_cap_and_is_stored_with_its_record_or_not_at_all(
    served,
) -> None:
    """``accept_shadowed``: the primary decided the team's rate (it took them all), the queue's cap still holds, and
    the shadow's record of the copy is in the copy's transaction: a record that fails leaves no copy to submit twice."""
    from judge.serve.workflow import accept_shadowed

    service, users = served
    site, store, sources = service.site, service.store, service.sources
    recorded: list[int] = []
    for _ in range(5):  # past ann's rate of 3 a minute, up to the queue's 5
        accept_shadowed(
            store, sources, site, users["ann"].id, "aplusb", "python3", AC, 4, lambda db, sid: recorded.append(sid)
        )
    assert len(recorded) == 5 == _count(service) and service.workers.pokes == 0  # the server's own workers poll
    with pytest.raises(Full):
        accept_shadowed(store, sources, site, users["ann"].id, "aplusb", "python3", AC, 4, lambda db, sid: None)
    with store.tx() as db:
        db.execute("DELETE FROM events")
        db.execute("DELETE FROM submissions")

    def fails(db: object, sid: int) -> None:
        raise RuntimeError("the shadow's record could not be written")

    with pytest.raises(RuntimeError):
        accept_shadowed(store, sources, site, users["ann"].id, "aplusb", "python3", AC, 4, fails)
    assert _count(service) == 0
    with pytest.raises(Invalid):  # the site's languages hold for a shadowed one too
        accept_shadowed(store, sources, site, users["ann"].id, "aplusb", "cpp", AC, 4, lambda db, sid: None)
