"""``generate``: every case again from the spec, or with ``--check`` into a temporary folder, compared by sha256."""

from __future__ import annotations

import argparse

from ..core import testdata
from ..errors import EXIT_ACCEPTED, EXIT_REJECTED
from .common import add_problem_command, load_problem_arg, making_cases, open_pool, shown
from .progress import Progress


def add(sub: argparse._SubParsersAction) -> None:
    g = add_problem_command(sub, "generate", "regenerate every case from the spec")
    g.add_argument(
        "--check", action="store_true", help="regenerate into a temporary folder and compare sha256 with what is there"
    )


def run(args: argparse.Namespace) -> int:
    problem = load_problem_arg(args.problem)
    with (
        open_pool(args, problem) as pool,
        making_cases(problem),
        Progress(len(problem.cases), "generating") as bar,
    ):
        if args.check:
            differences = testdata.check(problem, pool, bar.advance)
            bar.close()
            for line in differences:
                print(line)
            print(
                f"{problem.name}: {len(problem.cases) - len({d.split()[0] for d in differences})}/{len(problem.cases)} "
                "cases reproduce bit for bit"
            )
            return EXIT_REJECTED if differences else EXIT_ACCEPTED
        testdata.generate(problem, pool, bar.advance)
    print(f"{problem.name}: generated {len(problem.cases)} cases into {shown(problem.cases_dir)}")
    return EXIT_ACCEPTED
