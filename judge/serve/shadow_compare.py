"""What the jury reads of a shadowing: each of the primary's submissions beside its local copy, and which differ.

One rule for the staff page, its downloads and ``shadow --report``: a submission
*differs* when both judges have decided and their verdicts (as the Contest API's
judgement types: our RE is its RTE) are not the same; *agrees* when they are; is
*waiting* while either has not decided; and is *unmapped* when the site had no
team, problem or language for it (or its files could not be taken), which the
jury needs to see as much as a difference. The cases that differ are read from
the primary's runs: each case the primary ran whose verdict here is another (or
that was not run here), by the run's ordinal, which both judges number the same
way for the same test data.
"""

from __future__ import annotations

import csv
import io
import json
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..atomic import atomic_write
from .icpc_objects import TYPE_OF
from .queue import FINAL, State
from .store import Store, StoreError
from .store_shadow import local_runs, shadowed

STATUSES = ("differ", "unmapped", "waiting", "agree")  # the order the jury reads them in


@dataclass(frozen=True)
class Compared:
    primary_id: str
    team_id: str
    problem_id: str
    language_id: str
    time: str
    status: str
    primary: str | None  # the primary's judgement type, None until it has one
    shadow: str | None  # ours, as a judgement type
    submission_id: int | None  # the local copy
    reason: str = ""  # unmapped: why
    cases: list[dict[str, Any]] = field(default_factory=list)  # {"ordinal", "primary", "shadow"} where they differ


def _local_type(row: Any) -> str | None:
    if row["local_state"] == State.ERROR.value:
        return "JE"
    if row["local_state"] != State.DONE.value or row["local_verdict"] is None:
        return None
    return TYPE_OF.get(row["local_verdict"], "JE")


def compare(store: Store) -> list[Compared]:
    """Every shadowed submission, differing ones first, then unmapped, waiting and agreeing, each in feed order."""
    found = []
    for row in shadowed(store):
        primary, shadow, cases = row["verdict"], _local_type(row), []
        if row["submission_id"] is None and not row["unmapped"]:
            status = "waiting"  # its judgement came first: the submission itself has not been read yet
        elif row["submission_id"] is None:
            status = "unmapped"
        elif primary is None or shadow is None or row["local_state"] not in FINAL:
            status = "waiting"
        else:
            status = "agree" if primary == shadow else "differ"
        if status == "differ":
            ours = {
                k: TYPE_OF.get(v, "JE")
                for k, v in local_runs(store, row["submission_id"], row["local_attempt"]).items()
            }
            theirs = {int(k): v for k, v in json.loads(row["runs"]).items()}
            cases = [
                {"ordinal": n, "primary": theirs[n], "shadow": ours.get(n)}
                for n in sorted(theirs)
                if ours.get(n) != theirs[n]
            ]
        found.append(
            Compared(
                row["primary_id"],
                row["team_id"],
                row["problem_id"],
                row["language_id"],
                row["time"],
                status,
                primary,
                shadow,
                row["submission_id"],
                row["unmapped"],
                cases,
            )
        )
    return sorted(found, key=lambda c: STATUSES.index(c.status))


def summary(rows: list[Compared]) -> dict[str, int]:
    return {status: sum(1 for r in rows if r.status == status) for status in STATUSES}


def as_json(rows: list[Compared]) -> str:
    return json.dumps({"summary": summary(rows), "submissions": [asdict(r) for r in rows]}, indent=1) + "\n"


CSV_COLUMNS = ("primary_id", "team_id", "problem_id", "language_id", "time", "status", "primary", "shadow")


def as_csv(rows: list[Compared]) -> str:
    """One line a submission; the differing cases as ``ordinal:primary/shadow`` separated by spaces."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, "submission_id", "reason", "cases"])
    for r in rows:
        cases = " ".join(f"{c['ordinal']}:{c['primary']}/{c['shadow'] or '-'}" for c in r.cases)
        writer.writerow([*(getattr(r, name) or "" for name in CSV_COLUMNS), r.submission_id or "", r.reason, cases])
    return out.getvalue()


def write_report(store: Store, path: Path) -> list[Compared]:
    """The report as ``path``'s suffix asks (``.csv``, else JSON), written whole or not at all."""
    rows = compare(store)
    atomic_write(path, as_csv(rows) if path.suffix.lower() == ".csv" else as_json(rows))
    return rows


class Watcher:
    """Tells of each new difference in one line as the comparison finds it, and keeps ``report`` (where given) up to
    date: the local judge decides in another process, so the comparison is read again every ``every`` seconds."""

    def __init__(self, store: Store, report: Path | None, say: Callable[[str], None], every: float = 2.0) -> None:
        self.store, self.report, self.say, self.every = store, report, say, every
        self.told: set[str] = set()
        self.written = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="shadow-watcher", daemon=True)

    def check(self) -> list[Compared]:
        rows = compare(self.store)
        for r in rows:
            if r.status == "differ" and r.primary_id not in self.told:
                self.told.add(r.primary_id)
                where = f" (cases {', '.join(str(c['ordinal']) for c in r.cases)})" if r.cases else ""
                self.say(
                    f"differs: submission {r.primary_id} (team {r.team_id}, problem {r.problem_id}): "
                    f"the primary judged {r.primary}, this judge {r.shadow}{where}"
                )
        if self.report is not None:
            text = as_csv(rows) if self.report.suffix.lower() == ".csv" else as_json(rows)
            if text != self.written:
                atomic_write(self.report, text)
                self.written = text
        return rows

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.check()
            except (OSError, StoreError) as exc:  # a report folder gone, a busy store: said, tried again
                self.say(f"warning: the comparison could not be brought up to date: {exc}")

    def __enter__(self) -> Watcher:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.check()  # the last word: the report as things stand when the shadow stops
