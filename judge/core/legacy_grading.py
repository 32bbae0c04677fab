"""The verdict and score a legacy Kattis scoring package gives: its grading tree evaluated on the case results.

A folder's result is its grader's over its children's results, in order: the
default grader (as problemtools' ``default_grader`` does it: the score by
``sum``/``avg``/``min``/``max``, the verdict by ``worst_error``/``no_errors``
or ``first_error``, AC by ``always_accept`` or, with
``accept_if_any_accepted``, when one child is AC; ``ignore_sample`` grades the
last child alone), or the package's own grader program (``grading: custom``),
which reads one ``verdict score`` line per child on standard input, gets the
folder's ``grader_flags`` as arguments and prints ``verdict score``. A case
scores its ``score.txt``, else its folder's ``accept_score`` (times a
``score_multiplier.txt``) when accepted, its ``reject_score`` when not.
``on_reject: break`` stops a folder at its first child not accepted; a
child never judged (SKIPPED, or cut by ``--first-fail``) is left out, as a
judge that stopped before it never read it. A JE anywhere below is the
folder's JE; so is a grader that breaks the protocol (named in the message)
and a score outside the folder's ``range`` (an error in problemtools).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..lang import Program, build_or_fail
from ..model import GraderNode, Problem
from ..run import SlotPool
from ..text import safe_text, status_text
from ..verdict import Verdict
from .added_to_build import added_to_build
from .run_limits import Role, trusted_limits
from .stderr import said_in
from .testdata import trusted_spec
from .verdicts import CaseResult

AS_KATTIS = {Verdict.PE: "WA", Verdict.RE: "RTE", Verdict.MLE: "RTE", Verdict.OLE: "RTE"}
WORST_FIRST = ["JE", "IF", "RTE", "MLE", "TLE", "OLE", "WA", "PE", "AC"]  # the default grader's order
GRADER_OUTPUT = re.compile(r"^(AC|WA|TLE|RTE|MLE|OLE|JE)\s+(-?[0-9.]+)\s*$")
SCORES: dict[str, Callable[[list[float]], float]] = {
    "sum": sum,
    "avg": lambda s: sum(s) / len(s),
    "min": min,
    "max": max,
}

Result = tuple[str, float]  # a Kattis verdict name and a score
CustomGrader = Callable[[Sequence[Result], Sequence[str]], "Result | str"]  # a result, or why the grader failed


@dataclass(frozen=True)
class Graded:
    """What the format says of a submission: the root's verdict and score, why it is JE if it is, and each folder's
    result (by the folder's name under data/, as groups are named)."""

    verdict: str
    score: float
    message: str = ""
    folders: dict[str, Result] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "score": self.score, "message": self.message}


def grade(node: GraderNode, cases: Sequence[CaseResult], custom: CustomGrader | None = None) -> Graded:
    """The tree evaluated on ``cases``; ``custom`` runs the package's grader (a tree that names it needs it)."""
    by_key = {f"{c.group}/{c.name}": c for c in cases if c.verdict is not Verdict.SKIPPED}
    folders: dict[str, Result] = {}
    failures: list[str] = []
    result = _node(node, by_key, custom, folders, failures) or ("AC", 0.0)
    return Graded(result[0], round(result[1], 9), failures[0] if failures else "", folders)


def _node(
    node: GraderNode,
    cases: dict[str, CaseResult],
    custom: CustomGrader | None,
    folders: dict[str, Result],
    failures: list[str],
) -> Result | None:
    results: list[Result] = []
    for child in node.children:
        if isinstance(child, GraderNode):
            result = _node(child, cases, custom, folders, failures)
        else:
            case = cases.get(child)
            result = _case(node, case) if case is not None else None
        if result is None:
            continue
        results.append(result)
        if result[0] != "AC" and node.breaks:
            break
    if not results:
        return None
    if any(verdict == "JE" for verdict, _ in results):
        out: Result = ("JE", 0.0)
    elif node.custom:
        said = custom(results, node.flags) if custom is not None else "no grader program"
        if isinstance(said, str):
            failures.append(f"{node.name or 'data'}: {said}")
            said = ("JE", 0.0)
        out = said
    else:
        out = default_grader(results, node.flags)
    low, high = node.bounds or (out[1], out[1])
    if out[0] != "JE" and not low - 1e-9 <= out[1] <= high + 1e-9:  # problemtools' error, our JE as for a leaf group
        failures.append(f"{node.name or 'data'}: score {out[1]:g} is outside its range {low:g} {high:g}")
        out = ("JE", 0.0)
    folders[node.name] = out
    return out


