"""Legacy ``on_reject: break`` above the leaf folders: which groups problemtools never reaches after a rejection.

problemtools judges a legacy package as a tree: a folder whose ``on_reject``
is ``break`` (the default) stops at its first child, case or sub-folder,
whose result is not accepted, so every later sub-folder under it is neither
judged nor scored. Our groups are the leaf folders, so this module turns that
rule into the groups each group needs to have passed, the model's
``require_pass``: one rule for judging (a group whose required group failed
is not run) and for scoring (it earns nothing), as for a 2025-09 package.

A sub-folder's result is its grader's verdict. With the default flags
(``first_error``, ``worst_error``) it is rejected when any case is; with
``accept_if_any_accepted`` or ``always_accept`` on the way down it may be
accepted all the same, so such a folder stops nothing here (judging then runs
more than problemtools, never less).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

SOFTENING = {"accept_if_any_accepted", "always_accept"}


def required_before(
    data: Path, folders: Sequence[Path], settings: Callable[[Path], dict[str, Any]]
) -> dict[Path, tuple[str, ...]]:
    """For each leaf folder, in judging order, the earlier leaf folders (named as groups are) whose rejection makes a
    breaking ancestor stop before it; ``settings`` gives a folder's merged ``testdata.yaml`` keys."""
    out: dict[Path, tuple[str, ...]] = {}
    for n, folder in enumerate(folders):
        needs: list[str] = []
        for ancestor in (a for a in folder.parents if a == data or data in a.parents):
            if str(settings(ancestor).get("on_reject", "break")) != "break":
                continue
            branch = _branch(ancestor, folder)
            for earlier in folders[:n]:
                if ancestor not in earlier.parents or _branch(ancestor, earlier) == branch:
                    continue
                if not _softened(_branch(ancestor, earlier), earlier, settings):
                    needs.append(earlier.relative_to(data).as_posix())
        out[folder] = tuple(dict.fromkeys(needs))
    return out


def _branch(ancestor: Path, folder: Path) -> Path:
    """The child of ``ancestor`` that ``folder`` is in (or is)."""
    return ancestor / folder.relative_to(ancestor).parts[0]


def _softened(top: Path, leaf: Path, settings: Callable[[Path], dict[str, Any]]) -> bool:
    """Whether some folder from ``top`` down to ``leaf`` may call a rejected case's result accepted."""
    chain = [leaf, *(p for p in leaf.parents if p == top or top in p.parents)]
    return any(SOFTENING & set(str(settings(p).get("grader_flags", "") or "").split()) for p in chain)
