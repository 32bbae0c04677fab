"""An interactive scorer at olympiad shape: a later group lists the first group's files again (as symbolic links), and
a wrong submission floods the interactor with queries (issue 47, item 5).

The package (``tests/fixtures/kattis/linkedguess``, written after the format's examples) is a legacy scoring problem
judged by a Kattis interactor that answers at most 40 queries and rejects the next one (exit 43);
``secret/group2`` links ``group1``'s two cases and adds one of its own. Judged here through ``verify`` itself, with
one slot, in this process:

- ``wrong_answer/flood.py`` asks for ever and never reads: the interactor rejects it after 40 queries, and that
  decides the case, WA, whatever the submission does after (the format's rule; problemtools' runner closes the
  submission's output then). Its sample goes through the relay, its secret cases are joined directly: on both paths
  the run now ends there, far under the time limit, where it used to run on to its CPU limit;
- a file listed in both groups is run once per submission and its result read in both, as problemtools does (its
  reuse key: the input's and answer's contents and the validator's flags): the judge's runs are counted by input
  file, and ``accepted/halving.py`` still gets every case of both groups, with the full score.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from judge.core import judging
from judge.problem.formats import load
from judge.run import SlotPool, resolve_sandbox
from judge.tools.verify import verify
from judge.tools.verify_findings import VerifyResult
from judge.verdict import Verdict

FIXTURE = Path(__file__).parent.parent / "fixtures" / "kattis" / "linkedguess"


def _verified(tmp_path: Path) -> VerifyResult:
    root = tmp_path / "linkedguess"
    shutil.copytree(FIXTURE, root, symlinks=True)
    isolation, _ = resolve_sandbox(None)
    problem = load(root)
    with SlotPool(1, isolation, conceal=problem.folders) as pool:
        return verify(problem, pool)


Runs = Counter[tuple[str, str]]


@pytest.fixture(scope="module")
def verified(tmp_path_factory: pytest.TempPathFactory) -> tuple[VerifyResult, Runs]:
    """One verify of the package for both tests (they read different parts of the same result), with every run the
    judge makes counted by submission and input file."""
    runs: Runs = Counter()
    real = judging.run_case

    def counted(problem, program, case, *rest, **named):  # type: ignore[no-untyped-def]
        path = judging.input_path(problem, case).resolve()
        runs[(program.display, path.relative_to(problem.root.resolve()).as_posix())] += 1
        return real(problem, program, case, *rest, **named)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(judging, "run_case", counted)
        return _verified(tmp_path_factory.mktemp("decided-early")), runs


def test_a_flood_the_interactor_rejects_is_wa_and_ends_there_on_both_paths(
    verified: tuple[VerifyResult, Runs],
) -> None:
    result, _ = verified
    assert result.problem is not None
    limit = result.problem.limits.time
    flood = next(o for o in result.outcomes if o.path.name == "flood.py")
    ran = [c for c in flood.report.cases if c.verdict is not Verdict.SKIPPED]
    assert {c.group for c in ran} == {"sample", "secret/group1", "secret/group2"}, ran
    for case in ran:
        assert case.verdict is Verdict.WA, case
        # stopped by the interactor's rejection, not at its own limit (where it was TLE-capped at the limit before)
        assert case.time < limit / 2, (case, limit)
    assert flood.ok, flood


def test_a_file_listed_in_two_groups_is_run_once_and_counts_in_both(verified: tuple[VerifyResult, Runs]) -> None:
    result, runs = verified
    halving = next(o for o in result.outcomes if o.path.name == "halving.py")
    assert [(c.group, c.name, c.verdict) for c in halving.report.cases] == [
        ("sample", "1", Verdict.AC),
        ("secret/group1", "1", Verdict.AC),
        ("secret/group1", "2", Verdict.AC),
        ("secret/group2", "1", Verdict.AC),
        ("secret/group2", "2", Verdict.AC),
        ("secret/group2", "3", Verdict.AC),
    ]
    assert halving.report.score == halving.report.max_score > 0
    judged = {file: n for (who, file), n in runs.items() if who.endswith("halving.py")}
    # each file once per judging (verify judges an accepted submission twice: for the time limit, then at it)
    assert set(judged) == {
        "data/sample/1.in",
        "data/secret/group1/1.in",
        "data/secret/group1/2.in",
        "data/secret/group2/3.in",
    }, judged
    assert set(judged.values()) == {judged["data/sample/1.in"]}, judged
