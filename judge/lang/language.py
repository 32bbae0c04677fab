"""One language as the judge uses it: a build-and-run recipe, and where its tools are looked up.

Kept apart from the registry (which reads the files) so that submissions'
source sets and builds can use a language without importing the parsing.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SetupError

PLACEHOLDER = re.compile(r"^\{\w+\}")  # a word starting with one is a built file ({exe}, {src}/run), not a tool


@dataclass(frozen=True)
class Language:
    """A build-and-run recipe read from a registry file; see the header of ``languages.yaml`` for what each field
    means."""

    name: str
    run: tuple[str, ...]
    title: str = ""
    aliases: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()
    headers: tuple[str, ...] = ()
    shebang: str | None = None
    package: str = ""
    version: tuple[str, ...] = ()
    compile: tuple[tuple[str, ...], ...] = ()
    entry: str = "file"
    main_pattern: str | None = None
    class_pattern: str | None = None
    class_name: str | None = None
    package_pattern: str | None = None
    rename: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    paths: tuple[str, ...] = ()
    time_factor: float = 1.0
    limit_address_space: bool = True
    oom_markers: tuple[bytes, ...] = ()
    error_pattern: str | None = None
    markers: tuple[str, ...] = ()

    def compile_error(self, log: str) -> str:
        """The line of a failed build's output that names the error, for one-line messages: the first line matching
        ``error_pattern`` (compilers often print warnings or context first, Kotlin a JVM deprecation warning), with
        the next line added when it ends in a colon (GHC, Scala put the message on the following line); else the
        first line that says anything."""
        lines = [line.strip() for line in log.splitlines()]
        pattern = re.compile(self.error_pattern) if self.error_pattern else None
        found = next((n for n, line in enumerate(lines) if pattern and pattern.search(line)), None)
        if found is None:
            return next((line for line in lines if line), "")
        more = next((line for line in lines[found + 1 :] if line), "") if lines[found].endswith(":") else ""
        return f"{lines[found]} {more}".strip()

    @property
    def tools(self) -> tuple[str, ...]:
        """The programs this language calls (first word of each command), in order, without placeholders such as
        {exe}."""
        words = [step[0] for step in (*self.compile, self.run) if step]
        return tuple(dict.fromkeys(w for w in words if not PLACEHOLDER.match(w)))

    def address_space(self, memory_mib: int) -> int | None:
        """The address-space limit this language's programs get: none where the runtime reserves far more than it
        uses."""
        return memory_mib if self.limit_address_space else None

    def system_paths(self) -> list[Path]:
        """What the toolchain reads outside /usr (GHC's package database, fpc.cfg), made visible read-only in the
        sandbox."""
        return [Path(p) for p in self.paths if os.path.exists(p)]

    def missing(self) -> list[str]:
        """Tools of this language that are not installed where sandboxed runs look for them."""
        return [t for t in self.tools if which(t) is None]

    def require(self) -> None:
        """Stop with one line naming the package when a tool is missing: the machine's fault (exit 3), not the
        submission's."""
        missing = self.missing()
        if missing:
            hint = f"; install the Debian package {self.package}" if self.package else ""
            raise SetupError(f"language '{self.name}' needs '{missing[0]}', which is not installed here{hint}")


def which(name: str) -> str | None:
    """A tool's path on the PATH sandboxed runs get (so the judge's own PATH, e.g. ~/.cargo/bin, never leaks in)."""
    from ..run.launcher import DEFAULT_PATH  # the run layer is imported only by commands that run something

    if name.startswith("/"):
        return name if os.access(name, os.X_OK) else None
    return shutil.which(name, path=DEFAULT_PATH)


def tool(name: str) -> str:
    """The path of a tool; a missing one is the machine's fault (exit 3), not the submission's."""
    found = which(name)
    if found is None:
        raise SetupError(f"'{name}' is not installed on this machine; it is needed for this language")
    return found
