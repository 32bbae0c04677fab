"""The command line: build the parser from the command modules, run one, and map what it raised to an exit code.

Exit codes: 0 every case accepted (or the command succeeded); 1 judged and
not accepted (or a check found problems); 2 bad usage, bad problem spec,
missing files; 3 judge error (a checker crashed, the judge itself failed).
Every error is one line on stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Sequence

from .. import __version__
from ..errors import EXIT_JUDGE_ERROR, EXIT_REJECTED, JudgeError, SpecError, UsageError
from . import (cmd_bench, cmd_export, cmd_generate, cmd_grade, cmd_judge, cmd_list, cmd_promote, cmd_report, cmd_sandbox,
               cmd_stress, cmd_validate, cmd_verify)
from .common import EPILOG

# Each command module adds its parser and runs it; what only one command needs (grading, reports, stress, verify,
# the benchmark) is imported inside its ``run``: every judge run pays for what it imports, and start-up is measured.
COMMANDS: dict[str, ModuleType] = {
    "list": cmd_list, "judge": cmd_judge, "generate": cmd_generate, "validate": cmd_validate, "verify": cmd_verify,
    "grade": cmd_grade, "stress": cmd_stress, "promote": cmd_promote, "export": cmd_export, "bench": cmd_bench, "report": cmd_report,
    "sandbox": cmd_sandbox,
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    # prog is how the judge was started: ``run_judge.py`` in a checkout, ``tilejudge`` once installed.
    parser = _Parser(prog=Path(sys.argv[0]).name or "tilejudge", description="Judge programs against problem packages.", epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in COMMANDS.values():
        module.add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if getattr(args, "jobs", 1) < 1:
            raise UsageError("-j must be at least 1")
        return COMMANDS[args.command].run(args)
    except SpecError as exc:  # already "file:line: message", the form editors and CI logs link to
        print(exc, file=sys.stderr)
        return exc.exit_code
    except JudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # the reader went away (| head): nothing left to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_REJECTED
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug in the judge: one line, the traceback only on request
        if os.environ.get("TILEJUDGE_DEBUG"):
            traceback.print_exc()
        print(f"judge error: {type(exc).__name__}: {exc} (set TILEJUDGE_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_JUDGE_ERROR
