"""What a role may see of a judging: staff see all of it; a student sees their own through the problem's policy.

Secret test data must not leak through feedback (DOMjudge #2526): for a
student, a secret case is its verdict, time and memory, nothing the checker
said (its messages are written for the jury and may quote the expected
answer), unless the problem's policy is ``full``. Sample cases are the
student's already, so under ``cases`` their messages are shown too, and
what the program printed on them (the report's ``output``, which the judge
keeps for sample cases alone; no role but staff sees one on any other case,
whatever a report holds). A case is a sample by its group and name together
(``CaseSpec.is_sample``): a Kattis package's ``secret/1`` is no sample for
sharing a name with ``sample/1``. Under
``verdict`` (a contest's default) only the overall verdict, score (with each
group's part of it, but not how many of its cases passed) and compile
output are shown, in every channel (``shows_cases``). A judge error's
details (paths, the machine's state) are the staff's; a student is told
that it happened and that a rejudge clears it.
"""

from __future__ import annotations

from typing import Any

from ..model import Problem
from .store import User

_SECRET_FIELDS = ("verdict", "time", "memory_kb")
_GROUP_SCORE_FIELDS = ("name", "points", "earned")  # a group's part of the score; its cases passed are a count of cases
_SAMPLE_FIELDS = (
    "name",
    "verdict",
    "time",
    "wall_time",
    "memory_kb",
    "exit_code",
    "signal",
    "message",
    "score",
    "output",
    "transcript",  # an interactive sample's exchange: the sample's data and the student's own lines
)


def sample_cases(problem: Problem) -> frozenset[str]:
    """The cases whose data the student has (``CaseSpec.is_sample``), as ``group/name`` keys."""
    return frozenset(case.key for case in problem.cases if case.is_sample)


def case_key(case: dict[str, Any]) -> str:
    """A reported case's ``group/name``, as ``sample_cases`` names them."""
    return f"{case.get('group', '')}/{case.get('name', '')}"


def case_view(case: dict[str, Any], index: int, policy: str, samples: frozenset[str], staff: bool) -> dict[str, Any]:
    """One case as this viewer may see it (``index`` counts from 1 in the problem's order)."""
    sample = case_key(case) in samples
    if staff:
        return {"index": index, **case}
    if policy == "full":
        return {"index": index, **case, "output": case.get("output") if sample else None}
    if sample:
        return {"index": index, "group": case.get("group", ""), **{k: case.get(k) for k in _SAMPLE_FIELDS}}
    return {"index": index, "group": case.get("group", ""), **{k: case.get(k) for k in _SECRET_FIELDS}}


def shows_cases(policy: str, viewer: User) -> bool:
    """Whether ``viewer`` sees a submission's cases one by one (each one's verdict and time): staff always, a student
    unless the policy is ``verdict``. Every channel that could show a case asks it through ``report_view`` or
    ``event_view``: the API's result and its event streams, the pages, and the ICPC API's runs, the longest run
    time of its judgements and its event feed, which are built from these views, never from the stored report."""
    return viewer.staff or policy != "verdict"


def report_view(report: dict[str, Any], policy: str, samples: frozenset[str], viewer: User) -> dict[str, Any]:
    """The stored report as ``viewer`` may see it."""
    staff = viewer.staff
    shown: dict[str, Any] = {
        "verdict": report.get("verdict"),
        "score": report.get("score", 0.0),
        "max_score": report.get("max_score", 0.0),
        "compile": report.get("compile", {"ok": False, "log": ""}),
        "groups": report.get("groups", []),
    }
    if not shows_cases(policy, viewer):
        shown["groups"] = [{k: group.get(k) for k in _GROUP_SCORE_FIELDS} for group in shown["groups"]]
    cases = report.get("cases", [])
    if shows_cases(policy, viewer):
        shown["cases"] = [case_view(case, n, policy, samples, staff) for n, case in enumerate(cases, start=1)]
    if staff and report.get("worker"):
        shown["worker"] = report["worker"]  # --cluster: which Dask worker judged it
    if report.get("verdict") == "JE":
        shown["message"] = report.get("message", "") if staff else "a judge error: a teacher can rejudge it"
    return shown


def event_view(kind: str, data: dict[str, Any], policy: str, samples: frozenset[str], viewer: User) -> dict[str, Any]:
    """An event of the log as ``viewer`` may see it; a case's event is that case's view."""
    if viewer.staff:
        return data
    if kind == "runs":
        base = {"id": data.get("id"), "attempt": data.get("attempt")}
        if not shows_cases(policy, viewer):
            return base
        return base | case_view(data, int(data.get("index", 0)), policy, samples, False)
    if data.get("error"):
        return {**data, "error": "a judge error: a teacher can rejudge it"}
    return data
