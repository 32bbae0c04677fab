"""What differs between the Kattis format versions an export can write, and the names every version accepts.

Three versions are in use, and no reference tool reads all of them:
problemtools reads ``legacy`` and ``2023-07-draft`` (not ``2025-09``),
BAPCtools reads only ``2025-09`` (and no ``scoring`` problems). The versions
differ in where the output validator and the statement live, in the name of
a test group's settings file, in how scores are said (legacy grading keys
that problemtools understands in both of its versions, or 2025-09's
``max_score``/``score_aggregation``) and in which problem types exist.

Names: a test group folder becomes ``NN`` plus the group's name reduced to
``[a-z0-9]`` (the strictest rule a tool applies), a case ``NNN-`` plus its
name reduced to ``[a-z0-9_-]``; the running number in front keeps two names
that reduce alike apart, so the mapping is deterministic and collision-free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...model import Group

LEGACY_FOLDERS = ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error")
# problemtools' default grader reports the worst verdict of a group (RTE before TLE before WA) unless told otherwise;
# this judge and BAPCtools report the first failing case's, so every grader level is told first_error
FIRST_ERROR = "first_error"


@dataclass(frozen=True)
class Layout:
    """One format version as the exporter writes it."""

    version: str
    format_key: str | None  # problem_format_version's value; legacy packages leave it out
    group_file: str  # a test group's settings file
    validator_folder: str  # where the output validator's files go ({name}: the program's stem)
    statement: str  # the statement file, relative to the package
    legacy_grading: bool  # scores said with accept_score/grader_flags, as problemtools reads them
    args_keys: tuple[str, ...]  # the keys that carry the default validator's flags in a group file
    kinds: frozenset[str]  # the problem types the version can say besides pass-fail/scoring
    folders: tuple[str, ...]  # the submission folders it defines
    accepted_by: str  # which reference tool loads it, for the help and the notes


LAYOUTS: dict[str, Layout] = {
    "legacy": Layout(
        "legacy",
        None,
        "testdata.yaml",
        "output_validators/{name}",
        "problem_statement/problem.en.tex",
        True,
        ("output_validator_flags",),
        frozenset({"interactive"}),
        LEGACY_FOLDERS,
        "problemtools, DOMjudge and Kattis; BAPCtools after 'bt upgrade'",
    ),
    # problemtools warns about output_validator_args, but our loader reads a 2023-07 package's flags from it
    "2023-07": Layout(
        "2023-07",
        "2023-07-draft",
        "testdata.yaml",
        "output_validator",
        "statement/problem.en.md",
        True,
        ("output_validator_flags", "output_validator_args"),
        frozenset({"interactive", "multi-pass", "submit-answer"}),
        LEGACY_FOLDERS,
        "problemtools",
    ),
    "2025-09": Layout(
        "2025-09",
        "2025-09",
        "test_group.yaml",
        "output_validator",
        "statement/problem.en.tex",  # BAPCtools reads LaTeX statements only, and counts a missing one as an error
        False,
        ("output_validator_args",),
        frozenset({"interactive", "multi-pass", "submit-answer"}),
        ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error", "rejected", "brute_force"),
        "BAPCtools (pass-fail only)",
    ),
}
DEFAULT = "legacy"


def group_folder(number: int, name: str) -> str:
    """``NN`` and the name in ``[a-z0-9]``: the strictest folder rule among the tools, unique through the number."""
    return f"{number:02d}{re.sub(r'[^a-z0-9]', '', name.lower())}"


def case_stem(index: int, name: str) -> str:
    """``NNN-`` and the name in ``[a-z0-9_-]``, unique through the number (a dot would be taken for a suffix)."""
    return f"{index:03d}-{re.sub(r'[^a-z0-9_-]+', '_', name.lower()).strip('_-') or 'case'}"


def args_settings(layout: Layout, args: list[str]) -> dict[str, Any]:
    """The default validator's flags under each key the layout reads; legacy keys take one string."""
    if not args:
        return {}
    return {key: " ".join(args) if key.endswith("_flags") else list(args) for key in layout.args_keys}


def root_grading(total: float) -> dict[str, Any]:
    """data/'s settings in problemtools' terms: samples score nothing, every group is graded, the total is bounded."""
    return {
        "on_reject": "continue",
        "grader_flags": f"ignore_sample sum {FIRST_ERROR}",
        "range": f"0 {plain_number(total)}",
    }


def group_grading(group: Group, layout: Layout) -> dict[str, Any]:
    """One group's points: legacy grading (each accepted case earns accept_score, the folder's mode combines them)
    or 2025-09's max_score and aggregation."""
    if not layout.legacy_grading:
        return {"max_score": plain_number(group.points), "score_aggregation": group.aggregation}
    share = group.aggregation == "sum" and len(group.cases) > 0
    mode = {"pass-fail": "min", "sum": "sum", "max": "max", "avg": "avg"}.get(group.aggregation, "min")
    return {
        "on_reject": "continue",
        "grader_flags": f"{mode} {FIRST_ERROR}",
        "accept_score": plain_number(group.points / len(group.cases) if share else group.points),
        "reject_score": 0,
        "range": f"0 {plain_number(group.points)}",
    }


def plain_number(value: float) -> int | float:
    """10.0 written as 10: YAML and problemtools' ranges read the same either way, people read this better."""
    return int(value) if float(value).is_integer() else value


TEX_SPECIAL = {c: "\\" + c for c in "&%$#_{}"} | {
    "\\": r"\textbackslash{}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def tex_statement(title: str, markdown: str) -> str:
    """A LaTeX statement for legacy and 2025-09 (read by tools without Markdown): headings become sections, fenced
    blocks verbatim, the rest stays as text with LaTeX's special characters escaped (Markdown marks stay visible)."""
    out = [f"\\problemname{{{_escape(title)}}}", ""]
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            out.append("\\end{verbatim}" if fenced else "\\begin{verbatim}")
            fenced = not fenced
        elif fenced:
            out.append(line)
        elif line.startswith("#"):
            out.append(f"\\section*{{{_escape(line.lstrip('#').strip())}}}")
        else:
            out.append(_escape(line))
    if fenced:
        out.append("\\end{verbatim}")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return "".join(TEX_SPECIAL.get(c, c) for c in text)
