"""Folders the test suite keeps from one run to the next, for what costs a run many CPU-seconds to make and what no
test is about: the reference tools' venv (``tests/tools/test_export_reference_tools.py``) and the wheels of the
package's test extras (``tests/project/test_package.py``). Both were made by pip from the package index in every
run, most of their tests' CPU time; the judge's own cache (``~/.cache/tilejudge``) is kept between runs the same
way, so a fresh clone of the checkout uses what an earlier one made. Kept the same way, for the same reason: bt's
builds of the exported submissions (``bt_builds.py``) and Hypothesis's Unicode tables and module constants
(``conftest.py``).

The folder is ``tilejudge-tests`` in the user's cache folder (``XDG_CACHE_HOME``, else ``~/.cache``), or
``TILEJUDGE_TEST_CACHE``; deleting it is always safe and only costs the work again. Each user of it takes the lock
of its own sub-folder (``locked``), so concurrent runs, and the xdist workers of one, make a thing once and never
see it half made."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from judge.run import held


def kept_folder(name: str) -> Path:
    """The kept folder ``name``, made (private to this user) if missing."""
    base = os.environ.get("TILEJUDGE_TEST_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tilejudge-tests"
    )
    folder = Path(base) / name
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


@contextmanager
def locked(folder: Path) -> Iterator[Path]:
    """``folder`` held under its lock (``judge.run.held``: released also when the block raises or its holder dies)."""
    with held(folder / ".lock"):
        yield folder
