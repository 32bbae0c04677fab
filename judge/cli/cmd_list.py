"""``list``: the bundled problems with title, limits and case count."""
from __future__ import annotations

import argparse

from ..errors import EXIT_ACCEPTED
from ..problem import SPEC_NAME
from ..problem.formats import load_problem
from ..text import table
from .common import PROBLEMS, shown


def add(sub: argparse._SubParsersAction) -> None:
    sub.add_parser("list", help="bundled problems with title, limits and case count")

def run(_: argparse.Namespace) -> int:
    rows = []
    for root in sorted(p.parent for p in PROBLEMS.glob(f"*/{SPEC_NAME}")):
        problem = load_problem(root, shown(root))
        lim = problem.limits
        rows.append([problem.name, problem.title, f"{lim.time:g}s", f"{lim.memory_mib} MiB", str(len(problem.cases)), problem.source])
    print(table(rows, ["problem", "title", "time", "memory", "cases", "source"]) if rows else "no problems under problems/")
    return EXIT_ACCEPTED
