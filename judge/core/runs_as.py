"""Which language runs a submission: the one the package's own world runs it with, where this machine has it.

A Kattis package's Python is PyPy3: Kattis, problemtools and BAPCtools all run
a ``.py`` submission under ``pypy3``, and the time limits its authors set or
infer assume that speed (a loop-heavy solution is often ten times slower under
CPython, so a limit inferred from it would let brute force pass). The loader
states the package's choice in the model (``Problem.runs_as``); this module
applies it where the tool is installed and says, in one line, where it is not.
"""

from __future__ import annotations

from dataclasses import replace

from ..lang import Language, registry_for
from ..model import Problem


def as_package_runs(problem: Problem, lang: Language) -> Language:
    """``lang`` as the package's world runs it (``python3`` → ``pypy3`` for a Kattis package), unless that language
    is missing here or unknown to the problem's registry. It takes the files ``lang`` claims (``pypy3`` claims no
    extension of its own) and answers to its names (``include/python3/`` is the package's folder for Python whatever
    runs it), so that a folder's sources and the package's additions are found as before."""
    wanted = problem.runs_as.get(lang.name)
    other = registry_for(problem.root).get(wanted) if wanted else None
    if other is None or other.missing():
        return lang
    names = tuple(dict.fromkeys((*other.aliases, lang.name, *lang.aliases)))
    return replace(other, extensions=lang.extensions, headers=lang.headers, aliases=names)


def fallback_note(problem: Problem, lang: Language) -> str | None:
    """The one line saying that ``lang`` runs where the package's world would run another, missing, language."""
    wanted = problem.runs_as.get(lang.name)
    other = registry_for(problem.root).get(wanted) if wanted else None
    if other is None or not other.missing():
        return None
    package = f" (Debian package {other.package})" if other.package else ""
    return (
        f"note: {other.title}{package} is not installed: this package's {lang.title} runs under {lang.name}, "
        f"not {other.name} as its own judges run it; its time limits may not fit"
    )
