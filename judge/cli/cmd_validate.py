"""``validate``: the input validators on every case."""

from __future__ import annotations

import argparse

from ..core.validators import validate
from ..errors import EXIT_ACCEPTED, EXIT_REJECTED
from .common import add_problem_command, ensure_cases, load_problem_arg, open_pool
from .progress import Progress


def add(sub: argparse._SubParsersAction) -> None:
    add_problem_command(sub, "validate", "run the input validator on every case")


def run(args: argparse.Namespace) -> int:
    problem = load_problem_arg(args.problem)
    with open_pool(args, problem) as pool:
        ensure_cases(problem, pool)
        with Progress(len(problem.cases), "validating") as bar:
            failures = validate(problem, pool, bar.advance)
    for line in failures:
        print(line)
    print(f"{problem.name}: {len(problem.cases) - len(failures)}/{len(problem.cases)} inputs valid")
    return EXIT_REJECTED if failures else EXIT_ACCEPTED
