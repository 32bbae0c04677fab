"""``verify``: the problem setter's full self-check, one line per test submission; ``--matrix`` adds the test-strength
matrix."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import EXIT_ACCEPTED, EXIT_REJECTED, UsageError
from ..text import safe_text
from .common import add_problem_command, ensure_cases, load_problem_arg, open_pool, output_file, ready, shown

if TYPE_CHECKING:
    from ..model import Problem
    from ..tools.verify import Outcome


# How each kind of finding is introduced in the summary: the words a reader (and a grep) looks for.
HEADINGS = {
    "input": "invalid input",
    "validator_test": "validator test",
    "answer": "invalid answer",
    "submission": "FAIL",
    "time_limit": "time limit",
    "package": "package error",
    "skipped": "skipped",
    "warning": "warning",
}


def add(sub: argparse._SubParsersAction) -> None:
    v = add_problem_command(sub, "verify", "full self-check of a problem package")
    v.add_argument(
        "--matrix",
        action="store_true",
        help="judge every submission on every case and print which cases reject which wrong submissions, "
        "the cases rejecting nothing, and a smallest set of cases rejecting them all",
    )
    v.add_argument(
        "--html",
        type=Path,
        metavar="FILE",
        help="also write the matrix as a self-contained HTML page (implies --matrix)",
    )
    v.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="also write every finding and every submission's outcome as JSON to FILE ('-': standard output, for CI)",
    )


def run(args: argparse.Namespace) -> int:
    from ..core.run_limits import time_limit
    from ..tools.verify import slowest_accepted, verify

    to_stdout = args.json == Path("-")
    for option, value in (("--html", args.html), ("--json", None if to_stdout else args.json)):
        if value is not None:
            output_file(value, option)
    out = sys.stderr if to_stdout else sys.stdout  # with --json -, standard output carries the JSON alone
    matrix = args.matrix or args.html is not None
    problem = load_problem_arg(args.problem)
    print(
        f"{problem.name}: spec ok ({len(problem.groups)} groups, {len(problem.cases)} cases, "
        f"max score {problem.max_score:g})",
        file=out,
    )

    def show(o: Outcome) -> None:
        slowest = max((c.time for c in o.report.cases), default=0.0)
        mark = "ok" if o.ok else "FAIL"
        name = safe_text(o.label, one_line=True)
        score = f"  score {o.report.score:g}/{o.report.max_score:g}" if problem.max_score else ""
        graded = o.report.graded  # a legacy package's graders' verdict, where it differs from the first failing case's
        got = o.report.verdict.value
        got += f" (graded {graded.verdict})" if graded is not None and graded.verdict != got else ""
        print(
            f"  {mark:4}  {name:44} expected {o.expected.label:3}  got {got:3}  slowest {slowest:.3f}s{score}",
            file=out,
            flush=True,
        )
        for line in o.failures:
            print(f"        {safe_text(line, one_line=True)}", file=out, flush=True)

    with open_pool(args, problem) as pool:
        if problem.package_format == "kattis":  # verify infers a missing limit itself, once, and stores it for judge
            ensure_cases(problem, pool)
        else:
            problem = ready(problem, pool)
        result = verify(problem, pool, show, all_cases=matrix, log=lambda line: print(line, file=sys.stderr))
        problem = result.problem or problem
    for lang, (time, path) in sorted(slowest_accepted(problem, result.outcomes).items()):
        limit = time_limit(problem, lang)
        print(
            f"  time: {lang:8} slowest accepted {time:.3f}s ({path.name}) of {limit:g}s limit, "
            f"margin {limit / max(time, 1e-3):.1f}x",
            file=out,
        )
    if matrix:
        _show_matrix(problem, result.outcomes, args.html, out)
    findings = result.findings
    if findings:
        print(f"{len(findings)} finding(s):", file=out)
    for f in findings:
        where = f"{f.subject}: " if f.subject and not f.message.startswith(f.subject) else ""
        print(f"  {HEADINGS.get(f.kind, f.kind)}: {safe_text(where + f.message, one_line=True)}", file=out)
    bad = [o for o in result.outcomes if not o.ok]
    valid = len(problem.cases) - len(result.invalid_inputs)
    inputs = f"{valid}/{len(problem.cases)} inputs valid" if result.validated else "inputs not validated"
    if result.validator_cases:
        wrong = sum(f.kind == "validator_test" for f in result.errors)
        inputs += f", {result.validator_cases - wrong}/{result.validator_cases} invalid/valid-output cases judged as bt"
    print(
        f"{problem.name}: {'verified' if result.ok else 'NOT verified'}: "
        f"{len(result.outcomes) - len(bad)}/{len(result.outcomes)} submissions as expected, {inputs}",
        file=out,
    )
    if args.json is not None:
        _write_json(result.to_json(problem), args.json)
    return EXIT_ACCEPTED if result.ok else EXIT_REJECTED


def _write_json(data: dict[str, object], path: Path) -> None:
    import json

    from ..atomic import atomic_write

    text = json.dumps(data, indent=2) + "\n"
    if path == Path("-"):
        sys.stdout.write(text)
        return
    try:
        atomic_write(path, text)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror}") from exc


def _show_matrix(problem: Problem, outcomes: list[Outcome], html: Path | None, out: TextIO) -> None:
    """Print the test-strength matrix and write its page; the page is written even when verify fails, since it says
    why."""
    from ..atomic import atomic_write
    from ..tools.matrix_render import to_html, to_text
    from ..tools.verify import strength

    found = strength(problem, outcomes)
    print(file=out)
    print(to_text(found, problem.name), file=out)
    if html is not None:
        try:
            atomic_write(html, to_html(found, problem.name, problem.title))
        except OSError as exc:
            raise UsageError(f"{html}: cannot write: {exc.strerror}") from exc
        print(f"matrix written to {shown(html)}", file=out)
