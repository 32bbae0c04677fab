"""``generate``: every case again from the spec, or with ``--check`` into a temporary folder, compared by sha256."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core import testdata
from ..errors import EXIT_ACCEPTED, EXIT_REJECTED
from ..model import SPEC_NAME
from ..run import SlotPool, resolve_sandbox
from .common import add_problem_command, load_problem_arg, making_cases, open_pool, shown
from .progress import Progress


def add(sub: argparse._SubParsersAction) -> None:
    g = add_problem_command(sub, "generate", "regenerate every case from the spec")
    g.add_argument(
        "--check", action="store_true", help="regenerate into a temporary folder and compare sha256 with what is there"
    )


def run(args: argparse.Namespace) -> int:
    # imported here, not above: they read YAML, and the parser (every command's, for a bare command line or --help)
    # must load on a machine where the requirements are not installed yet, to say what to type
    from ..problem.formats.kattis import is_kattis
    from ..tools.bt_generate import has_generators

    root = Path(args.problem)
    if (root / SPEC_NAME).is_file() and has_generators(root) and is_kattis(root):
        return _bapctools(args, root.resolve())
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


def _bapctools(args: argparse.Namespace, root: Path) -> int:
    """A Kattis package whose data is a BAPCtools generators.yaml: its data/ made as ``bt generate`` makes it."""
    from ..tools.bt_generate import make_data
    from ..tools.bt_plan import read_plan

    if args.check:
        print(f"{shown(root)}: --check compares our own manifests' cases; a generators.yaml package has none")
        return EXIT_REJECTED
    isolation, warnings = resolve_sandbox(args.sandbox)
    for warning in warnings:
        print(warning, file=sys.stderr)
    total = len(read_plan(root).cases)
    with SlotPool(args.jobs, isolation, conceal=(root,)) as pool, Progress(total, "generating") as bar:
        made = make_data(root, pool, bar.advance)
    for line in made.not_made:
        print(f"warning: {line}", file=sys.stderr)
    print(
        f"{root.name}: {made.made} cases made, {made.kept} unchanged, {made.removed} removed, "
        f"from {shown(root / 'generators' / 'generators.yaml')} into {shown(root / 'data')}"
    )
    return EXIT_ACCEPTED
