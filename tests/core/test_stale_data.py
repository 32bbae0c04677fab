"""Test data that no longer matches its sources is noticed before anything is judged on it (issue #15).

A copy of the gensum fixture gets a hand-written sample case; editing the
sample, the generator or a case file by hand is then seen by judge and
validate, which say so (and produce the stale cases again) instead of going
on with the old data.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli

pytestmark = pytest.mark.slow


@pytest.fixture
def problem(gensum: Path) -> Path:
    """gensum with a hand-written sample case, generated once so the manifest records its sources."""
    (gensum / "samples").mkdir()
    (gensum / "samples" / "1.in").write_text("2\n3 4\n")
    spec = gensum / "problem.yaml"
    spec.write_text(
        spec.read_text().replace("    cases:\n", "    cases:\n      - name: sample\n        file: samples/1.in\n", 1)
    )
    assert cli("generate", str(gensum)).returncode == 0
    return gensum


def cases(problem: Path) -> Path:
    return problem.parent.parent / "cases" / problem.name


def test_edited_sample_is_noticed_and_produced_again(problem: Path) -> None:
    (problem / "samples" / "1.in").write_text("3\n1 2 3\n")
    run = cli("judge", str(problem), str(problem / "sum.py"))
    assert run.returncode == 0, run.stderr
    assert "1 case(s) of gensum no longer match their sources (samples/1.in changed)" in run.stderr
    assert (cases(problem) / "small" / "sample.in").read_text() == "3\n1 2 3\n"
    assert (cases(problem) / "small" / "sample.ans").read_text().strip() == "6"
    again = cli("validate", str(problem))
    assert again.returncode == 0 and "no longer match" not in again.stderr


def test_edited_generator_makes_generated_cases_stale(problem: Path) -> None:
    generator = problem / "gen.py"
    generator.write_text(generator.read_text().replace("randint(-1000, 1000)", "randint(0, 9)"))
    old = (cases(problem) / "small" / "three.in").read_text()
    run = cli("validate", str(problem))
    assert run.returncode == 0, run.stderr
    assert "3 case(s) of gensum no longer match their sources (gen.py changed)" in run.stderr
    assert (cases(problem) / "small" / "three.in").read_text() != old
    manifest = json.loads((cases(problem) / "manifest.json").read_text())
    assert set(manifest["sources"]) == {"sum.py", "gen.py", "samples/1.in"}
    assert cli("generate", str(problem), "--check").returncode == 0


def test_hand_edited_case_file_is_reported_not_overwritten(problem: Path) -> None:
    three = cases(problem) / "small" / "three.in"
    three.write_text("3\n1 2 99999\n")
    run = cli("validate", str(problem))
    assert run.returncode == 1 and "differ from manifest.json" in run.stderr and "three.in" in run.stderr
    assert three.read_text() == "3\n1 2 99999\n"
