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

from ..core.validators import Validator, built
from ..core.validators import check as check_one
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


# one validator on one file with a case's arguments
Check = tuple[Validator, CaseSpec, Path]


def junk_warnings(problem: Problem, pool: SlotPool) -> list[str]:
    """One warning per junk file a validator accepts, and per alteration that every validator accepts on every input
    tried it changed. The validators' runs are spread over the pool's slots (``_accepted``)."""
    validators = built(problem, pool)
    tried = sorted(
        (c for c in problem.cases if input_path(problem, c).stat().st_size <= LARGEST_TRIED),
        key=lambda c: (input_path(problem, c).stat().st_size, c.key),
    )[:TRIED_CASES]
    if not tried:
        return []
    with tempfile.TemporaryDirectory(prefix="junk-") as tmp:
        folder = Path(tmp)
        junk: list[tuple[str, list[Check]]] = []
        for n, (what, data) in enumerate(JUNK):
            path = folder / f"junk{n}"
            path.write_bytes(data)
            junk += [(f"input validator{v.label} accepts {what}", [(v, tried[0], path)]) for v in validators]
        altered: list[tuple[str, list[Check]]] = []
        for n, (what, alter) in enumerate(ALTERATIONS):
            checks: list[Check] = []
            changed = []
            for case in tried:
                original = input_path(problem, case).read_bytes()
                if (data := alter(original)) != original:
                    path = folder / f"altered{n}-{len(changed)}"
                    path.write_bytes(data)
                    changed.append(case.key)
                    checks += [(v, case, path) for v in validators]
            if checks:
                names = ", ".join(changed)
                altered.append((f"the input validators accept the inputs with {what} ({names})", checks))
        found = junk + altered
        return [warning for (warning, _), accepted in zip(found, _accepted([c for _, c in found], pool)) if accepted]


def _accepted(groups: list[list[Check]], pool: SlotPool) -> list[bool]:
    """For each group of checks, whether its validators call every one of its files valid. The first check of every
    group runs at once, spread over the pool's slots (one after another, a package's twenty-odd validator runs were
    a second or more of verify with the other slot idle); then the rest of the groups whose first check was accepted.
    A validator that rejects an alteration does so on its first input, so no more runs are made than one by one."""
    from concurrent.futures import ThreadPoolExecutor  # only verify's junk check needs it

    def accepts(check: Check) -> bool:
        validator, case, path = check
        return check_one(validator, case.validator_args_for(validator.name), path, pool).valid is True

    with ThreadPoolExecutor(max_workers=pool.size) as executor:
        firsts = list(executor.map(accepts, [group[0] for group in groups]))
        rests = [group[1:] if first else [] for group, first in zip(groups, firsts, strict=True)]
        later = iter(list(executor.map(accepts, [c for rest in rests for c in rest])))
        return [first and all([next(later) for _ in rest]) for first, rest in zip(firsts, rests, strict=True)]
