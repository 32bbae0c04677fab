"""Score rules as values: how one group's case results become its points, one class per rule, chosen by name.

A rule never changes the results it is given. Where a rule has a say about a
case (a Kattis validator broke a score rule: JE; a ``require_pass`` group
failed: SKIPPED) it returns a new result in its place, so a caller may score
the same results twice, or in any order, and keep the originals it ran.

The loader names the rule of each group (``Group.score_rule``, or its
``aggregation`` for our own format's groups); ``SCORE_RULES`` maps the name
to its value. A new rule is one ``ScoreRule`` subclass and one ``register``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..model import Group
from ..verdict import Verdict
from .verdicts import CaseResult, GroupResult

Judged = Sequence["CaseResult | None"]  # a group's cases in order; None: never judged (``--first-fail``, a skipped run)


@dataclass(frozen=True)
class Scored:
    """A group's earnings and its cases as the rule leaves them (the same objects where it had nothing to say)."""

    earned: float
    cases: tuple[CaseResult | None, ...]


class ScoreRule:
    """How a group's judged cases add up. ``unmet`` names the groups this one required that were not passed."""

    def score(self, group: Group, judged: Judged, unmet: Sequence[str]) -> Scored:
        raise NotImplementedError

    def loses_group(self, group: Group, case: CaseResult) -> bool:
        """Whether this case alone sets the group's earnings to zero, so the group's later cases cannot change the
        score."""
        return False

    def decides_group(self, group: Group, case: CaseResult) -> bool:
        """Whether a judge following the package's rules stops judging the group at this case: by default once its
        score can no longer change (``loses_group``)."""
        return self.loses_group(group, case)


class MinCase(ScoreRule):
    """Our ``min``: the group's points scaled by its weakest case (all or nothing for plain verdicts)."""

    def score(self, group: Group, judged: Judged, unmet: Sequence[str]) -> Scored:
        return Scored(group.points * min(_fractions(judged)), tuple(judged))

    def loses_group(self, group: Group, case: CaseResult) -> bool:
        """Only a case that earned nothing: a testlib checker's partial points keep the rest relevant."""
        return case.verdict is not Verdict.AC and case.score == 0.0


class ShareSum(ScoreRule):
    """Our ``sum``: each case earns its share of the group's points."""

    def score(self, group: Group, judged: Judged, unmet: Sequence[str]) -> Scored:
        fractions = _fractions(judged)
        return Scored(group.points * sum(fractions) / len(fractions), tuple(judged))


def _fractions(judged: Judged) -> list[float]:
    return [case.score if case is not None else 0.0 for case in judged]


COMBINE: dict[str, Callable[[list[float]], float]] = {
    "sum": sum,
    "min": min,
    "max": max,
    "avg": lambda p: sum(p) / len(p),
}


class KattisPoints(ScoreRule):
    """A Kattis 2025-09 scoring group: counts in points, with the validators' score files checked against the format.

    An accepted case earns ``case_points`` (or what its ``score.txt`` or
    ``score_multiplier.txt`` says), a rejected one ``reject_points``; the
    group combines them by its ``aggregation`` (pass-fail, sum, min, max, avg).
    A score file the format forbids makes its case JE and the group earn 0.
    """

    def score(self, group: Group, judged: Judged, unmet: Sequence[str]) -> Scored:
        if unmet:
            why = self.unmet_message(unmet)
            return Scored(
                0.0,
                tuple(
                    replace(c, verdict=Verdict.SKIPPED, score=0.0, message=why)
                    if c is not None and c.verdict is not Verdict.JE
                    else c
                    for c in judged
                ),
            )
        cases = list(judged)
        points = []
        for n, case in enumerate(cases):
            earned, broken = self.case_points(group, case) if case is not None else (0.0, None)
            if broken is not None and case is not None:
                cases[n] = _judge_error(case, broken)
            points.append(earned)
        if any(case is not None and case.verdict is Verdict.JE for case in cases):
            return Scored(0.0, tuple(cases))
        if group.aggregation == "pass-fail":
            return Scored(
                group.points if all(c is not None and c.verdict is Verdict.AC for c in cases) else 0.0, tuple(cases)
            )
        if group.stop_at_reject:  # legacy on_reject: break: what follows the first rejected case is never judged there
            points = points[
                : next((n + 1 for n, c in enumerate(cases) if c is None or c.verdict is not Verdict.AC), len(points))
            ]
        earned = COMBINE[group.aggregation](points) if points else 0.0
        low, high = group.score_range if group.score_range is not None else (earned, earned)
        if not low <= earned <= high and cases and cases[0] is not None:
            cases[0] = _judge_error(cases[0], f"group score {earned:g} is outside its range {low:g} {high:g}")
            return Scored(0.0, tuple(cases))
        return Scored(earned, tuple(cases))

    def unmet_message(self, unmet: Sequence[str]) -> str:
        return f"not scored: require_pass {', '.join(unmet)} not passed"

    def case_points(self, group: Group, case: CaseResult) -> tuple[float, str | None]:
        """What one judged case earns, and the score rule its validator broke, if any (then it earns nothing)."""
        if case.verdict is not Verdict.AC:
            return (group.reject_points if case.verdict is not Verdict.JE else 0.0), None
        tag = case.score_file
        broken = None
        if tag and group.aggregation == "pass-fail":
            broken = f"output validator wrote {tag[0]} for a case of a pass-fail group"
        elif group.unbounded and tag is None:
            broken = "output validator accepted a case of an unbounded group without writing score.txt"
        elif group.unbounded and tag and tag[0] != "score.txt":
            broken = "output validator wrote score_multiplier.txt for a case of an unbounded group"
        elif tag and tag[0] == "score.txt" and tag[1] > group.case_points + 1e-9 and not group.unbounded:
            broken = f"output validator wrote score.txt {tag[1]:g}, above the case's maximum {group.case_points:g}"
        if broken is not None:
            return 0.0, broken
        if tag is None:
            return group.case_points, None
        return (tag[1] if tag[0] == "score.txt" else tag[1] * group.case_points), None

    def loses_group(self, group: Group, case: CaseResult) -> bool:
        """A "min" or "pass-fail" group is lost by any case not accepted, when a rejection earns nothing."""
        return (
            group.aggregation in ("min", "pass-fail") and case.verdict is not Verdict.AC and group.reject_points == 0.0
        )


