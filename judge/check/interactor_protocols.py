"""The judge's side of interactive and multi-pass problems: how an interactor (or a multi-pass validator) is called, and
what its ending means.

Two protocols:
- Kattis: ``prog INPUT ANSWER FEEDBACK_DIR/ [args]``, the submission's output
  on stdin (and, interactive, its input on stdout); exit 42 accepted, 43
  wrong; ``judgemessage.txt`` says why; ``nextpass.in`` asks for another
  pass of a multi-pass problem.
- testlib: ``prog INPUT RECORD [ANSWER]``; exit 0 OK, 1 WA, 2 PE, 3 fail,
  7 points. RECORD is the interactor's own account of the exchange, which
  the problem's checker (if it has one) reads afterwards as the output.
The interactor is the judge's own program: anything else that happens to it
(a crash, a limit, an exit code outside its protocol) is a judge error, never
the submission's fault.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..lang import Program
from ..run import RunLimits, RunResult, read_head
from ..text import safe_text, status_text
from ..verdict import Verdict
from .compare import CheckOutcome
from .programs import scored

PROTOCOLS = ("kattis", "testlib")
MESSAGE_BYTES = 2048
NEXT_PASS = "nextpass.in"


@dataclass(frozen=True)
class Judgement:
    """What the judge's side decided, and the input of the next pass when a multi-pass validator asked for one."""

    outcome: CheckOutcome
    next_pass: Path | None = None

    @property
    def verdict(self) -> Verdict:
        return self.outcome.verdict


@dataclass(frozen=True)
class Interactor:
    """A built interactor or multi-pass validator with its protocol and its limits."""

    program: Program
    protocol: str
    limits: RunLimits

    def argv(self, inp: Path, ans: Path, feedback: Path, record: Path, args: Sequence[str] = ()) -> list[str]:
        """Its command line, given the memory figure of its own run's limits (not the submission's)."""
        command = self.program.command(self.limits.command_memory_mib)
        if self.protocol == "kattis":
            return [*command, str(inp), str(ans), f"{feedback}/", *args]
        return [*command, str(inp), str(record), str(ans), *args]

    def judge(self, result: RunResult, feedback: Path, stderr: Path) -> Judgement:
        """The verdict the run's ending gives under this protocol."""
        if self.protocol == "kattis":
            return _kattis(result, feedback, stderr)
        return _testlib(result, stderr)


def _text(path: Path) -> str:
    return safe_text(read_head(path, MESSAGE_BYTES)).strip()


def _broken(result: RunResult, who: str, message: str) -> Judgement | None:
    """A judge error when the program did not end by its own exit (a limit, a signal)."""
    if result.killed == "none" and result.exit_code is not None:
        return None
    how = (
        f"exceeded its {result.killed} limit"
        if result.killed != "none"
        else status_text(result.exit_code, result.signal_name)
    )
    return Judgement(CheckOutcome(Verdict.JE, f"{who} {how}" + (f": {message}" if message else "")))


def _kattis(result: RunResult, feedback: Path, stderr: Path) -> Judgement:
    message = _text(feedback / "judgemessage.txt") or _text(stderr)
    broken = _broken(result, "the interactor", message)
    if broken is not None:
        return broken
    next_pass = feedback / NEXT_PASS
    asked = next_pass.is_file()
    if asked and result.exit_code != 42:
        return Judgement(
            CheckOutcome(
                Verdict.JE, f"the validator wrote {NEXT_PASS} but exited {result.exit_code}, not 42: {message}"
            )
        )
    if result.exit_code in (42, 43):
        return Judgement(scored(result.exit_code == 42, feedback, message), next_pass if asked else None)
    return Judgement(
        CheckOutcome(Verdict.JE, f"the interactor exited {result.exit_code} (expected 42 or 43): {message}")
    )


def _testlib(result: RunResult, stderr: Path) -> Judgement:
    message = _text(stderr)
    broken = _broken(result, "the interactor", message)
    if broken is not None:
        return broken
    code = result.exit_code
    if code in (0, 1, 2):
        return Judgement(CheckOutcome((Verdict.AC, Verdict.WA, Verdict.PE)[code], message))
    if code == 7:
        match = re.search(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", message)
        points = float(match.group()) if match else -1.0
        if not 0 <= points <= 1:
            return Judgement(
                CheckOutcome(Verdict.JE, f"the interactor gave points without a fraction in [0, 1]: {message}")
            )
        return Judgement(CheckOutcome(Verdict.AC if points >= 1 else Verdict.WA, message, points))
    if code == 3:
        return Judgement(CheckOutcome(Verdict.JE, f"the interactor failed: {message}"))
    return Judgement(
        CheckOutcome(Verdict.JE, f"the interactor exit code {code} is not in the testlib protocol: {message}")
    )
