"""``stress``: fresh generator seeds until a submission disagrees with the reference; the failure shrunk and saved."""

from __future__ import annotations

import argparse
import shlex
import tempfile
from pathlib import Path

from ..core.added_to_build import added_to_build
from ..errors import EXIT_ACCEPTED, EXIT_REJECTED, UsageError, no_such_file
from ..lang import prepare_program
from ..text import safe_text
from .common import add_problem_command, load_problem_arg, open_pool, shown


def add(sub: argparse._SubParsersAction) -> None:
    st = add_problem_command(
        sub, "stress", "fresh generator seeds until SUBMISSION disagrees with the reference; shrink and save the case"
    )
    st.add_argument("submission", type=Path)
    st.add_argument("--against", type=Path, help="reference program (default: the spec's first solution)")
    st.add_argument(
        "--gen-args",
        help='generator arguments with {seed} (and {size} to shrink), e.g. "random --size {size} --seed {seed}"',
    )
    st.add_argument("--size", type=int, default=10, help="value of {size} while searching (default 10)")
    st.add_argument(
        "--seconds", type=float, default=60, help="search budget (default 60); shrinking gets the same again"
    )


def run(args: argparse.Namespace) -> int:
    from ..tools import stress
    from ..tools.reproduce import reproduce_line

    problem = load_problem_arg(args.problem)
    if not args.submission.is_file():
        raise no_such_file(args.submission)
    if args.size < 1 or args.seconds <= 0:
        raise UsageError("--size must be at least 1 and --seconds positive")
    templates = [stress.parse_template(args.gen_args)] if args.gen_args else stress.spec_templates(problem)
    with open_pool(args, problem) as pool, tempfile.TemporaryDirectory(prefix="stress-") as work:
        program = prepare_program(
            args.submission.resolve(),
            None,
            pool,
            problem.limits.compile_time,
            extra=added_to_build(problem, args.submission),
        )
        if not program.compiled:
            print(f"CE: {safe_text(program.compile_error, one_line=True)}")
            return EXIT_REJECTED
        stresser = stress.Stresser(
            problem, program, stress.prepare_reference(problem, args.against, pool), pool, Path(work)
        )

        def log(line: str) -> None:
            print(line, flush=True)

        failure = stresser.search(templates, args.size, args.seconds, log)
        if failure is None:
            print(f"no difference found in {stresser.rounds} rounds ({args.seconds:g} s)")
            return EXIT_ACCEPTED
        failure = stresser.shrink(templates, failure, args.seconds, log)
        name = stress.save(problem, failure)
    assert problem.generator is not None  # the Stresser refuses a problem without one
    reproduce = reproduce_line(stresser.generator, problem.generator, failure.args, shown)
    print(f"{failure.result.verdict.value} ({failure.result.verdict.meaning}): {safe_text(failure.result.message)}")
    print(f"saved as {shown(stress.stress_folder(problem) / name)}.in/.ans (size {failure.size})")
    print(f"reproduce: {reproduce}")
    print(f"add it to the test set: python run_judge.py promote {shlex.quote(args.problem)} {name}")
    return EXIT_REJECTED
