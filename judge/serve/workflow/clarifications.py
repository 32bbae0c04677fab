"""Clarifications, with no HTTP in them: a student or team asks, the jury (a class's teacher) answers or announces.

A student or team asks about a problem they can see or in general; staff answer one question to its asker or to
everyone (and may publish the question with it, its asker not named), or send an announcement of their own to
everyone or to one account. A student or team sees their own questions, the answers to them and every message to
everyone; staff see all, the unanswered questions first. The API (``api_clarifications.py``), the pages
(``pages_clarifications.py``) and the ICPC Contest API (``icpc_clarifications.py``) all come here, so a question
is refused for the same reason on each, and each maps the refusal to its own answer.

The text is a person's, shown on other people's pages: Unicode text of at most ``MAX_TEXT`` characters, lines and
tabs allowed (a question has several lines), no other control character (an escape sequence, a NUL), no lone
surrogate (``names.text_fault``). A student or team asks at most ``PER_WINDOW`` questions in ``WINDOW`` seconds:
a loop of questions would bury the jury's list.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .. import store_clarifications as stored
from ..names import text_fault
from ..refusals import Forbidden, Invalid, NotFound, TooMany
from ..service import Service
from ..store import Row, User
from .submissions import open_problems

MAX_TEXT = 2000
PER_WINDOW, WINDOW = 5, 300


@dataclass(frozen=True)
class Clarification:
    """A message as its viewer may see it: ``question`` is the text of the question an answer replies to, where the
    viewer may read it (theirs, staff, or published), and ``asker`` names the one who asked only to staff."""

    id: int
    kind: str  # question, answer or announcement
    from_user: int | None
    to_user: int | None
    asker: str | None  # the account name of a question's sender (staff see it; a student sees their own)
    to_name: str | None
    problem: str | None
    text: str
    reply_to: int | None
    time: float
    answered: bool
    question: str | None


def check_text(text: object, field: str = "text") -> str:
    """A message's text, its line ends made ``\\n`` and its ends stripped; ``Invalid`` for what cannot be shown."""
    if not isinstance(text, str):
        raise Invalid("text must be a string", field)
    text = text.replace("\r\n", "\n").strip()
    if not text or len(text) > MAX_TEXT:
        raise Invalid(f"a clarification's text is 1 to {MAX_TEXT} characters", field)
    fault = text_fault(text.replace("\n", " ").replace("\t", " "))
    if fault is not None:
        raise Invalid(f"a clarification's text must be text: {fault}", field)
    return text


def _problem(service: Service, who: User, problem: object) -> str | None:
    """A problem the asker may see, or None for a general message; ``NotFound`` otherwise (a contest's problems
    before its start are not told)."""
    if problem is None or problem == "":
        return None
    if not isinstance(problem, str) or problem not in open_problems(service, who):
        raise NotFound(f"no such problem '{problem}'", "problem")
    return problem


def ask(service: Service, who: User, text: object, problem: object = None, at: float | None = None) -> int:
    """A student's or team's question to the jury (staff pass one on for a team with ``ask_for``); its id."""
    if who.staff:
        raise Forbidden("staff answer questions or announce; a student or team asks", "text")
    return _question(service, who, who, text, problem, at)


def ask_for(
    service: Service, who: User, team: User, text: object, problem: object = None, at: float | None = None
) -> int:
    """A question staff pass on for a team (the ICPC API's proxy): stored as the team's own."""
    if not who.staff:
        raise Forbidden("a team asks as itself", "from_team_id")
    if team.staff:
        raise Invalid("only a student or team asks", "from_team_id")
    return _question(service, who, team, text, problem, at)


def _question(service: Service, who: User, asker: User, text: object, problem: object, at: float | None) -> int:
    text = check_text(text)
    about = _problem(service, asker, problem)
    now = time.time()
    if not who.staff and stored.asked_since(service.store, asker.id, now - WINDOW) >= PER_WINDOW:
        raise TooMany(f"at most {PER_WINDOW} questions in {WINDOW // 60} minutes; wait for an answer", retry_after=60)
    message = stored.NewMessage(asker.id, None, who.id, about, text, None, at if at is not None else now)
    return stored.add(service.store, message)


