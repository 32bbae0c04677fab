"""Problem package formats: each turns a folder on disk into the neutral ``Problem`` model (and export turns it back).

``load`` is the one place that decides which format a folder is in, so no
command needs to know that Kattis packages exist. May import the problem
model, ``judge.check`` (the checker-type registry) and ``judge.lang`` (the
language registry); imported by ``judge.core`` and above.
"""

from __future__ import annotations

import os
from pathlib import Path

from ...errors import UsageError
from ...filecache import Signature, loader_context, package_deps, recall, remember
from ...lazy_exports import exports
from ...model import SPEC_NAME, Problem

__getattr__, __dir__, _readers = exports(
    __name__, {".kattis": ("is_kattis", "load_kattis"), ".native": ("load_problem",)}
)


def resolve_problem(arg: str, problems_root: Path) -> Path:
    """Accept either a bundled problem's name or a path to a problem folder."""
    candidate = Path(arg)
    if (candidate / SPEC_NAME).is_file() or (candidate / "data").is_dir():
        return candidate.resolve()
    bundled = problems_root / arg
    if (bundled / SPEC_NAME).is_file():
        return bundled.resolve()
    if candidate.is_dir():
        raise UsageError(f"{arg}: no {SPEC_NAME} in this folder")
    raise UsageError(
        f"{arg}: no such problem (not a folder, not a name under {problems_root}){_did_you_mean(arg, problems_root)}"
    )


def _did_you_mean(arg: str, problems_root: Path) -> str:
    """ "; did you mean poj2893?" for a mistyped bundled name: the closest names under ``problems_root``, if any are
    close."""
    import difflib

    try:
        names = sorted(p.name for p in problems_root.iterdir() if (p / SPEC_NAME).is_file())
    except OSError:
        return ""
    close = difflib.get_close_matches(arg.lower(), names, n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def load(root: Path, shown: str | None = None) -> Problem:
    """Our own package or a Kattis one, as it is: both become the same Problem model.

    The result is remembered (``judge.filecache``) until a file it was read
    from changes: a warm command imports neither YAML nor the format readers.
    """
    from ...lang.registry import LANGUAGES

    # a language registered by this process (in no file) changes the package's limits: never remembered then
    memory = not LANGUAGES.changed_here
    key = f"{os.path.realpath(root)}\0{shown}"
    context = loader_context()
    problem = recall("problem", key, context) if memory else None
    if isinstance(problem, Problem):
        return problem
    from .kattis import is_kattis, load_kattis
    from .native import load_problem

    problem = load_kattis(root, shown) if is_kattis(root) else load_problem(root, shown)
    if memory:
        remember("problem", key, context, problem, read_from(problem))
    return problem


def read_from(problem: Problem) -> dict[str, Signature]:
    """The signature of everything a loaded package was read from; the cases this judge generates are not part of it,
    a Kattis package's data/ is."""
    generated = os.fspath(problem.cases_dir) if problem.package_format == "native" else None
    return package_deps(os.fspath(problem.root), problem, generated)


__all__ = sorted({*_readers, "load", "read_from", "resolve_problem"})
