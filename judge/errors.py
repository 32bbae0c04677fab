"""Errors that end a command with a one-line message and a documented exit code.

The CLI catches exactly these; anything else is a bug in the judge and is
reported as a judge error (exit 3) rather than a traceback.
"""

from __future__ import annotations

import os

EXIT_ACCEPTED = 0
EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_JUDGE_ERROR = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


class JudgeError(Exception):
    """Base class: carries the exit code the CLI should use."""

    exit_code = EXIT_JUDGE_ERROR


class UsageError(JudgeError):
    """The user asked for something impossible: bad arguments, missing files, unknown language."""

    exit_code = EXIT_USAGE


def no_such_file(path: str | os.PathLike[str]) -> UsageError:
    """The error for a path that should name a file: missing, or there but a device, pipe or socket, which reading
    would hang on or exhaust (``/dev/zero``, a FIFO no one writes)."""
    there = os.path.lexists(path)
    return UsageError(f"{path}: not a regular file (a device, pipe or socket)" if there else f"{path}: no such file")


class SpecError(UsageError):
    """A problem package is malformed; the message names the file and line."""

    def __init__(self, path: object, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")


class SetupError(JudgeError):
    """The machine cannot do what was asked (a compiler or tool is missing)."""


class Aborted(JudgeError):
    """A run asked for after its slot was stopped (Ctrl-C): the caller's work is being thrown away."""


class Cancelled(JudgeError):
    """A run stopped because its result can no longer count (a case beside a first failure): the slot stays usable,
    and the caller records nothing for it."""
