"""Accepting a submission, with no HTTP in it: the site's checks in their order, its files stored, then its row.

Every channel that takes submissions (the API's POST, the submit page, the ICPC Contest API) parses its own
request into a problem, a language and files and comes here, so each keeps the same rules in the same order: a
closed contest first (its problems are not to be probed), then the problem, the language, the user's rate and the
queue's cap. The files are written by hash before the row names them, and the rate and the cap are checked again
inside the transaction that stores the row, so two requests at once cannot both pass the last free place.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from ...lang import LANGUAGES, by_extension
from ..limits import rate_wait
from ..queue import accept, queued_count
from ..refusals import Conflict, Full, Invalid, NotFound, TooMany, Unavailable
from ..service import Service
from ..site import Site
from ..sources import Sources
from ..store import Store, StoreError, Transaction, User


def open_problems(service: Service, user: User) -> list[str]:
    """The problems ``user`` may see: all for staff; in a contest, none before its start."""
    site = service.site
    if not user.staff and site.kind == "contest" and site.start and datetime.now(timezone.utc) < site.start:
        return []
    return list(site.problems)


def accept_submission(
    service: Service, user: User, problem: str, language: str | None, files: list[tuple[str, bytes]]
) -> int:
    """Check a submission against the site and store it whole, files first; its id. ``language`` None: the first
    file's extension names it. Refuses with ``Conflict`` (closed), ``NotFound`` (problem), ``Invalid`` (language),
    ``TooMany`` (the user's rate), ``Full`` (the queue) or ``Unavailable`` (storage), and then nothing is stored."""
    now = time.time()
    late = _late(service, user, now)
    if problem not in open_problems(service, user):
        raise NotFound(f"no such problem '{problem}'", "problem")
    name = _language(service.site, language, files)
    _check_capacity(service, user)
    cases = len(service.problems[problem].cases)
    try:
        stored = [{"name": n, "sha256": service.sources.put(data), "size": len(data)} for n, data in files]
        with service.store.tx() as db:
            _check_capacity(service, user, db)
            sid = accept(db, service.store, user.id, problem, name, stored, late, cases)
    except (OSError, StoreError) as exc:  # a full disk, a store that cannot write: nothing was taken
        raise Unavailable(f"the server cannot store submissions now: {exc}") from None
    service.workers.poke()
    return sid


def accept_shadowed(
    store: Store,
    sources: Sources,
    site: Site,
    user: int,
    problem: str,
    language: str,
    files: list[tuple[str, bytes]],
    cases: int,
    then: Callable[[Transaction, int], None],
) -> int:
    """A submission another CCS took (``shadow.py``), queued here as its team's; its id. The site's problem and
    language are checked, and the queue's cap (``Full``: the caller waits and tries again), but not the contest's
    hours or the team's rate: the primary took it, and the point is to judge what it judged. ``then`` runs in the
    same transaction with the new id, so the copy and the shadow's record of it are stored together or not at all
    (a shadow killed between the two would otherwise submit it twice)."""
    if problem not in site.problems:
        raise NotFound(f"no such problem '{problem}'", "problem")
    name = _language(site, language, files)
    try:
        stored = [{"name": n, "sha256": sources.put(data), "size": len(data)} for n, data in files]
        with store.tx() as db:
            if queued_count(db) >= site.limits.queue:
                raise Full("the judging queue is full; try again shortly")
            sid = accept(db, store, user, problem, name, stored, None, cases)
            then(db, sid)
    except (OSError, StoreError) as exc:
        raise Unavailable(f"the site cannot store submissions now: {exc}") from None
    return sid


def _language(site: Site, language: str | None, files: list[tuple[str, bytes]]) -> str:
    if language is None:
        found = by_extension(Path(files[0][0])) if files else None
        if found is None:
            raise Invalid("no language given and none known for this file's extension", "language")
        name = found.name
    elif language in LANGUAGES:
        name = LANGUAGES[language].name
    else:
        raise Invalid(f"unknown language '{language}' (GET /api/v1/languages lists them)", "language")
    if name not in site.languages:
        raise Invalid(f"the language '{name}' is not allowed on this site", "language")
    if LANGUAGES[name].missing():
        raise Invalid(f"the language '{name}' is not installed on this server", "language")
    return name


def _late(service: Service, user: User, now: float) -> float | None:
    """Minutes after the user's deadline (their own, else the site's), or None; ``Conflict`` outside the site's open
    times (staff may submit then)."""
    site = service.site
    moment = datetime.fromtimestamp(now, timezone.utc)
    if not user.staff and not site.open_at(moment):
        when = "not open yet" if site.start and moment < site.start else "over"
        raise Conflict(f"the {site.kind} is {when}: no submissions are taken", reason="closed")
    deadline = user.deadline if user.deadline is not None else site.deadline.timestamp() if site.deadline else None
    if deadline is None or now <= deadline or user.staff:
        return None
    return round((now - deadline) / 60, 1)


def _check_capacity(service: Service, user: User, db: Transaction | None = None) -> None:
    """The per-user rate (not for staff) and the queue's cap; checked before the files are written and again inside
    the transaction that stores the row."""
    if db is None:
        with service.store.tx() as db:
            return _check_capacity(service, user, db)
    per_minute = service.site.limits.per_minute
    wait = None if user.staff else rate_wait(db, user.id, per_minute)
    if wait is not None:
        raise TooMany(f"at most {per_minute} submissions a minute; try again in {wait} s", retry_after=wait)
    if queued_count(db) >= service.site.limits.queue:
        raise Full("the judging queue is full; try again shortly")
    return None
