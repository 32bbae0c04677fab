"""The command line that makes a stress case's input again, written so that it runs as printed in the user's shell.

The generator's path alone is no command: a Python or shell file need not be executable (the bundled ones are not,
and "Permission denied" was what the printed line gave), and a compiled language's source must be built first. The
line is the command the judge itself ran the generator with: an interpreted source through its interpreter, named
by the source's own path when the judge ran an unchanged copy of it, and anything else (a build, a source whose
constants were substituted) as the built program in the judge's cache, which is there while the cache is.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.run_limits import Role, trusted_limits
from ..lang import Program


def reproduce_line(program: Program, source: Path, args: Sequence[str], shown: Callable[[Path], str]) -> str:
    """The shell line that runs ``program`` (built from ``source``) with ``args``; ``shown`` writes a path as the user
    would type it."""
    built = program.command(trusted_limits(Role.GENERATOR, program).command_memory)
    argv = [_source_or_copy(word, source, shown) for word in built]
    if argv == built:  # a built program (or a changed copy): it runs alone, from the cache
        return shlex.join([*argv, *args])
    argv[0] = _on_path(argv[0])
    env = [f"{name}={value}" for name, value in program.language.env.items() if "{" not in value]
    return shlex.join([*(["env", *env] if env else []), *argv, *args])


def _source_or_copy(word: str, source: Path, shown: Callable[[Path], str]) -> str:
    """The source's own path where the command names the build's copy of it, if the copy is the same text."""
    copy = Path(word)
    if copy.name != source.name or not copy.is_file():
        return word
    try:
        same = copy.read_bytes() == source.read_bytes()
    except OSError:
        return word
    return shown(source) if same else word


def _on_path(interpreter: str) -> str:
    """``python3`` rather than a long path, when that name on PATH is the same interpreter the judge ran."""
    name = os.path.basename(interpreter)
    found = shutil.which(name)
    if found and os.path.realpath(found) == os.path.realpath(interpreter):
        return name
    return interpreter
