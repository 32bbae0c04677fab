"""Clarifications in a class, through the workflow alone (no server): a student asks the teacher, the teacher answers.

The rules every channel shares (``workflow/clarifications.py``): who may ask and answer, what a student sees of
another's question, the text a message may hold, the rate of questions, and the event each message logs for the
streams, addressed to the one account it concerns (or to everyone).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("argon2", reason="the service's extra is not installed (pip install -r requirements-web.txt)")

from conftest import PROBLEMS  # noqa: E402

from judge.problem.formats import load  # noqa: E402
from judge.serve.auth import add_user  # noqa: E402
from judge.serve.service import Service  # noqa: E402
from judge.serve.site import load_site  # noqa: E402
from judge.serve.store import Store  # noqa: E402
from judge.serve.workflow import Forbidden, Invalid, NotFound, TooMany, announce, answer, ask, listed, seen  # noqa: E402
from judge.serve.workflow.clarifications import PER_WINDOW, check_text  # noqa: E402


@pytest.fixture
def school(tmp_path: Path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "site.yaml").write_text(f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\nlanguages: [python3]\n")
    store = Store(folder)
    with store.tx() as db:
        users = {n: add_user(db, n, r) for n, r in (("ann", "student"), ("bob", "student"), ("tom", "teacher"))}
    service = Service(load_site(folder, PROBLEMS), store, {"aplusb": load(PROBLEMS / "aplusb", "aplusb")}, None, None)  # type: ignore[arg-type]
    yield service, users
    store.close()


def _events(service: Service) -> list[tuple[int | None, dict]]:
    rows = service.store.read("SELECT user_id, data FROM events WHERE type = 'clarifications' ORDER BY id")
    return [(row["user_id"], json.loads(row["data"])) for row in rows]


def test_a_student_asks_the_teacher_who_answers_one_or_everyone(school) -> None:
    service, users = school
    ann, bob, tom = users["ann"], users["bob"], users["tom"]
    first = ask(service, ann, "Is n ever 0?\r\nThanks.", "aplusb")
    second = ask(service, bob, "When is the deadline?")
    assert [c.id for c in listed(service, tom)][:2] == [first, second]  # unanswered first, oldest first
    assert seen(service, tom, first).text == "Is n ever 0?\nThanks." and seen(service, tom, first).asker == "ann"
    with pytest.raises(NotFound):
        seen(service, bob, first)  # another's question: not told it exists
    private = answer(service, tom, second, "Friday.")
    public = answer(service, tom, first, "No, n >= 1.", to_all=True, publish=True)
    assert [c.id for c in listed(service, tom)][:1] != [first]  # answered: no longer first
    bobs = {c.id: c for c in listed(service, bob)}
    assert set(bobs) == {second, private, public}
    assert bobs[public].question == "Is n ever 0?\nThanks." and bobs[public].reply_to is None
    assert bobs[public].asker is None
    assert {c.id for c in listed(service, ann)} == {first, public}
    assert [c.id for c in listed(service, ann, "aplusb")] == [public, first]  # a problem's page: newest first
    # each event names the one account it concerns, or none for everyone: the streams narrow by it
    assert [(who, data["what"]) for who, data in _events(service)] == [
        (ann.id, "question"),
        (bob.id, "question"),
        (bob.id, "answer"),
        (None, "answer"),
    ]


def test_who_may_ask_answer_and_announce(school) -> None:
    service, users = school
    ann, tom = users["ann"], users["tom"]
    with pytest.raises(Forbidden):
        ask(service, tom, "a teacher asks?")
    question = ask(service, ann, "may I?")
    with pytest.raises(Forbidden):
        answer(service, ann, question, "yes, says ann")
    with pytest.raises(Forbidden):
        announce(service, ann, "hello all")
    note = announce(service, tom, "Room 101 today.")
    with pytest.raises(Invalid):
        answer(service, tom, note, "an answer to an announcement")
    with pytest.raises(NotFound):
        answer(service, tom, 9999, "to nothing")
    with pytest.raises(NotFound):
        ask(service, ann, "which?", "no-such-problem")


@pytest.mark.parametrize("text", ["", "   ", "x" * 2001, "esc \x1b[31m", "nul \x00", "\ud800", None, 12])
def test_a_text_that_cannot_be_shown_is_refused(text) -> None:
    with pytest.raises(Invalid):
        check_text(text)


def test_a_student_asks_at_most_so_many_questions_at_a_time(school) -> None:
    service, users = school
    for number in range(PER_WINDOW):
        ask(service, users["ann"], f"question {number}")
    with pytest.raises(TooMany):
        ask(service, users["ann"], "one more")
    ask(service, users["bob"], "another student's own rate")