def _case(node: GraderNode, case: CaseResult) -> Result:
    verdict = "AC" if case.verdict is Verdict.AC else AS_KATTIS.get(case.verdict, case.verdict.value)
    if verdict != "AC":
        return verdict, (0.0 if verdict == "JE" else node.reject)
    tag = case.score_file
    if tag is None:
        return verdict, node.accept
    return verdict, tag[1] if tag[0] == "score.txt" else node.accept * tag[1]


def default_grader(results: Sequence[Result], flags: Sequence[str]) -> Result:
    """The format's default grader on one folder's results, with its flags (the last of each kind named wins)."""
    score_of = SCORES["sum"]
    verdict_of: Callable[[list[str]], str] = _worst
    ignore_sample = any_accepted = False
    for flag in flags:
        if flag in SCORES:
            score_of = SCORES[flag]
        elif flag in ("worst_error", "no_errors"):
            verdict_of = _worst
        elif flag == "first_error":
            verdict_of = _first
        elif flag == "always_accept":
            verdict_of = _always
        ignore_sample |= flag == "ignore_sample"
        any_accepted |= flag == "accept_if_any_accepted"
    chosen = list(results[-1:]) if ignore_sample else list(results)
    verdicts = [v for v, _ in chosen]
    verdict = "AC" if any_accepted and "AC" in verdicts else verdict_of(verdicts)
    return verdict, float(score_of([s for _, s in chosen]))


def _worst(verdicts: list[str]) -> str:
    return min((*verdicts, "AC"), key=lambda v: WORST_FIRST.index(v) if v in WORST_FIRST else 0)


def _first(verdicts: list[str]) -> str:
    return next((v for v in verdicts if v != "AC"), "AC")


def _always(verdicts: list[str]) -> str:
    return "AC"


def program_grader(problem: Problem, pool: SlotPool) -> CustomGrader:
    """The package's grader built once, then run on each folder it grades in a slot of its own; a build failure is a
    judge error naming it."""
    path = problem.legacy_grading.grader if problem.legacy_grading is not None else None
    if path is None:
        return lambda results, flags: "grading: custom, and the package has no grader"
    built = build_or_fail(path, pool, problem.limits.compile_time, "grader", added_to_build(problem, path))
    shown = _shown(problem.root, path)
    return lambda results, flags: _run_grader(built, shown, results, flags, pool)


def _head(path: Path) -> str:
    """The start of what the grader printed: one line is all the protocol allows, so nothing more is read."""
    if not path.is_file():
        return ""
    with path.open("rb") as f:
        return f.read(256).decode(errors="replace")


def _shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _run_grader(
    program: Program, shown: str, results: Sequence[Result], flags: Sequence[str], pool: SlotPool
) -> Result | str:
    with pool.slot() as slot:
        stdin, out, err = (slot.private / f"grader.{n}" for n in ("in", "out", "err"))
        stdin.write_text("".join(f"{verdict} {score}\n" for verdict, score in results))
        run = slot.run(
            trusted_spec(slot, program, list(flags), stdin, out, err, trusted_limits(Role.VALIDATOR, program))
        )
        said = _head(out)
        why = said_in(err)
    if run.signal_name is not None or run.killed != "none" or run.exit_code != 0:
        status = status_text(run.exit_code, run.signal_name, run.killed)
        return f"grader {shown} failed ({status}, expected exit 0)" + (f": {why}" if why else "")
    match = GRADER_OUTPUT.match(said.strip())
    if match is None:
        return f"grader {shown} printed {safe_text(said.strip(), one_line=True)[:60]!r}, not 'verdict score'"
    try:
        return match.group(1), float(match.group(2))
    except ValueError:
        return f"grader {shown} printed a score that is no number: {match.group(2)!r}"
