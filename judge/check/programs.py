"""Checker programs: a problem's own checker run through a slot, speaking testlib's exit codes or the Kattis protocol.

Whatever goes wrong inside a checker (a crash, a timeout, an exit code
outside its protocol) is a judge error, never an accepted answer. A checker's
message is its own output about the submission's output: it is made safe
text before it reaches any report.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Protocol

from ..lang import Program
from ..run import RunLimits, RunResult, RunSpec, Slot, read_head
from ..text import safe_text
from ..verdict import Verdict
from .attachments import collect, fresh_feedback
from .budget import BudgetExceeded, budget_seconds, cpu_budget
from .compare import CheckOutcome

MESSAGE_BYTES = 2048
# what an in-process comparison made with no limits given may spend: the least a checker program gets
# (``core/run_limits.py`` builds every checker's limits; a comparison's CPU is theirs)
DEFAULT_CPU = 5.0


class Checker(Protocol):
    # True when checking runs nothing in the slot (a comparison in the judge's own process): the judge may then check
    # one case while the slot's launcher runs the next (``judging.py``)
    in_process: ClassVar[bool]

    def check(
        self, input_path: Path, output_path: Path, answer_path: Path, slot: Slot, args: Sequence[str] = ()
    ) -> CheckOutcome: ...


WHOLE_BYTES = 160 << 20  # what a comparison handed whole files may be given: a 64 MiB output, its answer, and room


@dataclass(frozen=True)
class BuiltinChecker:
    """A comparison run in the judge's own process, against a CPU budget (``budget.py``): ``cpu`` seconds, the limit
    a checker program would get, plus an allowance per MiB read. Spending it is a judge error naming the checker.

    With ``streams``, ``compare`` is given the two files' paths and reads
    them in bounded pieces itself (every comparison of ``compare.py``).
    Without, it is handed both files whole as bytes (a comparison a user
    registered), so their size is bounded by ``WHOLE_BYTES``: beyond it the
    case is a judge error saying why, never a judge that ran out of memory."""

    in_process: ClassVar[bool] = True
    compare: Callable[..., CheckOutcome]
    name: str = "built-in"
    cpu: float = DEFAULT_CPU
    streams: bool = False

    def check(
        self, input_path: Path, output_path: Path, answer_path: Path, slot: Slot, args: Sequence[str] = ()
    ) -> CheckOutcome:
        size = output_path.stat().st_size + answer_path.stat().st_size
        if not self.streams and size > WHOLE_BYTES:
            return CheckOutcome(
                Verdict.JE,
                f"built-in checker '{self.name}' reads whole files, at most {WHOLE_BYTES >> 20} MiB of output and"
                f" answer; they have {size / (1 << 20):.3g} MiB",
            )
        try:
            with cpu_budget(budget_seconds(self.cpu, size)):
                if self.streams:
                    return self.compare(output_path, answer_path, args)
                return self.compare(output_path.read_bytes(), answer_path.read_bytes(), args)
        except BudgetExceeded as spent:
            return CheckOutcome(
                Verdict.JE,
                f"built-in checker '{self.name}' exceeded its CPU budget ({spent.seconds:.3g} s of CPU time"
                f" for {size / (1 << 20):.3g} MiB of output and answer)",
            )


@dataclass(frozen=True)
class TestlibChecker:
    """``checker INPUT OUTPUT ANSWER``: exit 0 AC, 1 WA, 2 PE, 3 fail, 7 points (first number of its output)."""

    in_process: ClassVar[bool] = False

    program: Program
    limits: RunLimits

    def check(
        self, input_path: Path, output_path: Path, answer_path: Path, slot: Slot, args: Sequence[str] = ()
    ) -> CheckOutcome:
        out, err = slot.private / "checker.out", slot.private / "checker.err"
        argv = [
            *self.program.command(self.limits.command_memory_mib),
            str(input_path),
            str(output_path),
            str(answer_path),
            *args,
        ]
        result = _run_checker(slot, argv, None, out, err, self.limits)
        message = (_head(err) or _head(out)).strip()
        if result.killed != "none" or result.exit_code is None:
            return CheckOutcome(Verdict.JE, f"checker {_failure(result, self.limits)}: {message}".strip(": "))
        code = result.exit_code
        if code in (0, 1, 2):
            return CheckOutcome((Verdict.AC, Verdict.WA, Verdict.PE)[code], message)
        if code == 7:
            points = _first_number(_head(out))
            if points is None:
                points = _first_number(message)
            if points is None or not 0 <= points <= 1:
                return CheckOutcome(Verdict.JE, f"checker gave points without a fraction in [0, 1]: {message}")
            return CheckOutcome(Verdict.AC if points >= 1 else Verdict.WA, message, points)
        if code == 3:
            return CheckOutcome(Verdict.JE, f"checker failed: {message}")
        return CheckOutcome(Verdict.JE, f"checker exit code {code} is not in the testlib protocol: {message}")


@dataclass(frozen=True)
class KattisChecker:
    """``validator INPUT ANSWER FEEDBACK_DIR < OUTPUT``: exit 42 accepted, 43 wrong; judgemessage.txt explains."""

    in_process: ClassVar[bool] = False

    program: Program
    limits: RunLimits

    def check(
        self, input_path: Path, output_path: Path, answer_path: Path, slot: Slot, args: Sequence[str] = ()
    ) -> CheckOutcome:
        feedback = fresh_feedback(slot.private / "feedback")
        out, err = slot.private / "checker.out", slot.private / "checker.err"
        argv = [
            *self.program.command(self.limits.command_memory_mib),
            str(input_path),
            str(answer_path),
            f"{feedback}/",
            *args,
        ]
        result = _run_checker(slot, argv, output_path, out, err, self.limits)
        message = (_head(feedback / "judgemessage.txt") or _head(err)).strip()
        if result.killed != "none" or result.exit_code is None:
            return CheckOutcome(Verdict.JE, f"output validator {_failure(result, self.limits)}: {message}".strip(": "))
        if result.exit_code not in (42, 43):
            return CheckOutcome(
                Verdict.JE, f"output validator exit code {result.exit_code} (expected 42 or 43): {message}"
            )
        return scored(result.exit_code == 42, feedback, message)


SCORE_FILES = ("score.txt", "score_multiplier.txt")


def scored(accepted: bool, feedback: Path, message: str) -> CheckOutcome:
    """A Kattis verdict with the score file and the attachments it came with (the rules on score files that need no
    knowledge of the case checked here).

    The file and its value travel in ``score_file`` so that aggregation, which
    knows the case's group, can apply the rest of the rules.
    """
    attachments, note = collect(feedback)
    outcome = _score(accepted, feedback, message)
    return replace(outcome, message=f"{outcome.message} {note}".strip(), attachments=attachments)


def _score(accepted: bool, feedback: Path, message: str) -> CheckOutcome:
    written = {
        name: safe_text(read_head(feedback / name, 100).strip(), one_line=True)
        for name in SCORE_FILES
        if (feedback / name).exists()
    }
    if len(written) == 2:
        return CheckOutcome(Verdict.JE, "output validator wrote both score.txt and score_multiplier.txt")
    if not written:
        return CheckOutcome(Verdict.AC if accepted else Verdict.WA, message)
    name, text = next(iter(written.items()))
    if not accepted:
        return CheckOutcome(Verdict.JE, f"output validator rejected the output but wrote {name}")
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not math.isfinite(value) or value < 0 or (name == "score_multiplier.txt" and value > 1):
        wanted = "a number in [0, 1]" if name == "score_multiplier.txt" else "a non-negative number"
        return CheckOutcome(Verdict.JE, f"output validator wrote {name} '{text[:20]}', not {wanted}")
    return CheckOutcome(Verdict.AC, message, value if name == "score_multiplier.txt" else None, (name, value))


def _head(path: Path) -> str:
    """The start of a checker's output file as safe text."""
    return safe_text(read_head(path, MESSAGE_BYTES))


def _failure(result: RunResult, limits: RunLimits) -> str:
    """Why a checker produced no verdict: the limit it hit, or the signal that killed it."""
    if result.killed == "cpu":
        return f"exceeded its CPU time limit ({limits.cpu:g} s)"
    if result.killed == "wall":
        return f"exceeded its wall time limit ({limits.wall:g} s)"
    if result.killed == "output":
        return f"wrote more than its output limit ({limits.output_bytes / (1 << 20):g} MiB) to {result.output_over}"
    return f"was killed by {result.signal_name}"


def _first_number(text: str) -> float | None:
    match = re.search(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text)
    return float(match.group()) if match else None


def _run_checker(slot: Slot, argv: list[str], stdin: Path | None, out: Path, err: Path, limits: RunLimits) -> RunResult:
    return slot.run(
        RunSpec(argv=argv, limits=limits, stdin=stdin, stdout=out, stderr=err, cwd=slot.private, env=slot.env)
    )
