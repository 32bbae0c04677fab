"""Where the bundled problems are and how a path is shown, in ``os.path`` terms: ``list`` needs nothing more, and a
warm ``list`` imports neither pathlib nor any layer of the judge."""

from __future__ import annotations

import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
# A checkout keeps its bundled problems beside the package; an installed judge has none and looks in the current folder.
PROBLEMS = os.path.join(REPO, "problems") if os.path.isdir(os.path.join(REPO, "problems")) else "problems"


def shown(path: str | os.PathLike[str]) -> str:
    """A path as the user would type it: relative below the current folder, absolute elsewhere."""
    relative = os.path.relpath(os.path.realpath(path), os.getcwd())
    return str(path) if relative == os.pardir or relative.startswith(os.pardir + os.sep) else relative
