"""When a launcher answers: a run's answer is held while the request queued behind it starts (launcher.c's
``answer_later``), so answers must still come one per run, in order, and never wait on something that is no request.
"""

from __future__ import annotations

import threading
from pathlib import Path

from judge.run import RunLimits, RunSpec
from judge.run.launcher import Launcher, build_launcher

LIMITS = RunLimits(cpu=2, wall=10, memory_mib=256, output_bytes=1 << 20)


def _spec(tmp_path: Path, command: str, name: str) -> RunSpec:
    return RunSpec(["/bin/sh", "-c", command], LIMITS, tmp_path / f"{name}.out", tmp_path / f"{name}.err")


def test_queued_runs_are_answered_in_order_each_after_the_last_one_ended(tmp_path: Path) -> None:
    launcher = Launcher([str(build_launcher())], tmp_path / "log")
    try:
        for code in (3, 4, 5):  # all three wait in the socket before the first has ended
            launcher.send(_spec(tmp_path, f"sleep 0.05; echo {code}; exit {code}", f"run{code}"))
        results = [launcher.receive() for _ in range(3)]
    finally:
        launcher.close()
    assert [r.exit_code for r in results] == [3, 4, 5]
    assert [(tmp_path / f"run{code}.out").read_text() for code in (3, 4, 5)] == ["3\n", "4\n", "5\n"]
    for before, after in zip(results, results[1:]):
        assert after.ended - after.wall >= before.ended, "a queued run started before the one ahead of it ended"


def test_a_wall_word_left_in_the_socket_does_not_hold_back_the_answer(tmp_path: Path) -> None:
    """The word that starts a held wall limit can come after its run has ended (or with no held run at all): it is
    no request, so the answer must go at once rather than wait for a next request that never comes."""
    launcher = Launcher([str(build_launcher())], tmp_path / "log")
    got: list[int | None] = []
    try:
        launcher.send(_spec(tmp_path, "sleep 0.2; exit 6", "run"))
        launcher.start_wall()  # in the socket while the run goes on: a run not held leaves it there
        waiter = threading.Thread(target=lambda: got.append(launcher.receive().exit_code), daemon=True)
        waiter.start()
        waiter.join(30)
    finally:
        launcher.close()
    assert got == [6], "the answer was held behind a wall word"
