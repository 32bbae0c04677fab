"""``verify``: the problem setter's full self-check, one line per test submission; ``--matrix`` adds the test-strength matrix."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import EXIT_ACCEPTED, EXIT_REJECTED, UsageError
from ..text import safe_text
from .common import add_problem_command, ensure_cases, load_problem_arg, open_pool, ready, shown

if TYPE_CHECKING:
    from ..problem import Problem
    from ..tools.verify import Outcome


def add(sub: argparse._SubParsersAction) -> None:
    v = add_problem_command(sub, "verify", "full self-check of a problem package")
    v.add_argument("--matrix", action="store_true",
                   help="judge every submission on every case and print which cases reject which wrong submissions, "
                        "the cases rejecting nothing, and a smallest set of cases rejecting them all")
    v.add_argument("--html", type=Path, metavar="FILE", help="also write the matrix as a self-contained HTML page (implies --matrix)")


def run(args: argparse.Namespace) -> int:
    from ..tools.verify import Outcome, slowest_accepted, verify

    if args.html is not None and args.html.is_dir():
        raise UsageError(f"{args.html}: is a folder; --html needs a file name")
    matrix = args.matrix or args.html is not None
    problem = load_problem_arg(args.problem)
    print(f"{problem.name}: spec ok ({len(problem.groups)} groups, {len(problem.cases)} cases, max score {problem.max_score:g})")

    def show(o: Outcome) -> None:
        slowest = max((c.time for c in o.report.cases), default=0.0)
        mark = "ok" if o.ok else "FAIL"
        name = safe_text(o.label, one_line=True)
        score = f"  score {o.report.score:g}/{o.report.max_score:g}" if problem.max_score else ""
        print(f"  {mark:4}  {name:44} expected {o.expected.label:3}  got {o.report.verdict.value:3}  slowest {slowest:.3f}s{score}", flush=True)
        for line in o.failures:
            print(f"        {safe_text(line, one_line=True)}", flush=True)

    with open_pool(args, problem) as pool:
        if problem.package_format == "kattis":  # verify infers a missing limit itself, once, and stores it for judge
            ensure_cases(problem, pool)
        else:
            problem = ready(problem, pool)
        result = verify(problem, pool, show, all_cases=matrix, log=lambda line: print(line, file=sys.stderr))
        problem = result.problem or problem
    for line in result.invalid_inputs:
        print(f"  invalid input: {line}")
    for lang, (time, path) in sorted(slowest_accepted(problem, result.outcomes).items()):
        limit = problem.limits.time_for(lang)
        print(f"  time: {lang:8} slowest accepted {time:.3f}s ({path.name}) of {limit:g}s limit, margin {limit / max(time, 1e-3):.1f}x")
    for line in result.warnings:
        print(f"  warning: {line}")
    if matrix:
        _show_matrix(problem, result.outcomes, args.html)
    bad = [o for o in result.outcomes if not o.ok]
    print(f"{problem.name}: {'verified' if result.ok else 'NOT verified'}: {len(result.outcomes) - len(bad)}/{len(result.outcomes)} submissions as expected, "
          f"{len(problem.cases) - len(result.invalid_inputs)}/{len(problem.cases)} inputs valid")
    return EXIT_ACCEPTED if result.ok else EXIT_REJECTED


def _show_matrix(problem: Problem, outcomes: list[Outcome], html: Path | None) -> None:
    """Print the test-strength matrix and write its page; the page is written even when verify fails, since it says why."""
    from ..atomic import atomic_write
    from ..tools.matrix_render import to_html, to_text
    from ..tools.verify import strength

    found = strength(problem, outcomes)
    print()
    print(to_text(found, problem.name))
    if html is not None:
        try:
            atomic_write(html, to_html(found, problem.name, problem.title))
        except OSError as exc:
            raise UsageError(f"{html}: cannot write: {exc.strerror}") from exc
        print(f"matrix written to {shown(html)}")
