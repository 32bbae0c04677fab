"""The command line: parse it (``parsing.py``), run the command, and map what it raised to an exit code.

Exit codes: 0 every case accepted (or the command succeeded); 1 judged and
not accepted (or a check found problems); 2 bad usage, bad problem spec,
missing files; 3 judge error (a checker crashed, the judge itself failed).
Every error is one line on stderr, never a traceback.

Start-up is part of every command's cost, so this module imports only the
errors: ``--version`` alone is answered before argparse is imported.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import (
    EXIT_ACCEPTED,
    EXIT_INTERRUPTED,
    EXIT_JUDGE_ERROR,
    EXIT_REJECTED,
    EXIT_USAGE,
    JudgeError,
    SpecError,
    UsageError,
)

# what judging imports from outside the standard library (pyproject.toml's dependencies), by module: a Python without
# them (Debian's own, before the set-up's pip install) gets the line that installs them, not a judge error
REQUIRED = {"yaml": "PyYAML", "tqdm": "tqdm", "checktestdata": "checktestdata"}
INSTALL = (
    "install the requirements in a virtual environment (python3 -m venv .venv && .venv/bin/pip install -r "
    "requirements.txt) and run the judge with .venv/bin/python"
)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        prog = os.path.basename(sys.argv[0]) or "tilejudge"  # run_judge.py in a checkout, tilejudge once installed
        if argv == ["--version"]:  # what argparse prints for it, without importing argparse
            print(f"{prog} {__version__}")
            return EXIT_ACCEPTED
        from .parsing import command_module, overview, parse

        if not argv:  # a bare command: the commands there are, not only "the following arguments are required"
            print(overview(prog))
            return EXIT_USAGE
        args = parse(argv, prog)
        if getattr(args, "jobs", 1) < 1:
            raise UsageError("-j must be at least 1")
        if getattr(args, "verbose", False):  # -v: each phase as it ends (judge/core/phases.py)
            from ..core.phases import listening

            with listening(lambda line: print(line, file=sys.stderr, flush=True)):
                return command_module(args.command).run(args)
        return command_module(args.command).run(args)
    except SpecError as exc:  # already "file:line: message", the form editors and CI logs link to
        print(exc, file=sys.stderr)
        return exc.exit_code
    except JudgeError as exc:
        usage = getattr(exc, "usage", "")  # a command line argparse refused: the command's usage line above the error
        print(f"{usage.rstrip()}\nerror: {exc}" if usage else f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # the reader went away (| head): nothing left to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_REJECTED
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug in the judge: one line, the traceback only on request
        if isinstance(exc, ModuleNotFoundError) and exc.name in REQUIRED:  # not a bug: the requirements are missing
            print(f"error: {REQUIRED[exc.name]} is not installed for {sys.executable}: {INSTALL}", file=sys.stderr)
            return EXIT_JUDGE_ERROR
        if os.environ.get("TILEJUDGE_DEBUG"):
            import traceback  # only a judge bug pays for it

            traceback.print_exc()
        print(f"judge error: {type(exc).__name__}: {exc} (set TILEJUDGE_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_JUDGE_ERROR
