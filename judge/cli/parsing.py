"""The parser of the command line, holding only the commands a given command line needs.

Apart from ``app.py`` so that ``--version``, answered before any parsing,
does not import argparse either.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from .. import __version__
from ..errors import UsageError
from .usage import EPILOG

# Each command module adds its parser and runs it; only the module of the command being run is imported (all of them
# for --help or an unknown command), and what only one command needs (grading, reports, stress, verify, the benchmark)
# is imported inside its ``run``: every run pays for what it imports, and start-up is measured (``bench``,
# .ci/startup.py).
COMMANDS: tuple[str, ...] = (
    "list",
    "judge",
    "generate",
    "validate",
    "verify",
    "grade",
    "stress",
    "promote",
    "export",
    "bench",
    "report",
    "sandbox",
    "languages",
    "serve",
    "shadow",
    "export-contest",
)


def _width() -> int:
    """The terminal's width less argparse's margin, found as ``shutil.get_terminal_size`` finds it, without importing
    shutil (and, through it, bz2 and lzma): argparse builds a help formatter for every ``add_argument``."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 80
    return (columns or 80) - 2


class CommandLineError(UsageError):
    """A command line argparse refused, with the usage line of the command it was for: ``app.py`` prints that line
    above the one-line error, as a bare ``judge`` needs its usage shown more than the name of one missing argument."""

    def __init__(self, message: str, usage: str) -> None:
        super().__init__(message)
        self.usage = usage


class _Parser(argparse.ArgumentParser):
    missing = ""  # what this command says when its positional arguments are missing, instead of argparse's words

    def error(self, message: str) -> None:  # type: ignore[override]
        if self.missing and message.startswith("the following arguments are required"):
            message = self.missing
        raise CommandLineError(message, self.format_usage())

    def _get_formatter(self) -> argparse.HelpFormatter:
        return self.formatter_class(prog=self.prog, width=_width())


def command_module(command: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.cmd_{command.replace('-', '_')}")


def _wanted(argv: Sequence[str]) -> tuple[str, ...]:
    """The commands whose parsers this command line needs: the one it names; all for help or an unknown command; none
    for ``--version`` alone (or no command at all, which is a usage error)."""
    named = next((arg for arg in argv if not arg.startswith("-")), None)
    if named in COMMANDS:
        return (named,)
    return COMMANDS if named is not None or {"-h", "--help"} & set(argv) else ()


def needs(parser: argparse.ArgumentParser, missing: str) -> None:
    """Say ``missing`` (what the command needs, all of it) when the command is typed without its arguments."""
    parser.missing = missing  # type: ignore[attr-defined]


def parse(argv: Sequence[str], prog: str) -> argparse.Namespace:
    named = next((arg for arg in argv if not arg.startswith("-")), None)
    if named is not None and named not in COMMANDS:  # argparse's "invalid choice" lists 14 names and guesses none
        import difflib  # only a mistyped command pays for it

        close = difflib.get_close_matches(named.lower(), COMMANDS, n=2, cutoff=0.6)
        raise UsageError(
            f"{named}: no such command; did you mean {' or '.join(close)}?"
            if close
            else f"{named}: no such command (the commands: {', '.join(COMMANDS)})"
        )
    parser, sub = _parser(argv, prog)
    args = parser.parse_args(argv)
    check = getattr(command_module(args.command), "check", None)  # what a command needs beyond argparse's rules
    wrong = check(args) if check is not None else None
    if wrong:
        sub.choices[args.command].error(wrong)
    return args


def overview(prog: str) -> str:
    """The help of the whole tool, every command listed: what a bare ``run_judge.py`` prints."""
    return _parser(["--help"], prog)[0].format_help()


def _parser(argv: Sequence[str], prog: str) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    parser = _Parser(
        prog=prog,
        description="Judge programs against problem packages.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in _wanted(argv):
        command_module(command).add(sub)
    return parser, sub
