"""The judging threads: each takes the next submission by the fair order and judges it as ``grade`` judges a student.

The judging is ``judge.grade.submissions.judge_submission`` on the server's
one ``SlotPool`` (its sandbox, its slots shared by every worker, the build
cache): compiled once per submission, each case reported as it is decided.
Whatever goes wrong with one submission (a judge error, a sandbox that
fails, an exception, a full disk) ends it in the visible ``error`` state that
a rejudge clears; it never stays claimed. A server stopped by SIGTERM takes
no more work, lets the judging in flight finish for its grace (``stop``), and
queues what is still running then again (``queue.release``); one killed
outright stores nothing of the unfinished attempt: the next start re-queues
it (``queue.recover``), and the runs in flight die with the server (each
launcher ends when the server's end of its socket closes, and the next pool
reclaims what they left: ``judge/run/private_root.py``).
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..core import CaseResult, ReadersWriterLock
from ..grade.discovery import Student
from ..grade.submissions import judge_submission
from ..lang import LANGUAGES
from ..model import Problem
from ..run import SlotPool, claim_private, release_private
from ..text import safe_text
from ..verdict import Verdict
from .names import disk_name
from .queue import Claim, State, case_done, claim, finish, mark_error, release, running
from .remote import Remote
from .sources import Sources
from .store import Store
from .telemetry import Telemetry

IDLE_POLL = 1.0  # seconds a worker sleeps when nothing is queued, unless it is woken


class Workers:
    def __init__(
        self,
        store: Store,
        problems: dict[str, Problem],
        pool: SlotPool,
        count: int,
        remote: Remote | None = None,
        telemetry: Telemetry | None = None,
    ) -> None:
        self.remote = remote  # --cluster: the judging is sent to Dask workers
        self.store = store
        self.problems = problems
        self.pool = pool
        self.sources = Sources(store.path.parent)
        self.run_lock = ReadersWriterLock()
        self._wake = threading.Condition()
        self.telemetry = telemetry or Telemetry()
        self._closing = threading.Event()  # no more claims (a SIGTERM); what is being judged may still finish
        self._stopping = threading.Event()  # the runs in flight are stopped: their attempts are not stored
        self._states = ["idle"] * count  # each thread's: idle, compiling, running (stopped once it has ended)
        self._threads = [
            threading.Thread(target=self._loop, args=(n,), name=f"judge-{n}", daemon=True) for n in range(count)
        ]
        # the submissions' files while they are judged, in a folder the next judge's pool removes if this server is
        # killed (judge/run/private_root.py): a killed server leaves nothing behind
        self._scratch, self._scratch_lock = claim_private()

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def poke(self) -> None:
        """Something was queued: one idle worker wakes now rather than at its next poll."""
        with self._wake:
            self._wake.notify()

    def states(self) -> list[str]:
        """Each worker thread's state now: idle, compiling, running, or stopped (its thread has ended)."""
        return [state if thread.is_alive() else "stopped" for state, thread in zip(list(self._states), self._threads)]

    def close(self) -> None:
        """Take no more work (a SIGTERM arrived); what is being judged goes on until ``stop``."""
        self._closing.set()
        with self._wake:
            self._wake.notify_all()

    def stop(self, grace: float = 0.0) -> None:
        """Take no more work, let what is being judged finish for up to ``grace`` seconds, then stop the runs still
        in flight and put their submissions back in the queue (an attempt cut short is not stored)."""
        self.close()
        deadline = time.monotonic() + max(0.0, grace)
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=max(0.0, deadline - time.monotonic()))
        self._stopping.set()
        self.pool.abort()
        if self.remote is not None:
            self.remote.close()  # a worker thread waiting for the cluster is let go
        for thread in self._threads:
            thread.join(timeout=10)
        release_private(self._scratch, self._scratch_lock)

    def _loop(self, number: int) -> None:
        while not self._closing.is_set():
            try:
                taken = claim(self.store)
            except Exception as exc:  # the store itself failing (a full disk): wait, it may pass; never die
                print(f"serve: cannot take work from the queue: {exc}", file=sys.stderr)
                taken = None
            if taken is None:
                with self._wake:
                    self._wake.wait(IDLE_POLL)
                continue
            self._states[number] = "compiling"
            try:
                self._judge(taken)
            except BaseException as exc:  # whatever kills this thread leaves the submission in error, never claimed
                with contextlib.suppress(Exception):
                    mark_error(self.store, taken, f"the judging thread failed: {type(exc).__name__}: {exc}")
                if not isinstance(exc, Exception):
                    raise
            finally:
                self._states[number] = "idle"
            if self._stopping.is_set():  # cut short by a stop: queued again now rather than at the next start
                try:
                    release(self.store, taken, "the server stopped while judging it")
                except Exception as exc:  # the next start's ``recover`` queues it again; say why it was not now
                    print(f"serve: submission {taken.id} is queued again at the next start: {exc}", file=sys.stderr)

    def _judge(self, c: Claim) -> None:
        began = time.monotonic()
        problem = self.problems.get(c.problem)
        if problem is None:  # taken off site.yaml since it was submitted: an error a rejudge clears once it is back
            finish(
                self.store,
                c,
                _error_report(None, f"the problem {c.problem} is not on the site"),
                State.ERROR,
                f"the problem {c.problem} is not on the site",
            )
            return
        names = [case.name for case in problem.cases]
        try:
            if self.remote is not None:
                report = self._remotely(c, problem, names)
            else:
                report = self._locally(c, problem, names)
        except Exception as exc:  # a bug or the machine (a full disk): this submission's error, not the server's
            report = _error_report(problem, f"{type(exc).__name__}: {exc}")
        if self._store(c, report):
            verdict, score = str(report["verdict"]), float(report.get("score", 0.0))
            self.telemetry.judged(c.id, c.attempt, c.problem, c.language, verdict, score, time.monotonic() - began)

    def _locally(self, c: Claim, problem: Problem, names: list[str]) -> dict[str, Any]:
        with self._materialized(c) as source:
            return judge_submission(
                problem,
                Student(str(c.id), source),
                self.pool,
                self.run_lock,
                lang=LANGUAGES[c.language],
                on_built=lambda: self._built(c),
                on_case=lambda result: self._run_event(c, names, result),
            )

    def _run_event(self, c: Claim, names: list[str], result: CaseResult) -> None:
        """A run's progress event; a case skipped because its group was decided was no run (``_remotely`` leaves it
        out too)."""
        if result.verdict is not Verdict.SKIPPED:
            case_done(self.store, c, _case_event(result, names))

    def _remotely(self, c: Claim, problem: Problem, names: list[str]) -> dict[str, Any]:
        """Sent to the cluster; its cases are recorded when the worker's report comes back."""
        assert self.remote is not None
        self._built(c)
        files = [(disk_name(entry["name"], n), self.sources.get(entry["sha256"])) for n, entry in enumerate(c.files)]
        report = self.remote.judge(problem, c.problem, f"{c.id}-{c.attempt}", files, c.language)
        for case in report.get("cases", []):
            if case.get("verdict") != "SKIPPED" and not self._stopping.is_set():
                event = {k: v for k, v in case.items() if k not in ("attachments", "transcript")}
                index = names.index(case["name"]) + 1 if case.get("name") in names else 0
                case_done(self.store, c, {"index": index, **event})
        return report

    def _built(self, c: Claim) -> None:
        """Compiled: its cases start, in the store and in this worker's state."""
        running(self.store, c)
        mine = threading.current_thread()
        for number, thread in enumerate(self._threads):
            if thread is mine:
                self._states[number] = "running"

    def _store(self, c: Claim, report: dict[str, Any]) -> bool:
        """Whether the report was stored as the submission's result."""
        if self._stopping.is_set():
            return False  # interrupted, not judged: re-queued by ``_loop`` (or, if that fails, at the next start)
        error = report.get("message", "") if report["verdict"] == "JE" else ""
        state = State.ERROR if report["verdict"] == "JE" else State.DONE
        try:
            return finish(
                self.store, c, report, state, safe_text(error or ("judge error" if state is State.ERROR else ""))
            )
        except Exception as exc:
            try:
                mark_error(self.store, c, f"the result could not be stored: {exc}")
            except Exception:
                print(
                    f"serve: submission {c.id}: cannot store anything ({exc}); re-queued at the next start",
                    file=sys.stderr,
                )
        return False

    @contextmanager
    def _materialized(self, c: Claim) -> Iterator[Path]:
        """The submission's files in a folder of their own: the file itself when it is one, else the folder."""
        with tempfile.TemporaryDirectory(prefix="submission-", dir=self._scratch) as folder:
            if len(c.files) == 1:
                target = Path(folder) / disk_name(c.files[0]["name"])
                target.write_bytes(self.sources.get(c.files[0]["sha256"]))
                yield target
                return
            root = Path(folder) / "submission"
            root.mkdir()
            for number, entry in enumerate(c.files):
                (root / disk_name(entry["name"], number)).write_bytes(self.sources.get(entry["sha256"]))
            yield root


def _case_event(result: CaseResult, names: list[str]) -> dict[str, Any]:
    """What a case's progress event carries: its place in the problem's order and the result without its attachments
    and transcript (the report has them)."""
    data = {"index": names.index(result.name) + 1 if result.name in names else 0, **result.to_json()}
    data.pop("attachments", None)
    data.pop("transcript", None)
    return data


def _error_report(problem: Problem | None, message: str) -> dict[str, Any]:
    return {
        "verdict": "JE",
        "score": 0.0,
        "max_score": problem.max_score if problem else 0.0,
        "problem": problem.name if problem else "",
        "compile": {"ok": False, "log": ""},
        "groups": [],
        "cases": [],
        "message": message,
    }
