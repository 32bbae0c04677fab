"""A line of progress once a minute on a long run, so that a newcomer's terminal never shows dots alone for minutes.

The suite runs its slow tests first (conftest.py sorts them so), and under ``-q -n auto`` pytest prints its
percentage only at the end of a full line of dots: on a busy 2-core machine the first line took twelve minutes
(issue 46), which reads like a hang. This plugin counts finished tests on the controlling process (with
pytest-xdist the workers' reports reach it) and, at most once a minute, writes how many of how many are done and
how long the run has taken. A run shorter than a minute prints nothing more than before;
``TILEJUDGE_PROGRESS_SECONDS`` sets another interval (its own test uses a short one).
"""

from __future__ import annotations

import os
import time

import pytest

EVERY_SECONDS = 60.0


class ProgressLine:
    """Counts finished tests and writes one line a minute through pytest's terminal writer."""

    def __init__(self, config: pytest.Config, every: float = EVERY_SECONDS) -> None:
        self._config = config
        self._every = every
        self._start = time.monotonic()
        self._last = self._start
        self._total: int | None = None
        self._done = 0

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not hasattr(self._config, "workerinput") and session.items:
            self._total = len(session.items)

    @pytest.hookimpl(optionalhook=True)  # xdist's hook: a run with ``-p no:xdist`` must not fail on it
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self._total = max(self._total or 0, len(ids))  # each worker collects the whole session

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":
            return
        self._done += 1
        now = time.monotonic()
        if now - self._last < self._every:
            return
        self._last = now
        writer = self._config.pluginmanager.get_plugin("terminalreporter")
        if writer is None:
            return
        minutes, seconds = divmod(int(now - self._start), 60)
        total = f" of {self._total}" if self._total else ""
        if getattr(getattr(writer, "_tw", None), "width_of_current_line", 0):  # after a run of dots
            writer.write("\n")
        writer.write_line(f"-- {self._done}{total} tests done after {minutes} min {seconds:02d} s")


def register(config: pytest.Config) -> None:
    """Install the line on the process that reports (not on an xdist worker, whose output nobody sees)."""
    if not hasattr(config, "workerinput"):
        every = float(os.environ.get("TILEJUDGE_PROGRESS_SECONDS", EVERY_SECONDS))
        config.pluginmanager.register(ProgressLine(config, every), "tilejudge-progress-line")
