"""The command line: build the parser from the command modules, run one, and map what it raised to an exit code.

Exit codes: 0 every case accepted (or the command succeeded); 1 judged and
not accepted (or a check found problems); 2 bad usage, bad problem spec,
missing files; 3 judge error (a checker crashed, the judge itself failed).
Every error is one line on stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Sequence

from .. import __version__
from ..errors import EXIT_JUDGE_ERROR, EXIT_REJECTED, JudgeError, SpecError, UsageError
from .usage import EPILOG

# Each command module adds its parser and runs it; only the module of the command being run is imported (all of them
# for --help or an unknown command), and what only one command needs (grading, reports, stress, verify, the benchmark)
# is imported inside its ``run``: every run pays for what it imports, and start-up is measured (.ci/startup.py).
COMMANDS: tuple[str, ...] = (
    "list", "judge", "generate", "validate", "verify", "grade", "stress", "promote", "export", "bench", "report", "sandbox", "languages",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _module(command: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.cmd_{command}")


def _wanted(argv: Sequence[str]) -> tuple[str, ...]:
    """The commands whose parsers this command line needs: the one it names; all for help or an unknown command; none
    for ``--version`` alone (or no command at all, which is a usage error)."""
    named = next((arg for arg in argv if not arg.startswith("-")), None)
    if named in COMMANDS:
        return (named,)
    return COMMANDS if named is not None or {"-h", "--help"} & set(argv) else ()


def _parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    # prog is how the judge was started: ``run_judge.py`` in a checkout, ``tilejudge`` once installed.
    parser = _Parser(prog=Path(sys.argv[0]).name or "tilejudge", description="Judge programs against problem packages.", epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in _wanted(argv):
        _module(command).add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        args = _parser(argv).parse_args(argv)
        if getattr(args, "jobs", 1) < 1:
            raise UsageError("-j must be at least 1")
        return _module(args.command).run(args)
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