class KattisDraft(KattisPoints):
    """Kattis 2023-07-draft ``scoring``: an accepted case earns ``score`` times its validator's value, no file
    checked."""

    def case_points(self, group: Group, case: CaseResult) -> tuple[float, str | None]:
        if case.verdict is not Verdict.AC:
            return super().case_points(group, case)
        tag = case.score_file
        return group.case_points * (tag[1] if tag else 1.0), None


class KattisLegacy(KattisPoints):
    """Kattis legacy scoring: a ``score.txt`` is the case's points, a multiplier scales the group's ``accept_score``."""

    def case_points(self, group: Group, case: CaseResult) -> tuple[float, str | None]:
        if case.verdict is not Verdict.AC:
            return super().case_points(group, case)
        tag = case.score_file
        return (tag[1] if tag and tag[0] == "score.txt" else group.case_points * (tag[1] if tag else 1.0)), None

    def unmet_message(self, unmet: Sequence[str]) -> str:
        """A legacy group's requirements are its breaking ancestors' (``kattis_breaks``), never written as such."""
        return f"not scored: {', '.join(unmet)} was rejected first, and on_reject is break above both"

    def decides_group(self, group: Group, case: CaseResult) -> bool:
        """As the package's ``on_reject`` says, as problemtools judges: ``break`` stops at the first rejected case
        (what follows counts for nothing), ``continue`` judges every case (its ``worst_error`` grader may report a
        later one) even where the score is already lost."""
        return group.stop_at_reject and case.verdict is not Verdict.AC


def _judge_error(case: CaseResult, why: str) -> CaseResult:
    return replace(case, verdict=Verdict.JE, score=0.0, message=why)


SCORE_RULES: dict[str, ScoreRule] = {
    "min": MinCase(),
    "sum": ShareSum(),
    "2025-09": KattisPoints(),
    "2023-07-draft": KattisDraft(),
    "legacy": KattisLegacy(),
}


def register(name: str, rule: ScoreRule) -> None:
    """Make ``rule`` the one a loader names ``name`` (in ``Group.score_rule``)."""
    SCORE_RULES[name] = rule


def rule_for(group: Group) -> ScoreRule:
    """The group's rule: the one its loader named, else our own format's aggregation."""
    return SCORE_RULES[group.score_rule or group.aggregation]


@dataclass(frozen=True)
class Scoring:
    """The case results as the rules leave them (case order kept) and what each group earned."""

    cases: list[CaseResult]
    groups: list[GroupResult]


def score(groups: Sequence[Group], cases: Sequence[CaseResult]) -> Scoring:
    """Every group scored by its rule; a case never judged (``--first-fail``) earns nothing. The inputs stay as they
    are.

    Whether a ``require_pass`` group failed is read from the results as
    given, before any rule had its say, so the groups may be scored in any order.
    """
    by_key = {(c.group, c.name): c for c in cases}
    failed = {
        g.name
        for g in groups
        if any(
            by_key.get((g.name, c.name)) is None or by_key[(g.name, c.name)].verdict is not Verdict.AC for c in g.cases
        )
    }
    changed: dict[tuple[str, str], CaseResult] = {}
    out = []
    for group in groups:
        judged = [by_key.get((group.name, case.name)) for case in group.cases]
        scored = rule_for(group).score(group, judged, _unmet(group, groups, failed))
        changed.update(
            {(c.group, c.name): c for before, c in zip(judged, scored.cases) if c is not None and c is not before}
        )
        passed = sum(1 for c in scored.cases if c is not None and c.verdict is Verdict.AC)
        out.append(GroupResult(group.name, group.points, round(scored.earned, 9), passed, len(judged)))
    return Scoring([changed.get((c.group, c.name), c) for c in cases], out)


def group_results(groups: Sequence[Group], cases: Sequence[CaseResult]) -> list[GroupResult]:
    """What each group earned (``score`` without the cases)."""
    return score(groups, cases).groups


def _unmet(group: Group, groups: Sequence[Group], failed: set[str]) -> list[str]:
    """The ``require_pass`` groups (``sample`` meaning every sample folder) that were not passed."""
    return [
        need
        for need in group.require_pass
        if any(g.name in failed for g in groups if g.name == need or g.name.startswith(need + "/"))
    ]


def decides_group(group: Group, case: CaseResult) -> bool:
    """Whether judging of ``case``'s group stops there: its result is decided, as the group's rule says."""
    return rule_for(group).decides_group(group, case)
