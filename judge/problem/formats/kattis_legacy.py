"""The legacy grading keys, as problemtools reads them: shared by the scoring groups and the legacy grading tree.

``kattis_scoring.py`` maps a legacy package onto ``Group``s and
``kattis_grading.py`` onto the grading tree; both take the same keys of
``testdata.yaml`` (``accept_score``, ``reject_score``, ``grader_flags``,
``on_reject``) and of ``problem.yaml``'s older ``grading:``, which override
every folder's, and refuse the same bad values in the same words.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ...errors import SpecError
from .kattis_settings import yaml_mapping

LEGACY_MODES = ("sum", "avg", "min", "max")
LEGACY_VERDICT_FLAGS = (
    "worst_error",
    "no_errors",
    "first_error",
    "always_accept",
    "accept_if_any_accepted",
    "ignore_sample",
)
LEGACY_KEYS = {"accept_score", "reject_score", "range", "grader_flags", "on_reject", "grading"}
MODERN_KEYS = {"scoring", "score_aggregation", "max_score", "require_pass"}
ON_REJECT = {
    "first_error": "break",
    "worst_error": "break",
    "grade": "continue",
}  # problem.yaml grading.on_reject, as problemtools maps it


def speaks_legacy(data: Path) -> bool:
    """A newer package whose ``testdata.yaml`` files speak only the legacy grading keys is scored the legacy way."""
    if any(data.rglob("test_group.yaml")):
        return False
    keys = {k for f in data.rglob("testdata.yaml") for k in yaml_mapping(f)}
    return bool(keys & LEGACY_KEYS) and not keys & MODERN_KEYS


def problem_grading(meta: dict[str, Any], root: Path) -> dict[str, Any]:
    """problem.yaml's ``grading:`` values that predate the legacy format and override every folder's (problemtools keeps
    them)."""
    grading = meta.get("grading")
    if not isinstance(grading, dict):
        return {}
    out = {k: grading[k] for k in ("accept_score", "reject_score", "range") if k in grading}
    if "on_reject" in grading:
        if grading["on_reject"] not in ON_REJECT:
            raise SpecError(
                root / "problem.yaml",
                None,
                f"grading.on_reject: '{grading['on_reject']}' is not first_error, worst_error or grade",
            )
        out["on_reject"] = ON_REJECT[grading["on_reject"]]
    return out


def legacy_mode(settings: dict[str, Any], folder: Path) -> str:
    """The default grader's score mode (the last one named wins, as in problemtools); an unknown flag is refused. A
    folder graded by the package's own grader (``grading: custom``) takes its flags as that grader's arguments and
    adds its groups up as the grader says (``kattis_grading``), so its groups are summed here."""
    if str(settings.get("grading", "default")) == "custom":
        return "sum"
    flags = str(settings.get("grader_flags", "") or "").split()
    unknown = [f for f in flags if f not in LEGACY_MODES and f not in LEGACY_VERDICT_FLAGS]
    if unknown:
        raise SpecError(
            folder / "testdata.yaml",
            None,
            f"grader_flags: unknown flag '{unknown[0]}' (known: {', '.join(LEGACY_MODES + LEGACY_VERDICT_FLAGS)})",
        )
    modes = [f for f in flags if f in LEGACY_MODES]
    return modes[-1] if modes else "sum"


def legacy_score(value: Any, where: Path, key: str) -> float:
    """A legacy case score: any finite number (a minimisation problem's may be negative)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise SpecError(where, None, f"{key}: '{value}' is not a number") from None
    if not math.isfinite(number):
        raise SpecError(where, None, f"{key}: must be a finite number, not {value}")
    return number
