"""Problem kinds are strategies chosen once from the problem; a new kind is one class and its registration.

The choice is checked for every combination the formats produce; the new kind
is judged end to end on real programs in ``none`` sandbox mode.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, program

from judge.core import judge
from judge.core.case_run import CaseRun
from judge.core.kinds import KINDS, Batch, Interactive, MultiPass, SubmitAnswer, kind_of, register
from judge.core.submission import prepare_submission
from judge.core.testdata import ensure
from judge.core.verdicts import CaseResult
from judge.model import Kind
from judge.problem.formats import load
from judge.run import Isolation, SlotPool
from judge.verdict import Verdict


@pytest.fixture(scope="module")
def aplusb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kinds") / "problems" / "aplusb"
    shutil.copytree(FIXTURES / "problems" / "aplusb", root)
    with SlotPool(1, Isolation("none")) as pool:
        ensure(load(root), pool)
    return root


@pytest.mark.parametrize(
    ("kind", "chosen"),
    [
        (Kind(), Batch),
        (Kind(scoring=True), Batch),
        (Kind(interactive=True), Interactive),
        (Kind(interactive=True, passes=3), Interactive),
        (Kind(passes=2), MultiPass),
        (Kind(submit_answer=True), SubmitAnswer),
        (Kind(submit_answer=True, scoring=True), SubmitAnswer),
    ],
)
def test_the_kind_is_chosen_once_from_the_model(aplusb: Path, kind: Kind, chosen: type) -> None:
    problem = dataclasses.replace(load(aplusb), kind=kind)
    strategy = kind_of(problem)
    assert type(strategy) is chosen
    assert strategy.needs_time_limit is not kind.submit_answer and strategy.answer_files is kind.submit_answer
    assert strategy.answers_from_reference is not kind.interactive or kind.submit_answer


class Twice(Batch):
    """A kind of our own: every case runs twice, and the two runs must agree (a judge that hunts nondeterminism)."""

    name = "twice"

    @classmethod
    def fits(cls, kind: Kind) -> bool:
        return not kind.interactive and not kind.submit_answer and not kind.multi_pass

    def run_case(self, run: CaseRun) -> CaseResult:
        first, second = super().run_case(run), super().run_case(run)
        if first.verdict is not second.verdict:
            return dataclasses.replace(
                second,
                verdict=Verdict.JE,
                message=f"the runs disagree: {first.verdict.value}, then {second.verdict.value}",
            )
        return dataclasses.replace(second, message=f"2 runs agree{': ' + second.message if second.message else ''}")


@pytest.fixture
def twice() -> object:
    register(Twice())
    yield
    KINDS.pop(0)


@pytest.mark.parametrize(("name", "verdict"), [("ac.py", Verdict.AC), ("wa.py", Verdict.WA)])
def test_a_registered_kind_judges_every_case(aplusb: Path, twice: object, name: str, verdict: Verdict) -> None:
    problem = load(aplusb)
    assert type(kind_of(problem)) is Twice
    with SlotPool(1, Isolation("none")) as pool:
        report = judge(problem, prepare_submission(problem, program(name), pool), pool)
    assert report.verdict is verdict
    assert report.cases and all(c.message.startswith("2 runs agree") for c in report.cases), [
        c.message for c in report.cases
    ]
