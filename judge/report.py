"""Human and machine reports of a judging run: the case table, the summary line, the JSON file."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Sequence

from .judging import JudgeReport
from .verdicts import Verdict

MESSAGE_WIDTH = 60


def _mib(kb: int) -> str:
    return f"{kb / 1024:.1f} MiB"


def table(rows: Sequence[Sequence[str]], header: Sequence[str]) -> str:
    """A plain aligned text table; plain so it survives copying into e-mails and CI logs."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    line = lambda row: "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip()
    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _trim(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_WIDTH else text[:MESSAGE_WIDTH - 1] + "…"


def case_table(report: JudgeReport) -> str:
    rows = [
        [str(n), c.name, c.group, c.verdict.value, f"{c.time:.3f}s", _mib(c.memory_kb), _trim(c.message)]
        for n, c in enumerate(report.cases, start=1)
    ]
    return table(rows, ["#", "case", "group", "verdict", "time", "memory", "message"])


def summary(report: JudgeReport) -> str:
    if report.verdict is Verdict.CE:
        log = report.compile_log.strip().splitlines()
        return f"CE (compilation error): score 0/{report.max_score:g}\n" + "\n".join(log[:20])
    slowest = max(report.cases, key=lambda c: c.time, default=None)
    peak = max((c.memory_kb for c in report.cases), default=0)
    passed = sum(1 for c in report.cases if c.verdict is Verdict.AC)
    failing = next((c for c in report.cases if c.verdict is not Verdict.AC), None)
    parts = [f"{report.verdict.value} ({report.verdict.meaning})"]
    if failing is not None:
        parts[0] += f" on case {failing.group}/{failing.name}"
    parts.append(f"score {report.score:g}/{report.max_score:g}")
    parts.append(f"passed {passed}/{len(report.cases)}")
    if slowest is not None:
        parts.append(f"slowest {slowest.time:.3f}s ({slowest.name})")
    parts.append(f"peak memory {_mib(peak)}")
    return " | ".join(parts)


def write_json(report: JudgeReport, path: Path) -> None:
    """Write atomically so an interrupted run never leaves a truncated report where a good one was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(report.to_json(), indent=2) + "\n")
    os.replace(partial, path)
