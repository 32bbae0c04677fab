"""``grade``: a folder of submissions judged, stored and reported; resumable."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_ACCEPTED
from .common import add_problem_command, load_problem_arg, open_pool, ready, shown
from .progress import Progress


def add(sub: argparse._SubParsersAction) -> None:
    gr = add_problem_command(sub, "grade", "judge a folder of submissions (one per file or subfolder), resumable, with reports")
    gr.add_argument("submissions", type=Path, help="folder: each file, or each subfolder with one source file, is one student")
    gr.add_argument("--out", type=Path, required=True, help="results folder: results.sqlite and the reports")
    gr.add_argument("--rejudge", action="store_true", help="judge every submission again, even if a stored result matches")
    gr.add_argument("--cluster", metavar="ADDRESS", help="judge on a Dask cluster, e.g. tcp://HOST:8786 (needs requirements-cluster.txt)")

def run(args: argparse.Namespace) -> int:
    from ..grade import reports
    from ..grade.grading import grade
    from ..grade.store import Store
    from ..grade.submissions import discover

    problem = load_problem_arg(args.problem)
    with open_pool(args, problem) as pool:
        problem = ready(problem, pool)
        isolation = pool.isolation
    total = len(discover(args.submissions))
    with Store(args.out) as store, Progress(total, "grading", unit="sub") as bar:
        counts: dict[str, int] = {}

        def advance(student: str, report: dict[str, object]) -> None:
            verdict = str(report["verdict"])
            counts[verdict] = counts.get(verdict, 0) + 1
            bar.set_postfix(" ".join(f"{v}:{n}" for v, n in sorted(counts.items())))
            bar.advance()

        result = grade(problem, args.submissions, store, isolation, args.jobs, args.rejudge, advance, args.cluster)
        bar.close()
        paths = reports.write_all(store, args.out)
        data = reports.rows(store)
    print(f"judged {result.judged}, reused {result.reused} stored result(s)")
    print(reports.terminal_summary(data))
    print("reports: " + ", ".join(shown(p) for p in paths))
    return EXIT_ACCEPTED
