"""One judge at a time makes a problem's test data.

Two judges started together on a package whose cases are missing or stale
(a teacher grading two classes at once, two terminals on a fresh clone)
would otherwise both write the same case files: the second one's generator
truncates the input the first one's reference is reading, and a wrong answer
is recorded as the case's answer. The lock lives in the judge's cache, named
by the cases folder's real path, so nothing is added to the package or its
data.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from contextlib import AbstractContextManager

from ..model import Problem
from ..run import cache_root, held


def producing(problem: Problem, on_wait: Callable[[], None] | None = None) -> AbstractContextManager[None]:
    """Held while a problem's cases are checked and made; ``on_wait`` is called if another judge is making them."""
    key = hashlib.sha256(os.path.realpath(problem.cases_dir).encode()).hexdigest()[:32]
    return held(cache_root() / "locks" / f"cases-{key}.lock", on_wait)
