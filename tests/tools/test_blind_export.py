"""Export of problem kinds to the Kattis 2025-09 format, on the bundled interactive problem `blind`.

The interactive package exports as `type: interactive` with its interactor
as the output validator and its sample transcript as a `.interaction` file,
and loads back (through the same `load` every command uses) as an
interactive problem whose interactor is that program. The other kinds are
the same package with another kind: multi-pass keeps its number of passes,
submit-answer says so, and a testlib interactor, which Kattis cannot run, is
refused in one line. The full round trip (verify on the export) is in
`test_blind_export_verifies`, marked slow, on a copy of blind with fewer
cases (why those, said above it).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, bundled_with_fewer_cases, cli, needs

from judge.errors import UsageError
from judge.model import CheckerSpec, Kind, Problem
from judge.problem.formats import load
from judge.problem.formats.kattis_export import export

PACKAGE = REPO_ROOT / "problems" / "blind"


@pytest.fixture(scope="module")
def blind() -> Problem:
    return load(PACKAGE)


def exported(problem: Problem, out: Path, version: str = "2025-09") -> dict:
    notes: list[str] = []
    export(problem, out, notes.append, version)
    return yaml.safe_load((out / "problem.yaml").read_text())


def test_the_native_package_is_interactive_with_a_kattis_interactor(blind: Problem) -> None:
    assert blind.kind.interactive and not blind.kind.multi_pass and not blind.kind.submit_answer
    assert blind.interactor is not None and blind.interactor.type == "kattis"
    assert blind.interactor.program == PACKAGE / "interactor.cpp"


def test_an_interactive_problem_exports_its_interactor_as_the_output_validator(blind: Problem, tmp_path: Path) -> None:
    out = tmp_path / "blind"
    meta = exported(blind, out)
    assert meta["type"] == ["scoring", "interactive"]
    assert "validation_passes" not in meta["limits"]
    assert (out / "output_validator" / "interactor.cpp").read_bytes() == (PACKAGE / "interactor.cpp").read_bytes()
    groups = [yaml.safe_load(p.read_text()) or {} for p in (out / "data").rglob("test_group.yaml")]
    assert groups and not any("output_validator_args" in g for g in groups), (
        "an interactor gets no default-validator flags"
    )
    sample = out / "data" / "sample" / "001-sample-1"
    assert sample.with_suffix(".interaction").read_bytes() == (PACKAGE / "samples" / "1.interaction").read_bytes()
    assert sample.with_suffix(".in.download").read_bytes() == sample.with_suffix(".in").read_bytes()
    assert sample.with_suffix(".ans.download").is_file()
    back = load(out)
    assert back.package_format == "kattis"
    assert back.kind.interactive and back.kind.scoring and not back.kind.multi_pass
    assert back.interactor is not None and back.interactor.type == "kattis"
    assert back.interactor.program is not None and back.interactor.program.name == "interactor.cpp"
    assert [c.name for c in back.cases] == [f"{i:03d}-{c.name}" for g in blind.groups for i, c in enumerate(g.cases, 1)]
    assert back.max_score == blind.max_score


def test_legacy_says_interactive_in_validation_with_the_interactor_in_its_own_folder(
    blind: Problem, tmp_path: Path
) -> None:
    out = tmp_path / "blind"
    meta = exported(blind, out, "legacy")
    assert (
        meta["validation"] == "custom interactive"
        and meta["type"] == "scoring"
        and "problem_format_version" not in meta
    )
    assert (out / "output_validators" / "interactor" / "interactor.cpp").read_bytes() == (
        PACKAGE / "interactor.cpp"
    ).read_bytes()
    back = load(out)
    assert back.kind.interactive and back.interactor is not None and back.interactor.program is not None
    assert back.interactor.program.name == "interactor.cpp" and back.max_score == blind.max_score


def test_a_pass_fail_interactive_problem_says_interactive_alone(blind: Problem, tmp_path: Path) -> None:
    groups = tuple(dataclasses.replace(g, points=0) for g in blind.groups)
    meta = exported(dataclasses.replace(blind, groups=groups), tmp_path / "out")
    assert meta["type"] == "interactive"
    back = load(tmp_path / "out")
    assert back.kind.interactive and not back.kind.scoring


def test_a_multi_pass_problem_exports_its_number_of_passes(blind: Problem, tmp_path: Path) -> None:
    validator = CheckerSpec(type="kattis", program=PACKAGE / "interactor.cpp")
    multi = dataclasses.replace(blind, kind=Kind(passes=3), interactor=None, checker=validator)
    meta = exported(multi, tmp_path / "out")
    assert meta["type"] == ["scoring", "multi-pass"]
    assert meta["limits"]["validation_passes"] == 3
    assert (tmp_path / "out" / "output_validator" / "interactor.cpp").is_file()
    back = load(tmp_path / "out")
    assert back.kind.passes == 3 and not back.kind.interactive


def test_a_submit_answer_problem_exports_as_such(blind: Problem, tmp_path: Path) -> None:
    answers = dataclasses.replace(blind, kind=Kind(submit_answer=True), interactor=None)
    meta = exported(answers, tmp_path / "out")
    assert meta["type"] == ["scoring", "submit-answer"]
    assert not (tmp_path / "out" / "output_validator").exists()
    assert load(tmp_path / "out").kind.submit_answer


def test_a_testlib_interactor_is_refused_in_one_line(blind: Problem, tmp_path: Path) -> None:
    testlib = dataclasses.replace(blind, interactor=CheckerSpec(type="testlib", program=PACKAGE / "interactor.cpp"))
    with pytest.raises(UsageError) as refused:
        export(testlib, tmp_path / "out", print)
    message = str(refused.value)
    assert "\n" not in message and "testlib interactor has no Kattis equivalent" in message
    assert not (tmp_path / "out").exists(), "nothing is written before the refusal"


# The round trip verifies blind exported with the cases that catch every wrong submission and no more: the sample
# (exported with its transcript), every board of four and six cells (the small group: impossible boards, two
# columns, every first move) and the 2x4 boards 36 moves deep (beyond the eight puzzle's 31, for wa_depth_cap, and
# out of tle_iddfs' reach). The 3x3 cases left out cost a breadth-first search of 181,440 boards in every accepted
# submission and in the validator, a case each, in Java and Python too (verifying the whole export took 37.6 s idle);
# they take the same path through the export as the cases kept (the file tests above check every case's name and
# the points), and the whole data is verified natively with every submission in test_bundled_problems.py.
KEPT: dict[str, list[str] | None] = {"sample": None, "small": None, "deepest": ["deepest-2x4"]}


@pytest.mark.slow
@needs("javac")
def test_blind_export_verifies(tmp_path: Path) -> None:
    out = tmp_path / "blind"
    fewer = bundled_with_fewer_cases("blind", KEPT, tmp_path / "native")
    run = cli("export", str(fewer), "--format", "kattis", str(out))
    assert run.returncode == 0, run.stderr
    kept = sorted(p.stem for p in (out / "data").rglob("*.in"))
    assert kept == ["001-all-2x2", "001-deepest-2x4", "001-sample-1", "002-all-2x3", "003-all-3x2"], kept
    verified = cli("verify", str(out))
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-2000:]
    count = sum(1 for path in (PACKAGE / "submissions").rglob("*") if path.is_file())
    assert f"{count}/{count} submissions as expected" in verified.stdout
