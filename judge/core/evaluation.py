"""The submission's run on one input: one step that every problem kind takes, as CMS shares its evaluation step.

A batch case, each pass of a multi-pass case and the submission's side of an
interactive pair each built this run on its own once, and they drifted: the
extra wall time a run confirming a load-starved TLE gets (``reruns.py``)
reached batch cases only, while the report claimed it for every kind. Here
it is built once, in two halves so that a kind running the submission beside
another program (``relayed_pair.py``) can put the run between them:

- ``evaluation``: the command and its folder, the limits its verdict is
  judged by (the wall limit plus ``CaseRun.extra_wall``), and where the
  launcher stops it (``CaseRun.overrun`` times the CPU limit under parallel
  load, and that wall limit);
- ``Evaluation.ending``: the verdict its ending earns before any output is
  read (``classify``), with the line of its stderr that says what went wrong.

``evaluate`` is both around a plain run, stdin and stdout files.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..check import CheckOutcome
from ..run import RunLimits, RunResult, RunSpec
from .case_run import CaseRun
from .limits import classify, run_limits, work_folder
from .stderr import STDERR_KEEP, ends, stderr_note


@dataclass(frozen=True)
class Evaluation:
    """The submission's run on one input, ready for a slot, and how its ending is judged."""

    run: CaseRun
    limits: RunLimits  # what its verdict is judged by: the language's limits, the wall limit with the extra wall
    spec: RunSpec  # what the launcher is asked: stopped at ``overrun`` times the CPU limit

    def ending(self, result: RunResult) -> CheckOutcome | None:
        """The verdict ``result`` earns before its output is read (TLE, OLE, MLE, RE), with what its stderr said;
        None when the output must be checked."""
        stderr_ends = ends(self.spec.stderr, STDERR_KEEP)
        problem, language = self.run.problem, self.run.program.language
        early = classify(result, self.limits, problem.limits.memory_mib, stderr_ends.encode(), language)
        if early is None:
            return None
        verdict, message = early
        return CheckOutcome(verdict, message + stderr_note(stderr_ends))


def evaluation(run: CaseRun, stdin: Path | int | None, stdout: Path | int) -> Evaluation:
    """The submission's run on ``stdin`` into ``stdout``, its stderr in the slot's private folder, under the limits
    of its language on the problem, the wall limit extended by ``run.extra_wall``."""
    problem, program = run.problem, run.program
    base = run_limits(problem, program.language)
    limits = replace(base, wall=base.wall + run.extra_wall)
    spec = RunSpec(
        argv=program.command(problem.limits.memory_mib),
        limits=replace(limits, cpu=limits.cpu * run.overrun),
        stdin=stdin,
        stdout=stdout,
        stderr=run.slot.private / "stderr",
        cwd=work_folder(problem, program),
    )
    return Evaluation(run, limits, spec)


def evaluate(run: CaseRun, stdin: Path, stdout: Path) -> tuple[RunResult, CheckOutcome | None]:
    """Run the submission alone on ``stdin`` into ``stdout``: its measured result, and the verdict its ending earns
    (None when its output must be checked)."""
    step = evaluation(run, stdin, stdout)
    result = run.slot.run_untrusted(step.spec, run.program.binds)
    return result, step.ending(result)
