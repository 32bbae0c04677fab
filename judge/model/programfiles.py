"""What a package adds to the programs built for it, beyond their own sources: part of the neutral model.

Kept apart from ``problem.py`` so the formats that fill it (Kattis ``include/``
and ``constants``, our ``libraries`` key, validator protocols) stay one small
record; ``judge.core.added_to_build`` turns it into what the build layer adds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

# validator protocols: testlib exits 0 on valid input, Kattis 42 (43 invalid), checktestdata 0 (1 invalid, 2: it failed)
TESTLIB, KATTIS, CHECKTESTDATA = "testlib", "kattis", "checktestdata"


@dataclass(frozen=True)
class ProgramFiles:
    """Files and constants a problem adds to its programs, and how its validators speak. Paths are absolute.

    ``include``: a Kattis ``include/`` folder, whose ``default/`` and
    ``<language>/`` files join every submission. ``libraries``: folders whose
    files join every problem program (generator, validators, checker,
    references), never a contestant's submission. ``constants``: ``name`` and
    ``name.variant`` to the text written for ``{{name}}`` in the package's
    programs and included files. ``validator_protocols``: a validator's
    protocol when the package says it; otherwise its source decides
    (``registerValidation``: testlib). ``validator_names``: the name a
    package's settings give a validator's arguments under (Kattis: its file
    or folder name), where it differs from the program's file name.
    """

    include: Path | None = None
    libraries: tuple[Path, ...] = ()
    constants: Mapping[str, str] = field(default_factory=dict)
    validator_protocols: Mapping[Path, str] = field(default_factory=dict)
    validator_names: Mapping[Path, str] = field(default_factory=dict)  # a validator's name in the package, by program
