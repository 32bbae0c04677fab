"""Where the bundled problems are and how a path is shown: imports nothing of the judge, so ``list`` stays light."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# A checkout keeps its bundled problems beside the package; an installed judge has none and looks in the current folder.
PROBLEMS = REPO / "problems" if (REPO / "problems").is_dir() else Path("problems")


def shown(path: Path) -> str:
    """A path as the user would type it: relative below the current folder, absolute elsewhere."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
