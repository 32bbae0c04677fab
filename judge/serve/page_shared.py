"""What more than one page shows: a submission's state in words, a problem's samples, how often a page without
script reloads. The problems' page and a submission's page both use them; neither imports the other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..model import answer_path, input_path
from .queue import State
from .service import Service

SAMPLE_SHOWN = 4096  # bytes of a sample's input or answer on its problem's page
NOSCRIPT_REFRESH = 5  # seconds: without JavaScript a page with work being judged reloads itself this often


def status_text(view: dict[str, Any]) -> str:
    """A submission's state in words, as the page's script writes it too (static/live.js)."""
    state = view["state"]
    if state == State.QUEUED:
        place = view.get("queue_position")
        return f"queued (#{place} in line)" if place else "queued"
    if state == State.RUNNING:
        return f"running {view['cases_done']}/{view['cases_total']}"
    if state == State.ERROR:
        return "judge error"
    if state == State.DONE:
        return view["verdict"] or "done"
    return state


def _read_start(path: Path) -> str:
    try:
        with path.open("rb") as f:
            data = f.read(SAMPLE_SHOWN + 1)
    except OSError:
        return ""
    text = data[:SAMPLE_SHOWN].decode("utf-8", errors="replace")
    return text + ("\n…" if len(data) > SAMPLE_SHOWN else "")


def _shown(path: Path, statement: bool) -> Path:
    """What a statement shows of a sample file: its ``.in.statement`` / ``.ans.statement`` beside it when the package
    has one (BAPCtools' way to show a sample other than as it is judged), else the file itself."""
    shown = path.with_name(path.name + ".statement")
    return shown if statement and shown.is_file() else path


def samples(service: Service, name: str, statement: bool = False) -> list[dict[str, str]]:
    """The sample cases' input and answer: the student's already, shown on the problem's page (``statement``: as the
    statement shows them) and beside a failed sample (as judged)."""
    problem = service.problems[name]
    keys = service.sample_keys(name)
    return [
        {
            "key": case.key,
            "name": case.name,
            "input": _read_start(_shown(input_path(problem, case), statement)),
            "answer": _read_start(_shown(answer_path(problem, case), statement)),
        }
        for case in problem.cases
        if case.key in keys
    ]
