"""``judge``: one submission on every case, a table and a summary, the exit code from the verdict."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core import JudgeOptions, judge, kind_of
from ..core.answers import ANSWERS
from ..core.runs_as import as_package_runs, fallback_note
from ..core.submission import prepare_submission
from ..errors import EXIT_ACCEPTED, EXIT_INTERRUPTED, EXIT_JUDGE_ERROR, EXIT_REJECTED, UsageError, no_such_file
from ..lang import Language, Program, from_command
from ..model import Problem
from ..run import SlotPool
from ..verdict import Verdict
from . import render
from .common import add_problem_command, load_problem_arg, open_pool, output_file, ready
from .live import LiveTable
from .parsing import needs
from .progress import Progress

STDOUT = Path("-")
SUBMISSION_IS = "a source file, a folder of sources, an executable, or --cmd COMMAND"


def add(sub: argparse._SubParsersAction) -> None:
    j = add_problem_command(sub, "judge", "judge one submission on every case")
    needs(j, f"judge needs a PROBLEM and a SUBMISSION ({SUBMISSION_IS})")
    j.add_argument(
        "submission",
        nargs="?",
        help="source file, folder of sources in one language, or executable (`languages` lists them)",
    )
    j.add_argument("--cmd", help='judge this command line instead of a file, e.g. "pypy3 sol.py"')
    j.add_argument("--lang", help="language name or alias, overriding detection (`languages` lists them)")
    j.add_argument("--main", help="the entry point of a multi-file submission: a file name, or a file's stem")
    j.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="write the full report as JSON to FILE; '-' writes it to stdout (the table and summary then go to stderr)",
    )
    j.add_argument("--first-fail", action="store_true", help="stop at the first failing case (ICPC style)")
    j.add_argument(
        "--all-cases",
        action="store_true",
        help="run every case, also those of a group whose result is already decided (skipped by default, as the "
        "package's rules say: a lost all-or-nothing group, Kattis on_reject: break)",
    )


def check(args: argparse.Namespace) -> str | None:
    """What is wrong with a command line argparse took: checked before the problem is loaded, so that the usage line
    is shown with it (``parsing.parse``)."""
    if args.cmd and args.submission:
        return "give either a SUBMISSION file or --cmd, not both"
    if not args.cmd and not args.submission:
        return f"judge needs a SUBMISSION after the problem ({SUBMISSION_IS})"
    return None


def _source(args: argparse.Namespace, problem: Problem) -> tuple[Path, Language] | None:
    """The submission file and its language, or None for ``--cmd``: checked before the sandbox is set up, so a bad
    command line is reported alone, not after the sandbox's warnings."""
    if args.cmd and args.submission:
        raise UsageError("give either a SUBMISSION file or --cmd, not both")
    if args.cmd:
        return None
    if not args.submission:
        raise UsageError("judge needs a SUBMISSION file or --cmd")
    path = Path(args.submission)
    if not path.is_file() and not path.is_dir():
        raise no_such_file(args.submission)
    lang = kind_of(problem).submission_language(problem, path, args.lang)
    return path.resolve(), lang if args.lang else as_package_runs(problem, lang)


def _submission(
    args: argparse.Namespace, source: tuple[Path, Language] | None, problem: Problem, pool: SlotPool
) -> Program:
    if source is None:
        return from_command(args.cmd)
    path, lang = source
    return prepare_submission(problem, path, pool, None if lang is ANSWERS else lang, args.main)


def run(args: argparse.Namespace) -> int:
    if args.json and args.json != STDOUT:
        output_file(args.json, "--json")
    problem = load_problem_arg(args.problem)
    source = _source(args, problem)
    to_stdout = args.json == STDOUT
    human = sys.stderr if to_stdout else sys.stdout  # with --json -, stdout carries the JSON alone, for a pipe to jq
    note = fallback_note(problem, source[1]) if source is not None else None
    if note:
        print(note, file=sys.stderr)
    with open_pool(args, problem) as pool:
        program = _submission(args, source, problem, pool)
        problem = ready(problem, pool)
        with Progress(len(problem.cases), "judging") as bar:
            live = LiveTable(problem.cases, human, bar, args.first_fail)
            try:
                # as grade and verify judge: a case whose group is decided is SKIPPED, unless every case is asked for;
                # the failing case's exchange with an interactor is shown, and every case's is in the JSON report
                options = JudgeOptions(first_fail=args.first_fail, skip_lost=not args.all_cases, transcripts=True)
                result = judge(problem, program, pool, options, live.case_done)
            except KeyboardInterrupt:  # the runs in flight are killed already (judge aborts the pool on its way out)
                said = live.interrupted()
                bar.close()
                print(said, file=sys.stderr)
                return EXIT_INTERRUPTED
            live.finish(result)
    print(render.summary(result), file=human)
    if to_stdout:
        sys.stdout.write(render.json_text(result))
    elif args.json:
        try:
            render.write_json(result, args.json)
        except OSError as exc:  # checked before judging; this is the disk filling up or the folder going since
            raise UsageError(f"{args.json}: cannot write: {exc.strerror}") from None
    if result.verdict is Verdict.AC:
        return EXIT_ACCEPTED
    return EXIT_JUDGE_ERROR if result.verdict is Verdict.JE else EXIT_REJECTED
