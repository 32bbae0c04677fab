"""A legacy scoring package's grading tree (``judge.model.grading``), read from data/ as problemtools reads it.

Every folder of data/ is a node with its ``testdata.yaml`` keys inherited
from the folders above (and ``problem.yaml``'s older ``grading:`` values over
all), its children the sub-folders and cases in name order, as problemtools
lists them. ``grading: custom`` names the package's own grader, the one
program under ``graders/``: a package that asks for it without one, or has
several, is refused in one line, as problemtools refuses it. The full score is
``range``'s upper end where the package states it for everything scored.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...errors import SpecError, UsageError
from ...model import GraderNode, Group, LegacyGrading
from .kattis_scoring import _legacy_mode, _problem_grading, _score, _settings, _yaml_mapping
from .kattis_submissions import _program

GRADINGS = ("default", "custom")


def legacy_grading(
    root: Path, meta: dict[str, Any], groups: list[Group], shown: str
) -> tuple[LegacyGrading, list[Group]]:
    """The tree of a legacy scoring package, and its groups with a leaf's points taken from a ``range`` that bounds
    that leaf alone."""
    data = root / "data"
    overrides = _problem_grading(meta, root)
    leaves = {g.name for g in groups if g.cases}
    tree = _node(data, data, overrides, leaves)
    if tree is None:
        tree = GraderNode("", (), True, 1.0, 0.0, False, ())
    grader = _grader(root, shown) if _uses_custom(tree) else None
    if _uses_custom(tree) and grader is None:
        where = _first_custom(data, overrides)
        raise UsageError(
            f"{shown}: {where} says grading: custom, and there is no grader program under graders/ to grade with"
        )
    ranged = {g.name: _leaf_range(data / g.name, data, overrides, leaves) if g.name in leaves else None for g in groups}
    groups = [replace(g, points=high) if (high := ranged[g.name]) is not None else g for g in groups]
    return LegacyGrading(tree, grader, _full_score(tree)), groups


def _merged(folder: Path, data: Path, overrides: dict[str, Any]) -> dict[str, Any]:
    return {**_settings(folder, data, legacy=True), **overrides}


def _node(folder: Path, data: Path, overrides: dict[str, Any], leaves: set[str]) -> GraderNode | None:
    """A folder's node; None for one with no case under it (problemtools skips such a group)."""
    settings = _merged(folder, data, overrides)
    shown = folder / "testdata.yaml"
    grading = str(settings.get("grading", "default"))
    if grading not in GRADINGS:
        raise SpecError(shown, None, f"grading: '{grading}' is not default or custom")
    name = "" if folder == data else folder.relative_to(data).as_posix()
    items: list[tuple[str, GraderNode | str]] = []
    for entry in sorted(folder.iterdir()):
        if entry.is_dir():
            if folder == data and entry.name not in ("sample", "secret"):
                continue
            child = _node(entry, data, overrides, leaves)
            if child is not None:
                items.append((entry.name, child))
        elif entry.suffix == ".in" and name in leaves and entry.with_suffix(".ans").is_file():
            items.append((entry.stem + ".ans", f"{name}/{entry.stem}"))
    if not items:
        return None
    if grading == "default":
        _legacy_mode(settings, folder)  # an unknown default-grader flag is refused here as for the groups
    return GraderNode(
        name=name,
        flags=tuple(str(settings.get("grader_flags", "") or "").split()),
        breaks=str(settings.get("on_reject", "break")) == "break",
        accept=_score(settings.get("accept_score", 1), shown, "accept_score"),
        reject=_score(settings.get("reject_score", 0), shown, "reject_score"),
        custom=grading == "custom",
        children=tuple(child for _, child in sorted(items, key=lambda item: item[0])),
        bounds=_bounds(settings, shown),
    )


def _bounds(settings: dict[str, Any], shown: Path) -> tuple[float, float] | None:
    if "range" not in settings:
        return None
    try:
        low, high = (float(v) for v in str(settings["range"]).split())
    except ValueError:
        raise SpecError(shown, None, f"range: '{settings['range']}' is not two numbers") from None
    return low, high


def _uses_custom(node: GraderNode) -> bool:
    return node.custom or any(isinstance(c, GraderNode) and _uses_custom(c) for c in node.children)


def _first_custom(data: Path, overrides: dict[str, Any]) -> str:
    """The testdata.yaml that says ``grading: custom`` first, for the one-line refusal."""
    for file in sorted(data.rglob("testdata.yaml")):
        if str(_yaml_mapping(file).get("grading", "")) == "custom":
            return file.relative_to(data.parent).as_posix()
    return "data/testdata.yaml"


def _grader(root: Path, shown: str) -> Path | None:
    """The package's one grader program under ``graders/`` (a file, or a folder built whole); several are refused."""
    folder = root / "graders"
    entries = [e for e in sorted(folder.iterdir()) if not e.name.startswith(".")] if folder.is_dir() else []
    if len(entries) > 1:
        names = ", ".join(e.name for e in entries)
        raise UsageError(f"{shown}: graders/ holds {len(entries)} programs ({names}); the format allows one grader")
    if not entries:
        return None
    program = _program(entries[0]) if entries[0].is_dir() else entries[0]
    if program is None:
        raise UsageError(f"{shown}: graders/{entries[0].name}: cannot tell which file is the grader")
    return program


def _full_score(node: GraderNode) -> float | None:
    """``range``'s upper end at data/, else at the one folder below that holds every scored result (the samples aside
    where the top's ``ignore_sample`` leaves them out), else None: the groups' points add up to the maximum."""
    while True:
        if node.bounds is not None and math.isfinite(node.bounds[1]):
            return node.bounds[1]
        scored = list(node.children)
        if node.name == "" and "ignore_sample" in node.flags:
            scored = [c for c in scored if not (isinstance(c, GraderNode) and c.name == "sample")]
        if len(scored) != 1 or not isinstance(scored[0], GraderNode):
            return None
        node = scored[0]


def _leaf_range(leaf: Path, data: Path, overrides: dict[str, Any], leaves: set[str]) -> float | None:
    """A leaf folder's maximum from the nearest ``range`` a folder at or above it states, where that folder holds no
    other leaf; else None (its points stay ``accept_score`` × cases)."""
    for folder in (leaf, *(p for p in leaf.parents if p == data or data in p.parents)):
        own = "range" in overrides or (
            "range" in _yaml_mapping(folder / "testdata.yaml") if (folder / "testdata.yaml").is_file() else False
        )
        if not own:
            continue
        name = "" if folder == data else folder.relative_to(data).as_posix()
        inside = [n for n in leaves if not name or n == name or n.startswith(name + "/")]
        if inside != [leaf.relative_to(data).as_posix()]:
            return None
        bounds = _bounds(_merged(folder, data, overrides), folder / "testdata.yaml")
        return bounds[1] if bounds is not None and math.isfinite(bounds[1]) else None
    return None
