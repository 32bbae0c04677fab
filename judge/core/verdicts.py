"""What judging a case yields (``CaseResult``), what a group earned (``GroupResult``) and the submission's verdict.

Kept free of I/O and of any format's rules: how results add up to points is
``score_rules.py``, which Kattis verdict a result counts as is the tools' business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..check.attachments import Attachment
from ..verdict import Verdict

if TYPE_CHECKING:
    from ..check.compare import CheckOutcome


@dataclass(frozen=True)
class OutputExcerpt:
    """The start of what a program printed on a sample case (``sample_output.py``): made safe, bounded, and how much
    there was, so a page can say what it does not show."""

    text: str  # the first OUTPUT_BYTES / OUTPUT_LINES of it; bytes that are not UTF-8 as \xNN, controls escaped
    size: int  # bytes it printed in all (up to the output limit, where the run was stopped)
    cut: bool  # ``text`` is not all of it


@dataclass
class CaseResult:
    """One case's outcome; ``score`` is the fraction of the case earned (1 for AC, checker points otherwise)."""

    name: str
    group: str
    verdict: Verdict
    time: float = 0.0
    wall_time: float = 0.0
    memory_kb: int = 0
    exit_code: int | None = None
    signal: str | None = None
    message: str = ""
    score: float = 0.0
    score_file: tuple[str, float] | None = (
        None  # what a Kattis validator wrote (score.txt or score_multiplier.txt), weighed by its group
    )
    transcript: str = ""  # interactive problems: the first exchanges, as a Kattis .interaction file shows them
    attachments: tuple[Attachment, ...] = ()  # files the checker handed over (a picture of a wrong answer)
    waited: float = 0.0  # seconds the run was runnable but waiting for a CPU: the machine's load
    confirmation: str = ""  # a wall-clock TLE run again alone (reruns.py): the first run and the load at both
    output: OutputExcerpt | None = None  # sample cases only: the start of what the program printed

    @classmethod
    def checked(cls, outcome: CheckOutcome, **base: Any) -> CaseResult:
        """A case its checker decided, with every field of the checker's outcome carried over in this one place:
        the submit-answer kind, building its own, once dropped the score file."""
        return cls(
            verdict=outcome.verdict,
            message=outcome.message,
            score=outcome.fraction,
            score_file=outcome.score_file,
            attachments=outcome.attachments,
            **base,
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["attachments"] = [a.to_json() for a in self.attachments]
        data["verdict"] = self.verdict.value
        data["time"] = round(self.time, 4)
        data["wall_time"] = round(self.wall_time, 4)
        data["waited"] = round(self.waited, 4)
        return data


@dataclass(frozen=True)
class GroupResult:
    name: str
    points: float
    earned: float
    passed: int
    total: int


def overall_verdict(cases: Sequence[CaseResult]) -> Verdict:
    """The first failing case's verdict in case order, as ICPC-style judges report it (a skipped case never decides
    it)."""
    for case in cases:
        if case.verdict not in (Verdict.AC, Verdict.SKIPPED):
            return case.verdict
    return Verdict.AC
