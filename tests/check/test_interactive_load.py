"""An interactor's decision does not change with load: real C submissions judged idle and beside a CPU hog.

problemtools' ``wrong_answer/guess_0.cc`` keeps guessing after the
interactor has rejected it: its reads fail, its last reply stays, and it
prints a new guess for ever. What stops it then (its output limit, its time
limit, the wall clock, SIGPIPE) depends on how fast it, the relay (where there is one) and the
judge run, so on the machine's load; the verdict must not. The interactor
decided first, so its WA stands (problemtools: the validator's WA stands
when the validator exited first), idle and loaded alike. The submissions
here are written for this test on that model:

- ``keeps_guessing.c``: one flushed line per guess, like guess_0;
- ``floods_after_rejection.c``: the same, but once its reads fail it stops
  flushing, so it reaches the output limit well before its CPU limit: OLE
  before the interactor's decision was put first.

The load is the test's own: busy processes on every CPU (two each), started
before the judging and stopped after it, each ending itself after 60 s.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_interactive import judged, kattis_guess

from judge.core import JudgeOptions, judge
from judge.core.submission import prepare_submission
from judge.problem.formats import load
from judge.run import SlotPool, resolve_sandbox

pytestmark = pytest.mark.slow

GUESSER = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    int lo = 0, hi = 101, flush = 1;
    char reply[64] = "";
    for (;;) {
        int m = (lo + hi) / 2;
        printf("%d\n", m);
        if (flush) fflush(stdout);
        if (scanf("%63s", reply) == 1) {
            if (!strcmp(reply, "correct")) return 0;
        } else if (STOP_FLUSHING) {
            flush = 0;
        }
        if (!strcmp(reply, "lower")) hi = m - 1; else lo = m + 1;
    }
}
"""

SUBMISSIONS = {
    "wrong_answer/keeps_guessing.c": GUESSER.replace("STOP_FLUSHING", "0"),
    "wrong_answer/floods_after_rejection.c": GUESSER.replace("STOP_FLUSHING", "1"),
}

HOG = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass\n"


@contextlib.contextmanager
def _hogs(per_cpu: int) -> Iterator[None]:
    """``per_cpu`` busy processes for each CPU while the block runs: the machine's load, not the judge's."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(per_cpu * (os.cpu_count() or 1))]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def _judged_directly(package: Path, submission: Path) -> dict:
    """The report of judging with no transcript shown, as ``verify`` judges: the pair joined directly."""
    problem = load(package)
    with SlotPool(1, resolve_sandbox(None)[0]) as pool:
        report = judge(problem, prepare_submission(problem, submission, pool), pool, JudgeOptions())
    return report.to_json()


@pytest.mark.parametrize("path", ["relay", "direct"])
@pytest.mark.parametrize("load", [0, 2], ids=["idle", "loaded"])
@pytest.mark.parametrize("name", sorted(SUBMISSIONS))
def test_the_interactors_rejection_stands_whatever_the_load(tmp_path: Path, name: str, load: int, path: str) -> None:
    """Secret 1: the sixth guess is 0, out of range, and the interactor says WA and exits; the submission goes on
    guessing. WA with the interactor's message, its time capped at the limit, idle and beside two busy processes per
    CPU alike, through the relay (``judge`` shows every exchange) and joined directly (as ``verify`` judges); the
    other secrets are found (AC)."""
    package = kattis_guess(tmp_path / "guess", submissions=SUBMISSIONS)
    submission = package / "submissions" / name
    with _hogs(load) if load else contextlib.nullcontext():
        # --all-cases: the secrets after the rejected one are judged too (without it they are SKIPPED, their group lost)
        report = (
            judged(tmp_path, package, submission, "--all-cases")[1]
            if path == "relay"
            else _judged_directly(package, submission)
        )
    verdicts = {case["name"]: case["verdict"] for case in report.get("cases", [])}
    assert verdicts == {"01": "WA", "02": "AC", "03": "AC", "04": "AC"}, report
    first = report["cases"][0]
    assert "guess 6: 0 is out of range" in first["message"] and first["time"] <= 1.0, report
