"""``export``: a problem written as a package in another format (Kattis 2025-09)."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_ACCEPTED
from ..problem.formats.kattis_export import export
from .common import add_problem_command, load_problem_arg, open_pool, ready, shown


def add(sub: argparse._SubParsersAction) -> None:
    ex = add_problem_command(sub, "export", "write a problem as a package in another format")
    ex.add_argument("--format", choices=["kattis"], default="kattis", help="package format (kattis: the 2025-09 specification)")
    ex.add_argument("out", type=Path, help="a new or empty folder")

def run(args: argparse.Namespace) -> int:
    problem = load_problem_arg(args.problem)
    with open_pool(args, problem) as pool:
        problem = ready(problem, pool)
    export(problem, args.out, print)
    print(f"{problem.name}: exported as a Kattis 2025-09 package into {shown(args.out)}")
    return EXIT_ACCEPTED
