"""What several commands share: loading the problem a command names, the slot pool, and making cases ready."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import AbstractContextManager
from pathlib import Path

from ..core.data_lock import producing
from ..core.testdata import edited_files, ensure, missing_cases, stale_cases
from ..errors import UsageError
from ..model import Problem
from ..problem.formats import load, resolve_problem
from ..run import ENV_MODE, MODES, SlotPool, resolve_sandbox
from .places import PROBLEMS, shown
from .progress import Progress
from .usage import EPILOG


def add_problem_command(sub: argparse._SubParsersAction, name: str, help_text: str) -> argparse.ArgumentParser:
    """A command that works on one problem, with the options every such command has."""
    p = sub.add_parser(name, help=help_text, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("problem", help="name under problems/ or path to a problem folder")
    p.add_argument(
        "-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs (default: number of CPUs)"
    )
    p.add_argument("--sandbox", choices=MODES, help=f"isolation of submissions (default: ${ENV_MODE} or auto)")
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print each phase (builds, test data, time-limit inference, judging, each case) to stderr as it ends, "
        "with its wall and CPU time",
    )
    return p


def load_problem_arg(arg: str) -> Problem:
    """The problem a command names, in whatever format its folder is."""
    root = resolve_problem(arg, Path(PROBLEMS))
    return load(root, shown(root))


def open_pool(args: argparse.Namespace, problem: Problem) -> SlotPool:
    """The command's slots, in the sandbox mode asked for (or the best that works, with warnings saying what is weaker);
    submissions never see the problem's folder or its test data."""
    isolation, warnings = resolve_sandbox(args.sandbox)
    for warning in warnings:
        print(warning, file=sys.stderr)
    return SlotPool(args.jobs, isolation, conceal=problem.folders)


def output_file(path: Path, option: str) -> Path:
    """``path`` checked as the file a command writes at its end, with its folder made now as the write would make it:
    a path no file can be written at is a usage error before minutes of judging, not after them."""
    if path.is_dir():
        raise UsageError(f"{path}: is a folder; {option} needs a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror}") from None
    if not os.access(path.parent, os.W_OK):
        raise UsageError(f"{path}: cannot write: {path.parent} is not writable")
    return path


def output_folder(path: Path) -> Path:
    """``path`` checked as a folder a command will make and fill, without making it yet: refused now, in one line, when
    the nearest folder that exists cannot take it (a file in the way, no write permission)."""
    existing = next(p for p in (path, *path.parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise UsageError(f"{path}: cannot make the folder ({existing} is not a writable folder)")
    return path


def making_cases(problem: Problem) -> AbstractContextManager[None]:
    """Held while the problem's cases are made (``producing``); says so on stderr when another judge holds it."""
    return producing(
        problem, lambda: print(f"waiting for another judge making {problem.name}'s cases…", file=sys.stderr)
    )


def ensure_cases(problem: Problem, slots: SlotPool) -> None:
    """Generate missing cases and those that no longer match their sources, saying which and why, with a progress bar
    when someone is watching; warn about case files edited by hand. Another judge making the same cases is waited
    for, so its work is found done rather than done twice over the same files."""
    with making_cases(problem):
        todo = missing_cases(problem)
        if todo:
            stale = stale_cases(problem)
            if stale:
                why = "; ".join(sorted(set(stale.values()))[:3])
                print(
                    f"{len(stale)} case(s) of {problem.name} no longer match their sources ({why}): "
                    "producing them again",
                    file=sys.stderr,
                )
            if len(todo) > len(stale):
                print(f"generating {len(todo) - len(stale)} missing case(s) of {problem.name}…", file=sys.stderr)
            with Progress(len(todo), "generating") as bar:
                ensure(problem, slots, bar.advance)
    edited = edited_files(problem)
    if edited:
        names = ", ".join(shown(path) for path in edited[:3]) + (", …" if len(edited) > 3 else "")
        print(
            f"warning: {len(edited)} case file(s) differ from manifest.json (edited by hand?): {names}; "
            f"used as they are ('generate {problem.name}' restores them)",
            file=sys.stderr,
        )


def ready(problem: Problem, slots: SlotPool) -> Problem:
    """Cases generated and, for a package without a time limit, the limit inferred."""
    ensure_cases(problem, slots)
    if problem.limits.time > 0:  # nothing to infer: the Kattis readers that inference needs are not even imported
        return problem
    from ..tools.kattis_time import infer_time_limit

    return infer_time_limit(problem, slots, lambda line: print(line, file=sys.stderr))
