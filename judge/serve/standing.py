"""The result that stands for a submission in every count, board and export, and what is being rejudged meanwhile.

A rejudge queues a judged submission again, and ``queue.finish`` replaces its
current result only when the new one is stored: until then the current
result is the last finished one. The boards, the grades, the class report
and the staff's counts read that result whatever state the submission is in
now (queued, compiling, running), so a student being rejudged keeps their row
and score, and a teacher's download in the middle of a rejudge is the last
finished standing, with the students whose rows may still change named
(``rejudging``). A judge error (JE) decides nothing, so it stands for nothing,
as before.
"""

from __future__ import annotations

from .store import Store
from .store_submissions import rejudging_by_name

UNDECIDED = "JE"  # a judge error: no result stands on it


def stands(verdict: str | None) -> bool:
    """Whether a current result with this verdict counts (None: the submission has no result yet)."""
    return verdict is not None and verdict != UNDECIDED


def rejudging(store: Store, problem: str | None = None) -> dict[str, int]:
    """Who has submissions being judged again (queued, compiling or running, with a result already stored), and how
    many: their rows show the last finished result until the new ones come. ``problem`` narrows it to one."""
    return rejudging_by_name(store, problem)
