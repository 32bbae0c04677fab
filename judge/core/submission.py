"""A contestant's submission made ready to judge, the same way for every command that judges one.

``judge``, ``verify``, ``grade`` and time-limit inference all come here, so a
problem's own languages file, the files it adds (``include/``, constants) and
the submit-answer rule (a folder of answers, never built) reach every one of
them alike.
"""

from __future__ import annotations

from pathlib import Path

from ..lang import Language, Program
from ..model import Problem
from ..run import SlotPool
from .kinds import kind_of
from .phases import measured, named
from .runs_as import as_package_runs


@measured(lambda problem, path, *_, **__: f"build {named(path)}")
def prepare_submission(
    problem: Problem, path: Path, pool: SlotPool, lang: Language | None = None, main: str | None = None
) -> Program:
    """Build ``path`` (a file or a folder of sources, its language detected unless given) for ``problem``; for a
    submit-answer problem, take it as its folder of answer files. A detected language is the one the package's world
    runs it with (``runs_as``); a given one is used as it is."""
    kind = kind_of(problem)
    if lang is None and not kind.answer_files:
        lang = as_package_runs(problem, kind.submission_language(problem, path, None))
    return kind.prepare(problem, path, pool, lang, main)
