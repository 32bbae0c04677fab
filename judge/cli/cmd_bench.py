"""``bench``: the judge measured against the C floor, a shell loop and peers; prints figures, never fails on timing."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_ACCEPTED, UsageError
from ..problem.formats import resolve_problem
from .places import PROBLEMS


def add(sub: argparse._SubParsersAction) -> None:
    bp = sub.add_parser(
        "bench",
        help="measure the judge against the C floor, a shell loop and peers (prints figures, never fails on timing)",
    )
    bp.add_argument("problem", nargs="?", default="poj2893", help="a problem with a bench.yaml (default: poj2893)")
    bp.add_argument("--quick", action="store_true", help="fewer rounds and cases")
    bp.add_argument("--rounds", type=int, help="interleaved rounds per comparison (default 5, 3 with --quick)")
    bp.add_argument(
        "--peers", action="store_true", help="also install and time online-judge-tools in a throw-away venv"
    )
    bp.add_argument(
        "--only",
        choices=("tiny", "large"),
        help="measure only this comparison (tiny cases or large cases: the C floor, a shell loop, every sandbox at "
        "-j 1 and -j 2), without the other sections",
    )
    bp.add_argument(
        "--startup",
        action="store_true",
        help="measure only start-up (--version, list, judging one case) against bare interpreters",
    )
    bp.add_argument(
        "--scaling",
        type=int,
        nargs="*",
        metavar="STUDENTS",
        help="measure only grading generated classes of these sizes with similarity hints (default 500 1000 2000 5000)",
    )
    bp.add_argument(
        "--judge-up-to",
        type=int,
        metavar="STUDENTS",
        help="with --scaling: judge classes up to this size; "
        "larger ones measure only the similarity step and the reports",
    )
    bp.add_argument(
        "--serve",
        action="store_true",
        help="measure only the HTTP service (tilejudge serve) over loopback: latencies, a burst of submissions",
    )
    bp.add_argument(
        "--rush",
        action="store_true",
        help="with --serve: a deadline rush (2,000 small submissions from 500 students in 5 minutes), on the server's "
        "own workers and then on local Dask workers",
    )
    bp.add_argument(
        "--rush-scale",
        type=float,
        default=1.0,
        metavar="F",
        help="with --rush: every count and the duration times F, 0 < F <= 1 (0.05: a quick run)",
    )
    bp.add_argument(
        "--dask-workers",
        type=int,
        default=2,
        metavar="N",
        help="with --rush: local Dask worker processes for the cluster run (default 2; 0 skips it)",
    )
    bp.add_argument("--json", type=Path, help="write every figure as JSON")
    bp.add_argument("--markdown", type=Path, help="write the figures as Markdown (docs/benchmarks.md)")


def run(args: argparse.Namespace) -> int:
    if args.rush and not args.serve:
        raise UsageError("--rush is a measure of the service: bench --serve --rush")
    if args.serve:
        if args.markdown or args.startup or args.scaling is not None or args.only:
            raise UsageError("--serve measures the service alone: not with --markdown, --startup, --scaling or --only")
        if args.rush:
            if not 0 < args.rush_scale <= 1 or args.dask_workers < 0:
                raise UsageError("--rush-scale must be over 0 and at most 1, --dask-workers at least 0")
            from ..tools.bench_rush import Rush
            from ..tools.bench_rush_run import rush_bench

            figures = rush_bench(Rush().scaled(args.rush_scale), args.dask_workers)
        else:
            from ..tools.bench_serve import serve_bench

            figures = serve_bench(args.quick)
        if args.json:
            import json

            args.json.write_text(json.dumps(figures, indent=1) + "\n")
        return EXIT_ACCEPTED
    from ..tools.bench import run as bench  # only this command pays for importing the benchmark
    from ..tools.bench_scaling import SIZES

    rounds = args.rounds or (3 if args.quick else 5)
    if rounds < 1:
        raise UsageError("--rounds must be at least 1")
    scaling = None if args.scaling is None else tuple(args.scaling or SIZES)
    if (args.startup or scaling or args.only) and args.markdown:
        raise UsageError("--markdown writes every figure: not with --startup, --scaling or --only (use --json)")
    if args.only and (args.startup or scaling):
        raise UsageError("--only measures one comparison: not with --startup or --scaling")
    if args.judge_up_to is not None and (not scaling or args.judge_up_to < min(scaling)):
        raise UsageError(
            "--judge-up-to: needs --scaling, and at least the smallest class judged (its reports are recycled)"
        )
    if scaling and min(scaling) < 2:
        raise UsageError("--scaling: a class needs at least 2 students")
    bench(
        resolve_problem(args.problem, Path(PROBLEMS)),
        rounds,
        args.quick,
        args.peers,
        args.json,
        args.markdown,
        args.startup,
        scaling or (),
        args.judge_up_to,
        args.only,
    )
    return EXIT_ACCEPTED
