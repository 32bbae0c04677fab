"""``export``: a problem written as a Kattis package of a chosen format version."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_ACCEPTED
from ..problem.formats.kattis_export_layout import DEFAULT, LAYOUTS
from .common import add_problem_command, load_problem_arg, open_pool, output_folder, ready, shown

ALIASES = {"kattis": "2025-09"}  # what --format kattis always wrote
FORMAT_HELP = (
    f"Kattis format version (default {DEFAULT}: no reference tool reads every version, and legacy is the one "
    "problemtools, DOMjudge and Kattis read today; BAPCtools reads only 2025-09): "
    + "; ".join(f"{name}: read by {layout.accepted_by}" for name, layout in LAYOUTS.items())
    + "; kattis: the same as 2025-09"
)


def add(sub: argparse._SubParsersAction) -> None:
    ex = add_problem_command(sub, "export", "write a problem as a Kattis problem package")
    ex.add_argument("--format", choices=[*sorted(LAYOUTS), *ALIASES], default=DEFAULT, help=FORMAT_HELP)
    ex.add_argument(
        "--pass-fail",
        action="store_true",
        help="drop the points and export a pass-fail problem (BAPCtools judges no scoring problems)",
    )
    ex.add_argument("out", type=Path, help="a new or empty folder, named [a-z0-9]+ as the tools want a package folder")


def run(args: argparse.Namespace) -> int:
    from ..problem.formats.kattis_export import export  # here: it reads YAML, which the parser must not need

    output_folder(args.out)
    problem = load_problem_arg(args.problem)
    with open_pool(args, problem) as pool:
        problem = ready(problem, pool)
    version = ALIASES.get(args.format, args.format)
    export(problem, args.out, print, version, args.pass_fail)
    print(f"{problem.name}: exported as a Kattis {version} package into {shown(args.out)}")
    return EXIT_ACCEPTED
