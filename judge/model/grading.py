"""A legacy Kattis package's grading tree: every folder of data/ with the grader that turns its children's results into
its own verdict and score.

The legacy format grades a tree, not a list of groups: each folder's grader
(the default one with its ``grader_flags``, or the package's own under
``graders/`` where ``grading: custom``) reads its children's results, cases
and sub-folders in name order, and gives the folder's verdict and score; the
root's are the submission's. The groups of ``problem.py`` keep the leaf
folders' cases and points for judging; this tree is what the format says the
verdict and the score are (``judge.core.legacy_grading`` evaluates it). Data
only, filled by the Kattis reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class GraderNode:
    """One folder: its settings as inherited down to it, and its children in the order its grader reads them.

    ``name`` is the folder under data/ ("" for data/ itself), as groups are
    named; a child is a sub-folder's node or a case's key (``group/name``).
    ``accept``/``reject`` score this folder's own cases that report no score;
    ``breaks`` (``on_reject: break``) stops reading children at the first one
    not accepted; ``custom`` runs the package's grader instead of the default.
    """

    name: str
    flags: tuple[str, ...]
    breaks: bool
    accept: float
    reject: float
    custom: bool
    children: tuple[GraderNode | str, ...]
    bounds: tuple[float, float] | None = None  # ``range``: where the folder's score must lie


@dataclass(frozen=True)
class LegacyGrading:
    """The tree, the package's own grader program (``graders/``) if a folder uses it, and the full score the package
    states (``range``'s upper end at data/, or at the one folder that holds every scored case), if it states one."""

    root: GraderNode
    grader: Path | None = None
    full_score: float | None = None
