"""Does a validator reject what no input can be? verify feeds it junk and altered copies of real inputs.

A validator that accepts everything (exits 42 whatever it reads, or checks
the numbers but not the layout) passes every real input, so nothing else
would show it; a submission that relies on the stated format then meets
inputs it was promised never to see. problemtools makes the same kind of
check; the files and alterations here are this judge's own. Each finding is
a warning: some formats do allow extra blanks, and only the setter knows.
"""

from __future__ import annotations

import random
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..core.validators import Validator, built, check
from ..model import CaseSpec, Problem, input_path
from ..run import SlotPool

TRIED_CASES = 3  # the smallest inputs: an alteration that slips past on these would on any
LARGEST_TRIED = 1 << 20

_rng = random.Random(20261126)  # the same junk on every run, so a warning never comes and goes
JUNK: tuple[tuple[str, bytes], ...] = (
    ("an empty file", b""),
    ("random bytes", bytes(_rng.randrange(256) for _ in range(2000))),
    ("one line of every printable ASCII character", bytes(range(32, 127)) + b"\n"),
    ("random printable text", "".join(_rng.choice("abc xyz 0123456789.-\n") for _ in range(2000)).encode()),
)
_INTEGER = re.compile(rb"(?<![\w.])(-?)(\d+)(?![\w.])")
_DECIMAL = re.compile(rb"(?<![\w.])(-?\d+\.\d+)(?![\w.])")
ALTERATIONS: tuple[tuple[str, Callable[[bytes], bytes]], ...] = (
    ("a second space after every space", lambda text: text.replace(b" ", b"  ")),
    ("a space before every line end", lambda text: text.replace(b"\n", b" \n")),
    ("an empty line after every line", lambda text: text.replace(b"\n", b"\n\n")),
    ("a leading zero on every integer", lambda text: _INTEGER.sub(rb"\g<1>0\g<2>", text)),
    ("a trailing zero on every decimal number", lambda text: _DECIMAL.sub(rb"\g<1>0", text)),
    ("a line of junk after the end", lambda text: text + b"junk 12 x\n"),
)


def junk_warnings(problem: Problem, pool: SlotPool) -> list[str]:
    """One warning per junk file a validator accepts, and per alteration that every validator accepts on every input
    tried it changed."""
    validators = built(problem, pool)
    tried = sorted(
        (c for c in problem.cases if input_path(problem, c).stat().st_size <= LARGEST_TRIED),
        key=lambda c: (input_path(problem, c).stat().st_size, c.key),
    )[:TRIED_CASES]
    if not tried:
        return []
    warnings = []
    with tempfile.TemporaryDirectory(prefix="junk-") as tmp:
        for what, data in JUNK:
            for validator in validators:
                if _accepts(validator, tried[0], data, Path(tmp), pool):
                    warnings.append(f"input validator{validator.label} accepts {what}")
        for what, alter in ALTERATIONS:
            changed = [
                (case, altered)
                for case in tried
                if (altered := alter(original := input_path(problem, case).read_bytes())) != original
            ]
            if changed and all(_accepts(v, case, data, Path(tmp), pool) for case, data in changed for v in validators):
                names = ", ".join(case.key for case, _ in changed)
                warnings.append(f"the input validators accept the inputs with {what} ({names})")
    return warnings


def _accepts(validator: Validator, case: CaseSpec, data: bytes, folder: Path, pool: SlotPool) -> bool:
    """Whether the validator, given the case's arguments, calls ``data`` valid."""
    path = folder / "input"
    path.write_bytes(data)
    return check(validator, case.validator_args_for(validator.name), path, pool).valid is True