def answer(
    service: Service, who: User, question: int, text: object, to_all: bool = False, publish: bool = False,
    at: float | None = None,
) -> int:  # fmt: skip
    """Staff's answer to ``question``: to its asker, or ``to_all`` (then ``publish`` shows the question's text to
    everyone with it, without its asker); its id."""
    _staff(who)
    asked = stored.one(service.store, question)
    if asked is None:
        raise NotFound("no such clarification", "reply_to")
    if asked["from_user"] is None:
        raise Invalid("only a question is answered: this is the jury's own message", "reply_to")
    text = check_text(text)
    to = None if to_all else asked["from_user"]
    message = stored.NewMessage(None, to, who.id, asked["problem"], text, question, at or time.time())
    return stored.add(service.store, message, public=to_all and publish)


def announce(
    service: Service, who: User, text: object, problem: object = None, to: User | None = None, at: float | None = None
) -> int:
    """Staff's message of their own: to everyone, or to one student or team (``to``); its id."""
    _staff(who)
    text = check_text(text)
    about = _problem(service, who, problem)
    if to is not None and to.staff:
        raise Invalid("a message goes to a student or team, or to everyone", "to")
    message = stored.NewMessage(None, to.id if to else None, who.id, about, text, None, at or time.time())
    return stored.add(service.store, message)


def recipient(service: Service, name: object) -> User | None:
    """The account a staff message names (``to``), None for everyone (absent, empty or ``all``); ``NotFound`` for no
    such student or team."""
    if name is None or name in ("", "all"):
        return None
    row = stored.account(service.store, name) if isinstance(name, str) else None
    if row is None or row["role"] not in ("student", "team"):
        raise NotFound("no such student or team", "to")
    return User(row["id"], row["name"], row["role"])


def listed(service: Service, who: User, problem: str | None = None) -> list[Clarification]:
    """What ``who`` sees (of one problem, if given): staff the unanswered questions first, oldest first, then the
    rest newest first; a student or team everything of theirs and everyone's, newest first."""
    rows = stored.every(service.store) if who.staff else stored.of_user(service.store, who.id)
    questions = {row["id"]: row for row in rows} if who.staff else {}
    if not who.staff:  # the questions their answers reply to, where the viewer may read them
        for row in rows:
            if row["reply_to"] is not None and row["reply_to"] not in questions:
                found = stored.one(service.store, row["reply_to"])
                if found is not None:
                    questions[found["id"]] = found
    shown = [_view(row, who, questions) for row in rows if problem is None or row["problem"] == problem]
    waiting = [c for c in shown if c.kind == "question" and not c.answered] if who.staff else []
    rest = [c for c in reversed(shown) if c not in waiting]
    return waiting + rest


def seen(service: Service, who: User, ident: int) -> Clarification:
    """One message as ``who`` sees it; ``NotFound`` for one that is not theirs to see (its existence untold)."""
    row = stored.one(service.store, ident)
    if row is None or not may_see(who, row):
        raise NotFound("no such clarification")
    question = stored.one(service.store, row["reply_to"]) if row["reply_to"] is not None else None
    return _view(row, who, {question["id"]: question} if question is not None else {})


def may_see(who: User, row: Row) -> bool:
    """Staff see every message; a student or team their own questions and the messages to them or to everyone."""
    if who.staff:
        return True
    if row["from_user"] is not None:
        return bool(row["from_user"] == who.id)
    return row["to_user"] is None or row["to_user"] == who.id


def unanswered(service: Service) -> int:
    return stored.unanswered(service.store)


def _view(row: Row, who: User, questions: dict[int, Row]) -> Clarification:
    asked = questions.get(row["reply_to"]) if row["reply_to"] is not None else None
    readable = asked is not None and (who.staff or asked["from_user"] == who.id or bool(asked["public"]))
    kind = "question" if row["from_user"] is not None else "answer" if row["reply_to"] is not None else "announcement"
    return Clarification(
        id=row["id"],
        kind=kind,
        from_user=row["from_user"],
        to_user=row["to_user"],
        asker=row["from_name"] if who.staff or row["from_user"] == who.id else None,
        to_name=row["to_name"],
        problem=row["problem"],
        text=row["text"],
        reply_to=row["reply_to"] if asked is not None and (who.staff or asked["from_user"] == who.id) else None,
        time=row["time"],
        answered=bool(row["answered"]),
        question=asked["text"] if readable and asked is not None else None,
    )


def _staff(who: User) -> None:
    if not who.staff:
        raise Forbidden("only staff answer and announce")
