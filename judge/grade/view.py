"""What every report shows: the store's rows of the current grading, flattened, with the grading's groups, ignored
entries and similarity hints. Shared by ``reports.py``, ``report_html.py`` and ``feedback.py``."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..check.attachments import MAX_BYTES, MAX_FILES, Attachment, clean_name, media_type
from .store import Entry, Store

PENDING = "PENDING"


def case_attachments(case: dict[str, Any]) -> list[Attachment]:
    """The files a checker attached to a case, decoded from a stored report and checked again before a report uses them.

    The store is a file anyone with the folder can edit, so the name is
    cleaned, the media type comes from the name, the size is bounded and bad
    base64 drops the file, exactly as when the checker handed it over.
    """
    out = []
    for item in (case.get("attachments") or [])[:MAX_FILES]:
        try:
            data = base64.b64decode(str(item["base64"]), validate=True)
            name = clean_name(str(item["name"]))
        except (KeyError, TypeError, binascii.Error):
            continue
        if len(data) <= MAX_BYTES:
            out.append(Attachment(name, media_type(name), data))
    return out


@dataclass(frozen=True)
class Row:
    """One student's result, flattened for the summary formats."""

    entry: Entry
    report: dict[str, Any] | None
    worker: str
    info: dict[str, Any]

    @property
    def id(self) -> str:
        return self.entry.key.student

    @property
    def verdict(self) -> str:
        return self.report["verdict"] if self.report else PENDING

    @property
    def cases(self) -> list[dict[str, Any]]:
        return self.report["cases"] if self.report else []

    @property
    def groups(self) -> dict[str, dict[str, Any]]:
        return {g["name"]: g for g in (self.report or {}).get("groups", [])}

    @property
    def score(self) -> float:
        return float((self.report or {}).get("score", 0.0))

    @property
    def first_failure(self) -> dict[str, Any] | None:
        return next((c for c in self.cases if c["verdict"] not in ("AC", "SKIPPED")), None)

    @property
    def error(self) -> str:
        return self.entry.error or (self.report or {}).get("message", "")

    def csv_row(self, groups: list[dict[str, Any]], similar: dict[str, list[tuple[str, float]]]) -> dict[str, Any]:
        """The grades.csv line: fixed columns, points per group, then the detail."""
        cases = self.cases
        failing = self.first_failure
        report = self.report or {}
        mine = self.groups
        return {
            "id": self.id,
            "name": self.info.get("name", ""),
            "language": report.get("language", ""),
            "verdict": self.verdict,
            "score": report.get("score", 0.0),
            "max_score": report.get("max_score", 0.0),
            **{f"group:{g['name']}": mine.get(g["name"], {}).get("earned", 0.0) for g in groups},
            "cases_passed": sum(1 for c in cases if c["verdict"] == "AC"),
            "cases_total": max(len(cases), sum(len(g.get("cases") or ()) for g in groups)),  # a CE or INVALID run none
            "cases_skipped": sum(1 for c in cases if c["verdict"] == "SKIPPED"),
            "max_cpu_time": max((c["time"] for c in cases), default=0.0),
            "peak_memory_kb": max((c["memory_kb"] for c in cases), default=0),
            "first_failing_case": f"{failing['group']}/{failing['name']}" if failing else "",
            "first_failing_verdict": failing["verdict"] if failing else "",
            "submitted": self.info.get("submitted", ""),
            "late_minutes": "" if self.info.get("late_minutes") is None else self.info["late_minutes"],
            "similar_to": "; ".join(f"{other} {score:.2f}" for other, score in similar.get(self.id, [])),
            "worker": self.worker,
            "error": self.error,
        }


@dataclass(frozen=True)
class Grading:
    """Everything the reports show: the rows, the problem's groups, ignored entries and similarity hints."""

    rows: list[Row]
    meta: dict[str, str]
    groups: list[dict[str, Any]]
    ignored: list[tuple[str, str]]
    similarity: dict[str, Any]

    @property
    def problem(self) -> str:
        return self.meta.get("problem_name") or Path(self.meta.get("problem", "problem")).name

    def similar(self) -> dict[str, list[tuple[str, float]]]:
        """Each student's flagged partners with the pair's score."""
        out: dict[str, list[tuple[str, float]]] = {}
        for pair in self.similarity.get("pairs", []):
            out.setdefault(pair["a"], []).append((pair["b"], pair["score"]))
            out.setdefault(pair["b"], []).append((pair["a"], pair["score"]))
        return out


def _loads(text: str | None, default: Any) -> Any:
    try:
        return json.loads(text) if text else default
    except ValueError:
        return default


def load(store: Store) -> Grading:
    data = list(each_row(store))
    return _grading(store, data, iter(data))


def load_head(store: Store) -> Grading:
    """Everything but the rows (``rows`` is empty): for the reports written one student at a time (``each_row``)."""
    return _grading(store, [], each_row(store))


def each_row(store: Store) -> Iterator[Row]:
    return (Row(s.entry, s.report, s.worker, s.info) for s in store.each_current())


def _grading(store: Store, data: list[Row], reports: Iterator[Row]) -> Grading:
    meta = store.meta()
    groups = _loads(meta.get("groups"), [])
    if not groups:  # a results folder written before groups were recorded: take them from a report
        first = next((r.report for r in reports if r.report and r.report.get("groups")), {})
        groups = [{"name": g["name"], "points": g["points"], "cases": []} for g in first.get("groups", [])]
    ignored = [tuple(i) for i in _loads(meta.get("ignored"), [])]
    return Grading(data, meta, groups, ignored, _loads(meta.get("similarity"), {}))
