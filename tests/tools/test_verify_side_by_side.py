"""verify judges two submissions of a package at a time when it has two slots, and still reports them in order.

A copy of the ``sum`` fixture (four cases, answers written by its reference) with two test submissions: an accepted
one that sleeps a little on every case, and a quick wrong one after it. Verified in this process with two slots, the
judgings are seen overlapping (the wrong one's judging starts before the accepted one's ends, and ends first), and
``on_submission`` still hears them in the package's order. Which judging started and ended when is recorded as a
sequence of events by wrapping the ``judge`` verify calls, never read from the clock.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from conftest import PROBLEMS

from judge.cli.common import ready
from judge.problem.formats import load
from judge.run import SlotPool, resolve_sandbox
from judge.tools import verify as verify_module
from judge.tools.verify import Outcome, verify

pytestmark = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="two slots want two CPUs")

SLOW = (
    "import sys, time\ntime.sleep(1.0)\nfor line in sys.stdin:\n    a, b = line.split()\n    print(int(a) + int(b))\n"
)
WRONG = "import sys\nfor line in sys.stdin:\n    print(0)\n"


def test_two_submissions_are_judged_side_by_side_and_reported_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "sum"
    shutil.copytree(PROBLEMS / "sum", root)
    (root / "submissions" / "accepted").mkdir(parents=True)
    (root / "submissions" / "accepted" / "slow.py").write_text(SLOW)
    (root / "submissions" / "wrong_answer").mkdir()
    (root / "submissions" / "wrong_answer" / "wrong.py").write_text(WRONG)
    events: list[tuple[str, str]] = []
    lock = threading.Lock()
    judge = verify_module.judge

    def recorded(problem, program, pool, options, *args):  # type: ignore[no-untyped-def]
        name = os.path.basename(program.display)
        with lock:
            events.append(("start", name))
        try:
            return judge(problem, program, pool, options, *args)
        finally:
            with lock:
                events.append(("end", name))

    monkeypatch.setattr(verify_module, "judge", recorded)
    heard: list[str] = []
    isolation, _ = resolve_sandbox(None)
    problem = load(root)
    with SlotPool(2, isolation, conceal=problem.folders) as pool:
        problem = ready(problem, pool)

        def on_submission(outcome: Outcome) -> None:
            heard.append(outcome.path.name)

        result = verify(problem, pool, on_submission)
    assert {o.path.name: o.ok for o in result.outcomes} == {"slow.py": True, "wrong.py": True, "solution.py": True}
    judged = [name for _, name in events]
    assert heard == [o.path.name for o in result.outcomes] == ["slow.py", "wrong.py", "solution.py"], heard
    started_wrong = events.index(("start", "wrong.py"))
    assert started_wrong < events.index(("end", "slow.py")), f"judged one after the other: {events}"
    assert events.index(("end", "wrong.py")) < events.index(("end", "slow.py")), events
    assert sorted(judged) == sorted(["slow.py", "wrong.py", "solution.py"] * 2)
