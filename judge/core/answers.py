"""Submit-answer (output-only) problems: the submission is a folder of answer files, checked and never run.

The answer to case ``NAME`` of group ``GROUP`` is the first of
``GROUP/NAME.out``, ``GROUP/NAME.ans``, ``GROUP/NAME.txt`` in the folder,
then ``NAME.out``, ``NAME.ans``, ``NAME.txt`` when no other case has that
name. A folder handed in by a student is untrusted: only regular files
inside it are read (no link out of it, no fifo that would block the judge),
and no more of each than the output limit allows.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import UsageError
from ..lang import Language, Program
from ..model import Problem
from ..verdict import Verdict
from .case_run import CaseRun
from .sample_output import sample_output
from .verdicts import CaseResult

ANSWERS = Language(name="answers", run=(), title="answer files")
EXTENSIONS = (".out", ".ans", ".txt")
COPY_PIECE = 1 << 20


def answer_set(path: Path) -> Program:
    """A folder of answer files (or one file, for a one-case problem) as the submission of a submit-answer problem."""
    if not path.is_dir() and not path.is_file():
        raise UsageError(f"{path}: no such file or folder of answers")
    return Program(ANSWERS, path.resolve(), True, "", lambda memory_mib: [], ())


def candidates(problem: Problem, group: str, name: str) -> list[str]:
    """Where the answer to one case may be, relative to the submission's folder, best first."""
    places = [f"{group}/{name}{ext}" for ext in EXTENSIONS]
    if sum(1 for case in problem.cases if case.name == name) == 1:
        places += [f"{name}{ext}" for ext in EXTENSIONS]
    return places


def check_answer(run: CaseRun) -> CaseResult:
    """Copy the case's answer file out of the submission (bounded) and check it like a program's output."""
    problem, program, slot, name, group = run.problem, run.program, run.slot, run.name, run.group
    if program.source is None:
        raise UsageError("a submit-answer problem is judged on a folder of answer files, not a command")
    out = slot.private / "stdout"
    limit = run.limits.output_bytes
    places = candidates(problem, group, name)
    if program.source.is_file():
        found = _copy(program.source, out, limit) if len(problem.cases) == 1 else None
    else:
        found = next(
            (size for place in places if (size := _inside(program.source, place, out, limit)) is not None), None
        )
    base = dict(name=name, group=group)
    if found is None:
        return CaseResult(
            verdict=Verdict.WA,
            message=f"no answer file for this case (looked for {', '.join(places[:2])}, ...)",
            **base,
        )
    if found > limit:
        return CaseResult(verdict=Verdict.OLE, message=run.limits.over_output("answer file"), **base)
    output = sample_output(run, out)  # the answer file handed in, on a sample case
    outcome = run.referee.checker.check(run.inp, out, run.ans, slot, run.checker_args)
    return CaseResult.checked(outcome, output=output, **base)


def _inside(folder: Path, place: str, out: Path, limit: int) -> int | None:
    """Copy ``folder/place`` when it is a regular file that really lies inside ``folder``."""
    path = folder / place
    try:
        if not path.resolve().is_relative_to(folder.resolve()):
            return None
    except (OSError, RuntimeError):
        return None
    return _copy(path, out, limit)


def _copy(path: Path, out: Path, limit: int) -> int | None:
    """At most ``limit`` bytes of a regular file into ``out``, a piece at a time (the limit may be 64 MiB, and the
    judge holds no answer whole); its size (over ``limit`` when it was longer), or None when it is not one."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as source:
        info = os.fstat(source.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None
        read = 0
        with out.open("wb") as target:
            while read <= limit and (piece := source.read(min(COPY_PIECE, limit + 1 - read))):
                target.write(piece[: limit - read])
                read += len(piece)
    return max(info.st_size, read)
