"""``promote``: a case found by stress added to the spec's ``stress`` group as the generator line that makes it."""

from __future__ import annotations

import argparse

from ..errors import EXIT_ACCEPTED
from .common import add_problem_command, ensure_cases, load_problem_arg, open_pool, shown


def add(sub: argparse._SubParsersAction) -> None:
    pr = add_problem_command(sub, "promote", "add a case found by stress to the spec's 'stress' group")
    pr.add_argument("case", help="the saved case's name, e.g. stress-123456")


def run(args: argparse.Namespace) -> int:
    from ..tools import stress

    problem = load_problem_arg(args.problem)
    stress.promote(problem, args.case)
    problem = load_problem_arg(args.problem)
    with open_pool(args, problem) as pool:
        ensure_cases(problem, pool)
    print(f"{problem.name}: case {args.case} added to group '{stress.STRESS_GROUP}' of {shown(problem.spec_path)}")
    return EXIT_ACCEPTED
