"""``verify``: the problem setter's full self-check, one line per test submission."""
from __future__ import annotations

import argparse

from ..errors import EXIT_ACCEPTED, EXIT_REJECTED
from ..text import safe_text
from .common import add_problem_command, load_problem_arg, open_pool, ready


def add(sub: argparse._SubParsersAction) -> None:
    add_problem_command(sub, "verify", "full self-check of a problem package")

def run(args: argparse.Namespace) -> int:
    from ..tools.verify import Outcome, slowest_accepted, verify

    problem = load_problem_arg(args.problem)
    print(f"{problem.name}: spec ok ({len(problem.groups)} groups, {len(problem.cases)} cases, max score {problem.max_score:g})")

    def show(o: Outcome) -> None:
        slowest = max((c.time for c in o.report.cases), default=0.0)
        mark = "ok" if o.ok else "FAIL"
        name = safe_text(f"{o.path.parent.name}/{o.path.name}", one_line=True)
        print(f"  {mark:4}  {name:44} expected {o.expected.label:3}  got {o.report.verdict.value:3}  slowest {slowest:.3f}s", flush=True)

    with open_pool(args, problem) as pool:
        problem = ready(problem, pool)
        result = verify(problem, pool, show)
    for line in result.invalid_inputs:
        print(f"  invalid input: {line}")
    for lang, (time, path) in sorted(slowest_accepted(problem, result.outcomes).items()):
        limit = problem.limits.time_for(lang)
        print(f"  time: {lang:8} slowest accepted {time:.3f}s ({path.name}) of {limit:g}s limit, margin {limit / max(time, 1e-3):.1f}x")
    for line in result.warnings:
        print(f"  warning: {line}")
    bad = [o for o in result.outcomes if not o.ok]
    print(f"{problem.name}: {'verified' if result.ok else 'NOT verified'}: {len(result.outcomes) - len(bad)}/{len(result.outcomes)} submissions as expected, "
          f"{len(problem.cases) - len(result.invalid_inputs)}/{len(problem.cases)} inputs valid")
    return EXIT_ACCEPTED if result.ok else EXIT_REJECTED
