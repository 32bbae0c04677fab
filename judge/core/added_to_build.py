"""Which of a problem's added files and constants a program gets when it is built, decided by where its source is.

One rule for every command (judge, grade, verify, generate, validate,
stress), so a package's include/ or libraries never reach one of them and
miss another: a source inside the package is the package's own (constants
substituted in it; libraries for its programs and references, include/ for
its submissions), a source outside is a contestant's (include/ only, its
text untouched).
"""

from __future__ import annotations

from pathlib import Path

from ..lang import Additions
from ..model import Problem


def added_to_build(problem: Problem, source: Path | None) -> Additions:
    """What the build adds to the program at ``source`` (None: a command line, nothing to add)."""
    files = problem.files
    if source is None:
        return Additions()
    source = source.resolve()
    if not source.is_relative_to(problem.root.resolve()):
        return Additions(by_language=files.include, constants=files.constants)
    reference = source in {s.resolve() for s in problem.solutions}
    submission = reference or source.is_relative_to(problem.submissions_root.resolve())
    return Additions(
        folders=files.libraries if reference or not submission else (),
        by_language=files.include if submission else None,
        constants=files.constants,
        own=True,
    )
