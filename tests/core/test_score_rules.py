"""Score rules are values: they return new results and never change the ones they are given; a new rule is one class
and its registration."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from judge.core.score_rules import SCORE_RULES, Scored, ScoreRule, register, score
from judge.core.verdicts import CaseResult
from judge.model import CaseSpec, Generated, Group
from judge.verdict import Verdict


def _group(name: str, count: int, **kw: object) -> Group:
    return Group(name, 10, tuple(CaseSpec(f"c{i}", name, Generated(())) for i in range(count)), **kw)  # type: ignore[arg-type]


def test_scoring_leaves_its_inputs_alone_and_returns_the_verdicts_the_rules_gave() -> None:
    """A group requiring a failed group is SKIPPED in the results returned, not in those given."""
    first = _group("first", 2, aggregation="pass-fail", score_rule="2025-09", case_points=5.0)
    second = _group("second", 1, aggregation="sum", score_rule="2025-09", case_points=10.0, require_pass=("first",))
    cases = [
        CaseResult("c0", "first", Verdict.AC, score=1.0),
        CaseResult("c1", "first", Verdict.AC, score=1.0),
        CaseResult("c0", "second", Verdict.AC, score=1.0),
    ]
    before = copy.deepcopy(cases)
    once = score([first, second], cases)
    assert cases == before  # nothing given was changed
    assert [c.verdict for c in once.cases] == [
        Verdict.AC,
        Verdict.AC,
        Verdict.AC,
    ]  # first passed as given: second is scored
    assert [g.earned for g in once.groups] == [10.0, 10.0]
    failing = [replace(cases[0], verdict=Verdict.WA, score=0.0), *cases[1:]]
    again = score([first, second], failing)
    assert [c.verdict for c in again.cases] == [Verdict.WA, Verdict.AC, Verdict.SKIPPED]
    assert failing[2].verdict is Verdict.AC and again.groups[1].earned == 0.0 and again.groups[1].passed == 0
    assert score([second, first], failing).cases == again.cases  # the order of the groups does not matter


def test_a_broken_score_file_is_a_judge_error_in_a_new_result() -> None:
    group = _group("g", 1, aggregation="sum", score_rule="2025-09", case_points=5.0)
    case = CaseResult("c0", "g", Verdict.AC, score=1.0, score_file=("score.txt", 9.0))
    scored = score([group], [case])
    assert scored.cases[0].verdict is Verdict.JE and "above the case's maximum" in scored.cases[0].message
    assert case.verdict is Verdict.AC and scored.groups[0].earned == 0.0


class BestCase(ScoreRule):
    """A rule of our own: the group's points scaled by its best case."""

    def score(self, group: Group, judged, unmet) -> Scored:  # type: ignore[no-untyped-def]
        return Scored(group.points * max(c.score if c is not None else 0.0 for c in judged), tuple(judged))


@pytest.fixture
def best_case() -> object:
    register("best", BestCase())
    yield
    del SCORE_RULES["best"]


def test_a_registered_rule_is_chosen_by_the_name_the_loader_gave(best_case: object) -> None:
    group = _group("g", 2, score_rule="best")
    cases = [CaseResult("c0", "g", Verdict.WA, score=0.0), CaseResult("c1", "g", Verdict.WA, score=0.5)]
    assert score([group], cases).groups[0].earned == 5.0
    assert score([replace(group, score_rule="")], cases).groups[0].earned == 0.0  # our "min" when no rule is named
