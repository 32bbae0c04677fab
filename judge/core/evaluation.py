"""The submission's run on one input: one step that every problem kind takes, as CMS shares its evaluation step.

A batch case, each pass of a multi-pass case and the submission's side of an
interactive pair each built this run on its own once, and they drifted: the
extra wall time a run confirming a load-starved TLE gets (``reruns.py``)
reached batch cases only, while the report claimed it for every kind. Here
it is built once, in two halves so that a kind running the submission beside
another program (``relayed_pair.py``, ``direct_pair.py``) can put the run between them:

- ``evaluation``: the command and its folder, the limits its verdict is
  judged by (``CaseRun.limits``: the wall limit with any extra wall time),
  and where the launcher stops it (``RunBudget.stopped``: ``overrun`` times
  the CPU limit under parallel load, and that wall limit);
- ``Evaluation.ending``: the verdict its ending earns before any output is
  read (``classify``), with the line of its stderr that says what went wrong.

``evaluate`` is both around a plain run, stdin and stdout files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..check import CheckOutcome
from ..lang import Program
from ..run import RunResult, RunSpec
from .case_run import CaseRun
from .limits import classify, work_folder
from .run_limits import RunBudget
from .stderr import STDERR_KEEP, ends, stderr_note


@dataclass(frozen=True)
class Evaluation:
    """The submission's run on one input, ready for a slot, and how its ending is judged."""

    run: CaseRun
    limits: RunBudget  # what its verdict is judged by: the language's limits, the wall limit with the extra wall
    spec: RunSpec  # what the launcher is asked: stopped at ``overrun`` times the CPU limit

    def ending(self, result: RunResult) -> CheckOutcome | None:
        """The verdict ``result`` earns before its output is read (TLE, OLE, MLE, RE), with what its stderr said;
        None when the output must be checked."""
        # stderr is read only for a run that failed: a clean exit's stderr decides nothing (a runtime's out-of-memory
        # message matters after a non-zero exit alone), and most runs end cleanly
        stderr_ends = ends(self.spec.stderr, STDERR_KEEP) if result.exit_code != 0 else None
        early = classify(result, self.limits, (stderr_ends or "").encode(), self.run.program.language)
        if early is None:
            return None
        verdict, message = early
        if stderr_ends is None:
            stderr_ends = ends(self.spec.stderr, STDERR_KEEP)
        return CheckOutcome(verdict, message + stderr_note(stderr_ends))


_last_command: tuple[Program, int, tuple[str, ...]] | None = None


def _command(program: Program, command_memory: int) -> tuple[str, ...]:
    """The program's command line, worked out once for the cases that follow: every case of a judging asks for the
    same one, and building it joins a dozen paths (a tenth of the judge's own time on a tiny case). The last one is
    kept with the program it belongs to, so a different program never gets it."""
    global _last_command
    last = _last_command
    if last is not None and last[0] is program and last[1] == command_memory:
        return last[2]
    argv = tuple(program.command(command_memory))
    _last_command = (program, command_memory, argv)
    return argv


def evaluation(run: CaseRun, stdin: Path | int | None, stdout: Path | int) -> Evaluation:
    """The submission's run on ``stdin`` into ``stdout``, its stderr in the slot's private folder, under the run's
    limits (``CaseRun.limits``), its command line given their memory figure."""
    problem, program, limits = run.problem, run.program, run.limits
    spec = RunSpec(
        argv=_command(program, limits.command_memory),
        limits=limits.stopped(),
        stdin=stdin,
        stdout=stdout,
        stderr=run.private_file("stderr"),
        cwd=work_folder(problem, program),
    )
    return Evaluation(run, limits, spec)


def evaluate(run: CaseRun, stdin: Path, stdout: Path) -> tuple[RunResult, CheckOutcome | None]:
    """Run the submission alone on ``stdin`` into ``stdout``: its measured result, and the verdict its ending earns
    (None when its output must be checked)."""
    return queue_evaluation(run, stdin, stdout)()


def queue_evaluation(run: CaseRun, stdin: Path, stdout: Path) -> Callable[[], tuple[RunResult, CheckOutcome | None]]:
    """``evaluate`` in two steps: the run is handed to the slot now (``Slot.queue_untrusted``: behind the run the slot
    has running, if any), and what is returned waits for its end and judges it."""
    step = evaluation(run, stdin, stdout)
    run.slot.queue_untrusted(step.spec, run.program.binds)

    def ended() -> tuple[RunResult, CheckOutcome | None]:
        result = run.slot.next_result()
        return result, step.ending(result)

    return ended
