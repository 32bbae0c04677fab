"""Rejudging, with no HTTP in it: one submission, or a problem's judged submissions (those of one verdict, if
asked), queued again behind new work. The API's two rejudge routes, the submission page's button and the teacher's
form for a problem all come here; who may is the staff."""

from __future__ import annotations

from ..queue import exists, judged_ids, requeue
from ..refusals import Forbidden, NotFound
from ..service import Service
from ..store import User


def _staff(who: User) -> None:
    if not who.staff:
        raise Forbidden("only staff rejudge")


def rejudge_submission(service: Service, who: User, sid: int) -> list[int]:
    """Queue one submission again; its id in a list, as the problem's rejudge answers."""
    _staff(who)
    if not exists(service.store, sid):
        raise NotFound("no such submission")
    requeue(service.store, [sid], "rejudge")
    service.workers.poke()
    return [sid]


def rejudge_problem(service: Service, who: User, problem: str, verdict: str | None = None) -> list[int]:
    """Queue again a problem's judged submissions (those whose current verdict is ``verdict``, if given); their
    ids, oldest first. ``NotFound`` for a problem not on the site."""
    _staff(who)
    if problem not in service.site.problems:
        raise NotFound("no such problem", "problem")
    ids = judged_ids(service.store, problem, verdict or None)
    requeue(service.store, ids, "rejudge")
    for _ in ids[:8]:  # one poke wakes one idle worker: no more than there can be
        service.workers.poke()
    return ids
