"""When a launcher answers: a run's answer is held while the request queued behind it starts (launcher.c's
``answer_later``), so answers must still come one per run, in order, and never wait on something that is no request.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path

import pytest

from judge.run import ExecError, RunLimits, RunSpec
from judge.run.launcher import Launcher, build_launcher
from judge.run.types import FRESH_IPC, FRESH_PID

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


@pytest.mark.skipif(os.geteuid() != 0, reason="a PID namespace per run is made as root")
def test_a_program_that_cannot_start_is_named_in_the_first_run_of_a_pid_namespace(tmp_path: Path) -> None:
    """The first run of a launcher has no holder made ahead: it is made for it just before the run's child, on the
    launcher's memory (fresh.c), and must leave the child's report where the launcher reads it. Pointed at the
    holder's page instead, a program that cannot be started came back as an exit of 127 rather than the reason."""
    missing = tmp_path / "no-such-program"
    spec = dataclasses.replace(_spec(tmp_path, "", "run"), argv=[str(missing)], fresh=FRESH_PID | FRESH_IPC)
    launcher = Launcher([str(build_launcher())], tmp_path / "log")
    try:
        with pytest.raises(ExecError, match=f"{missing}: No such file"):
            launcher.run(spec)
        with pytest.raises(ExecError, match=f"{missing}: No such file"):  # and with a holder made ahead
            launcher.run(spec)
    finally:
        launcher.close()
