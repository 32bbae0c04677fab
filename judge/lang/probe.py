"""Which languages this machine can run, and their versions: what ``languages`` shows and docs/languages.md records.

Versions come from each entry's ``version`` command, run as the judge (not
sandboxed: it is the registry's own command, not a submission) with a time
limit, all at once in threads because the JVM-based probes take a second
each, and remembered until the tool's file changes (an upgrade replaces
it), so listing again costs no JVM start. A probe that fails gives no
version, never an error, and is not remembered: the listing is for finding
out what is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..filecache import recall, remember, signatures
from .language import Language, which

PROBE_SECONDS = 30


@dataclass(frozen=True)
class Installed:
    """A language as found on this machine."""

    language: Language
    missing: tuple[str, ...]
    version: str

    @property
    def ok(self) -> bool:
        return not self.missing


def version(lang: Language) -> str:
    """The first line of the version command's output that is not a warning; empty when it cannot be run."""
    if not lang.version:
        return ""
    argv = [sys.executable if word == "{python}" else word for word in lang.version]
    found = which(argv[0])
    if found is None:
        return ""
    tool = os.path.realpath(found)
    key = "\0".join([tool, *argv[1:]])
    known = recall("version", key, [])
    if isinstance(known, str):
        return known
    from ..run.launcher import DEFAULT_PATH

    try:
        done = subprocess.run(
            [found, *argv[1:]],
            capture_output=True,
            timeout=PROBE_SECONDS,
            stdin=subprocess.DEVNULL,
            env={"PATH": DEFAULT_PATH, "LANG": "C.UTF-8", "HOME": "/tmp"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = (done.stdout + b"\n" + done.stderr).decode("utf-8", "replace").splitlines()
    text = next((line.strip() for line in lines if line.strip() and "warning" not in line.lower()), "")
    if text:
        remember("version", key, [], text, signatures([tool]))
    return text


def survey(languages: Iterable[Language]) -> list[Installed]:
    """Every language with its missing tools and version, probed in parallel."""
    langs = list(languages)

    def one(lang: Language) -> Installed:
        missing = tuple(lang.missing())
        return Installed(lang, missing, "" if missing else version(lang))

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(one, langs))
