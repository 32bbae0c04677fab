"""``grade``: a folder of submissions judged, stored and reported; resumable."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import EXIT_ACCEPTED, EXIT_INTERRUPTED, UsageError
from .common import add_problem_command, load_problem_arg, open_pool, ready, shown
from .progress import Progress

if TYPE_CHECKING:
    from ..model import Problem

EXIT_CODES = """exit codes of grade: 0 the grading completed, whatever the verdicts (they are in the reports);
2 bad usage (no such folder, a results folder of another problem, a bad roster); 3 judge error
(a broken checker or reference, a missing tool); 130 interrupted (Ctrl-C): what was judged is stored and
reported, and the same command judges the rest."""


def add(sub: argparse._SubParsersAction) -> None:
    gr = add_problem_command(
        sub, "grade", "judge a folder of submissions (one per file or subfolder), resumable, with reports"
    )
    gr.epilog = EXIT_CODES + "\n\n" + (gr.epilog or "")
    gr.add_argument(
        "submissions", type=Path, help="folder: each file, or each subfolder with one source file, is one student"
    )
    gr.add_argument(
        "--out",
        type=Path,
        required=True,
        help="results folder: results.sqlite, the reports and feedback/ (one problem per folder)",
    )
    gr.add_argument(
        "--rejudge",
        action="store_true",
        help="judge every submission again; each stored result stays until its new one is stored",
    )
    gr.add_argument(
        "--only",
        nargs="+",
        metavar="ID",
        help="judge only these students again (ids as in grades.csv); the others keep their results",
    )
    gr.add_argument(
        "--all-cases",
        action="store_true",
        help="run every case, also those of a group already lost "
        "(by default they are skipped: they cannot change the score)",
    )
    gr.add_argument(
        "--roster",
        type=Path,
        help="CSV with a header: id, and any of name, deadline, submitted (see docs/grading.md); "
        "remembered by the results folder",
    )
    gr.add_argument(
        "--deadline",
        help="everyone's deadline, ISO 8601 (e.g. '2025-03-01 23:59'); later submissions are flagged late; "
        "remembered by the results folder",
    )
    gr.add_argument(
        "--starter",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="code handed out to everyone (a template, given helpers): it never counts as similarity; "
        "remembered by the results folder",
    )
    gr.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="judge on a Dask cluster, e.g. tcp://HOST:8786 (needs requirements-cluster.txt)",
    )


class _Feed:
    """Progress as submissions finish: a bar on a terminal, else one line per submission on stderr, so a grading run
    from a script or CI is never silent for minutes."""

    def __init__(self) -> None:
        self.bar: Progress | None = None
        self.total = 0
        self.done = 0
        self.counts: dict[str, int] = {}

    def start(self, total: int) -> None:
        self.total = total
        self.bar = Progress(total, "grading", unit="sub")

    def finished(self, student: str, report: dict[str, Any]) -> None:
        from ..text import safe_text

        self.done += 1
        verdict = str(report["verdict"])
        self.counts[verdict] = self.counts.get(verdict, 0) + 1
        if self.bar is not None:
            self.bar.set_postfix(" ".join(f"{v}:{n}" for v, n in sorted(self.counts.items())))
            self.bar.advance()
        if not sys.stderr.isatty():
            score = f"{float(report.get('score', 0)):g}/{float(report.get('max_score', 0)):g}"
            print(
                f"graded {self.done}/{self.total}: {safe_text(student, one_line=True)} {verdict} {score}",
                file=sys.stderr,
                flush=True,
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _starter_files(given: list[Path] | None, meta: dict[str, str]) -> list[Path]:
    """``--starter`` as given, else the files this results folder was graded with (as --roster and --deadline are)."""
    if given:
        return given
    try:
        return [Path(p) for p in json.loads(meta.get("starter") or "[]")]
    except ValueError:
        return []


def run(args: argparse.Namespace) -> int:
    from ..grade.store import grading_lock

    problem = load_problem_arg(args.problem)
    if not args.submissions.is_dir():
        raise UsageError(f"{args.submissions}: not a folder of submissions")
    with grading_lock(args.out):
        return _grade(args, problem)


def _grade(args: argparse.Namespace, problem: Problem) -> int:
    """The grading itself, with the results folder held (``grading_lock``)."""
    from ..grade import reports
    from ..grade.grading import GradeOptions, grade
    from ..grade.roster import load_roster
    from ..grade.starter import load_handout
    from ..grade.store import Store, problem_of, stored_meta

    meta = stored_meta(args.out)
    held = problem_of(meta)
    if held is not None and held != problem.name:
        raise UsageError(f"{args.out}: holds the grades of {held}; grade {problem.name} into another --out folder")
    # A re-grade (--only, --rejudge) without --roster or --deadline keeps the ones this results folder was graded with.
    roster_path = args.roster or (Path(meta["roster"]) if meta.get("roster") else None)
    deadline = args.deadline or meta.get("deadline") or None
    roster = load_roster(roster_path, deadline)
    starter = _starter_files(args.starter, meta)
    handout = load_handout(starter, roster)
    with open_pool(args, problem) as pool:
        problem = ready(problem, pool)
        isolation = pool.isolation
    options = GradeOptions(
        jobs=args.jobs,
        rejudge=args.rejudge,
        only=tuple(args.only or ()),
        all_cases=args.all_cases,
        cluster=args.cluster,
        roster=roster,
        handout=handout,
    )
    feed = _Feed()
    interrupted = False
    with Store(args.out) as store:
        store.set_meta("roster", str(roster_path.resolve()) if roster_path else "")
        store.set_meta("deadline", deadline or "")
        store.set_meta("starter", json.dumps([str(p.resolve()) for p in starter]))
        try:
            result = grade(problem, args.submissions, store, isolation, options, feed.finished, feed.start)
        except KeyboardInterrupt:  # the runs in flight are already killed (grade stops them on its way out)
            interrupted = True
        finally:
            feed.close()
        paths = reports.write_all(store, args.out)
        grading = reports.load(store)
    if interrupted:
        print(
            f"interrupted: {feed.done} of {feed.total} submission(s) judged and stored; "
            "the reports show what is stored; run the same command again to judge the rest",
            file=sys.stderr,
        )
        print("reports: " + ", ".join(shown(p) for p in paths))
        return EXIT_INTERRUPTED
    print(
        f"{result.students} students: judged {result.judged}, reused {result.reused} stored result(s)"
        + (f"; {len(result.ignored)} entries ignored" if result.ignored else "")
    )
    print(reports.terminal_summary(grading))
    print("reports: " + ", ".join(shown(p) for p in paths))
    return EXIT_ACCEPTED
