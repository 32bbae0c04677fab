"""Human and machine reports of a judging run: the case table, the summary line, the JSON file.

Case messages and compile logs carry what the submission printed: they are
shown through ``judge.text.safe_text`` so no raw control byte reaches the
terminal. The JSON file is escaped by ``json.dumps`` itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ..atomic import atomic_write
from ..core import CaseResult, JudgeReport
from ..text import safe_text, table
from ..verdict import Verdict

MESSAGE_WIDTH = 60
TRANSCRIPT_LINES = 12  # of an interactive case's exchange, under the summary of a failed judging


def _mib(kb: int) -> str:
    return f"{kb / 1024:.1f} MiB"


def _trim(text: str) -> str:
    text = safe_text(" ".join(text.split()), one_line=True)
    return text if len(text) <= MESSAGE_WIDTH else text[: MESSAGE_WIDTH - 1] + "…"


CASE_HEADER = ("#", "case", "group", "verdict", "time", "memory", "message")


def case_cells(number: int, case: CaseResult) -> list[str]:
    """One row of the case table, cells made safe; ``number`` counts from 1."""
    cells = [str(number), case.name, case.group, case.verdict.value, f"{case.time:.3f}s", _mib(case.memory_kb)]
    return [*(safe_text(cell, one_line=True) for cell in cells), _trim(case.message)]


def case_table(report: JudgeReport) -> str:
    return table([case_cells(n, c) for n, c in enumerate(report.cases, start=1)], CASE_HEADER)


def counts(cases: Sequence[CaseResult]) -> str:
    """ "k passed, m failed, s skipped of N": what two judgings of the same submission both say, whichever of its cases
    finished first (a decided group's later cases are SKIPPED whether they ran or not, ``judge.core.decided``)."""
    passed = sum(1 for c in cases if c.verdict is Verdict.AC)
    skipped = sum(1 for c in cases if c.verdict is Verdict.SKIPPED)
    return f"{passed} passed, {len(cases) - passed - skipped} failed, {skipped} skipped of {len(cases)}"


def summary(report: JudgeReport) -> str:
    if report.verdict is Verdict.CE:
        log = safe_text(report.compile_log.strip()).splitlines()
        error = f"{safe_text(report.compile_error, one_line=True)[:200]} | " if report.compile_error else ""
        return f"CE (compilation error): {error}score 0/{report.max_score:g}\n" + "\n".join(log[:20])
    slowest = max(report.cases, key=lambda c: c.time, default=None)
    peak = max((c.memory_kb for c in report.cases), default=0)
    failing = next((c for c in report.cases if c.verdict not in (Verdict.AC, Verdict.SKIPPED)), None)
    parts = [f"{report.verdict.value} ({report.verdict.meaning})"]
    if failing is not None:
        parts[0] += f" on case {safe_text(f'{failing.group}/{failing.name}', one_line=True)}"
    parts.append(f"score {report.score:g}/{report.max_score:g}")
    if report.graded is not None:  # a legacy package's own verdict, beside the first failing case's (problemtools')
        graded = report.graded
        why = f": {safe_text(graded.message, one_line=True)}" if graded.message else ""
        parts.append(f"the legacy grader gives {graded.verdict} ({graded.score:g}){why}")
    parts.append(counts(report.cases))
    if slowest is not None:
        parts.append(f"slowest {slowest.time:.3f}s ({safe_text(slowest.name, one_line=True)})")
    parts.append(f"peak memory {_mib(peak)}")
    line = " | ".join(parts)
    if failing is not None and failing.transcript:
        shown = failing.transcript.splitlines()
        more = (
            f"\n  … ({len(shown) - TRANSCRIPT_LINES} more lines in the JSON report)"
            if len(shown) > TRANSCRIPT_LINES
            else ""
        )
        line += (
            "\nthe exchange on that case began (> the submission, < the interactor):\n"
            + "\n".join(f"  {safe_text(row, one_line=True)}" for row in shown[:TRANSCRIPT_LINES])
            + more
        )
    if failing is not None and failing.attachments:
        line += "\nthe checker attached to that case (in the JSON report): " + ", ".join(
            f"{a.name} ({a.media_type}, {len(a.data)} bytes)" for a in failing.attachments
        )
    return line


def json_text(report: JudgeReport) -> str:
    return json.dumps(report.to_json(), indent=2) + "\n"


def write_json(report: JudgeReport, path: Path) -> None:
    """Write atomically so an interrupted run never leaves a truncated report where a good one was."""
    atomic_write(path, json_text(report))
